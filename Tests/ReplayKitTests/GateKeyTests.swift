import Audit
import Foundation
import Jobs
import Privacy
import Testing
@testable import ReplayKit
import TestSupport

/// Gates that name a slice: a build, a model version, a locale, or a build × model-version cell,
/// with labels that hold dots, spaces and, quoted, anything.
@Suite struct GateKeyTests {
    /// Chips over two builds and two model versions: 2.4.1 (534) on 26.4 (4 places, 1 broke the
    /// agent-voice rule) and on 27.0 (2 places, both broke it), 2.3.0 on 26.4 (1 place).
    let report: RunReport = {
        var ledger = JobLedger()
        let places: [(String, String, Int, Int)] = [("2.4.1 (534)", "26.4", 4, 1), ("2.4.1 (534)", "27.0", 2, 2), ("2.3.0", "26.4", 1, 0)]
        for (build, model, scanned, broke) in places {
            let attribution = Attribution(build: build, model: model, locale: "en")
            for _ in 0..<scanned { ledger.scanned(attribution) }
            for _ in 0..<broke { ledger.count(NeverRule.chipsAgentVoice.counter, attribution) }
        }
        var tally = ReplayTally()
        tally.ledgers[.chips] = ledger
        return ReportBuilder(options: ReplayOptions(), tally: tally, model: nil, jobs: [ChipsJob()], seconds: 0, started: Date()).report
    }()

