import Foundation
import Testing
import Export
@testable import Flywheel

@Suite struct FlywheelCounterTests {
    /// (metric, dimension, key, numerator, denominator), worked out by hand from `HandCorpus`.
    struct Expected: Sendable, CustomTestStringConvertible {
        let metric: Metric, dimension: MetricDimension, key: String, numerator: Int, denominator: Int
        init(_ metric: Metric, _ dimension: MetricDimension, _ key: String, _ numerator: Int, _ denominator: Int) {
            self.metric = metric
            self.dimension = dimension
            self.key = key
            self.numerator = numerator
            self.denominator = denominator
        }
        var testDescription: String { "\(metric.name) \(dimension.name)=\(key): \(numerator)/\(denominator)" }
    }

    static let expected: [Expected] = [
        // Chips: t1.m2 (hit), t1.m6 (miss), g1.n3 (hit).
        Expected(.chipsSuggested, .overall, "all", 2, 3),
        Expected(.chipsSuggested, .agent, "Coach", 1, 2),
        Expected(.chipsSuggested, .agent, "Sage", 1, 1),
        Expected(.chipsSuggested, .week, "2026-W36", 2, 2),
        Expected(.chipsSuggested, .week, "2026-W37", 0, 1),
        Expected(.chipsSuggested, .week, "2026-W38", 0, 0),        // a week with no chips data
        Expected(.chipsSuggested, .locale, "en-US", 1, 2),
        Expected(.chipsSuggested, .locale, "fr-FR", 1, 1),
        Expected(.chipsSuggested, .build, "2.3.0 (512)", 2, 3),
        Expected(.chipsSuggested, .build, "2.4.0 (530)", 0, 0),
        Expected(.chipsSuggested, .model, "26.4", 2, 3),
        // Routing: g1's five person messages; g2 and g3 have none.
        Expected(.routeNamed, .overall, "all", 1, 5),
        Expected(.routeGuessedKept, .overall, "all", 2, 5),
        Expected(.routeChose, .overall, "all", 1, 5),
        Expected(.routeLead, .overall, "all", 1, 5),
        Expected(.routeNamed, .agent, "Coach", 1, 5),
        Expected(.routeGuessedKept, .agent, "Penny", 0, 0),         // g2's lead: a group with no person messages
        Expected(.routeNamed, .week, "2026-W36", 1, 2),
        Expected(.routeGuessedKept, .week, "2026-W36", 1, 2),
        Expected(.routeGuessedKept, .week, "2026-W37", 0, 0),
        Expected(.routeChose, .week, "2026-W38", 1, 3),
        Expected(.routeLead, .week, "2026-W38", 1, 3),
        Expected(.routeGuessedKept, .week, "2026-W38", 1, 3),
        Expected(.routeLead, .build, "unknown", 1, 1),
        Expected(.routeGuessedKept, .locale, "fr-FR", 1, 1),
        Expected(.routeGuessedKept, .locale, "en-GB", 1, 4),
        // Drafts: t1.m6 (2 ticks), t1.m7 (none, the only message of build 2.4.0).
        Expected(.draftUsed, .overall, "all", 1, 2),
        Expected(.draftTicksMean, .overall, "all", 2, 1),
        Expected(.draftUsed, .build, "2.3.0 (512)", 1, 1),
        Expected(.draftUsed, .build, "2.4.0 (530)", 0, 1),
        Expected(.draftUsed, .model, "27.0", 0, 1),
        Expected(.draftUsed, .week, "2026-W37", 1, 2),
        Expected(.draftUsed, .week, "2026-W36", 0, 0),
        // Pushes: reply 1, handoff 3, reply 2, quote 12.
        Expected(.pushReply, .overall, "all", 2, 4),
        Expected(.pushHandoff, .overall, "all", 1, 4),
        Expected(.pushQuote, .overall, "all", 1, 4),
        Expected(.pushOther, .overall, "all", 0, 4),
        Expected(.pushBatch1, .overall, "all", 1, 4),
        Expected(.pushBatch2, .overall, "all", 1, 4),
        Expected(.pushBatch3, .overall, "all", 1, 4),
        Expected(.pushBatch4, .overall, "all", 0, 4),
        Expected(.pushBatch5to9, .overall, "all", 0, 4),
        Expected(.pushBatch10Plus, .overall, "all", 1, 4),
        Expected(.pushBatchMean, .overall, "all", 18, 4),
        Expected(.pushQuote, .week, "unknown", 1, 1),
        Expected(.pushQuote, .agent, "Penny", 1, 1),
        Expected(.pushQuote, .locale, "de-DE", 1, 1),
        Expected(.pushReply, .agent, "Sage", 1, 1),
        // Under the person's next message: t1.m1, t1.m3 and g1.n2 before a 2.3.0 message; g2.p1
        // has no person message at all (unknown).
        Expected(.pushReply, .build, "unknown", 0, 1),
        Expected(.pushQuote, .build, "unknown", 1, 1),
        Expected(.pushHandoff, .build, "2.3.0 (512)", 1, 3),
        Expected(.pushReply, .build, "2.3.0 (512)", 2, 3),
        Expected(.pushReply, .model, "26.4", 2, 3),
    ]

