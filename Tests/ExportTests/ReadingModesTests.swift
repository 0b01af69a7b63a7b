import Foundation
import Testing
@testable import Export
import Privacy
import TestSupport

/// One event as every way of reading can describe it, plus the reader's counts right after it.
///
/// Full reads also keep the words (compared, never printed); outlines keep none, so a full
/// trace is compared with an outline trace after `withoutWords()`.
struct TracedEvent: Equatable {
    enum Content: Equatable {
        case header(version: Int)
        case thread(id: String, members: [String])
        case message(MessageOutline, text: SealedText?, screenWords: SealedText?)
        case badLine(BadLine.Description)
        case failed(ExportError)
    }
    var content: Content
    var location: Export.SourceLocation?
    var stats: CorpusStats

    func withoutScreenWords() -> TracedEvent {
        guard case .message(let outline, let text, _) = content else { return self }
        var copy = self
        copy.content = .message(outline, text: text, screenWords: nil)
        return copy
    }

    func withoutWords() -> TracedEvent {
        guard case .message(let outline, _, _) = content else { return self }
        var copy = self
        copy.content = .message(outline, text: nil, screenWords: nil)
        return copy
    }
}

extension BadLine {
    /// A bad line's location and reason, comparable.
    struct Description: Equatable {
        let location: Export.SourceLocation
        let reason: String
    }
    var comparable: Description { Description(location: location, reason: reason) }
}

/// One outline event as `trace` records it.
func traced(_ event: OutlineEvent, stats: CorpusStats) -> TracedEvent {
    switch event {
    case .record(.header(let header), let location):
        return TracedEvent(content: .header(version: header.version), location: location, stats: stats)
    case .record(.thread(let thread), let location):
        return TracedEvent(content: .thread(id: thread.id, members: thread.group?.members.map(\.name) ?? []),
                           location: location, stats: stats)
    case .record(.message(let message), let location):
        return TracedEvent(content: .message(message, text: nil, screenWords: nil), location: location, stats: stats)
    case .badLine(let bad):
        return TracedEvent(content: .badLine(bad.comparable), location: bad.location, stats: stats)
    case .fileFailed(let error):
        return TracedEvent(content: .failed(error), location: nil, stats: stats)
    }
}

/// Reads `paths` with `forEachOutline`, recording the stats seen from inside the callback.
func traceByCallback(_ paths: [String], readAhead: Bool) throws -> [TracedEvent] {
    let reader = try CorpusReader(paths: paths, readAhead: readAhead)
    var events: [TracedEvent] = []
    reader.forEachOutline { event in events.append(traced(event, stats: reader.stats)) }
    return events
}

/// Reads `paths` to the end in one of the four ways and records every event.
/// Full reads build screens to `screens`: the words only where they were kept (`.facts` keeps none).
func trace(_ paths: [String], outline: Bool, readAhead: Bool, screens: ScreenDetail = .nodes) throws -> [TracedEvent] {
    let reader = try CorpusReader(paths: paths, readAhead: readAhead, screens: screens)
    var events: [TracedEvent] = []
    if outline {
        while let event = reader.nextOutline() { events.append(traced(event, stats: reader.stats)) }
    } else {
        while let event = reader.next() {
            switch event {
            case .record(.message(let message), let location):
                // A message with its words, which only a full read has.
                #expect(message.screen.map { $0.hasNodes == (screens == .nodes) && $0.hasWords == (screens != .facts) } ?? true)
                let screenWords = message.screen.flatMap { $0.hasWords ? $0.words : nil }
                events.append(TracedEvent(content: .message(MessageOutline(message), text: message.text, screenWords: screenWords),
                                          location: location, stats: reader.stats))
            case .record(let record, let location):
                events.append(traced(.record(RecordOutline(record), location), stats: reader.stats))
            case .badLine(let bad):
                events.append(traced(.badLine(bad), stats: reader.stats))
            case .fileFailed(let error):
                events.append(traced(.fileFailed(error), stats: reader.stats))
            }
        }
    }
    return events
}

