import Audit
import Confinement
import Foundation
import Jobs
import Testing
@testable import ReplayKit
@testable import Replay
import Privacy
import TestSupport

@Suite struct ThresholdTests {
    /// A report of chips alone: 25% in budget on the device, none measured on the host, exact matches half of 4.
    let report: RunReport = {
        var report = ReportBuilder(options: ReplayOptions(), tally: ReplayTally(), model: nil, jobs: [ChipsJob()], seconds: 0, started: Date()).report
        report.jobs[.chips]?.overall.inBudget = RunReport.Metrics.InBudget(host: nil, device: 0.25)
        report.jobs[.chips]?.overall.quality[QualityName("exact_match")] = RunReport.Metrics.Quality(compared: 4, mean: 0.5)
        return report
    }()

    @Test(arguments: [
        ("chips.in_budget.device=0.2", true, "chips.in_budget.device 0.25 >= 0.2 (met)"),
        ("chips.in_budget.device=0.9", false, "chips.in_budget.device 0.25 < 0.9 (not met)"),
        ("chips.exact_match=0.5", true, "chips.exact_match 0.5 >= 0.5 (met)"),
        ("chips.in_budget.host=0.1", false, "chips.in_budget.host: no data (not met; needs at least 0.1)"),
        ("route.accuracy=0.5", false, "route.accuracy: no data (not met; needs at least 0.5)"),
    ])
    func gatesAreJudgedFromTheReport(text: String, met: Bool, line: String) throws {
        let verdicts = try Threshold(parsing: text).judge(report)
        try #require(verdicts.count == 1)
        let verdict = verdicts[0]
        #expect(verdict.met == met)
        #expect(verdict.line == line)
    }

    /// `--fail-over`: the number must stay at or below the limit; no number is not met either.
    @Test(arguments: [
        ("chips.in_budget.device=0.3", true, "chips.in_budget.device 0.25 <= 0.3 (met)"),
        ("chips.in_budget.device=0.25", true, "chips.in_budget.device 0.25 <= 0.25 (met)"),
        ("chips.in_budget.device=0.2", false, "chips.in_budget.device 0.25 > 0.2 (not met)"),
        ("chips.in_budget.host=0.1", false, "chips.in_budget.host: no data (not met; needs at most 0.1)"),
    ])
    func aGateOverIsMetAtOrBelowItsLimit(text: String, met: Bool, line: String) throws {
        let threshold = try Threshold(parsing: text, bound: .atMost)
        #expect(threshold.bound == .atMost && threshold.name.hasSuffix(" <= \(threshold.limit)"))
        let verdict = try #require(threshold.judge(report).first)
        #expect(verdict.met == met)
        #expect(verdict.line == line)
    }

    @Test func junitNamesEachGateWithItsSide() throws {
        let verdicts = try [Threshold(parsing: "chips.in_budget.device=0.2"), Threshold(parsing: "chips.in_budget.device=0.2", bound: .atMost)]
            .flatMap { $0.judge(report) }
        let xml = JUnitReport.render(verdicts)
        #expect(xml.contains(#"name="chips.in_budget.device >= 0.2""#) && xml.contains(#"name="chips.in_budget.device &lt;= 0.2""#))
        #expect(xml.components(separatedBy: "<failure ").count == 2, "only the gate over fails")
        // The audit reads both sides as the writer's gates.
        let directory = try TemporaryDirectory(prefix: "junit-sides")
        _ = try directory.write("junit.xml", text: xml)
        let findings = ResultSchemaCheck.check(directory: directory.path, knownPaths: [], documents: [])
        #expect(findings.isEmpty, "\(findings.map(\.message))")
    }

