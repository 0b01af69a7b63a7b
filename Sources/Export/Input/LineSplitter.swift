#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits a chunk source into lines of bytes: `\n` ends a line, a trailing `\r` is dropped.
///
/// Lines are numbered from 1 per file, empty lines are skipped but still numbered, and a last line
/// without `\n` still counts when it is valid JSON (or blank); one that is not is where the input
/// ended inside a record, a failure (`ExportError.inputEndsInsideRecord`) rather than a line. A
/// line lying wholly in one chunk is handed out in place (no copy); only a line crossing chunks is
/// gathered, and one longer than `maximumLineLength` is reported, not gathered, so a file without
/// line ends cannot exhaust memory.
final class LineSplitter {
    /// What one step produced.
    enum Step<Result> {
        /// A non-empty line, already handed to the body, which returned this.
        case line(Result)
        /// Line `number` is longer than `maximumLineLength`; its bytes were dropped.
        case tooLong(number: Int)
        /// The source failed, or the input ended inside a record; lines before the failure were
        /// all handed out.
        case failed(ExportError)
        /// No more lines.
        case end
    }

    /// The longest line handed out: 16 MiB.
    static let maximumLineLength = 16 << 20

    let source: ChunkSource
    /// The number of the last line seen (empty lines included).
    // Unchecked exclusivity: read and written for every line, never while another access to
    // the same property is under way (`body` does not call back into the splitter).
    @exclusivity(unchecked) private(set) var lineNumber = 0
    private let maximumLineLength: Int
    @exclusivity(unchecked) private var chunk = UnsafeRawBufferPointer(start: nil, count: 0)
    @exclusivity(unchecked) private var position = 0
    @exclusivity(unchecked) private var pending: [UInt8] = []
    @exclusivity(unchecked) private var pendingTooLong = false
    @exclusivity(unchecked) private var sourceEnded = false

    init(source: ChunkSource, maximumLineLength: Int = LineSplitter.maximumLineLength) {
        self.source = source
        self.maximumLineLength = maximumLineLength
    }

    /// Finds the next non-empty line and runs `body` with its bytes (without `\n` or a trailing `\r`)
    /// and its line number; the bytes are valid only during `body`.
    func nextLine<Result>(_ body: (UnsafeRawBufferPointer, Int) -> Result) -> Step<Result> {
        while true {
            if position < chunk.count {
                let start = chunk.baseAddress! + position
                let remaining = chunk.count - position
                if let newline = memchr(start, 0x0A, remaining) {
                    let length = UnsafeRawPointer(newline) - start
                    position += length + 1
                    lineNumber += 1
                    if pending.isEmpty && !pendingTooLong {
                        let line = LineSplitter.trimmed(UnsafeRawBufferPointer(start: start, count: length))
                        if line.isEmpty { continue }
                        if line.count > maximumLineLength { return .tooLong(number: lineNumber) }
                        return .line(body(line, lineNumber))
                    }
                    if pendingTooLong || pending.count + length > maximumLineLength + 1 {
                        resetPending()
                        return .tooLong(number: lineNumber)
                    }
                    pending.append(contentsOf: UnsafeRawBufferPointer(start: start, count: length))
                    if let step = finishPending(body) { return step }
                    continue
                }
                position = chunk.count
                if !pendingTooLong {
                    if pending.count + remaining > maximumLineLength + 1 {
                        resetPending()
                        pendingTooLong = true
                    } else {
                        pending.append(contentsOf: UnsafeRawBufferPointer(start: start, count: remaining))
                    }
                }
                continue
            }
            if sourceEnded {
                if pendingTooLong {
                    resetPending()
                    lineNumber += 1
                    return .tooLong(number: lineNumber)
                }
                if !pending.isEmpty {
                    lineNumber += 1
                    if let cut = endsInsideRecord() {
                        resetPending()
                        return .failed(cut)
                    }
                    if let step = finishPending(body) { return step }
                    continue
                }
                return .end
            }
            do {
                if let next = try source.nextChunk() {
                    chunk = next
                    position = 0
                } else {
                    sourceEnded = true
                }
            } catch {
                // A partial last line before a failure is not a line: drop it.
                sourceEnded = true
                resetPending()
                chunk = UnsafeRawBufferPointer(start: nil, count: 0)
                position = 0
                return .failed(error)
            }
        }
    }

    /// The next non-empty line and its number when it lies wholly in the current chunk and
    /// nothing is gathered or pending, handed out in place without a closure; the bytes are
    /// valid until the next call. `nil` when `nextLine` must take the next step instead (the
    /// chunk's end, a line crossing chunks or too long, the source's end or failure): the lines
    /// and numbers handed out, taken either way, are the same as `nextLine`'s alone.
    func nextLineInChunk() -> (UnsafeRawBufferPointer, Int)? {
        guard pending.isEmpty && !pendingTooLong else { return nil }
        while position < chunk.count {
            let start = chunk.baseAddress! + position
            let remaining = chunk.count - position
            guard let newline = memchr(start, 0x0A, remaining) else { return nil }
            let length = UnsafeRawPointer(newline) - start
            let line = LineSplitter.trimmed(UnsafeRawBufferPointer(start: start, count: length))
            // Left for `nextLine` to report, from the same place.
            if line.count > maximumLineLength { return nil }
            position += length + 1
            lineNumber += 1
            if line.isEmpty { continue }
            return (line, lineNumber)
        }
        return nil
    }

    /// The failure to report instead of the gathered last line, which has no `\n`, when the
    /// input ended inside it: it holds more than JSON whitespace, fits the maximum length (a
    /// longer one is reported as too long, as anywhere) and is not valid JSON. A whole record
    /// whose line end is missing is still a line.
    private func endsInsideRecord() -> ExportError? {
        let maximum = maximumLineLength
        let cut = pending.withUnsafeBytes { bytes -> Bool in
            let line = LineSplitter.trimmed(bytes)
            guard line.count <= maximum, line.contains(where: { !LineSplitter.isJSONWhitespace($0) }) else { return false }
            do throws(JSONSyntaxError) {
                try JSONParser.parse(line, into: TokenTape())
            } catch {
                return true
            }
            return false
        }
        guard cut else { return nil }
        return .inputEndsInsideRecord(file: source.name, line: lineNumber, offset: source.producedBytes,
                                      compressed: source.isCompressed)
    }

    /// Space, tab, `\n` and `\r`: what JSON allows around a value.
    private static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Hands the gathered line to `body` and clears it; `nil` when the line was empty.
    private func finishPending<Result>(_ body: (UnsafeRawBufferPointer, Int) -> Result) -> Step<Result>? {
        let number = lineNumber
        let maximum = maximumLineLength
        let step: Step<Result>? = pending.withUnsafeBytes { bytes in
            let line = LineSplitter.trimmed(bytes)
            if line.isEmpty { return nil }
            if line.count > maximum { return .tooLong(number: number) }
            return .line(body(line, number))
        }
        resetPending()
        return step
    }

    /// Empties the gathered line, giving back a large buffer so one long line does not pin memory.
    private func resetPending() {
        pendingTooLong = false
        if pending.capacity > 1 << 20 {
            pending = []
        } else {
            pending.removeAll(keepingCapacity: true)
        }
    }

    private static func trimmed(_ line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        if let last = line.last, last == 0x0D {
            return UnsafeRawBufferPointer(rebasing: line.dropLast())
        }
        return line
    }
}