/// The ways of reading (full or outline, on this thread or read ahead, pulled or by callback) must
/// agree on every event, its location, its reason and the counts after it; full reads must
/// deliver the same words.
func expectSameReadingEverywhere(_ paths: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [TracedEvent] {
    let full = try trace(paths, outline: false, readAhead: false)
    let fullAhead = try trace(paths, outline: false, readAhead: true)
    let outline = try trace(paths, outline: true, readAhead: false)
    let outlineAhead = try trace(paths, outline: true, readAhead: true)
    #expect(fullAhead == full, "full read, read ahead", sourceLocation: sourceLocation)
    // Screens kept as their words, or their facts alone: the same events, reasons and counts.
    #expect(try trace(paths, outline: false, readAhead: false, screens: .words) == full, "full read, screens' words", sourceLocation: sourceLocation)
    #expect(try trace(paths, outline: false, readAhead: true, screens: .words) == full, "full read ahead, screens' words", sourceLocation: sourceLocation)
    #expect(try trace(paths, outline: false, readAhead: true, screens: .facts) == full.map { $0.withoutScreenWords() },
            "full read ahead, screens' facts", sourceLocation: sourceLocation)
    let stripped = full.map { $0.withoutWords() }
    #expect(outline == stripped, "outline read", sourceLocation: sourceLocation)
    #expect(outlineAhead == stripped, "outline read, read ahead", sourceLocation: sourceLocation)
    #expect(try traceByCallback(paths, readAhead: true) == stripped, "forEachOutline, read ahead", sourceLocation: sourceLocation)
    if let index = zip(outline, stripped).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
        // Which event differs, never what it holds.
        Issue.record("the outline read differs first at event \(index) of \(full.count)", sourceLocation: sourceLocation)
    }
    return full
}

