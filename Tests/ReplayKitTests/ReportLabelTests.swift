import Engine
import Export
import Flywheel
import Foundation
import Jobs
import Testing
@testable import ReplayKit
@testable import Replay
import Privacy
import RunTestSupport
import TestSupport

/// Free text in any labelled field of the export reaches none of the files a run writes:
/// report.json, report.md, junit.xml, metrics.csv, metrics.json, dashboard.html, state.json and
/// its checkpoints.
@Suite struct ReportLabelTests {
    /// A field of the export that carries a label.
    enum Field: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case build, model, threadLocale, messageLang, agent, groupLead, memberName, groupTo, nodeKind, lineType, threadID
        var testDescription: String { rawValue }
    }

    /// A small corpus with `texts[field]` in those fields and ordinary values everywhere else: a
    /// chip screen and its reply, a group whose messages the route job asks about (one chosen,
    /// one to the lead), an unknown kind and line type, and a message before its thread line.
    static func corpus(_ texts: [Field: String]) -> String {
        func value(_ field: Field, _ ordinary: String) -> String { LabelFreeText.json(texts[field] ?? ordinary) }
        let agent = value(.agent, "Coach"), lead = value(.groupLead, "Coach"), member = value(.memberName, "Penny")
        let build = value(.build, "2.3.0 (512)"), model = value(.model, "26.4")
        let meta = #""build":\#(build),"model":\#(model)"#
        return [
            #"{"type":"export","version":1}"#,
            #"{"type":"thread","id":"t1","agent":\#(agent),"locale":\#(value(.threadLocale, "en-US"))}"#,
            #"{"type":"message","thread":"t1","id":"m1","at":"2026-09-01T07:00:00Z","from":\#(agent),"screen":[{\#(value(.nodeKind, "chart")):{}},{"say":"How was the run?"}],"push":{"kind":"reply","batch":1}}"#,
            #"{"type":"message","thread":"t1","id":"m2","at":"2026-09-01T07:01:00Z","from":"person","text":"Fine","lang":\#(value(.messageLang, "en-GB")),"meta":{"via":"suggested",\#(meta),"offline":true,"draft_ticks":[0]}}"#,
            #"{"type":\#(value(.lineType, "reaction")),"thread":"t1"}"#,
            #"{"type":"thread","id":"g1","locale":"en-GB","group":{"lead":\#(lead),"members":[{"name":\#(lead),"about":"plans"},{"name":\#(member),"about":"money"},{"name":"Sage","about":"sleep"}]}}"#,
            #"{"type":"message","thread":"g1","id":"n1","at":"2026-09-02T07:00:00Z","from":"person","text":"Can we talk budgets","meta":{"group":{"to":\#(value(.groupTo, "Penny"))},\#(meta)}}"#,
            #"{"type":"message","thread":"g1","id":"n2","at":"2026-09-02T07:01:00Z","from":"person","text":"Morning all","meta":{\#(meta)}}"#,
            #"{"type":"message","thread":"g1","id":"n3","at":"2026-09-02T07:02:00Z","from":\#(member),"screen":[{"say":"Done."}],"push":{"kind":"reply","batch":2}}"#,
            #"{"type":"message","thread":\#(value(.threadID, "t_orphan")),"id":"o1","at":"2026-09-03T07:00:00Z","from":"person","text":"x"}"#,
        ].joined(separator: "\n") + "\n"
    }

    /// Runs every job over `corpus` with a model that routes to `routeTo`, writes the files into a
    /// new directory as `replay` does (through `OutputDirectory`, a checkpoint of the run's state
    /// included), and returns the directory and the report.
    static func replay(_ corpus: String, routeTo: String, labels: TeamLabels = .none) throws -> (directory: String, report: ReportValue) {
        // The caller removes it: it outlives this function.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replay-test-" + UUID().uuidString).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var options = ReplayOptions()
        options.corpus = [writeCorpus(corpus, in: directory)]
        options.flywheel = true
        options.labels = labels
        options.thresholds = [Threshold(key: try GateKey(parsing: "route.accuracy"), minimum: 0.9), Threshold(key: try GateKey(parsing: "chips.answered_rate"), minimum: 0.5)]
        // A member named by a whole sentence takes the phone seconds to write: the budget lets
        // its route be shown, so it is counted under its hash as a shown route.
        options.budgets[.route] = 60_000
        let jobs = options.jobs.map { job in RunJobs.job(job, budget: options.budgets[job], labels: labels) }
        let model = LabelScriptedModel(routeTo: routeTo)
        let tally = ReplayRunner(options: options, jobs: jobs, model: model).run()
        let builder = ReportBuilder(options: options, tally: tally, model: nil, jobs: jobs, seconds: 1, started: Date())
        let report = builder.report
        let out = directory + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let output = OutputDirectory(out, key: StateFixtures.key)
        #expect(builder.state.flywheel != nil)
        try output.saveResults(of: builder.state, report: report)
        try output.saveJUnit(options.thresholds.flatMap { $0.judge(report) })
        var checkpoint = builder.state
        checkpoint.checkpoint = Checkpoint(sequence: 1, eventsRead: 3)
        try output.saveCheckpoint(checkpoint)
        return (directory, builder.build())
    }

    /// The names of the files a run wrote, each with whether it holds the sentence's word or a fragment.
    static func leaks(in directory: String, word: String) throws -> [(file: String, leaked: Bool)] {
        let out = directory + "/out"
        let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        return try names.map { name in
            // The item tables are zstd: their JSON is what is searched.
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out + "/" + name)))
            let text = String(decoding: name.hasSuffix(".zst") ? try ZstdBytes.decompress(bytes) : bytes, as: UTF8.self)
            return (name, LabelFreeText.leaked(word, into: text))
        }
    }

    @Test(arguments: Field.allCases)
    func noSentenceInAnyFieldReachesAnyFile(_ field: Field) throws {
        for (index, sentence) in LabelFreeText.sentences.enumerated() {
            // The model routes to the member, so a member's name also reaches the confusion counters.
            let routeTo = field == .memberName ? sentence.text : "Penny"
            let (directory, report) = try Self.replay(Self.corpus([field: sentence.text]), routeTo: routeTo)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let leaks = try Self.leaks(in: directory, word: sentence.word)
            #expect(leaks.map(\.file) == ["checkpoint-000001.items.json.zst", "checkpoint-000001.json", "dashboard.html", "items.json.zst",
                                           "junit.xml", "metrics.csv", "metrics.json", "report.json", "report.md", "state.json"])
            for (file, leaked) in leaks {
                // A boolean only, so a failure cannot show the sentence.
                #expect(!leaked, "\(file) holds words of sentence #\(index) put in \(field)")
            }
            let routeAsked = report.at("jobs.route.asked")?.doubleValue ?? 0
            #expect(routeAsked > 0, "\(field) with sentence #\(index): the route job asked nothing")
        }
    }

    @Test func everyFieldAtOnceThroughTheCommand() throws {
        let directoryOwner = try! TemporaryDirectory(prefix: "replay-test")
        let directory = directoryOwner.path
        defer { withExtendedLifetime(directoryOwner) {} }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var texts: [Field: String] = [:]
        for (index, field) in Field.allCases.enumerated() { texts[field] = LabelFreeText.sentences[index % LabelFreeText.sentences.count].text }
        let corpus = writeCorpus(Self.corpus(texts), in: directory)
        var said = ""
        let code = ReplayTool.main(["--model", "/nonexistent/model.gguf", "--flywheel", "--fail-under", "route.accuracy=0.9",
                                    "--resume", "--checkpoint-every", "1", "--out", directory + "/out", corpus],
                                   diagnostics: { said += $0 + "\n" }, sandboxed: false)
        #expect(code == .model)
        // Checkpoints and state.json are scanned like every other file.
        let written = try FileManager.default.contentsOfDirectory(atPath: directory + "/out")
        #expect(written.contains("state.json") && written.contains("checkpoint-000001.json"))
        for (index, sentence) in LabelFreeText.sentences.enumerated() {
            for (file, leaked) in try Self.leaks(in: directory, word: sentence.word) {
                #expect(!leaked, "\(file) holds words of sentence #\(index)")
            }
            let spoken = said.localizedCaseInsensitiveContains(sentence.word)
            #expect(!spoken, "the diagnostics hold words of sentence #\(index)")
        }
    }

    /// Where a label is shown, a sentence is shown as its hash, so counts still group by it.
    @Test func sentencesAreCountedUnderTheirHashes() throws {
        let sentence = LabelFreeText.sentences[0].text
        let hash = ReportLabel(hashing: sentence).text
        let texts: [Field: String] = [.build: sentence, .model: sentence, .memberName: sentence, .groupTo: sentence, .threadID: sentence]
        let (directory, report) = try Self.replay(Self.corpus(texts), routeTo: sentence)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Booleans only, so a failure cannot show the sentence.
        let byBuild = report.at("jobs.chips.by_build")?[hash] != nil
        let byModel = report.at("jobs.route.by_model")?[hash] != nil
        #expect(byBuild && byModel)
        // The person chose the member; the model guessed the member: one confusion pair, hashed both sides.
        let chosen = report.at("jobs.route.counters")?["confusion:\(hash)->\(hash)"] == .int(1)
        let toLead = report.at("jobs.route.counters")?["confusion:lead->\(hash)"] == .int(1)
        #expect(chosen && toLead)
        guard case .array(let samples)? = report.at("corpus.bad_line_samples") else { Issue.record("no samples"); return }
        let reason = samples.last?["reason"] == .label("message for thread '\(hash)' comes before its thread line")
        #expect(reason)
        // Kinds outside the format's vocabulary are hashed too, unless the team lists them.
        #expect(report.at("corpus.unknown_types")?[ReportLabel(hashing: "reaction").text] == .int(1))
        #expect(report.at("corpus.unknown_nodes")?[ReportLabel(hashing: "chart").text] == .int(1))
    }

    // MARK: - The cap

    /// 25 builds and models, build `b<i>` with `i + 1` chip screens.
    static func manyBuilds() -> String {
        var lines = [#"{"type":"export","version":1}"#]
        for i in 0..<25 {
            lines.append(#"{"type":"thread","id":"t\#(i)","agent":"Coach","locale":"en-US"}"#)
            for m in 0...i {
                lines.append(#"{"type":"message","thread":"t\#(i)","id":"a\#(m)","at":"2026-09-01T07:00:00Z","from":"Coach","screen":[{"say":"Ready?"}]}"#)
                lines.append(#"{"type":"message","thread":"t\#(i)","id":"p\#(m)","at":"2026-09-01T07:01:00Z","from":"person","text":"Yes","meta":{"build":"b\#(i)","model":"m\#(i)"}}"#)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func buildsAndModelsAreCappedWithAnExactOther() throws {
        let (directory, report) = try Self.replay(Self.manyBuilds(), routeTo: "Penny")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for dimension in ["by_build", "by_model"] {
            guard case .object(let slices)? = report.at("jobs.chips.\(dimension)") else { Issue.record("no \(dimension)"); continue }
            #expect(slices.count == 21)
            #expect(slices.last?.0 == "(other)")
            #expect(!slices.contains { $0.0 == "b4" || $0.0 == "m4" })
            // b0…b4 have 1…5 screens; nothing is lost.
            #expect(slices.last?.1["scanned"] == .int(1 + 2 + 3 + 4 + 5))
            for key in ["scanned", "eligible", "asked", "answered"] {
                let sum = slices.reduce(0) { $0 + Int($1.1[key]?.doubleValue ?? 0) }
                #expect(sum == Int(report.at("jobs.chips.\(key)")?.doubleValue ?? -1), "\(dimension) \(key)")
            }
        }
        let markdown = try String(contentsOfFile: directory + "/out/report.md", encoding: .utf8)
        #expect(markdown.contains("| \\(other\\) | 15 |"))
        #expect(!markdown.contains("| b4 |"))
    }

    @Test func confusionPairsAreCappedAndNamesHashed() {
        var options = ReplayOptions()
        options.labels = TeamLabels(members: Set((0..<30).map { "M\($0)" } + ["Sage"]))
        let builder = ReportBuilder(options: options, tally: ReplayTally(), model: nil, jobs: [], seconds: 0, started: Date())
        var counters = ["named": 3, "confusion:the quick brown fox->lead": 2]
        for i in 0..<30 { counters["confusion:M\(i)->lead"] = 100 + i }
        let written = builder.counters(counters)
        let keys = written.keys.map(\.text)
        let confusion = keys.filter { $0.hasPrefix("confusion:") }.count
        let kept = keys.contains("named") && (10..<30).allSatisfy { keys.contains("confusion:M\($0)->lead") }
        #expect(confusion == 21)
        #expect(kept)
        let other = written[CounterName("confusion:(other)")]
        #expect(other == (0..<10).map { 100 + $0 }.reduce(0, +) + 2)
        let spelled = keys.contains { $0.localizedCaseInsensitiveContains("quick") }
        #expect(!spelled)
        // Few pairs: all kept, the sentence as its hash.
        let few = builder.counters(["confusion:the quick brown fox->Sage": 1])
        let hashed = few.keys.map(\.text) == ["confusion:\(ReportLabel(hashing: "the quick brown fox").text)->Sage"]
        #expect(hashed)
    }

    @Test(arguments: [
        ("message for thread 't_81f2' comes before its thread line", "message for thread 't_81f2' comes before its thread line"),
        ("field 'screen[2].card.title' is a number, expected a string", "field 'screen[2].card.title' is a number, expected a string"),
        ("field 'screen[0].(other)' is an array", "field 'screen[0].(other)' is an array"),
        ("invalid JSON at column 3: expected a value", "invalid JSON at column 3: expected a value"),
        (#"thread 'it\'s a b' next"#, "thread '\(ReportLabel(hashing: #"it\'s a b"#).text)' next"),
        ("open 'never closed", "open '\(ReportLabel(hashing: "never closed").text)"),
    ])
    func badLineReasonsKeepTheirShapeAndHashIDs(_ reason: String, _ written: String) {
        #expect(ReportLabel.reason(reason) == written)
    }

    // MARK: - Markdown

    @Test(arguments: [
        ("a|b", #"a\|b"#), ("[x](http://y)", #"\[x\]\(http://y\)"#), ("line\nbreak\r\u{2028}", "line break  "),
        ("`code`", #"\`code\`"#), ("<script>", #"\<script\>"#), ("!img", #"\!img"#), (#"back\slash"#, #"back\\slash"#),
        ("2.3.0 (512)", #"2.3.0 \(512\)"#), ("a&amp;", #"a\&amp;"#), ("#h:3f9a1c2e", "#h:3f9a1c2e"), ("time_budget", "time_budget"),
    ])
    func markdownEscaping(_ raw: String, _ escaped: String) {
        #expect(MarkdownText.escape(raw) == escaped)
    }

    @Test func aLabelCannotBreakAMarkdownTable() throws {
        let hostile = "x | y\n| z | [a](b) `c` <d>"
        var report = ReportBuilder(options: ReplayOptions(), tally: ReplayTally(), model: nil, jobs: [ChipsJob()], seconds: 0, started: Date()).report
        let slice = try #require(report.jobs[.chips]?.overall)
        report.jobs[.chips]?.byBuild = ResultMap([(BuildLabel(hostile), slice), (BuildLabel("b"), slice)])
        report.jobs[.chips]?.overall.counters = ResultMap([(CounterName(hostile), 1)])
        let markdown = MarkdownReport.render(report)
        let lines = markdown.split(separator: "\n").map(String.init)
        // Every table line has the header's number of cell borders (unescaped pipes).
        func borders(_ line: String) -> Int {
            var count = 0, escaped = false
            for character in line {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "|" { count += 1 }
            }
            return count
        }
        let table = lines.filter { $0.hasPrefix("|") }
        #expect(table.count == 3 + 3 + 4)   // the corpus table, then the job's two tables
        #expect(Set(table.dropFirst(3).map(borders)) == [14])
        #expect(!markdown.contains("[a](b)") && !markdown.contains("<d>") && !markdown.contains("`c`"))
        #expect(markdown.contains(#"x \| y \| z \| \[a\]\(b\) \`c\` \<d\>"#))
    }
}
