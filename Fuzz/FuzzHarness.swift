// One fuzz input, run through the line splitter, the JSON parser and the record decoder, and then
// through the whole reader, with every invariant the fuzzer should hold the code to.
//
// The same file is compiled twice: into the libFuzzer binary by scripts/fuzz, as part of the Export
// module itself (with -D EXPORT_FUZZER, so internal types are in scope), and into ExportTests
// through the symlink Tests/ExportTests/FuzzHarness.swift, where FuzzRegressionTests replays the
// inputs in Tests/ExportTests/FuzzCorpus. A violation is a short structural sentence: numbers and
// names from this file, never bytes from the input.
#if !EXPORT_FUZZER
@testable import Export
#endif
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#endif

/// How an input is read: its first `headerSize` bytes steer the reading, the rest is the JSONL payload.
///
/// Header (missing bytes count as 0):
/// - byte 0, bits 0–1: chunking. 0: the whole payload in one chunk; 1: chunks of 1–16 bytes
///   (`byte & 15 + 1` of bytes 1, 2, 3, cycled); 2: chunks of 1–1021 bytes (`byte * 4 + 1`, likewise);
///   3: one byte per chunk.
/// - byte 0, bit 2: the source throws after `byte 3 & 7` chunks (a read failure mid-file).
/// - byte 0, bit 3: a small maximum line length, `(byte 0 >> 4) * 32 + (byte 1 & 31) + 1`
///   (1–512 bytes), so over-long lines are reported; otherwise the reader's 16 MiB.
struct FuzzPlan: Equatable {
    static let headerSize = 4

    /// Chunk sizes, cycled; empty means the whole payload in one chunk.
    var chunkSizes: [Int]
    /// The number of chunks handed out before the source throws; `nil` for never.
    var failAfterChunks: Int?
    var maximumLineLength: Int

    init(header: [UInt8]) {
        var bytes = Array(header.prefix(FuzzPlan.headerSize))
        while bytes.count < FuzzPlan.headerSize { bytes.append(0) }
        let sizes = bytes[1...3]
        switch bytes[0] & 0x03 {
        case 0: chunkSizes = []
        case 1: chunkSizes = sizes.map { Int($0 & 0x0F) + 1 }
        case 2: chunkSizes = sizes.map { Int($0) * 4 + 1 }
        default: chunkSizes = [1]
        }
        failAfterChunks = bytes[0] & 0x04 != 0 ? Int(bytes[3] & 0x07) : nil
        maximumLineLength = bytes[0] & 0x08 != 0
            ? Int(bytes[0] >> 4) * 32 + Int(bytes[1] & 0x1F) + 1
            : LineSplitter.maximumLineLength
    }

    /// The size of chunk `index` when `remaining` payload bytes are left (at least one is).
    func chunkSize(_ index: Int, remaining: Int) -> Int {
        guard !chunkSizes.isEmpty else { return remaining }
        return min(chunkSizes[index % chunkSizes.count], remaining)
    }

    /// How many payload bytes are handed out, and whether the source then throws.
    func delivery(of count: Int) -> (bytes: Int, fails: Bool) {
        var offset = 0
        var index = 0
        while true {
            if index == failAfterChunks { return (offset, true) }
            if offset >= count { return (offset, false) }
            offset += chunkSize(index, remaining: count - offset)
            index += 1
        }
    }
}

/// The payload in the plan's chunks, each one copied into its own heap block of exactly its size
/// and freed when the next is asked for, so AddressSanitizer catches the splitter reading past a
/// chunk or keeping one beyond the next call.
final class FuzzChunkSource: ChunkSource {
    private let payload: UnsafeRawBufferPointer
    private let plan: FuzzPlan
    private var offset = 0
    private var index = 0
    private var current: UnsafeMutableRawBufferPointer?
    private(set) var producedBytes = 0
    var storedBytes: Int { producedBytes }
    var name: String { "<fuzz>" }
    var isCompressed: Bool { false }

    init(payload: UnsafeRawBufferPointer, plan: FuzzPlan) {
        self.payload = payload
        self.plan = plan
    }

    deinit { current?.deallocate() }

    func nextChunk() throws(ExportError) -> UnsafeRawBufferPointer? {
        current?.deallocate()
        current = nil
        if index == plan.failAfterChunks {
            throw .readFailed(file: "<fuzz>", offset: offset, reason: "injected by the fuzz plan")
        }
        guard offset < payload.count else { return nil }
        let size = plan.chunkSize(index, remaining: payload.count - offset)
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 1)
        chunk.copyMemory(from: UnsafeRawBufferPointer(rebasing: payload[offset..<offset + size]))
        current = chunk
        offset += size
        index += 1
        producedBytes += size
        return UnsafeRawBufferPointer(chunk)
    }
}

