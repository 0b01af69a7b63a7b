import Foundation
import Jobs

/// The team's prompt set file (`--prompts FILE`, or `"prompts"` in `--config`): the words the
/// jobs ask with (`PromptSet`, schema `replay.prompts/1`, docs/prompts.md).
///
/// Read by the argument parser, before the run confines itself, so a file that cannot be read or
/// checked is a usage error (exit 2) before anything ran. `/dev/stdin` reads a set piped in
/// (`replay prompts show | replay --prompts /dev/stdin …`).
public enum PromptsFile {
    /// The largest prompt set file read: words for four jobs, not a corpus.
    static let maximumBytes = 1 << 20

    /// Reads and checks the file; the error names the file and the key path of what is wrong.
    public static func load(_ path: String) throws(ArgumentParser.UsageError) -> PromptSet {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ArgumentParser.UsageError("cannot read the prompts file \(path)")
        }
        defer { try? handle.close() }
        // Read to the end (a pipe has no size, and may give its bytes in pieces), stopping one
        // piece past the limit to tell a file that is too large.
        var data = Data()
        while data.count <= maximumBytes {
            let piece: Data?
            do {
                piece = try handle.read(upToCount: 1 << 16)
            } catch {
                throw ArgumentParser.UsageError("cannot read the prompts file \(path): \(RunCommand.systemReason(error))")
            }
            guard let piece, !piece.isEmpty else { break }
            data += piece
        }
        guard data.count <= maximumBytes else {
            throw ArgumentParser.UsageError("the prompts file \(path) is larger than \(maximumBytes / 1024) KiB: it should hold prompts, not a corpus")
        }
        do {
            return try PromptSet(parsing: Array(data), file: path)
        } catch {
            throw ArgumentParser.UsageError(error.description)
        }
    }
}
