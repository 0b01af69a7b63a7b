import Foundation
import Testing
import Privacy
@testable import Flywheel
import TestSupport

/// Free text in any labelled field of the export never reaches metrics.csv, metrics.json or the
/// dashboard, and each dimension shows at most `ReportLabel.maximumDistinct` labels.
@Suite struct LabelPrivacyTests {
    /// A field of the export that carries a label.
    enum Field: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case build, model, threadLocale, messageLang, agent, groupLead, memberName, groupTo, nodeKind, lineType
        var testDescription: String { rawValue }
    }

    /// A small corpus with `text` in `field` and ordinary values everywhere else.
    static func corpus(_ field: Field?, _ text: String) -> String {
        func value(_ f: Field, _ ordinary: String) -> String { LabelFreeText.json(f == field ? text : ordinary) }
        let agent = value(.agent, "Coach"), lead = value(.groupLead, "Coach"), member = value(.memberName, "Penny")
        let build = value(.build, "2.3.0 (512)"), model = value(.model, "26.4")
        return [
            #"{"type":"export","version":1}"#,
            #"{"type":"thread","id":"t1","agent":\#(agent),"locale":\#(value(.threadLocale, "en-US"))}"#,
            #"{"type":"message","thread":"t1","id":"m1","at":"2026-09-01T07:00:00Z","from":\#(agent),"screen":[{\#(value(.nodeKind, "chart")):{}},{"say":"Why?"}],"push":{"kind":"reply","batch":1}}"#,
            #"{"type":"message","thread":"t1","id":"m2","at":"2026-09-01T07:01:00Z","from":"person","text":"ok","lang":\#(value(.messageLang, "fr-FR")),"meta":{"via":"suggested","build":\#(build),"model":\#(model),"offline":true,"draft_ticks":[0]}}"#,
            #"{"type":\#(value(.lineType, "reaction")),"thread":"t1"}"#,
            #"{"type":"thread","id":"g1","locale":"en-GB","group":{"lead":\#(lead),"members":[{"name":\#(lead)},{"name":\#(member),"about":"x"},{"name":"Sage"}]}}"#,
            #"{"type":"message","thread":"g1","id":"n1","at":"2026-09-02T07:00:00Z","from":"person","text":"hi","meta":{"group":{"to":\#(value(.groupTo, "Penny"))},"build":\#(build),"model":\#(model)}}"#,
            #"{"type":"message","thread":"g1","id":"n2","at":"2026-09-02T07:01:00Z","from":\#(member),"screen":[{"say":"Done."}],"push":{"kind":"reply","batch":2}}"#,
        ].joined(separator: "\n") + "\n"
    }

    @Test(arguments: Field.allCases)
    func noSentenceInAnyFieldReachesAnyFile(_ field: Field) throws {
        for (index, sentence) in LabelFreeText.sentences.enumerated() {
            let directory = try TemporaryDirectory()
            let counter = try HandCorpus.count(Self.corpus(field, sentence.text), in: directory)
            #expect(counter.threads == 2 && counter.messages == 4, "\(field) with sentence #\(index)")
            let out = directory.path + "/out"
            try FlywheelFiles.write(counter, replayed: OutputTests.replayed, to: out)
            for name in FlywheelFiles.names {
                let text = try String(contentsOfFile: out + "/" + name, encoding: .utf8)
                // Booleans only, so a failure cannot show the sentence.
                let leaked = LabelFreeText.leaked(sentence.word, into: text)
                #expect(!leaked, "\(name) holds words of sentence #\(index) put in \(field)")
            }
        }
    }

    /// Sentences joined by `- _ . / + :`, in camelCase and in shouting snake case, in every
    /// field: no flywheel file holds three consecutive words of one, in any case (a failure shows
    /// counts and indexes only).
    @Test(arguments: Field.allCases)
    func noSpelledSentenceInAnyFieldReachesAnyFile(_ field: Field) throws {
        let scan = ThreeWordScan()
        // Every sentence, whole and cut to three words, with half the joiners, and the other half
        // in the next field: each joiner is tried in five of the ten fields, alternating.
        let parity = Field.allCases.firstIndex(of: field)! % 2
        for spelled in SpelledSentence.all where spelled.spelling % 2 == parity {
            let directory = try TemporaryDirectory()
            let counter = try HandCorpus.count(Self.corpus(field, spelled.text), in: directory)
            #expect(counter.threads == 2 && counter.messages == 4, "\(field) with \(spelled)")
            let out = directory.path + "/out"
            try FlywheelFiles.write(counter, replayed: OutputTests.replayed, to: out)
            for name in FlywheelFiles.names {
                let hits = scan.hits(in: try String(contentsOfFile: out + "/" + name, encoding: .utf8))
                #expect(hits == 0, "\(name): \(hits) places with three words of \(spelled) put in \(field)")
            }
        }
    }

    /// What stays readable: agents the team listed and builds and models in version shapes, in
    /// every file; the same agents without the list are hashes.
    @Test func listedAgentsAndVersionShapesStayReadable() throws {
        let directory = try TemporaryDirectory()
        let listed = try HandCorpus.count(Self.corpus(nil, ""), in: directory, name: "listed.jsonl")
        #expect(listed.keys(.agent) == ["Coach", "Penny"])
        #expect(listed.keys(.build) == ["2.3.0 (512)"] && listed.keys(.model) == ["26.4"])
        #expect(listed.keys(.locale) == ["en-GB", "en-US", "fr-FR"])
        let out = directory.path + "/out"
        try FlywheelFiles.write(listed, replayed: OutputTests.replayed, to: out)
        for name in FlywheelFiles.names {
            let text = try String(contentsOfFile: out + "/" + name, encoding: .utf8)
            // The dashboard charts builds and models only.
            let labels = name == "dashboard.html" ? ["2.3.0 (512)", "26.4"] : ["Coach", "Penny", "2.3.0 (512)", "26.4"]
            for shown in labels { #expect(text.contains(shown), "\(name) does not show \(shown)") }
        }
        let unlisted = try HandCorpus.count(Self.corpus(nil, ""), in: directory, name: "unlisted.jsonl", listed: .none)
        #expect(unlisted.keys(.agent).count == 2 && unlisted.keys(.agent).allSatisfy { ReportLabel.isHashed($0) })
        #expect(unlisted.keys(.build) == ["2.3.0 (512)"])
        #expect(!MetricsCSV.render(unlisted).contains("Coach") && !MetricsDocument(unlisted).json().contains("Penny"))
    }

    /// The fields the flywheel counts by show the sentence as its hash, so counts still group.
    @Test(arguments: [(Field.build, MetricDimension.build), (.model, .model), (.threadLocale, .locale),
                      (.messageLang, .locale), (.agent, .agent), (.groupLead, .agent), (.memberName, .agent)])
    func aSentenceIsCountedUnderItsHash(_ field: Field, _ dimension: MetricDimension) throws {
        let directory = try TemporaryDirectory()
        let sentence = LabelFreeText.sentences[0].text
        let counter = try HandCorpus.count(Self.corpus(field, sentence), in: directory)
        let hash = ReportLabel(hashing: sentence).text
        // Booleans only, so a failure cannot show the sentence.
        let counted = counter.keys(dimension).contains(hash)
        #expect(counted)
        let written = MetricsCSV.render(counter).contains(",\(dimension.name),\"\(hash)\",")
        #expect(written)
    }

    // MARK: - The cap

    /// 25 builds, build `1.<i>` with `i + 1` offline messages, each build in its own ISO week.
    static func manyBuilds(_ builds: Range<Int> = 0..<25) -> String {
        var lines = [#"{"type":"export","version":1}"#]
        for i in builds {
            lines.append(#"{"type":"thread","id":"t\#(i)","agent":"Coach","locale":"en-US"}"#)
            let day = Calendar(identifier: .iso8601).date(byAdding: .day, value: 7 * i, to: Date(timeIntervalSince1970: 1_767_225_600))!
            let at = ISO8601DateFormatter().string(from: day)
            for m in 0...i {
                let ticks = m % 2 == 0 ? #","draft_ticks":[0]"# : ""
                lines.append(#"{"type":"message","thread":"t\#(i)","id":"m\#(m)","at":"\#(at)","from":"person","text":"x","meta":{"build":"1.\#(i)","model":"26.\#(i)","offline":true\#(ticks)}}"#)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func eachDimensionShowsTheTopTwentyAndAnExactOther() throws {
        let directory = try TemporaryDirectory()
        let counter = try HandCorpus.count(Self.manyBuilds(), in: directory)
        #expect(counter.keys(.build).count == 25)
        let capped = counter.capped()
        let kept = (5..<25).map { "1.\($0)" }
        #expect(Set(capped.keys(.build)) == Set(kept + ["(other)"]))
        #expect(capped.keys(.build).last == "(other)")
        #expect(capped.keys(.model).count == 21)
        #expect(capped.keys(.week).count == 25)   // weeks are not capped
        for metric in Metric.allCases {
            // (other) is the sum of the five lightest builds, and nothing is lost overall.
            let other = capped.cell(metric, .build, "(other)")
            let merged = (0..<5).map { counter.cell(metric, .build, "1.\($0)") }
            #expect(other.numerator == merged.map(\.numerator).reduce(0, +))
            #expect(other.denominator == merged.map(\.denominator).reduce(0, +))
            let all = capped.keys(.build).map { capped.cell(metric, .build, $0) }
            #expect(all.map(\.denominator).reduce(0, +) == counter.cell(metric).denominator)
            #expect(all.map(\.numerator).reduce(0, +) == counter.cell(metric).numerator)
            #expect(capped.cell(metric) == counter.cell(metric))
        }
        #expect(capped.cell(.draftUsed, .build, "(other)").denominator == 1 + 2 + 3 + 4 + 5)
        #expect(capped.capped() == capped)
        #expect(capped.capped().keys(.build) == capped.keys(.build))
    }

    @Test func everyWrittenFileIsCapped() throws {
        let directory = try TemporaryDirectory()
        let counter = try HandCorpus.count(Self.manyBuilds(), in: directory)
        let csv = MetricsCSV.render(counter).split(separator: "\n").map(String.init)
        let buildRows = csv.filter { $0.hasPrefix("draft.used,build,") }
        #expect(buildRows.count == 21)
        #expect(buildRows.contains { $0.hasPrefix("draft.used,build,\"(other)\",9,15,") })   // b0…b4: 1+1+2+2+3 of 1+2+3+4+5
        #expect(!buildRows.contains { $0.hasPrefix("draft.used,build,1.4,") })
        let json = MetricsDocument(counter).json()
        #expect(json.contains(#""key": "(other)""#) && !json.contains(#""key": "1.4""#))
        let html = Dashboard.render(counter)
        #expect(html.contains(">(other)<") && !html.contains(">1.4<"))
        // Shards merge first and are capped when written: the same bytes as the whole.
        let first = try HandCorpus.count(Self.manyBuilds(0..<12), in: directory, name: "first.jsonl")
        let second = try HandCorpus.count(Self.manyBuilds(12..<25), in: directory, name: "second.jsonl")
        #expect(first.capped().keys(.build).count == 12)
        #expect(MetricsCSV.render(first.merged(with: second)) == MetricsCSV.render(counter))
        #expect(Dashboard.render(second.merged(with: first)) == Dashboard.render(counter))
    }
}