/// One step of splitting, in a form that can be compared with the reference.
enum SplitStep: Equatable {
    case line(number: Int, bytes: [UInt8])
    case tooLong(number: Int)
    case failed
    case end
}

/// What one input did: counts from the splitter pass and the reader pass, and broken invariants.
struct FuzzReport {
    /// Lines the splitter handed out (pass 1, under the plan).
    var lines = 0
    /// Of those: valid records, lines of unknown type, lines that are not JSON, JSON that is not a record.
    var records = 0, unknownTypes = 0, invalidJSON = 0, notRecords = 0
    /// Lines the splitter reported as longer than the plan's maximum.
    var tooLong = 0
    /// The reader's counts over the payload as a file (pass 2), and whether the file failed.
    var reader = CorpusStats()
    var readerFileFailed = false
    /// Broken invariants; empty when all held.
    var violations: [String] = []
}

/// Runs inputs; holds the in-memory file the reader pass reads and the token tape it reuses.
final class FuzzHarness {
    private let descriptor: CInt
    private var tokens: [JSONToken] = []

    init() {
        descriptor = FuzzHarness.makeMemoryFile()
    }

    deinit { close(descriptor) }

    /// Runs one input (header and payload) through both passes.
    func run(_ input: UnsafeRawBufferPointer) -> FuzzReport {
        let plan = FuzzPlan(header: Array(input.prefix(FuzzPlan.headerSize)))
        let payload = UnsafeRawBufferPointer(rebasing: input.dropFirst(FuzzPlan.headerSize))
        var report = FuzzReport()
        splitAndDecode(payload, plan: plan, into: &report)
        readAsFile(payload, into: &report)
        return report
    }

    // MARK: - Pass 1: splitter, parser and decoder, under the plan