@Suite(.tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct ReadingModesTests {
    @Test func sampleCorpusReadsTheSameEveryWay() throws {
        let events = try expectSameReadingEverywhere([BuiltProducts.packageRoot + "/corpora/sample.jsonl.zst"])
        #expect(events.count > 1000)
        let eligible = events.filter { if case .message(let m, _, _) = $0.content { m.isChipEligible } else { false } }
        #expect(eligible.count > 10)
        let mentions = events.filter { if case .message(let m, _, _) = $0.content { m.mentionText != nil } else { false } }
        #expect(mentions.count > 0)
    }

    /// Every bad-line reason of the contract, one line each, read the four ways: same reasons at
    /// the same lines.
    @Test func badLinesGetTheSameReasonsEveryWay() throws {
        let directory = try TemporaryDirectory()
        let lines = [
            #"{"type":"thread","id":"t1","agent":"Coach","about":"runs","locale":"en-US"}"#,
            #"not json"#, #"[1,2]"#, #"{"id":"x"}"#, #"{"type":7}"#,
            #"{"type":"message","thread":"t1","id":"m1","from":""}"#,
            #"{"type":"message","thread":"t1","id":"m1","from":"person","text":42}"#,
            #"{"type":"message","thread":"t1","id":"m1","from":"person","at":false}"#,
            #"{"type":"message","thread":"t1","id":"m1","from":"A","screen":{"say":"x"}}"#,
            #"{"type":"message","thread":"t1","id":"m1","from":"A","screen":["x"]}"#,
            #"{"type":"message","thread":"t1","id":"m1","from":"A","screen":[{"say":"a"},{}]}"#,
            #"{"type":"message","thread":"t1","id":"m1","from":"A","screen":[{"say":"a","card":{}}]}"#,
            #"{"type":"message","thread":"t1","id":"m1","from":"A","screen":[{"say":3}]}"#,
            #"{"type":"message","thread":"t1","id":"m1","from":"A","screen":[{"card":{"title":"t"}}]}"#,
            #"{"type":"message","thread":"t1","id":"m1","from":"A","screen":[{"stat":{"label":"l","value":2.5}}]}"#,
            #"{"type":"message","thread":"t1","id":"m1","from":"A","screen":[{"stat":{"label":"l","value":"v","unit":[]}}]}"#,
            #"{"type":"message","thread":"t1","id":"m1","from":"A","screen":[{"list":{"items":"a"}}]}"#,
            #"{"type":"message","thread":"t1","id":"m1","from":"A","screen":[{"list":{"title":1,"items":"a"}}]}"#,
            #"{"type":"message","thread":"t1","id":"m1","from":"A","screen":[{"list":{"items":["a",1]}}]}"#,
            #"{"type":"message","thread":"t1","id":"m1","from":"A","screen":[{"choose":{"prompt":"p"}}]}"#,
            #"{"type":"message","thread":"t1","id":"m1","from":"A","screen":[{"pick":{"options":[null]}}]}"#,
            #"{"type":"message","thread":"t1","id":"m1","from":"A","screen":[{"pick":{"prompt":false,"options":[]}}]}"#,
            #"{"type":"message","thread":"t1","id":"m1","from":"A","screen":[{"ask":"x"}]}"#,
            #"{"type":"message","thread":"t1","id":"m1","from":"A","screen":[{"picture":1},{"say":3}]}"#,
            #"{"type":"message","thread":"t1","id":"m1","from":"A","screen":[{"say":"a"},{"slide":[]}]}"#,
            #"{"type":"message","thread":"t1","id":"m1","from":"A","screen":[{"\u0073ay":"escaped kind?"}]}"#,
            #"{"type":"message","thread":"t1","id":"m1","from":"A","push":{"kind":"reply","batch":0}}"#,
            #"{"type":"message","thread":"t1","id":"m1","from":"A","screen":[{"say":"a?"}],"push":{"batch":2}}"#,
            #"{"type":"message","thread":"t1","id":"m1","from":"person","text":"@x","meta":{"draft_ticks":[1,"2"]}}"#,
            #"{"type":"message","thread":"t1","id":"m1","from":"person","meta":{"group":{"to":1}}}"#,
            #"{"type":"message","thread":"t1","id":"m1","from":"person","lang":{}}"#,
            #"{"type":"message","thread":"t7","id":"m1","from":"person"}"#,
            #"{"type":"export","version":1}"#,
            #"{"type":"reaction","thread":"t1"}"#,
            #"{"type":"message","thread":"t1","id":"m2","from":"A","screen":[{"chart":{}},{"x y":1},{"say":"ok?"}]}"#,
        ]
        let file = try directory.write("bad.jsonl", text: lines.joined(separator: "\n") + "\n")
        let events = try expectSameReadingEverywhere([file])
        #expect(events.filter { if case .badLine = $0.content { true } else { false } }.count == lines.count - 4)  // the thread, the reaction, the escaped say and the last line are not bad
        #expect(events.last?.stats.unknownNodes == ["chart": 1, "(other)": 1])
    }

    /// Screens at the edges of chip eligibility, where the outline decides from raw bytes or
    /// falls back to the Character rule, and texts at the edges of holding an `@`.
    @Test func eligibilityAndMentionEdgesAgreeWithTheFullRecord() throws {
        let says = [
            "Ready?", "Ready? ", "Ready?  \t", "Ready.", "?", " ", "", "？", "準備はいい？", "準備はいい？ ",
            "Ready?\u{3000}", "Ready?\u{00A0}", "Ready?\u{0301}", "Ready? \u{0301}", "Ready?\n", "Ready?\r\n",
            "e\u{0301}?", "\u{0600}?", "x\u{0600}?", "Ready\u{FF1F}\u{0301}", "é?", "Ready?\u{200D}", "?\u{FE0F}",
            "ok?\u{1F600}", "\u{1F600}?",
        ]
        var lines = [#"{"type":"thread","id":"g1","locale":"en-GB","group":{"lead":"Sage","members":[{"name":"Sage"},{"name":"Dr Lee"}]}}"#]
        for (index, say) in says.enumerated() {
            for form in [Self.jsonString(say, escaping: false), Self.jsonString(say, escaping: true)] {
                lines.append(#"{"type":"message","thread":"g1","id":"a\#(index)","from":"Sage","screen":[{"say":\#(form)}]}"#)
                lines.append(#"{"type":"message","thread":"g1","id":"b\#(index)","from":"Sage","screen":[{"say":\#(form)},{"card":{"title":"t","body":"b"}}]}"#)
                lines.append(#"{"type":"message","thread":"g1","id":"c\#(index)","from":"Sage","screen":[{"say":\#(form)},{"pick":{"options":["x"]}}]}"#)
                lines.append(#"{"type":"message","thread":"g1","id":"d\#(index)","from":"Sage","screen":[{"say":"first?"},{"say":\#(form)}]}"#)
            }
        }
        let texts = ["hi", "@Sage hi", "hi @sage", "mail x@sage.com", "@Sagebrush", "@Dr Lee, hi", "no at", "\u{FF20}Sage", "@"]
        for (index, text) in texts.enumerated() {
            for form in [Self.jsonString(text, escaping: false), Self.jsonString(text, escaping: true)] {
                lines.append(#"{"type":"message","thread":"g1","id":"p\#(index)","from":"person","text":\#(form)}"#)
            }
        }
        lines.append(#"{"type":"message","thread":"g1","id":"q1","from":"person","text":"a \\u0040 b"}"#)
        let directory = try TemporaryDirectory()
        let file = try directory.write("edges.jsonl", text: lines.joined(separator: "\n") + "\n")
        let events = try expectSameReadingEverywhere([file])
        let outlines = events.compactMap { event -> MessageOutline? in
            if case .message(let outline, _, _) = event.content { return outline }
            return nil
        }
        #expect(outlines.count == lines.count - 1)
        // The rule's own answers on a few, so agreement is not agreement on something wrong.
        let byID = Dictionary(outlines.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(byID["a0"]?.isChipEligible == true)   // "Ready?"
        #expect(byID["a2"]?.isChipEligible == true)   // trailing tab
        #expect(byID["a3"]?.isChipEligible == false)  // "Ready."
        #expect(byID["a8"]?.isChipEligible == true)   // ends in U+FF1F
        #expect(byID["a12"]?.isChipEligible == false) // "?" with a combining accent is another character
        #expect(byID["a13"]?.isChipEligible == true)  // a space with an accent is still white space
        #expect(byID["c0"]?.isChipEligible == false)  // something to tap
        #expect(byID["p0"]?.mentionText == nil)
        #expect(byID["p1"]?.mentionText != nil)
        #expect(byID["p7"]?.mentionText == nil)       // a fullwidth at sign is not "@"
        #expect(byID["q1"]?.mentionText == nil)       // an escaped backslash then "u0040" is no "@"
    }

    /// A JSON string literal of `text`: raw UTF-8, or with every non-ASCII and control scalar
    /// as a `\u` escape (surrogate pairs above the BMP).
    static func jsonString(_ text: String, escaping: Bool) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            default:
                if scalar.value < 0x20 || (escaping && scalar.value >= 0x80) {
                    for unit in String(scalar).utf16 { result += String(format: "\\u%04x", unit) }
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// Failures mid-file (a cut frame, a corrupt byte) come after the same lines, with the same
    /// offsets and counts, however the file is read.
    @Test func failuresAreTheSameWhenReadAhead() throws {
        let directory = try TemporaryDirectory()
        let whole = try zstdFrame(threadLines(id: "t1", messages: 2, prefix: "a"))
            + zstdFrame(threadLines(id: "t2", messages: 5_000, prefix: "b"))
        let cut = try directory.write("cut.jsonl.zst", Array(whole.dropLast(7)))
        var flipped = try zstdFrame(threadLines(id: "t3", messages: 5_000, prefix: "c"), level: 1)
        flipped[flipped.count / 2] ^= 0x5A
        let flip = try directory.write("flip.jsonl.zst", flipped)
        let later = try directory.write("later.jsonl", text: threadLines(id: "t9", messages: 3, prefix: "z"))
        let events = try expectSameReadingEverywhere([cut, flip, later])
        #expect(events.compactMap { if case .failed(let error) = $0.content { error } else { nil } }.count == 2)
        #expect(events.last?.stats.files == 3)
    }

    /// Inputs that end inside a record (plain, and compressed in whole frames, one of many
    /// chunks), beside a whole last record without a line end: the same lines, then the same
    /// failures with the same offsets and counts, however they are read.
    @Test func inputsEndingInsideARecordFailTheSameEveryWay() throws {
        let directory = try TemporaryDirectory()
        let cutLine = #"{"type":"message","thread":"t2","id":"c1","from":"person","text":"cut h"#
        let plain = try directory.write("cut.jsonl", text: threadLines(id: "t1", messages: 3, prefix: "a") + cutLine)
        let long = threadLines(id: "t2", messages: 8_000, prefix: "b") + cutLine
        let packed = try directory.write("cut.jsonl.zst", try zstdFrame(long))
        let whole = try directory.write("whole.jsonl", text: threadLines(id: "t3", messages: 2, prefix: "c")
                                        + #"{"type":"message","thread":"t3","id":"c9","from":"person"}"#)
        let events = try expectSameReadingEverywhere([plain, packed, whole])
        let failures = events.compactMap { if case .failed(let error) = $0.content { error } else { nil } }
        #expect(failures == [
            .inputEndsInsideRecord(file: plain, line: 5, offset: (threadLines(id: "t1", messages: 3, prefix: "a") + cutLine).utf8.count, compressed: false),
            .inputEndsInsideRecord(file: packed, line: 8_002, offset: long.utf8.count, compressed: true),
        ])
        #expect(events.last?.stats.messages == 3 + 8_000 + 3)
        #expect(events.last?.stats.badLines == 0)
    }

    /// A file appended to while it is read fails at its end the same way, whichever way it is
    /// read (`EndOfInputTests` reads it each way, with the change in the middle of the read).
    @Test func aFileChangedWhileReadFailsTheSameEveryWay() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("growing.jsonl", text: EndOfInputTests.big)
        let more = Array(threadLines(id: "t2", messages: 3, prefix: "b").utf8)
        var reads: [EndOfInputTests.Read] = []
        for way in EndOfInputTests.Way.allCases {
            try directory.write("growing.jsonl", text: EndOfInputTests.big)
            reads.append(try EndOfInputTests.read(file, way, changingAfter: 500) { try EndOfInputTests.writeInPlace(file, more, append: true) })
        }
        let size = EndOfInputTests.big.utf8.count
        for read in reads {
            #expect(read.failures == [.fileChangedWhileRead(file: file, bytesAtOpen: size, bytesAtEnd: size + more.count, bytesRead: size + more.count)])
            #expect(read.ids == reads[0].ids)
        }
    }

    /// A corpus of many chunks, plain and compressed: the counts after every event are the same
    /// read ahead, since the chunks are.
    @Test func manyChunksReadAheadInOrder() throws {
        let directory = try TemporaryDirectory()
        let text = threadLines(id: "t1", messages: 30_000)
        let plain = try directory.write("big.jsonl", text: text)
        let packed = try directory.write("big.jsonl.zst", try zstdFrame(text))
        let events = try expectSameReadingEverywhere([plain, packed])
        #expect(events.last?.stats.messages == 60_000)
        #expect(events.last?.stats.decompressedBytes == 2 * text.utf8.count)
    }

    /// A reader let go in the middle of a file stops its producing thread: when the read-ahead
    /// source is gone, so is the chunk source the thread was driving (it holds it until it
    /// ends), even one that never ends.
    @Test func sourcesLetGoEarlyStopTheirThread() throws {
        for linesRead in [0, 1, 5, 40, 5_000] {
            let ended = EndlessChunkSource.Ended()
            do {
                let source = ReadAheadLineSource(LineSplitter(source: EndlessChunkSource(ended)))
                for _ in 0..<linesRead { _ = source.nextLine { _, _, _ in true } }
            }
            #expect(ended.value, "after \(linesRead) lines")
        }
        // And through a reader, in the middle of a compressed file.
        let directory = try TemporaryDirectory()
        let file = try directory.write("big.jsonl.zst", try zstdFrame(threadLines(id: "t1", messages: 20_000)))
        for _ in 0..<20 {
            let reader = try CorpusReader(paths: [file], readAhead: true)
            for _ in 0..<5 { _ = reader.nextOutline() }
        }
    }

    /// The read-ahead source hands out the steps of splitting and parsing on one thread: the
    /// same lines, numbers, parses (tokens or reasons), long lines, failure and end, with the
    /// same counts after each, under chunkings, failures and line limits the fuzz plan sets;
    /// whichever thread parses the lines (the consumer parses some, all or none of them).
    @Test(arguments: 0..<64)
    func readAheadHandsOutTheSameSteps(seed: Int) throws {
        for deferring in [nil, 0, 5, 16] { try readAheadHandsOutTheSameSteps(seed: seed, deferring: deferring) }
    }

    func readAheadHandsOutTheSameSteps(seed: Int, deferring: Int?) throws {
        var generator = Xorshift(seed: UInt64(seed) &+ 1)
        var text = ""
        for index in 0..<(seed % 8 == 0 ? 3 : 1_200) {
            switch generator.next() % 9 {
            case 0: text += "\n"
            case 1: text += "not json \(index)\n"
            case 2: text += #"{"type":"message","thread":"t1","id":"m\#(index)","text":"\#(String(repeating: "é", count: Int(generator.next() % 300)))"}"# + "\r\n"
            default: text += #"{"type":"message","thread":"t1","id":"m\#(index)","from":"person","meta":{"build":"2.3.0 (512)"}}"# + "\n"
            }
        }
        if seed % 3 == 0 { text += #"{"unterminated":"#  }  // a last line without a line end
        let payload = Array(text.utf8)
        let header: [UInt8] = [UInt8(generator.next() & 0xFF), UInt8(generator.next() & 0xFF),
                               UInt8(generator.next() & 0xFF), UInt8(generator.next() & 0xFF)]
        let plan = FuzzPlan(header: header)
        payload.withUnsafeBytes { bytes in
            let direct = ParsingLineSource(LineSplitter(source: FuzzChunkSource(payload: bytes, plan: plan),
                                                        maximumLineLength: plan.maximumLineLength), tape: TokenTape())
            let ahead = ReadAheadLineSource(LineSplitter(source: FuzzChunkSource(payload: bytes, plan: plan),
                                                         maximumLineLength: plan.maximumLineLength),
                                            deferring: deferring)
            var steps = 0
            while true {
                let expected = LineStepRecord(direct)
                let got = LineStepRecord(ahead)
                #expect(got == expected, "step \(steps) of seed \(seed), deferring \(deferring.map(String.init) ?? "adaptively")")
                steps += 1
                if expected.isLast || steps > 100_000 { break }
            }
        }
    }
}

/// One step of a line source, comparable: the step, the line's bytes and parse, and the counts.
struct LineStepRecord: Equatable {
    var step: String
    var bytes: [UInt8] = []
    var tokens: [String] = []
    var syntaxError: String?
    var storedBytes: Int
    var producedBytes: Int

    var isLast: Bool { step == "end" || step.hasPrefix("failed") }

    init(_ source: LineSource) {
        var bytes: [UInt8] = [], tokens: [String] = [], syntaxError: String?
        let step = source.nextLine { line, _, parsed in
            bytes = Array(line)
            switch parsed {
            case .document(let tape): tokens = tape.map { "\($0.kind) \($0.flag) \($0.start) \($0.length) \($0.next) \($0.count)" }
            case .invalid(let error): syntaxError = error.description
            }
            return true
        }
        switch step {
        case .line: self.step = "line"
        case .tooLong(let number): self.step = "too long \(number)"
        case .failed(let error): self.step = "failed \(error)"
        case .end: self.step = "end"
        }
        self.bytes = bytes
        self.tokens = tokens
        self.syntaxError = syntaxError
        storedBytes = source.storedBytes
        producedBytes = source.producedBytes
    }
}

/// A small deterministic generator, so a failing seed can be read again.
struct Xorshift: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed | 1 }
    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
}

/// A source of chunks of lines that never ends, which says when it is deinitialized.
final class EndlessChunkSource: ChunkSource {
    final class Ended: @unchecked Sendable { var value = false }
    private let ended: Ended
    private let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)
    private(set) var producedBytes = 0
    var storedBytes: Int { producedBytes }
    var name: String { "<endless>" }
    var isCompressed: Bool { false }

    init(_ ended: Ended) {
        self.ended = ended
        // Lines of `{"a":1}`, 512 to a chunk.
        let line = Array(#"{"a":1}"#.utf8) + [0x0A]
        for offset in 0..<chunk.count { chunk[offset] = line[offset % line.count] }
    }

    deinit {
        chunk.deallocate()
        ended.value = true
    }

    func nextChunk() throws(ExportError) -> UnsafeRawBufferPointer? {
        producedBytes += chunk.count
        return UnsafeRawBufferPointer(chunk)
    }
}
