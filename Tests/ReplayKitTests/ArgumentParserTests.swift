import Engine
import Jobs
import Privacy
import Testing
@testable import ReplayKit
@testable import Replay

@Suite struct ArgumentParserTests {
    @Test func theCommandPeopleType() throws {
        guard case .replay(let options) = try ArgumentParser.parse(["--job", "chips", "corpus.jsonl.zst"]) else {
            Issue.record("expected a replay")
            return
        }
        #expect(options.jobs == [.chips])
        #expect(options.corpus == ["corpus.jsonl.zst"])
        #expect(options.outputDirectory == "replay-report")
        #expect(options.device == .iPhone15Pro)
        #expect(!options.dryRun && !options.strict && options.threadLimit == nil)
    }

    /// `--route-confidence P`: routing's threshold, from 0 (the rule off) up to but not including 1;
    /// the state keeps it when given, and two runs with different thresholds do not merge.
    @Test func theRouteConfidenceIsAProbabilityTheStateKeeps() throws {
        guard case .replay(let options) = try ArgumentParser.parse(["--route-confidence", "0.3", "c.jsonl"]),
              case .replay(let plain) = try ArgumentParser.parse(["c.jsonl"]),
              case .replay(let off) = try ArgumentParser.parse(["--route-confidence", "0", "c.jsonl"]) else {
            Issue.record("expected replays")
            return
        }
        #expect(options.routeConfidence == 0.3 && plain.routeConfidence == nil && off.routeConfidence == 0)
        #expect((RunJobs.jobs(for: options).first { $0.kind == .route } as? RouteJob)?.minimumConfidence == 0.3)
        #expect((RunJobs.jobs(for: plain).first { $0.kind == .route } as? RouteJob)?.minimumConfidence == RouteJob.defaultMinimumConfidence)
        for bad in ["1", "1.5", "-0.1", "half", "nan"] {
            #expect(throws: ArgumentParser.UsageError(
                "--route-confidence takes a probability from 0 (the rule off) up to but not including 1, not '\(bad)'")) {
                try ArgumentParser.parse(["--route-confidence", bad, "c.jsonl"])
            }
        }
        let given = StateOptions(options, jobs: RunJobs.jobs(for: options))
        let unset = StateOptions(plain, jobs: RunJobs.jobs(for: plain))
        #expect(given.differences(from: unset) == ["--route-confidence"])
        #expect(given.makeJobs().compactMap { $0 as? RouteJob }.first?.minimumConfidence == 0.3)
        let encoded = try ReportValueEncoder().encode(given)
        #expect(encoded["route_confidence"] == .number(0.3))
        #expect(try ReportValueEncoder().encode(unset)["route_confidence"] == nil)
        #expect(try ReportValueDecoder().decode(StateOptions.self, from: encoded).routeConfidence == 0.3)
        #expect(try ReportValueDecoder().decode(StateOptions.self, from: try ReportValueEncoder().encode(unset)).routeConfidence == nil)
    }

    @Test func everyFlag() throws {
        let command = try ArgumentParser.parse([
            "--out", "o", "--model", "m.gguf", "--device", "custom:1,20", "--dry-run", "--strict",
            "--limit", "5", "--batch", "2", "a.jsonl", "-", "shards/",
        ])
        guard case .replay(let options) = command else { Issue.record("expected a replay"); return }
        #expect(options.outputDirectory == "o" && options.modelPath == "m.gguf")
        #expect(options.jobs == JobKind.allCases && options.flywheel)
        #expect(options.device.prefillMillisecondsPerToken == 1 && options.device.decodeTokensPerSecond == 20)
        #expect(options.dryRun && options.strict && options.threadLimit == 5 && options.batchSize == 2)
        #expect(options.corpus == ["a.jsonl", "-", "shards/"])
    }

    @Test(arguments: [
        ([], "no corpus given"),
        (["--job", "nope", "c"], "--job takes chips, route, push, draft or all (comma-separated), not 'nope'"),
        (["--limit", "0", "c"], "--limit takes a whole number above 0, not '0'"),
        (["--device", "pixel", "c"], "unknown device profile 'pixel': use iphone15pro, iphone16pro, iphone17pro (the built-in profiles) or custom:MS_PER_TOKEN,TOKENS_PER_S"),
        (["--inject-fallbacks", "refusal=2", "c"], "--inject-fallbacks: the rate of refusal, '2', is not a number from 0 to 1"),
        (["--inject-seed", "3", "c"], "--inject-seed needs --inject-fallbacks"),
        (["--profiles", "/nonexistent/profiles.json", "c"], "cannot read the profiles file /nonexistent/profiles.json"),
        (["--frobnicate", "c"], "unknown option '--frobnicate'"),
        (["--out"], "--out needs a value"),
    ])
    func usageErrorsSayWhatIsWrong(arguments: [String], message: String) {
        #expect(throws: ArgumentParser.UsageError(message)) { try ArgumentParser.parse(arguments) }
    }

    @Test func aSubcommandsUsageErrorIsSaidWithTheUsage() {
        var said = ""
        #expect(ReplayTool.main(["corpus", "generate", "x.zst"], diagnostics: { said += $0 }, sandboxed: false) == .usage)
        #expect(said.hasPrefix("replay: corpus generate needs --threads N") && said.contains("usage: replay"))
    }

    @Test(arguments: [("all", [JobKind.chips, .route, .push, .draft]), ("draft,chips", [.chips, .draft]), ("route", [.route])])
    func jobLists(text: String, jobs: [JobKind]) throws {
        guard case .replay(let options) = try ArgumentParser.parse(["--job", text, "c"]) else { Issue.record("expected a replay"); return }
        #expect(options.jobs == jobs)
    }

    @Test func generateAndInformationalCommands() throws {
        #expect(try CorpusCommand.parse(["generate", "--threads", "3", "--seed", "9", "o.zst"])
                == CorpusCommand.Options(threads: 3, seed: 9, maxExchanges: nil, output: "o.zst"))
        #expect(try FlywheelCommand.parse(["--out", "d", "a.zst", "b"])
                == FlywheelCommand.Options(corpus: ["a.zst", "b"], outputDirectory: "d", allowUnsandboxed: false, labels: .none, force: false))
        #expect(try FlywheelCommand.parse(["--force", "a.zst"])
                == FlywheelCommand.Options(corpus: ["a.zst"], outputDirectory: "replay-report", allowUnsandboxed: false, labels: .none, force: true))
        #expect(try CorpusCommand.parse(["generate", "--threads", "3", "--max-exchanges", "4", "o"])
                == CorpusCommand.Options(threads: 3, seed: 1, maxExchanges: 4, output: "o"))
        #expect(try FlywheelCommand.parse(["--help"]) == nil && MergeCommand.parse(["-h"]) == nil)
        #expect(try ArgumentParser.parse(["--help"]) == .help)
        #expect(try ArgumentParser.parse(["--version"]) == .version)
    }

    @Test func usageErrorsExitWithTwo() {
        var said = ""
        #expect(ReplayTool.main(["--limit", "x", "c"], diagnostics: { said += $0 }, sandboxed: false) == .usage)
        #expect(said.contains("--limit takes a whole number") && said.contains("usage: replay"))
    }
}