    private func splitAndDecode(_ payload: UnsafeRawBufferPointer, plan: FuzzPlan, into report: inout FuzzReport) {
        let expected = FuzzHarness.referenceSteps(payload, plan: plan)
        let splitter = LineSplitter(source: FuzzChunkSource(payload: payload, plan: plan),
                                    maximumLineLength: plan.maximumLineLength)
        var steps: [SplitStep] = []
        // One step more than the reference allows: a splitter that never ends shows as a mismatch.
        while steps.count <= expected.count {
            let step = splitter.nextLine { line, number in
                // Copying touches every byte handed out, so a bad range is caught here.
                let bytes = Array(line)
                decodeLine(bytes, into: &report)
                return SplitStep.line(number: number, bytes: bytes)
            }
            switch step {
            case .line(let line):
                report.lines += 1
                steps.append(line)
            case .tooLong(let number):
                report.tooLong += 1
                steps.append(.tooLong(number: number))
            case .failed:
                steps.append(.failed)
            case .end:
                steps.append(.end)
            }
            if steps.last == .end { break }
        }
        if steps != expected {
            let at = zip(steps, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(steps.count, expected.count)
            report.violations.append("splitter: \(steps.count) steps where the reference has \(expected.count); "
                + "first difference at step \(at): \(FuzzHarness.shape(steps, at)) instead of \(FuzzHarness.shape(expected, at))")
        }
    }

    /// The splitter's contract, written the simple way over the whole payload: `\n` ends a line,
    /// one trailing `\r` is dropped, empty lines are numbered but skipped, a last line without `\n`
    /// counts (unless the source failed: then it is dropped; or unless it is not valid JSON and
    /// not blank: then the input ended inside a record, a failure), and a line longer than the
    /// maximum is reported by number.
    static func referenceSteps(_ payload: UnsafeRawBufferPointer, plan: FuzzPlan) -> [SplitStep] {
        let (delivered, fails) = plan.delivery(of: payload.count)
        var steps: [SplitStep] = []
        var number = 0
        func emit(_ start: Int, _ end: Int) {
            number += 1
            var end = end
            if end > start && payload[end - 1] == 0x0D { end -= 1 }
            if end == start { return }
            if end - start > plan.maximumLineLength {
                steps.append(.tooLong(number: number))
            } else {
                steps.append(.line(number: number, bytes: Array(payload[start..<end])))
            }
        }
        var start = 0
        for index in 0..<delivered where payload[index] == 0x0A {
            emit(start, index)
            start = index + 1
        }
        var endsInsideRecord = false
        if !fails && start < delivered {
            var end = delivered
            if payload[end - 1] == 0x0D { end -= 1 }
            let last = UnsafeRawBufferPointer(rebasing: payload[start..<end])
            let blank = last.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
            if !blank && last.count <= plan.maximumLineLength {
                var tokens: [JSONToken] = []
                do throws(JSONSyntaxError) {
                    try JSONParser.parse(last, into: &tokens)
                } catch {
                    endsInsideRecord = true
                }
            }
            if !endsInsideRecord { emit(start, delivered) }
        }
        if fails || endsInsideRecord { steps.append(.failed) }
        steps.append(.end)
        return steps
    }

    /// A step's kind and numbers, never its bytes.
    private static func shape(_ steps: [SplitStep], _ index: Int) -> String {
        guard index < steps.count else { return "nothing" }
        switch steps[index] {
        case .line(let number, let bytes): return "line \(number) of \(bytes.count) bytes"
        case .tooLong(let number): return "too long line \(number)"
        case .failed: return "failed"
        case .end: return "end"
        }
    }

    /// Parses and decodes one line from a heap block of exactly its size (so a parser reading past
    /// the line is caught), and checks the tape and every value on it.
    private func decodeLine(_ line: [UInt8], into report: inout FuzzReport) {
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: line.count, alignment: 1)
        defer { block.deallocate() }
        line.withUnsafeBytes { block.copyMemory(from: $0) }
        let bytes = UnsafeRawBufferPointer(block)
        do throws(JSONSyntaxError) {
            try JSONParser.parse(bytes, into: &tokens)
        } catch {
            report.invalidJSON += 1
            if !(1...bytes.count + 1).contains(error.column) {
                report.violations.append("parser: error column \(error.column) outside a line of \(bytes.count) bytes")
            }
            FuzzHarness.checkReason(error.description, "parser error", into: &report)
            return
        }
        tokens.withUnsafeBufferPointer { tape in
            let document = JSONDocument(bytes: bytes, tokens: tape)
            guard FuzzHarness.checkTape(document, into: &report) else { return }
            FuzzHarness.checkValues(document, into: &report)
            let decoder = RecordDecoder(document: document)
            let isThread = decoder.isThreadLine
            let full: Result<RecordDecoder.Decoded, LineProblem>
            do throws(LineProblem) {
                full = .success(try decoder.decode())
            } catch {
                full = .failure(error)
            }
            switch full {
            case .success(.header):
                report.records += 1
            case .success(.thread):
                report.records += 1
                if !isThread { report.violations.append("decoder: a thread record from a line isThreadLine denies") }
            case .success(.message):
                report.records += 1
                if isThread { report.violations.append("decoder: a message record from a line isThreadLine calls a thread") }
            case .success(.outline):
                report.violations.append("decoder: an outline from a decoder asked for words")
            case .success(.unknownType(let name)):
                report.unknownTypes += 1
                FuzzHarness.checkCountedName(name, into: &report)
            case .failure(let error):
                report.notRecords += 1
                FuzzHarness.checkReason(error.reason, "line problem", into: &report)
            }
            FuzzHarness.checkOutline(document, against: full, into: &report)
        }
    }

    /// The outline decoder must agree with the full one on every line: the same bad lines with
    /// the same reasons, the same kinds of record, and for a message the outline of the full
    /// record (chip eligibility from bytes, the text kept only when it holds an `@`) and its
    /// unknown node kinds.
    private static func checkOutline(_ document: JSONDocument, against full: Result<RecordDecoder.Decoded, LineProblem>,
                                     into report: inout FuzzReport) {
        var decoder = RecordDecoder(document: document)
        decoder.words = false
        let outline: Result<RecordDecoder.Decoded, LineProblem>
        do throws(LineProblem) {
            outline = .success(try decoder.decode())
        } catch {
            outline = .failure(error)
        }
        switch (full, outline) {
        case (.failure(let a), .failure(let b)):
            if a.reason != b.reason { report.violations.append("outline: another reason for a bad line") }
        case (.success(.header), .success(.header)), (.success(.thread), .success(.thread)):
            break
        case (.success(.unknownType(let a)), .success(.unknownType(let b))):
            if a != b { report.violations.append("outline: another unknown type name") }
        case (.success(.message(let record)), .success(.outline(let message))):
            // Equality covers the unknown node kinds, which the outline now carries.
            if MessageOutline(record) != message {
                report.violations.append("outline: differs from the outline of the full record")
            }
        default:
            report.violations.append("outline: another kind of result than the full decoder's")
        }
    }

