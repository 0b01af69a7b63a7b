import Foundation
import Testing
import Export
import Privacy
@testable import Flywheel

/// The spec's contract checks (`SpecContract`, the `contract.*` metrics): each rule broken once
/// counts exactly once, its near misses not at all, a corpus that keeps the spec counts 0 of
/// every check, and the counts are per build and model version like the other metrics.
@Suite struct ContractCheckTests {
    /// The five checks, in metric order.
    static let checks: [Metric] = [.contractChipNotOffered, .contractRoutedNamed, .contractTicksNotOffline, .contractMetaExtraKey, .contractMetaOffSpec]

    /// One small case: a thread's lines and the numerators and denominators of the five checks (in `checks` order).
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let lines: [String]
        let places: [Int]
        let checked: [Int]
        var testDescription: String { name }
    }

    static let oneAgent = #"{"type":"thread","id":"t1","agent":"Coach","locale":"en-US"}"#
    static let group = #"{"type":"thread","id":"g1","locale":"en-GB","group":{"lead":"Coach","members":[{"name":"Coach"},{"name":"Sage"},{"name":"Dr Lee"}]}}"#

    static func agent(_ screen: String, in thread: String = "t1", meta: String = "") -> String {
        #"{"type":"message","thread":"\#(thread)","id":"a","at":"2026-09-01T07:00:00Z","from":"Coach","screen":\#(screen)\#(meta)}"#
    }

    static func person(_ meta: String, in thread: String = "t1", text: String = "ok") -> String {
        #"{"type":"message","thread":"\#(thread)","id":"p","at":"2026-09-01T07:01:00Z","from":"person","text":"\#(text)","meta":{\#(meta)}}"#
    }

    static let eligible = #"[{"say":"How was the run?"}]"#
    static let build = #""build":"2.4.1 (534)","model":"26.4""#

    static let cases: [Case] = [
        // Chips (spec §2): only directly under a screen that asks in words with nothing to tap.
        Case(name: "a chip under a screen that asks in words", lines: [oneAgent, agent(eligible), person(#""via":"suggested",\#(build)"#)],
             places: [0, 0, 0, 0, 0], checked: [1, 0, 0, 1, 1]),
        Case(name: "a chip under a screen with its own choose",
             lines: [oneAgent, agent(#"[{"say":"Which day?"},{"choose":{"options":["Mon","Tue"]}}]"#), person(#""via":"suggested",\#(build)"#)],
             places: [1, 0, 0, 0, 0], checked: [1, 0, 0, 1, 1]),
        Case(name: "a chip under a screen with a slide after its question",
             lines: [oneAgent, agent(#"[{"say":"How hard?"},{"slide":{}}]"#), person(#""via":"suggested",\#(build)"#)],
             places: [1, 0, 0, 0, 0], checked: [1, 0, 0, 1, 1]),
        Case(name: "a chip under a screen that asks nothing", lines: [oneAgent, agent(#"[{"say":"Done."}]"#), person(#""via":"suggested",\#(build)"#)],
             places: [1, 0, 0, 0, 0], checked: [1, 0, 0, 1, 1]),
        Case(name: "a second chip after the first", lines: [oneAgent, agent(eligible), person(#""via":"suggested",\#(build)"#), person(#""via":"suggested",\#(build)"#)],
             places: [1, 0, 0, 0, 0], checked: [2, 0, 0, 2, 2]),
        Case(name: "a chip as the thread's first message", lines: [oneAgent, person(#""via":"suggested",\#(build)"#)],
             places: [1, 0, 0, 0, 0], checked: [1, 0, 0, 1, 1]),
        Case(name: "a typed reply under a screen with taps", lines: [oneAgent, agent(#"[{"say":"Which?"},{"pick":{"options":["a"]}}]"#), person(#""via":"typed",\#(build)"#)],
             places: [0, 0, 0, 0, 0], checked: [0, 0, 0, 1, 1]),
        // Routing (spec §3): a named message is not a guess.
        Case(name: "routed though it names a member", lines: [group, person(#""group":{"to":"Sage","routed":"on-device"},\#(build)"#, in: "g1", text: "@sage help")],
             places: [0, 1, 0, 0, 0], checked: [0, 1, 0, 1, 1]),
        Case(name: "routed though it names a member with a space", lines: [group, person(#""group":{"to":"Dr Lee","routed":"on-device"},\#(build)"#, in: "g1", text: "hi @Dr Lee, help")],
             places: [0, 1, 0, 0, 0], checked: [0, 1, 0, 1, 1]),
        Case(name: "routed, an e-mail address is no name", lines: [group, person(#""group":{"to":"Sage","routed":"on-device"},\#(build)"#, in: "g1", text: "mail x@sage.com")],
             places: [0, 0, 0, 0, 0], checked: [0, 1, 0, 1, 1]),
        Case(name: "named, not routed", lines: [group, person(#""group":{"to":"Sage"},\#(build)"#, in: "g1", text: "@Sage help")],
             places: [0, 0, 0, 0, 0], checked: [0, 0, 0, 1, 1]),
        // Drafts (spec §5): ticks are made on a draft, which shows only offline.
        Case(name: "ticks on a message sent online", lines: [oneAgent, person(#""draft_ticks":[0,1],\#(build)"#)],
             places: [0, 0, 1, 0, 0], checked: [0, 0, 1, 1, 1]),
        Case(name: "no ticks on a message sent online", lines: [oneAgent, person(#""draft_ticks":[],"offline":false,\#(build)"#)],
             places: [0, 0, 1, 0, 0], checked: [0, 0, 1, 1, 1]),
        Case(name: "ticks on a message sent offline", lines: [oneAgent, person(#""draft_ticks":[2],"offline":true,\#(build)"#)],
             places: [0, 0, 0, 0, 0], checked: [0, 0, 1, 1, 1]),
        Case(name: "null ticks are no ticks", lines: [oneAgent, person(#""draft_ticks":null,\#(build)"#)],
             places: [0, 0, 0, 0, 0], checked: [0, 0, 0, 1, 1]),
        // Meta keys the format does not define, whatever they hold.
        Case(name: "a key beyond the format's, holding words", lines: [oneAgent, person(#""note":"zephyrine marmalade",\#(build)"#)],
             places: [0, 0, 0, 1, 0], checked: [0, 0, 0, 1, 1]),
        Case(name: "two keys beyond the format's are one place", lines: [oneAgent, person(#""quixotic brontide":1,"x":{"y":["z"]},\#(build)"#)],
             places: [0, 0, 0, 1, 0], checked: [0, 0, 0, 1, 1]),
        Case(name: "a key beyond the format's in meta.group", lines: [group, person(#""group":{"to":"Sage","why":"mellifluous"},\#(build)"#, in: "g1")],
             places: [0, 0, 0, 1, 0], checked: [0, 0, 0, 1, 1]),
        Case(name: "a key beyond the format's holding null", lines: [oneAgent, person(#""extra":null,\#(build)"#)],
             places: [0, 0, 0, 1, 0], checked: [0, 0, 0, 1, 1]),
        // Values the spec does not allow.
        Case(name: "via that is neither suggested nor typed", lines: [oneAgent, person(#""via":"zephyrine",\#(build)"#)],
             places: [0, 0, 0, 0, 1], checked: [0, 0, 0, 1, 1]),
        Case(name: "via spelled in capitals", lines: [oneAgent, agent(eligible), person(#""via":"Suggested",\#(build)"#)],
             places: [0, 0, 0, 0, 1], checked: [0, 0, 0, 1, 1]),
        Case(name: "routed that is not on-device", lines: [group, person(#""group":{"to":"Sage","routed":"cloud"},\#(build)"#, in: "g1")],
             places: [0, 0, 0, 0, 1], checked: [0, 1, 0, 1, 1]),
        Case(name: "to that names no member", lines: [group, person(#""group":{"to":"marmalade"},\#(build)"#, in: "g1")],
             places: [0, 0, 0, 0, 1], checked: [0, 0, 0, 1, 1]),
        Case(name: "to a member in another case", lines: [group, person(#""group":{"to":"sage"},\#(build)"#, in: "g1")],
             places: [0, 0, 0, 0, 1], checked: [0, 0, 0, 1, 1]),
        Case(name: "to outside a group", lines: [oneAgent, person(#""group":{"to":"Coach"},\#(build)"#)],
             places: [0, 0, 0, 0, 1], checked: [0, 0, 0, 1, 1]),
        Case(name: "a model that is no version number", lines: [oneAgent, person(#""build":"2.4.1 (534)","model":"quixotic model""#)],
             places: [0, 0, 0, 0, 1], checked: [0, 0, 0, 1, 1]),
        Case(name: "every value the spec allows", lines: [group, agent(eligible, in: "g1"), person(#""via":"suggested","group":{"to":"Dr Lee","routed":"on-device"},"offline":true,"draft_ticks":[1],"build":"any build text","model":"27.0.1""#, in: "g1")],
             places: [0, 0, 0, 0, 0], checked: [1, 1, 1, 1, 1]),
        Case(name: "a person message without meta", lines: [oneAgent, #"{"type":"message","thread":"t1","id":"p","from":"person","text":"hi"}"#],
             places: [0, 0, 0, 0, 0], checked: [0, 0, 0, 1, 1]),
        // An agent's message is not a row the app writes: its meta is not checked.
        Case(name: "an agent's meta is not checked", lines: [oneAgent, agent(eligible, meta: #","meta":{"via":"odd","note":"x","draft_ticks":[1],"model":"words"}"#)],
             places: [0, 0, 0, 0, 0], checked: [0, 0, 0, 0, 0]),
    ]

    @Test(arguments: cases)
    func eachRuleBrokenCountsExactly(_ example: Case) throws {
        let directory = try TemporaryDirectory()
        let counter = try HandCorpus.count(HandCorpus.jsonl([example.lines]), in: directory)
        #expect(Self.checks.map { counter.cell($0).numerator } == example.places)
        #expect(Self.checks.map { counter.cell($0).denominator } == example.checked)
    }

    /// The same cases read as full records (the replay's `--flywheel` path) count the same.
    @Test func fullRecordsCountTheSameAsOutlines() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("cases.jsonl", text: HandCorpus.jsonl(Self.cases.map(\.lines)))
        let reader = try CorpusReader(paths: [path])
        var full = FlywheelCounter()
        while let event = reader.next() { full.add(event) }
        let outlined = FlywheelCounter.count(try CorpusReader(paths: [path]))
        #expect(full == outlined)
        #expect(Self.checks.map { outlined.cell($0).numerator } == [5, 2, 2, 4, 7])
    }

    /// The words the cases put in keys and values beyond the spec reach no file: not the three
    /// files, not the counter's state.
    @Test func nothingOfWhatBrokeTheSpecIsWritten() throws {
        let directory = try TemporaryDirectory()
        let counter = try HandCorpus.count(HandCorpus.jsonl(Self.cases.map(\.lines)), in: directory)
        #expect(counter.cell(.contractMetaExtraKey).numerator == 4)
        let texts = FlywheelFiles.contents(counter).map(\.text) + [try ReportValueEncoder().encode(counter).exactJSON()]
        for (index, text) in texts.enumerated() {
            for word in ["zephyrine", "marmalade", "quixotic", "brontide", "mellifluous", "cloud"] {
                let leaked = text.localizedCaseInsensitiveContains(word)   // a boolean, so a failure cannot show the word
                #expect(!leaked, "file #\(index) holds \(word)")
            }
        }
    }

    /// The hand-made corpus keeps the spec: every check is 0, of the messages it checked.
    @Test func aCorpusThatKeepsTheSpecCountsZero() throws {
        let directory = try TemporaryDirectory()
        let counter = try HandCorpus.count(HandCorpus.jsonl(), in: directory)
        #expect(Self.checks.map { counter.cell($0).numerator } == [0, 0, 0, 0, 0])
        // Chips: t1.m2, g1.n3; routed: g1.n3, g1.n6; ticks: t1.m6; meta: the nine person messages.
        #expect(Self.checks.map { counter.cell($0).denominator } == [2, 2, 1, 9, 9])
        #expect(counter.cell(.contractMetaOffSpec, .build, "2.4.0 (530)").denominator == 1)
        let html = Dashboard.render(counter)
        #expect(html.contains(#"<p class="verdict ok""#))
        #expect(!html.contains("alarm\""))
        #expect(html.contains("all 5 checks are 0"))
    }

    /// Breaks in two builds and two model versions, each counted under its own message's.
    static let byBuild: [[String]] = [
        [oneAgent, agent(#"[{"say":"Done."}]"#),
         person(#""via":"suggested","build":"2.3.0 (512)","model":"26.0""#),
         person(#""draft_ticks":[1],"build":"2.4.0 (530)","model":"26.4""#),
         person(#""brontide":"zephyrine","build":"2.4.0 (530)","model":"26.4""#)],
        [group,
         person(#""group":{"to":"Sage","routed":"on-device"},"build":"2.4.0 (530)","model":"27.0""#, in: "g1", text: "@Sage now"),
         person(#""via":"typed","build":"2.3.0 (512)","model":"26.0""#, in: "g1"),
         person(#""via":"tappity","build":"2.3.0 (512)""#, in: "g1")],
    ]

    @Test func checksAreCountedPerBuildAndModelVersion() throws {
        let directory = try TemporaryDirectory()
        let counter = try HandCorpus.count(HandCorpus.jsonl(Self.byBuild), in: directory)
        func cells(_ dimension: MetricDimension, _ key: String) -> [[Int]] {
            Self.checks.map { [counter.cell($0, dimension, key).numerator, counter.cell($0, dimension, key).denominator] }
        }
        #expect(cells(.overall, "all") == [[1, 1], [1, 1], [1, 1], [1, 6], [1, 6]])
        #expect(cells(.build, "2.3.0 (512)") == [[1, 1], [0, 0], [0, 0], [0, 3], [1, 3]])
        #expect(cells(.build, "2.4.0 (530)") == [[0, 0], [1, 1], [1, 1], [1, 3], [0, 3]])
        #expect(cells(.model, "26.0") == [[1, 1], [0, 0], [0, 0], [0, 2], [0, 2]])
        #expect(cells(.model, "26.4") == [[0, 0], [0, 0], [1, 1], [1, 2], [0, 2]])
        #expect(cells(.model, "27.0") == [[0, 0], [1, 1], [0, 0], [0, 1], [0, 1]])
        #expect(cells(.model, "unknown") == [[0, 0], [0, 0], [0, 0], [0, 1], [1, 1]])
        // metrics.csv and metrics.json carry every check under every key, 0 included.
        let csv = MetricsCSV.render(counter)
        #expect(csv.contains(#"contract.chip_not_offered,build,"2.3.0 (512)",1,1,"#))
        #expect(csv.contains(#"contract.routed_named,build,"2.3.0 (512)",0,0,,,"#))
        #expect(csv.contains("contract.meta_off_spec,model,unknown,1,1,"))
        let document = MetricsDocument(counter)
        for check in Self.checks {
            let entry = try #require(document.metrics.first { $0.metric == check })
            #expect(entry.feature == .contract && entry.kind == .share)
            #expect(entry.cells[.build]?.map(\.key) == ["2.3.0 (512)", "2.4.0 (530)"])
            #expect(entry.cells[.model]?.map(\.key) == ["26.0", "26.4", "27.0", "unknown"])
        }
        #expect(MetricsDocument(counter).json().contains(#""metric": "contract.ticks_not_offline""#))
    }

    /// The dashboard says how many places broke the spec, and shows every check under every
    /// build and model version, 0 as 0.
    @Test func theDashboardShowsTheChecks() throws {
        let directory = try TemporaryDirectory()
        let counter = try HandCorpus.count(HandCorpus.jsonl(Self.byBuild), in: directory)
        let html = Dashboard.render(counter)
        #expect(html.contains(#"<p class="verdict alarm" id="contract-verdict"><strong>Spec contract: 5 places where the export shows the app broke the spec</strong>, in 5 of 5 checks"#))
        #expect(html.contains(#"<section id="contract">"#) && html.contains(##"<a href="#contract">"##))
        let build = try #require(Self.table("contract-build", in: html))
        #expect(build.contains(#"<tr class="alarm"><th scope="row">2.3.0 (512)</th><td class="num alarm">1 of 1</td><td class="num">0 of 0</td><td class="num">0 of 0</td><td class="num">0 of 3</td><td class="num alarm">1 of 3</td></tr>"#))
        let model = try #require(Self.table("contract-model", in: html))
        #expect(model.contains(#"<th scope="row">26.4</th><td class="num">0 of 0</td><td class="num">0 of 0</td><td class="num alarm">1 of 1</td><td class="num alarm">1 of 2</td><td class="num">0 of 2</td>"#))
        let overall = try #require(Self.table("contract-overall", in: html))
        for check in Self.checks {
            #expect(overall.contains(">" + HTMLText.escape(check.label) + "</th><td>" + HTMLText.escape(check.specSection ?? "-") + "</td>"))
        }
        // Nothing of what broke the rule is shown: not the extra key's value, not the off-spec via.
        for word in ["zephyrine", "tappity", "brontide"] {
            #expect(!html.contains(word) && !MetricsCSV.render(counter).contains(word) && !MetricsDocument(counter).json().contains(word))
        }
    }

    /// A clean corpus's tables say 0, row by row.
    @Test func zeroIsShownAsZero() throws {
        let directory = try TemporaryDirectory()
        let counter = try HandCorpus.count(HandCorpus.jsonl(), in: directory)
        let html = Dashboard.render(counter)
        let build = try #require(Self.table("contract-build", in: html))
        #expect(build.contains(#"<tr><th scope="row">2.4.0 (530)</th><td class="num">0 of 0</td><td class="num">0 of 0</td><td class="num">0 of 0</td><td class="num">0 of 1</td><td class="num">0 of 1</td></tr>"#))
        let overall = try #require(Self.table("contract-overall", in: html))
        #expect(overall.contains(#"<td class="num">0</td><td class="num">9</td><td class="num">0.0%</td>"#))
    }

    @Test(arguments: [
        ("26.0", true), ("26.4", true), ("27", true), ("27.0.1", true), ("1.2.3.4", true), ("123456789.0", true),
        ("", false), ("26.", false), (".4", false), ("26..4", false), ("1.2.3.4.5", false), ("1234567890", false),
        ("26.4 beta", false), ("v26", false), ("２６.0", false), ("26.4 (1)", false),
    ])
    func modelVersions(_ model: String, _ isVersion: Bool) {
        #expect(SpecContract.isModelVersion(model) == isVersion)
    }

    /// The text of the table with id `id` in `html`, if there is one.
    static func table(_ id: String, in html: String) -> String? {
        guard let start = html.range(of: #"<table class="contract" id="\#(id)">"#) else { return nil }
        guard let end = html.range(of: "</table>", range: start.upperBound..<html.endIndex) else { return nil }
        return String(html[start.lowerBound..<end.upperBound])
    }
}