    @Test(arguments: [
        ("chips.answered_rate", "chips.answered_rate"),
        ("chips[build=2.4.1 (534)].scanned", "chips[build=2.4.1 (534)].scanned"),
        ("chips[model=27.0,build=2.4.1 (534)].scanned", "chips[build=2.4.1 (534),model=27.0].scanned"),
        (#"chips[build="beta, \"internal\" \\ 1"].scanned"#, #"chips[build="beta, \"internal\" \\ 1"].scanned"#),
        (#"chips[build="2.4.1"].scanned"#, "chips[build=2.4.1].scanned"),
        ("chips[build=*,model=27.0].scanned", "chips[build=*,model=27.0].scanned"),
        (#"chips[build="*"].scanned"#, #"chips[build="*"].scanned"#),
        ("chips[locale=en].violations.chips_agent_voice", "chips[locale=en].violations.chips_agent_voice"),
    ])
    func keysReadAndWriteBack(text: String, written: String) throws {
        let key = try GateKey(parsing: text)
        #expect(key.description == written)
        #expect(try GateKey(parsing: key.description) == key)
    }

    @Test func aQuotedStarIsALabelAndABareOneIsEvery() throws {
        #expect(try GateKey(parsing: "chips[build=*].x").slice == .build(.every))
        #expect(try GateKey(parsing: #"chips[build="*"].x"#).slice == .build(.named("*")))
        #expect(try GateKey(parsing: #"chips[build="a=b"].x"#).slice == .build(.named("a=b")))
        // The number is after the last `=`: a label may hold one.
        let (key, value) = try GateKey.parsingAssignment("chips[build=a=b].scanned=3")
        #expect(key.slice == .build(.named("a=b")) && value == 3)
    }

    /// A cell gate judges that cell alone; a build gate the build's every model; a `*` one verdict per label.
    @Test(arguments: [
        ("chips[build=2.4.1 (534),model=27.0].counters.never:chips_agent_voice=1", [("chips[build=2.4.1 (534),model=27.0].counters.never:chips_agent_voice", 2.0, false)]),
        ("chips[build=2.4.1 (534),model=26.4].counters.never:chips_agent_voice=1", [("chips[build=2.4.1 (534),model=26.4].counters.never:chips_agent_voice", 1.0, true)]),
        ("chips[build=2.4.1 (534)].scanned=10", [("chips[build=2.4.1 (534)].scanned", 6.0, true)]),
        ("chips[model=26.4].scanned=10", [("chips[model=26.4].scanned", 5.0, true)]),
        ("chips[model=*].scanned=4", [("chips[model=26.4].scanned", 5.0, false), ("chips[model=27.0].scanned", 2.0, true)]),
        ("chips[build=*,model=26.4].scanned=4", [("chips[build=2.3.0,model=26.4].scanned", 1.0, true),
                                                 ("chips[build=2.4.1 (534),model=26.4].scanned", 4.0, true)]),
    ])
    func slicesAreJudgedEachOnItsOwnNumbers(text: String, expected: [(String, Double, Bool)]) throws {
        let verdicts = try Threshold(parsing: text, bound: .atMost).judge(report)
        #expect(verdicts.map(\.threshold.key.description) == expected.map(\.0))
        #expect(verdicts.map(\.value) == expected.map(\.1))
        #expect(verdicts.map(\.met) == expected.map(\.2))
    }

    /// A slice the report does not have, or a `*` with nothing to match, is no data: not met,
    /// never a gate that silently vanishes.
    @Test(arguments: ["chips[build=9.9].scanned=0", "chips[build=2.3.0,model=27.0].scanned=0", "chips[build=9.9,model=*].scanned=0"])
    func aMissingSliceIsNoData(text: String) throws {
        let verdicts = try Threshold(parsing: text).judge(report)
        #expect(verdicts.count == 1 && verdicts[0].value == nil && !verdicts[0].met)
        #expect(verdicts[0].line.contains("no data (not met"))
    }

    /// report.json's cells add up to the build and model slices, and report.md shows them.
    @Test func theCellsAddUpAndShow() throws {
        let chips = try #require(report.jobs[.chips])
        let cells = chips.byBuildModel.pairs.flatMap { build in build.value.pairs.map { (build.key.text, $0.key.text, $0.value.scanned) } }
        #expect(cells.map(\.0) == ["2.3.0", "2.4.1 (534)", "2.4.1 (534)"] && cells.map(\.1) == ["26.4", "26.4", "27.0"])
        #expect(cells.map(\.2) == [1, 4, 2])
        for build in chips.byBuild.pairs {
            #expect(chips.byBuildModel[build.key]?.pairs.reduce(0) { $0 + $1.value.scanned } == build.value.scanned)
        }
        #expect(MarkdownReport.render(report).contains(#"| 2.4.1 \(534\) × 27.0 | 2 |"#))
    }

    /// A label as the corpus spells it is matched through the report's rule: a hashed build is
    /// named by its raw value or its hash alike, and the verdict (and junit.xml) carry the hash.
    @Test func aRawLabelIsMatchedByTheReportsRule() throws {
        var ledger = JobLedger()
        ledger.scanned(Attribution(build: "nightly build for the team", model: "26.4"))
        var tally = ReplayTally()
        tally.ledgers[.chips] = ledger
        let report = ReportBuilder(options: ReplayOptions(), tally: tally, model: nil, jobs: [ChipsJob()], seconds: 0, started: Date()).report
        let hash = ReportLabel(build: "nightly build for the team").text
        #expect(ReportLabel.isHashed(hash))
        for text in ["chips[build=nightly build for the team].scanned=1", "chips[build=\(hash)].scanned=1"] {
            let verdicts = try Threshold(parsing: text).judge(report)
            #expect(verdicts.map(\.threshold.key.description) == ["chips[build=\(hash)].scanned"] && verdicts.map(\.met) == [true])
        }
    }

    /// junit.xml names each slice's gate, and the audit accepts the writer's names and refuses a
    /// slice label that is free text.
    @Test func junitNamesEachSliceAndTheAuditReadsIt() throws {
        let verdicts = try ["chips[model=*].scanned=4", "chips[build=2.4.1 (534),model=27.0].answered_rate=0.5"]
            .flatMap { try Threshold(parsing: $0).judge(report) }
        let xml = JUnitReport.render(verdicts)
        #expect(xml.contains(#"name="chips[model=26.4].scanned >= 4.0"/>"#))
        #expect(xml.contains(#"name="chips[model=27.0].scanned >= 4.0">"#))
        #expect(xml.contains(#"name="chips[build=2.4.1 (534),model=27.0].answered_rate >= 0.5">"#))
        let directory = try TemporaryDirectory(prefix: "junit-slices")
        _ = try directory.write("junit.xml", text: xml)
        let findings = ResultSchemaCheck.check(directory: directory.path, knownPaths: [], documents: [])
        #expect(findings.isEmpty, "\(findings.map(\.message))")

        let planted = xml.replacingOccurrences(of: "[model=26.4]", with: "[model=meet me at the station]")
        let other = try TemporaryDirectory(prefix: "junit-slices")
        _ = try other.write("junit.xml", text: planted)
        #expect(!ResultSchemaCheck.check(directory: other.path, knownPaths: [], documents: []).isEmpty)
    }

    /// The config file takes slice keys as the flags do, and names a bad one.
    @Test func theConfigFileTakesSliceKeys() throws {
        let directory = try TemporaryDirectory(prefix: "replay-test")
        let path = try directory.write("replay.json", text: #"{"fail_over":{"chips[build=2.4.1 (534),model=27.0].counters.never:chips_agent_voice":0}}"#)
        guard case .replay(let options) = try ArgumentParser.parse(["--config", path, "c.zst"]) else { Issue.record("expected a replay"); return }
        #expect(options.thresholds.map(\.name) == ["chips[build=2.4.1 (534),model=27.0].counters.never:chips_agent_voice <= 0.0"])
        let bad = try directory.write("bad.json", text: #"{"fail_over":{"chips[colour=red].scanned":0}}"#)
        #expect(throws: ArgumentParser.UsageError.self) { try ArgumentParser.parse(["--config", bad, "c.zst"]) }
    }
}