    /// The tape's shape: token 0 is the root and spans the tape, every token lies inside the line,
    /// every container's children end exactly where its `next` says, and keys are strings.
    private static func checkTape(_ document: JSONDocument, into report: inout FuzzReport) -> Bool {
        let tape = document.tokens
        guard !tape.isEmpty, Int(tape[0].next) == tape.count else {
            report.violations.append("parser: the root does not span the tape of \(tape.count) tokens")
            return false
        }
        for index in tape.indices {
            let token = tape[index]
            guard token.start >= 0, token.length >= 0, Int(token.start) + Int(token.length) <= document.bytes.count else {
                report.violations.append("parser: token \(index) lies outside the line")
                return false
            }
            guard Int(token.next) > index, Int(token.next) <= tape.count else {
                report.violations.append("parser: token \(index) has next \(token.next) on a tape of \(tape.count)")
                return false
            }
            switch token.kind {
            case .array, .object:
                let isObject = token.kind == .object
                var child = index + 1
                for position in 0..<Int(token.count) * (isObject ? 2 : 1) {
                    guard child < Int(token.next) else {
                        report.violations.append("parser: container \(index) has fewer children than its count")
                        return false
                    }
                    if isObject && position % 2 == 0 && tape[child].kind != .string {
                        report.violations.append("parser: object \(index) has a key that is not a string")
                        return false
                    }
                    child = Int(tape[child].next)
                }
                guard child == Int(token.next) else {
                    report.violations.append("parser: container \(index) has children past its count")
                    return false
                }
            default:
                guard Int(token.next) == index + 1, token.count == 0 else {
                    report.violations.append("parser: scalar token \(index) has next \(token.next) or count \(token.count)")
                    return false
                }
            }
        }
        return true
    }

    /// Decodes every string and number on the tape and checks it against the line: a string
    /// without escapes must already be valid UTF-8 (decoding must not change its length), a
    /// replacement character must come from the line (else invalid UTF-8 or a lone surrogate got
    /// through), `stringEquals` must agree with the decoded string, and numbers must read as the
    /// standard library reads their text.
    private static func checkValues(_ document: JSONDocument, into report: inout FuzzReport) {
        for index in document.tokens.indices {
            let token = document.tokens[index]
            let raw = UnsafeRawBufferPointer(rebasing: document.bytes[Int(token.start)..<Int(token.start + token.length)])
            switch token.kind {
            case .string:
                let value = document.string(index)
                if !token.flag && value.utf8.count != raw.count {
                    report.violations.append("parser: string token \(index) accepted bytes that are not valid UTF-8")
                }
                if value.unicodeScalars.contains("\u{FFFD}") && !holdsReplacementCharacter(raw) {
                    report.violations.append("parser: string token \(index) decodes to a replacement character the line does not hold")
                }
                if document.stringEquals(index, "thread") != (value == "thread") {
                    report.violations.append("document: stringEquals disagrees with string() on token \(index)")
                }
            case .number:
                let text = String(decoding: raw, as: UTF8.self)
                if token.flag {
                    if document.integer(index) != Int(text) {
                        report.violations.append("document: integer() of token \(index) differs from Int(text)")
                    }
                } else {
                    let value = document.double(index)
                    guard let reference = Double(text), value == reference || (value.isNaN && reference.isNaN) else {
                        report.violations.append("document: double() of token \(index) differs from Double(text)")
                        continue
                    }
                }
            default:
                break
            }
        }
    }

    /// Whether raw string bytes hold U+FFFD, literally (EF BF BD) or as a `\uFFFD` escape.
    private static func holdsReplacementCharacter(_ raw: UnsafeRawBufferPointer) -> Bool {
        let literal: [UInt8] = [0xEF, 0xBF, 0xBD]
        let escape = Array("\\ufffd".utf8)
        for start in raw.indices {
            if raw.count - start >= 3 && raw[start..<start + 3].elementsEqual(literal) { return true }
            if raw.count - start >= 6
                && raw[start..<start + 6].map({ $0 | ($0 >= 0x41 && $0 <= 0x5A ? 0x20 : 0) }).elementsEqual(escape) {
                // A backslash that is itself escaped is not an escape; count the ones before it.
                var slashes = 0
                var before = start - 1
                while before >= 0 && raw[before] == UInt8(ascii: "\\") { slashes += 1; before -= 1 }
                if slashes % 2 == 0 { return true }
            }
        }
        return false
    }

