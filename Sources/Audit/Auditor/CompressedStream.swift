import Confinement
import Foundation
import Glibc
import Spawn

/// A compressed file the leak scan reads decompressed, to its end, through the system's tool
/// (Debian's `zstd`, `gzip`, `xz`, `bzip2`, `unzip`: scripts/setup installs them).
///
/// The tool reads the file from a descriptor on its standard input and its output is handed on
/// in pieces as it comes (`ChildProcess.wait(streamingOutput:)`), so a stream of any length is
/// read with bounded memory: nothing stops at a size, and what lies past 64 MiB of zeros is read
/// like the first byte. A zip archive is read member by member (`unzip -p`), and its members'
/// names are read too (`unzip -Z1`).
struct CompressedStream: Sendable {
    enum Format: String, Sendable, CaseIterable {
        case zstd, gzip, xz, bzip2, zip
    }

    /// How a decompression ended.
    enum Outcome: Sendable, Equatable {
        /// The tool read the stream to its end.
        case read
        /// The tool is not installed.
        case toolMissing(String)
        /// The tool stopped early (a corrupt or truncated stream, or the time limit).
        case failed
        /// A zip inside another stream, which unzip cannot read from a pipe.
        case nestedZip
    }

    /// The longest one stream may take to decompress, in seconds.
    static let timeLimit: Double = 900

    /// The format whose magic number `leading` starts with.
    static func format(of leading: some Collection<UInt8>) -> Format? {
        let bytes = Array(leading.prefix(6))
        if bytes.starts(with: [0x28, 0xb5, 0x2f, 0xfd]) { return .zstd }
        if bytes.starts(with: [0x1f, 0x8b, 0x08]) { return .gzip }   // deflate, the one method gzip has
        if bytes.starts(with: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]) { return .xz }
        if bytes.count >= 4, bytes.starts(with: [0x42, 0x5a, 0x68]), (0x31...0x39).contains(bytes[3]) { return .bzip2 }   // "BZh1"…"BZh9"
        if bytes.starts(with: [0x50, 0x4b, 0x03, 0x04]) || bytes.starts(with: [0x50, 0x4b, 0x05, 0x06]) { return .zip }
        return nil
    }

    /// The tool's path, from the Debian locations only (never PATH: the audited program's
    /// environment must not choose the program that reads its output).
    static func tool(_ format: Format) -> String? {
        let name = format == .zip ? "unzip" : format.rawValue
        return ["/usr/bin/" + name, "/bin/" + name].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// How many streams deep the scan decompresses (a gzip inside a zip inside an xz …).
    static let depthLimit = 4

    /// Decompresses the file open at `descriptor` (read from its start) through each of
    /// `formats` in turn (the file's own first: a stream inside a stream is a pipeline of their
    /// tools), handing each piece of the last output to `consume`. Only the first may be a zip
    /// (unzip must seek; a zip inside a stream is `.nestedZip`).
    static func decompress(_ formats: [Format], descriptor: Int32, consume: (Data) -> Void) -> Outcome {
        guard !formats.isEmpty else { return .failed }
        if formats.dropFirst().contains(.zip) { return .nestedZip }
        var stages: [[String]] = []
        for format in formats {
            guard let tool = tool(format) else { return .toolMissing(format == .zip ? "unzip" : format.rawValue) }
            // unzip seeks, so it opens the descriptor again by its /proc name: it is a regular file.
            stages.append([tool] + (format == .zip ? ["-p", "-qq", "/proc/self/fd/0"] : ["-dc"]))
        }
        if stages.count == 1 { return run(stages[0][0], Array(stages[0].dropFirst()), descriptor: descriptor, consume: consume) }
        // A pipeline of fixed tool paths and options only: no byte of the run's reaches the shell.
        let pipeline = stages.map { $0.joined(separator: " ") }.joined(separator: " | ")
        return run("/bin/sh", ["-c", pipeline], descriptor: descriptor, consume: consume)
    }

    /// The names of a zip archive's members, one a line (`unzip -Z1`), as bytes.
    static func memberNames(zipAt descriptor: Int32, consume: (Data) -> Void) -> Outcome {
        guard let tool = tool(.zip) else { return .toolMissing("unzip") }
        return run(tool, ["-Z1", "/proc/self/fd/0"], descriptor: descriptor, consume: consume)
    }

    static func run(_ tool: String, _ arguments: [String], descriptor: Int32, consume: (Data) -> Void) -> Outcome {
        guard lseek(descriptor, 0, SEEK_SET) == 0 else { return .failed }
        do {
            let child = try ChildProcess(tool, arguments, environment: [:], input: .descriptor(descriptor), output: .capture, errors: .null)
            let ended = child.wait(timeout: timeLimit, streamingOutput: { piece in
                consume(piece)
                return true
            })
            return ended.succeeded ? .read : .failed
        } catch {
            return .failed
        }
    }
}