    @Test(arguments: expected)
    func handMadeCorpusCell(_ expected: Expected) throws {
        let (metric, dimension, key, numerator, denominator) =
            (expected.metric, expected.dimension, expected.key, expected.numerator, expected.denominator)
        let directory = try TemporaryDirectory()
        let counter = try HandCorpus.count(HandCorpus.jsonl(), in: directory)
        let cell = counter.cell(metric, dimension, key)
        #expect(cell.numerator == numerator)
        #expect(cell.denominator == denominator)
        if denominator == 0 {
            #expect(cell.rate == nil)
            #expect(cell.low == nil && cell.high == nil)
        } else {
            #expect(cell.rate == Double(numerator) / Double(denominator))
        }
        #expect(cell.smallSample)
    }

    @Test func keysTotalsAndOrder() throws {
        let directory = try TemporaryDirectory()
        let counter = try HandCorpus.count(HandCorpus.jsonl(), in: directory)
        #expect(counter.threads == 4)
        #expect(counter.messages == 14)
        #expect(counter.keys(.overall) == ["all"])
        #expect(counter.keys(.build) == ["2.3.0 (512)", "2.4.0 (530)", "unknown"])
        #expect(counter.keys(.model) == ["26.4", "27.0", "unknown"])
        #expect(counter.keys(.week) == ["2026-W36", "2026-W37", "2026-W38", "unknown"])
        #expect(counter.keys(.agent) == ["Coach", "Penny", "Sage"])
        #expect(counter.keys(.locale) == ["de-DE", "en-GB", "en-US", "fr-FR"])
        // Every metric under every key of every dimension: a row per (metric, key).
        let keyCount = MetricDimension.allCases.map { counter.keys($0).count }.reduce(0, +)
        #expect(counter.cells().count == Metric.allCases.count * keyCount)
    }

    @Test func wilsonBoundsOfHandMadeCells() throws {
        let directory = try TemporaryDirectory()
        let counter = try HandCorpus.count(HandCorpus.jsonl(), in: directory)
        let chips = counter.cell(.chipsSuggested)        // 2 of 3
        #expect(rounded4(chips.low) == 0.2077)
        #expect(rounded4(chips.high) == 0.9385)
        let guessed = counter.cell(.routeGuessedKept)    // 2 of 5
        #expect(rounded4(guessed.low) == 0.1176)
        #expect(rounded4(guessed.high) == 0.7693)
        let sage = counter.cell(.chipsSuggested, .agent, "Sage")  // 1 of 1
        #expect(rounded4(sage.low) == 0.2065)
        #expect(sage.high == 1)
        let mean = counter.cell(.pushBatchMean)
        #expect(mean.rate == 4.5)
        #expect(mean.interval == nil)
    }

    @Test(arguments: [
        (0, 0, nil, nil),
        (1, 1, 0.2065, 1.0),
        (0, 10, 0.0, 0.2775),
        (8, 10, 0.4902, 0.9433),
        (2, 4, 0.1500, 0.8500),
    ] as [(Int, Int, Double?, Double?)])
    func wilsonInterval(_ successes: Int, _ trials: Int, _ low: Double?, _ high: Double?) {
        let interval = WilsonInterval(successes: successes, trials: trials)
        #expect(rounded4(interval?.low) == low)
        #expect(rounded4(interval?.high) == high)
    }