    /// Reasons are printed to the terminal: no control characters, and short (they quote no words,
    /// only field paths, counted names and ids cut to 64 characters).
    static func checkReason(_ reason: String, _ what: String, into report: inout FuzzReport) {
        if reason.utf8.count > 1024 {
            report.violations.append("\(what): a reason of \(reason.utf8.count) bytes")
        }
        if reason.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            report.violations.append("\(what): a reason with a control character")
        }
    }

    /// A counted name (unknown line type or node kind) is a plain token of 1–32 bytes, or "(other)".
    static func checkCountedName(_ name: String, into report: inout FuzzReport) {
        if name == CountedName.other { return }
        let bytes = Array(name.utf8)
        let plain = (1...32).contains(bytes.count) && bytes.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
        }
        if !plain { report.violations.append("counted name of \(bytes.count) bytes is not a plain token") }
    }

    // MARK: - Pass 2: the whole reader over the payload as a file

    private func readAsFile(_ payload: UnsafeRawBufferPointer, into report: inout FuzzReport) {
        guard ftruncate(descriptor, 0) == 0 else {
            report.violations.append("harness: cannot truncate the in-memory file")
            return
        }
        var written = 0
        while written < payload.count {
            let count = pwrite(descriptor, payload.baseAddress! + written, payload.count - written, off_t(written))
            guard count > 0 else {
                report.violations.append("harness: cannot write the in-memory file")
                return
            }
            written += count
        }
        let reader: CorpusReader
        do {
            reader = try CorpusReader(paths: ["/proc/self/fd/\(descriptor)"])
        } catch {
            report.violations.append("harness: the reader cannot open the in-memory file")
            return
        }
        var recordEvents = 0, badLineEvents = 0
        while let event = reader.next() {
            switch event {
            case .record: recordEvents += 1
            case .badLine(let bad):
                badLineEvents += 1
                FuzzHarness.checkReason(bad.reason, "bad line", into: &report)
            case .fileFailed:
                report.readerFileFailed = true
            }
        }
        let stats = reader.stats
        report.reader = stats
        if recordEvents != stats.records || badLineEvents != stats.badLines {
            report.violations.append("reader: \(recordEvents) record and \(badLineEvents) bad-line events, stats say \(stats.records) and \(stats.badLines)")
        }
        for name in stats.unknownTypes.keys { FuzzHarness.checkCountedName(name, into: &report) }
        for name in stats.unknownNodes.keys { FuzzHarness.checkCountedName(name, into: &report) }
        guard !report.readerFileFailed else { return }
        // Every non-empty line is counted once: a record, a bad line or an unknown type.
        let unknown = stats.unknownTypes.values.reduce(0, +)
        if stats.lines != stats.records + stats.badLines + unknown {
            report.violations.append("reader: \(stats.lines) lines but \(stats.records) records, \(stats.badLines) bad and \(unknown) unknown")
        }
        if StoredFormat.detect(Array(payload.prefix(4))) == .plain {
            let expected = FuzzHarness.referenceSteps(payload, plan: FuzzPlan(header: []))
                .filter { if case .line = $0 { return true }; if case .tooLong = $0 { return true }; return false }.count
            if stats.lines != expected {
                report.violations.append("reader: \(stats.lines) lines counted where the file has \(expected) non-empty lines")
            }
            if stats.decompressedBytes != payload.count {
                report.violations.append("reader: \(stats.decompressedBytes) bytes read of \(payload.count)")
            }
        }
    }

    // MARK: - The in-memory file

    private typealias MemfdCreate = @convention(c) (UnsafePointer<CChar>, CUnsignedInt) -> CInt

    /// An anonymous in-memory file (memfd_create, looked up at run time since Glibc's module map
    /// does not declare it), or failing that an unlinked temporary file; the reader opens it by
    /// its /proc/self/fd path, so nothing is left on disk.
    private static func makeMemoryFile() -> CInt {
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "memfd_create") {
            let create = unsafeBitCast(symbol, to: MemfdCreate.self)
            let descriptor = create("replay-fuzz", 1)  // MFD_CLOEXEC
            if descriptor >= 0 { return descriptor }
        }
        var template = Array(((getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp") + "/replay-fuzz-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        precondition(descriptor >= 0, "the fuzz harness cannot make a temporary file")
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return descriptor
    }
}
