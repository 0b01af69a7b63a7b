import Foundation
import Glibc

/// Every byte the traced processes wrote with a write call, read back from the trace and searched
/// for the canary and for model outputs: what was written and then overwritten in place,
/// truncated or removed before the scan is still seen.
///
/// strace dumps the bytes of each `write`, `pwrite64`, `writev`, `pwritev` and `pwritev2` whole
/// (`-e write=all`: lines ` | 00000  68 65 6c …  hel… |` after the call's own line, which carry
/// no pid). The bytes are searched per target, the file or device the descriptor was open on
/// (strace's `-yy` annotation), as one stream in the order they were written, whatever the
/// offsets: a leak cut across two writes is one leak. Writes to a pipe carry bytes between
/// processes of the traced tree, whose own writes are searched, and are not searched; nor are
/// writes to a socket (a network socket is judged by its calls, and `replay suite run
/// --endpoint` sends its prompts on its one judged connection), nor what `skipping` says
/// (/dev/null). Bytes moved without a write call (a shared mapping, `sendfile`, `splice`,
/// `copy_file_range`) are not in the trace.
///
/// The trace is read a buffer at a time and the searches hold at most `openLimit` streams at
/// once, so memory stays bounded whatever the run wrote; the lines that are calls, not dumps,
/// are kept for `StraceLog`.
struct WrittenBytes {
    static let writeCalls: Set<String> = ["write", "pwrite64", "writev", "pwritev", "pwritev2"]
    static let openLimit = 16

    /// What was found in the bytes written to one target.
    struct Hits: Sendable, Equatable {
        var canary = 0
        var outputs = 0
    }

    /// Targets (absolute paths, as the kernel names them) whose written bytes held a match.
    private(set) var found: [String: Hits] = [:]
    /// Bytes searched.
    private(set) var bytes = 0
    /// The trace without its dump lines.
    private(set) var calls = ""

    private var streams: [String: StreamSearch] = [:]
    private var used: [String] = []   // open targets, the most recently written last
    private var pending: [Int: String] = [:]   // a write's target, by thread, while it is unfinished
    private var current: String?

    /// Reads the trace at `tracePath`; `skipping` says which targets not to search.
    init(tracePath: String, scanner: LeakScanner, skipping: (String) -> Bool) {
        let descriptor = Glibc.open(tracePath, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var line: [UInt8] = []
        var callBytes: [UInt8] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            var start = 0
            for index in 0..<count where buffer[index] == 0x0a {
                line += buffer[start..<index]
                read(line, scanner: scanner, skipping: skipping, calls: &callBytes)
                line.removeAll(keepingCapacity: true)
                start = index + 1
            }
            line += buffer[start..<count]
        }
        if !line.isEmpty { read(line, scanner: scanner, skipping: skipping, calls: &callBytes) }
        for target in used { finishStream(target) }
        calls = String(decoding: callBytes, as: UTF8.self)
    }

    private mutating func read(_ line: [UInt8], scanner: LeakScanner, skipping: (String) -> Bool, calls: inout [UInt8]) {
        if line.starts(with: Array(" | ".utf8)) {
            guard let target = current else { return }
            feed(Self.dumped(line), to: target, scanner: scanner)
            return
        }
        calls += line
        calls.append(0x0a)
        current = nil
        let text = String(decoding: line, as: UTF8.self)
        let digits = text.prefix { $0.isNumber }
        guard let pid = Int(digits) else { return }
        let rest = text.dropFirst(digits.count).drop { $0 == " " }
        if rest.hasPrefix("<... "), let end = rest.range(of: " resumed>") {
            let name = rest[rest.index(rest.startIndex, offsetBy: 5)..<end.lowerBound]
            if Self.writeCalls.contains(String(name)) { current = pending.removeValue(forKey: pid) }
            return
        }
        guard let open = rest.firstIndex(of: "("), Self.writeCalls.contains(String(rest[..<open])) else { return }
        let first = rest[rest.index(after: open)...].prefix { $0 != "," && $0 != ")" }
        guard var path = StraceLog.annotation(String(first)) else { return }   // a pipe or a socket
        if path.hasSuffix(" (deleted)") { path = String(path.dropLast(" (deleted)".count)) }
        guard !skipping(path) else { return }
        if rest.hasSuffix(" <unfinished ...>") {
            pending[pid] = path
        } else {
            current = path
        }
    }

    /// The bytes of one dump line: ` | OFFSET  16 pairs, a space after the eighth  TEXT |`.
    static func dumped(_ line: [UInt8]) -> [UInt8] {
        var index = 3
        while index < line.count, line[index] != 0x20 { index += 1 }   // the offset
        index += 2
        let end = min(line.count, index + 50)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        while index + 1 < end {
            if let high = DecodedRuns.hexValue(line[index]), let low = DecodedRuns.hexValue(line[index + 1]) {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                index += 1
            }
        }
        return bytes
    }

    private mutating func feed(_ data: [UInt8], to target: String, scanner: LeakScanner) {
        bytes += data.count
        if streams[target] == nil {
            if used.count >= Self.openLimit { finishStream(used.removeFirst()) }
            streams[target] = StreamSearch(scanner: scanner, canaryOnly: false)
        } else if used.last != target {
            used.removeAll { $0 == target }
        }
        if used.last != target { used.append(target) }
        streams[target]!.feed(data)
    }

    /// Finishes the search of `target`'s stream, keeping what it found.
    private mutating func finishStream(_ target: String) {
        guard var search = streams.removeValue(forKey: target) else { return }
        search.finish()
        if !search.canary.isEmpty || !search.outputs.isEmpty {
            found[target, default: Hits()].canary += search.canary.count
            found[target, default: Hits()].outputs += search.outputs.count
        }
    }
}