    @Test(arguments: [(29, true), (30, false), (0, true)])
    func smallSampleThreshold(_ denominator: Int, _ small: Bool) {
        let cell = RateCell(metric: .draftUsed, dimension: .overall, key: "all", numerator: 0, denominator: denominator)
        #expect(cell.smallSample == small)
    }

    @Test(arguments: [
        ("2026-09-01T07:02:11Z", "2026-W36"),
        ("2026-08-31T00:00:00Z", "2026-W36"),       // a Monday
        ("2026-08-30T23:59:59Z", "2026-W35"),       // a Sunday
        ("2026-08-31T01:00:00+02:00", "2026-W35"),  // Sunday 23:00 UTC
        ("2026-08-30T23:30:00-01:00", "2026-W36"),  // Monday 00:30 UTC
        ("2027-01-01T12:00:00Z", "2026-W53"),       // 2026 has 53 ISO weeks
        ("2021-01-03", "2020-W53"),
        ("2024-12-30T08:00Z", "2025-W01"),
        ("2026-09-01T07:02:11.250Z", "2026-W36"),
        ("yesterday", nil), ("", nil), ("2026-02-30T00:00:00Z", nil), ("2026-09-01T25:00:00Z", nil),
        ("2026-09-01T07:02:11Zjunk", nil),
    ] as [(String, String?)])
    func isoWeek(_ timestamp: String, _ label: String?) {
        #expect(ISOWeek.label(forTimestamp: timestamp) == label)
    }