    @Test func failOverComesFromTheFlagsTheMergeAndTheConfigFile() throws {
        let directory = try TemporaryDirectory(prefix: "replay-test")
        let path = try directory.write("replay.json", text: #"{"fail_under":{"chips.answered_rate":0.5},"fail_over":{"chips.fallbacks.time_budget":10,"route.fallbacks.time_budget":3}}"#)
        let command = try ArgumentParser.parse(["--config", path, "--fail-over", "route.fallbacks.time_budget=1", "c.zst"])
        guard case .replay(let options) = command else { Issue.record("expected a replay"); return }
        // The flag replaces the file's gate of its key and side, and leaves the file's gate under of another key.
        #expect(options.thresholds == [Threshold(key: try GateKey(parsing: "chips.answered_rate"), minimum: 0.5), Threshold(key: try GateKey(parsing: "chips.fallbacks.time_budget"), maximum: 10),
                                       Threshold(key: try GateKey(parsing: "route.fallbacks.time_budget"), maximum: 1)])
        let merge = try #require(try MergeCommand.parse(["--fail-over", "chips.fallbacks.time_budget=0", "a", "b"]))
        #expect(merge.thresholds == [Threshold(key: try GateKey(parsing: "chips.fallbacks.time_budget"), maximum: 0)])
        #expect(throws: ArgumentParser.UsageError.self) { try ArgumentParser.parse(["--fail-over", "chips=1", "c.zst"]) }
    }

    @Test(arguments: ["chips=0.9", "in_budget", "chips.in_budget.device=high", "chips.x=nan", "chip.answered_rate=1",
                      "chips[build=2.4].=1", "chips..x=1", "chips[build=2.4.x=1", "chips[colour=red].x=1", "chips[build=].x=1",
                      "chips[build=a,locale=en].x=1", #"chips[build="open].x=1"#, #"chips[build=a"b].x=1"#, #"chips[build="a\q"].x=1"#])
    func malformedGatesAreRejected(text: String) {
        #expect(throws: GateKey.Problem.self) { try Threshold(parsing: text) }
    }

    @Test func junitHasOneCasePerGateAndFailuresForUnmetOnes() throws {
        let verdicts = try ["chips.in_budget.device=0.2", "chips.in_budget.device=0.9"].flatMap { try Threshold(parsing: $0).judge(report) }
        let xml = JUnitReport.render(verdicts)
        #expect(xml.contains(#"<testsuite name="replay.thresholds" tests="2" failures="1" errors="0">"#))
        #expect(xml.components(separatedBy: "<testcase ").count == 3)
        #expect(xml.components(separatedBy: "<failure ").count == 2)
        #expect(xml.contains("&lt; 0.9 (not met)"))
    }

    @Test func configFileAndFlagsCombineWithFlagsWinning() throws {
        let directoryOwner = try! TemporaryDirectory(prefix: "replay-test")
        let directory = directoryOwner.path
        defer { withExtendedLifetime(directoryOwner) {} }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/replay.json"
        try Data(#"{"device":"custom:2,10","budgets_ms":{"chips":500,"route":300},"fail_under":{"chips.in_budget.device":0.9,"route.accuracy":0.5}}"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        let command = try ArgumentParser.parse(["--config", path, "--budget", "chips=700", "--fail-under", "route.accuracy=0.7", "c.zst"])
        guard case .replay(let options) = command else { Issue.record("expected a replay"); return }
        #expect(options.device.prefillMillisecondsPerToken == 2)
        #expect(options.budgets == [.chips: 700, .route: 300])
        #expect(options.thresholds == [Threshold(key: try GateKey(parsing: "chips.in_budget.device"), minimum: 0.9), Threshold(key: try GateKey(parsing: "route.accuracy"), minimum: 0.7)])
    }

    @Test(arguments: [
        (#"{"colour":1}"#, "unknown key 'colour'"),
        (#"{"budgets_ms":{"chips":-1}}"#, "budgets_ms.chips must name a job"),
        (#"{"device":"pixel"}"#, "replay.json: 'device': unknown device profile 'pixel': use iphone15pro, iphone16pro, iphone17pro"),
        (#"{"inject_seed":-1}"#, "'inject_seed' must be a whole number"),
        (#"{"profiles":3}"#, "'profiles' must be the path of a profiles file"),
        ("not json", "not a JSON object"),
    ])
    func badConfigFilesSayWhichKeyIsWrong(text: String, message: String) throws {
        let directoryOwner = try! TemporaryDirectory(prefix: "replay-test")
        let directory = directoryOwner.path
        defer { withExtendedLifetime(directoryOwner) {} }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/replay.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            try ArgumentParser.parse(["--config", path, "c.zst"])
        } throws: { error in
            (error as? ArgumentParser.UsageError)?.description.contains(message) == true
        }
    }

    /// A key given twice is a usage error naming it, at the top level or in a job's object,
    /// rather than one of the two silently kept; the values are never repeated.
    @Test(arguments: [
        (#"{"labels":"a.json","device":"iphone15pro","labels":"surgery.json"}"#, "'labels' is given twice"),
        (#"{"budgets_ms":{"chips":500,"route":300,"chips":600}}"#, "budgets_ms.chips is given twice"),
        (#"{"fail_under":{"route.accuracy":0.5,"route.accuracy":0.7}}"#, "fail_under.route.accuracy is given twice"),
    ])
    func aConfigKeyGivenTwiceIsAUsageErrorNamingIt(text: String, problem: String) throws {
        let directory = try TemporaryDirectory(prefix: "replay-test")
        let path = try directory.write("replay.json", text: text)
        #expect(throws: ArgumentParser.UsageError("\(path): \(problem)")) {
            try ArgumentParser.parse(["--config", path, "c.zst"])
        }
    }

    @Test func unmetGatesExitWithOneAndTheVerdictSaysSo() throws {
        let outOwner = try! TemporaryDirectory(prefix: "replay-test")
        let out = outOwner.path
        defer { withExtendedLifetime(outOwner) {} }
        defer { try? FileManager.default.removeItem(atPath: out) }
        let corpus = writeCorpus(tinyCorpus, in: out)
        var said = ""
        // A dry run has no in-budget numbers: the gate has no data, so it is not met.
        let code = ReplayTool.main(["--dry-run", "--out", out, "--fail-under", "chips.in_budget.device=0.5", corpus],
                                   diagnostics: { said += $0 + "\n" }, sandboxed: false)
        #expect(code == .thresholdsNotMet)
        #expect(said.contains("verdict: 1 of 1 gates not met (exit 1)"))
        let xml = try String(contentsOfFile: out + "/junit.xml", encoding: .utf8)
        #expect(xml.contains(#"failures="1""#))
        said = ""
        // Over the finished run of the first call: --force replaces it.
        let met = ReplayTool.main(["--dry-run", "--force", "--out", out, "--fail-under", "chips.eligible=2", corpus], diagnostics: { said += $0 + "\n" }, sandboxed: false)
        #expect(met == .success)
        #expect(said.contains("verdict: all 1 gates met"))
    }
}
