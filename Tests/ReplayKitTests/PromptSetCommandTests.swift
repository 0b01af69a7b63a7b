import Foundation
import Jobs
import Privacy
@testable import Replay
@testable import ReplayKit
import Testing
import RunTestSupport
import TestSupport

/// Prompt sets on the command line: `--prompts FILE` and the config's `prompts` select one,
/// `replay prompts show` prints the built-in one, the report and the state name it, and a resume
/// or a merge refuses runs that asked with another.
@Suite(.tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct PromptSetCommandTests {
    static let sample = BuiltProducts.packageRoot + "/corpora/sample.jsonl.zst"
    static let replay = BuiltProducts.executable("replay")

    /// The built-in file with chips asking for one reply: another set, still valid.
    static var oneReply: String {
        PromptSet.builtIn.json.replacingOccurrences(of: "Write one to three different replies, each under 40 characters",
                                                    with: "Write exactly one reply, under 40 characters")
    }

    static func options(_ arguments: [String]) throws -> ReplayOptions {
        guard case .replay(let options) = try ArgumentParser.parse(arguments, environment: [:]) else {
            throw ArgumentParser.UsageError("not a replay")
        }
        return options
    }

    /// SHA-256 of a file by coreutils' sha256sum: a digest not computed by the code under test.
    static func sha256sum(_ path: String) throws -> String {
        let run = try Subprocess.run(tool: "sha256sum", [path])
        return String(run.output.prefix(64))
    }

    @Test func promptsShowPrintsTheBuiltInSetWhoseDigestIsItsBytes() throws {
        for refused in [["prompts"], ["prompts", "show", "extra"]] {
            var said = ""
            #expect(ReplayTool.main(refused, diagnostics: { said += $0 }, sandboxed: false) == .usage)
            #expect(said.contains("'replay prompts' takes 'show'"))
        }
        let shown = try Subprocess.run(Self.replay, ["prompts", "show"])
        #expect(shown.status == 0 && shown.errors.isEmpty)
        #expect(shown.output == PromptSet.builtIn.json)
        let directory = try TemporaryDirectory(prefix: "prompts")
        let file = try directory.write("shown.json", Array(shown.standardOutput))
        #expect(try Self.sha256sum(file) == PromptSet.builtIn.sha256)
        #expect(try PromptSet(parsing: Array(shown.standardOutput), file: file) == PromptSet.builtIn)
    }

    @Test func theFlagAndTheConfigSelectASetAndTheFlagWins() throws {
        let directory = try TemporaryDirectory(prefix: "prompts")
        let one = try directory.write("one.json", text: Self.oneReply)
        let builtIn = try directory.write("built-in.json", text: PromptSet.builtIn.json)
        let config = try directory.write("config.json", text: "{\"prompts\": \"\(one)\"}")
        #expect(try Self.options(["c.jsonl"]).prompts == PromptSet.builtIn)
        let flagged = try Self.options(["--prompts", one, "c.jsonl"]).prompts
        #expect(flagged.sha256 == (try Self.sha256sum(one)) && flagged.name == "built-in" && flagged != PromptSet.builtIn)
        #expect(try Self.options(["--config", config, "c.jsonl"]).prompts == flagged)
        #expect(try Self.options(["--config", config, "--prompts", builtIn, "c.jsonl"]).prompts == PromptSet.builtIn)
    }

    @Test(arguments: [
        ("{\"prompts\": 3}", "'prompts' must be the path of a prompt set file (see --prompts)"),
        ("{\"prompt\": \"p.json\"}", "unknown key 'prompt' (device, budgets_ms, fail_under, fail_over, labels, run_key, prompts, profiles, inject_fallbacks, inject_seed)"),
    ])
    func aConfigsPromptsMustBeAPath(config: String, problem: String) throws {
        let directory = try TemporaryDirectory(prefix: "prompts")
        let path = try directory.write("config.json", text: config)
        #expect(throws: ArgumentParser.UsageError("\(path): \(problem)")) { try Self.options(["--config", path, "c.jsonl"]) }
    }

    @Test func aBadFileIsAUsageErrorNamingTheFileAndTheKey() throws {
        let directory = try TemporaryDirectory(prefix: "prompts")
        let bad = try directory.write("bad.json", text: PromptSet.builtIn.json.replacingOccurrences(of: "\"{words}\"", with: "\"{thread}\""))
        #expect(throws: ArgumentParser.UsageError("\(bad): jobs.chips.prompt[1]: {thread} is not an input chips may see (it sees agent, words, last_message, language)")) {
            try Self.options(["--prompts", bad, "c.jsonl"])
        }
        #expect(throws: ArgumentParser.UsageError("cannot read the prompts file \(directory.path("missing.json"))")) {
            try Self.options(["--prompts", directory.path("missing.json"), "c.jsonl"])
        }
        #expect(throws: ArgumentParser.UsageError("--prompts /dev/stdin and a corpus of - cannot both be read from standard input")) {
            try Self.options(["--prompts", "/dev/stdin", "-"])
        }
        let said = ShardMergeTests.replay(["--prompts", bad, "--dry-run", "--out", directory.path("out"), Self.sample])
        #expect(said.code == .usage && said.said.contains("jobs.chips.prompt[1]"))
    }

    /// `replay prompts show | replay --prompts /dev/stdin …`, and the same bytes from a file, replay
    /// exactly as the built-in set: the same report but for the run's time and length (a dry run
    /// with the model's tokenizer, so every prompt's size is compared).
    @Test func theShownSetPipedOrFromAFileReplaysAsTheBuiltInSet() throws {
        let directory = try TemporaryDirectory(prefix: "prompts")
        let shown = try Subprocess.run(Self.replay, ["prompts", "show"]).standardOutput
        let file = try directory.write("shown.json", Array(shown))
        let base = ["--dry-run", "--allow-unsandboxed", "--limit", "60"]
        let builtIn = try Subprocess.run(Self.replay, base + ["--out", directory.path("built-in"), Self.sample])
        let piped = try Subprocess.run(Self.replay, base + ["--prompts", "/dev/stdin", "--out", directory.path("piped"), Self.sample], input: shown)
        let fromFile = try Subprocess.run(Self.replay, base + ["--prompts", file, "--out", directory.path("file"), Self.sample])
        for run in [builtIn, piped, fromFile] { #expect(run.status == 0, "\(run.errors)") }
        let reference = try StateFixtures.report(at: directory.path("built-in/report.json"))
        #expect(reference.at("run.prompts") == .object([("name", .label("built-in")), ("sha256", .label(PromptSet.builtIn.sha256))]))
        #expect(reference.at("jobs.chips.prompt_sizes.max_tokens").flatMap(\.doubleValue).map { $0 > 100 } == true)
        for name in ["piped", "file"] {
            let report = try StateFixtures.report(at: directory.path(name + "/report.json"))
            #expect(StateFixtures.comparable(report) == StateFixtures.comparable(reference), "\(name)")
        }
    }

    /// Another set is applied (the prompts' sizes change) and named in the report and the state.
    @Test func anotherSetIsAppliedAndNamedInTheReportAndTheState() throws {
        let directory = try TemporaryDirectory(prefix: "prompts")
        let one = try directory.write("one.json", text: Self.oneReply)
        let base = ["--dry-run", "--job", "chips", "--limit", "40"]
        let builtIn = ShardMergeTests.replay(base + ["--out", directory.path("built-in"), Self.sample])
        let other = ShardMergeTests.replay(base + ["--prompts", one, "--out", directory.path("one"), Self.sample])
        #expect(builtIn.code == .success && other.code == .success, "\(builtIn.said)\(other.said)")
        let a = try StateFixtures.report(at: directory.path("built-in/report.json"))
        let b = try StateFixtures.report(at: directory.path("one/report.json"))
        let digest = try Self.sha256sum(one)
        #expect(b.at("run.prompts") == .object([("name", .label("built-in")), ("sha256", .label(digest))]))
        #expect(a.at("jobs.chips.eligible") == b.at("jobs.chips.eligible"))
        // "Write exactly one reply, under 40 characters" is shorter: every prompt is smaller, none larger.
        let sizes = { (report: ReportValue) in report.at("jobs.chips.prompt_sizes.max_tokens")?.doubleValue ?? 0 }
        #expect(sizes(b) < sizes(a))
        let state = try RunState(stateJSON: String(contentsOfFile: directory.path("one/state.json"), encoding: .utf8), key: StateFixtures.processKey())
        #expect(state.options.prompts == PromptSetIdentity(name: "built-in", sha256: digest))
        #expect(try ReportValueEncoder().encode(state).at("options.prompts.sha256") == .label(digest))
    }

    @Test func aStateNamesItsSetAndOneWithoutAskedWithTheBuiltInSet() throws {
        let identity = PromptSetIdentity(name: "tone-2", sha256: String(repeating: "ab", count: 32))
        var options = StateOptions(jobs: [.chips], budgets: [.chips: 800], device: .iPhone15Pro, threadLimit: nil, strict: false,
                                   dryRun: true, flywheel: false, batchSize: 8, prompts: identity)
        #expect(try ReportValueDecoder().decode(StateOptions.self, from: ReportValueEncoder().encode(options)).prompts == identity)
        guard case .object(let fields) = try ReportValueEncoder().encode(options) else { Issue.record("options are an object"); return }
        let older = ReportValue.object(fields.filter { $0.0 != "prompts" })
        #expect(try ReportValueDecoder().decode(StateOptions.self, from: older).prompts == PromptSet.builtIn.identity)
        options.prompts = PromptSetIdentity(name: "a sentence, not a name", sha256: identity.sha256)
        #expect(throws: StateFormatError("prompts: not a prompt set's name and SHA-256")) {
            try ReportValueDecoder().decode(StateOptions.self, from: ReportValueEncoder().encode(options))
        }
        options.prompts = PromptSetIdentity(name: "tone-2", sha256: "abc")
        #expect(throws: StateFormatError("prompts: not a prompt set's name and SHA-256")) {
            try ReportValueDecoder().decode(StateOptions.self, from: ReportValueEncoder().encode(options))
        }
    }

    @Test func aResumeWithAnotherSetIsRefusedNamingBothDigests() throws {
        let directory = try TemporaryDirectory(prefix: "prompts")
        let one = try directory.write("one.json", text: Self.oneReply)
        let corpus = try directory.write("c.jsonl", text: StateFixtures.messy(threads: 10))
        let out = directory.path("out")
        let base = ["--dry-run", "--job", "chips", "--resume", "--checkpoint-every", "2", "--out", out]
        let first = ShardMergeTests.replay(base + [corpus])
        #expect(first.code == .success, "\(first.said)")
        #expect(!OutputDirectory(out).checkpointSequences().isEmpty)
        // As if killed before its manifest: a finished run is refused before its checkpoints are read.
        try FileManager.default.removeItem(atPath: out + "/manifest.json")
        let refused = ShardMergeTests.replay(base + ["--prompts", one, corpus])
        #expect(refused.code == .usage)
        let digest = try Self.sha256sum(one)
        #expect(refused.said.contains("--prompts: one ran with built-in (SHA-256 \(PromptSet.builtIn.sha256.prefix(12))), "
                                      + "the other with built-in (SHA-256 \(digest.prefix(12)))"), "\(refused.said)")
        // The same set again, from its file, resumes.
        let same = ShardMergeTests.replay(base + ["--prompts", try directory.write("shown.json", text: PromptSet.builtIn.json), corpus])
        #expect(same.code == .success && same.said.contains("resuming after"), "\(same.said)")
    }

    @Test func aMergeOfShardsWithOtherSetsIsRefusedNamingBothDigests() throws {
        let directory = try TemporaryDirectory(prefix: "prompts")
        let one = try directory.write("one.json", text: Self.oneReply)
        let corpus = try directory.write("c.jsonl", text: StateFixtures.messy(threads: 12))
        func shard(_ spec: String, _ name: String, _ extra: [String] = []) -> String {
            let out = directory.path(name)
            let run = ShardMergeTests.replay(["--dry-run", "--job", "chips", "--shard", spec, "--out", out] + extra + [corpus])
            #expect(run.code == .success, "\(run.said)")
            return out
        }
        let s0 = shard("0/2", "s0"), s1 = shard("1/2", "s1"), other = shard("1/2", "other", ["--prompts", one])
        let good = ShardMergeTests.replay(["merge", "--out", directory.path("merged"), s0, s1])
        #expect(good.code == .success, "\(good.said)")
        #expect(try StateFixtures.report(at: directory.path("merged/report.json")).at("run.prompts.sha256") == .label(PromptSet.builtIn.sha256))
        let bad = ShardMergeTests.replay(["merge", "--out", directory.path("bad"), s0, other])
        #expect(bad.code == .input)
        let digest = try Self.sha256sum(one)
        #expect(bad.said.contains(other) && bad.said.contains(String(PromptSet.builtIn.sha256.prefix(12))) && bad.said.contains(String(digest.prefix(12))),
                "\(bad.said)")
    }

    @Test func theUsageMentionsPromptSets() {
        #expect(ArgumentParser.usage.contains("[--prompts FILE.json]"))
        #expect(ArgumentParser.usage.contains("--prompts F "))
        #expect(ArgumentParser.usage.contains("replay prompts show"))
    }
}