    /// The shortcut for `YYYY-MM-DDTHH:MM:SSZ` reads every such timestamp (valid or not) as the
    /// general reading does.
    @Test func plainUTCShortcutAgreesWithTheGeneralReading() {
        var generator = SystemRandomNumberGenerator()
        var shortcuts = 0
        for _ in 0..<50_000 {
            var text = String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", Int.random(in: 0...2100, using: &generator),
                              Int.random(in: 0...13, using: &generator), Int.random(in: 0...32, using: &generator),
                              Int.random(in: 0...25, using: &generator), Int.random(in: 0...61, using: &generator),
                              Int.random(in: 0...61, using: &generator))
            if Int.random(in: 0..<10, using: &generator) == 0 {
                var bytes = Array(text.utf8)
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0x20...0x7E, using: &generator)
                text = String(decoding: bytes, as: UTF8.self)
            }
            var copy = text
            copy.withUTF8 { bytes in
                let general = ISOWeek.generalUTCDay(bytes: bytes)
                if let shortcut = ISOWeek.utcDayOfPlainUTC(bytes) {
                    shortcuts += 1
                    #expect(shortcut == general)
                }
                #expect(ISOWeek.utcDay(bytes: bytes) == general)
            }
        }
        #expect(shortcuts > 1_000)
    }

    @Test func isoWeekSpanCrossesYears() {
        #expect(ISOWeek.following("2026-W52") == "2026-W53")
        #expect(ISOWeek.following("2026-W53") == "2027-W01")
        #expect(ISOWeek.span(from: "2026-W52", to: "2027-W02") == ["2026-W52", "2026-W53", "2027-W01", "2027-W02"])
        #expect(ISOWeek.span(from: "2025-W53", to: "2026-W01") == nil)  // 2025 has 52 weeks
    }

    @Test(arguments: [
        ("@Sage please", true), ("hey @SAGE", true), ("@sage, hi", true), ("@sages hi", false),
        ("me@sagebrush.example", false), ("no mention of Sage", false), ("@Dr Lee here", true), ("@", false),
        ("mail it to x@sage.com", false), ("(@Sage)", true), ("a_@Sage", false),
    ])
    func namedMember(_ text: String, _ named: Bool) {
        #expect(Mention.namesMember(text, members: ["Sage", "Coach", "Dr Lee"]) == named)
    }

    /// A push counts under the person's next message in its thread, else their previous one (as
    /// report.json's push job counts it), never under an agent message's own `meta`: the export
    /// writes `build` and `model` on person messages only.
    @Test func aPushCountsUnderThePersonsNextMessageElseTheirPrevious() throws {
        let directory = try TemporaryDirectory()
        func push(_ id: String, _ meta: String = "") -> String {
            #"{"type":"message","thread":"t1","id":"\#(id)","at":"2026-09-01T07:00:00Z","from":"Coach","screen":[{"say":"x"}],"push":{"kind":"reply","batch":1}\#(meta)}"#
        }
        func person(_ id: String, build: String?) -> String {
            let meta = build.map { #","meta":{"build":"\#($0)","model":"26.4"}"# } ?? ""
            return #"{"type":"message","thread":"t1","id":"\#(id)","at":"2026-09-01T07:01:00Z","from":"person","text":"ok"\#(meta)}"#
        }
        let lines = [
            #"{"type":"thread","id":"t1","agent":"Coach","locale":"en-US"}"#,
            push("a1", #","meta":{"build":"9.9"}"#),   // an agent's own meta says nothing
            person("p1", build: "2.3"),
            push("a2"), push("a3"),
            person("p2", build: "2.4"),
            push("a4"),
            person("p3", build: nil),
            push("a5"),                                  // the thread ends: the previous message's
        ]
        let counter = try HandCorpus.count(HandCorpus.jsonl([lines]), in: directory)
        #expect(counter.cell(.pushReply, .build, "2.3").denominator == 1)       // a1
        #expect(counter.cell(.pushReply, .build, "2.4").denominator == 2)       // a2, a3
        #expect(counter.cell(.pushReply, .build, "unknown").denominator == 2)   // a4, a5: p3 has no build
        #expect(counter.cell(.pushReply, .build, "9.9").denominator == 0)
        #expect(counter.cell(.pushReply).denominator == 5)
        #expect(counter.keys(.build) == ["2.3", "2.4", "unknown"])
    }

    /// Pushes waiting at the end of the input count as if the thread ended there, in every reading.
    @Test func waitingPushesCountInEveryReading() throws {
        let directory = try TemporaryDirectory()
        let lines = [
            #"{"type":"thread","id":"t1","agent":"Coach","locale":"en-US"}"#,
            #"{"type":"message","thread":"t1","id":"p1","at":"2026-09-01T07:01:00Z","from":"person","text":"ok","meta":{"build":"2.3"}}"#,
            #"{"type":"message","thread":"t1","id":"a1","at":"2026-09-01T07:02:00Z","from":"Coach","screen":[{"say":"x"}],"push":{"kind":"reply"}}"#,
        ]
        let counter = try HandCorpus.count(HandCorpus.jsonl([lines]), in: directory)
        #expect(counter.cell(.pushReply, .build, "2.3").numerator == 1)
        #expect(counter.cells().contains { $0.metric == .pushReply && $0.key == "2.3" && $0.numerator == 1 })
        #expect(counter.capped().cell(.pushReply, .build, "2.3").numerator == 1)
        var merged = FlywheelCounter()
        merged.merge(counter)
        #expect(merged == counter && merged.cell(.pushReply, .build, "2.3").numerator == 1)
    }

    /// An e-mail address is not a mention: the message counts where it went, as routing judges it.
    @Test func anEmailAddressAtAMembersNameIsNotNamed() throws {
        let directory = try TemporaryDirectory()
        let lines = [
            #"{"type":"thread","id":"g1","locale":"en-GB","group":{"lead":"Coach","members":[{"name":"Coach"},{"name":"Sage"}]}}"#,
            #"{"type":"message","thread":"g1","id":"n1","at":"2026-09-03T10:00:00Z","from":"person","text":"mail it to x@sage.com","meta":{"group":{"to":"Sage","routed":"on-device"}}}"#,
        ]
        let counter = try HandCorpus.count(HandCorpus.jsonl([lines]), in: directory)
        #expect(counter.cell(.routeNamed).numerator == 0 && counter.cell(.routeNamed).denominator == 1)
        #expect(counter.cell(.routeGuessedKept).numerator == 1)
    }
}
