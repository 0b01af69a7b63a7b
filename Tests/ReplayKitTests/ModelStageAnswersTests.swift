import Confinement
import Foundation
import Llama
import Testing
import TestSupport

/// The model stage's speed-ups change no answer on the sample corpus: every job's requests,
/// planned from the sample's threads exactly as a replay plans them, are answered by the engine
/// as it ships (matrix-product attention with 512-token chunks, prefix cache, continuous
/// batching, lanes side by side) and by
/// the plain engine (each of those off, one lane), and every answer's digest and token count is
/// the same. `replay-bench model --digests` prints digests and counts only, so nothing of a
/// thread's words passes through the test; a mismatch is reported by request index.
@Suite(.serialized, .tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct ModelStageAnswersTests {
    /// Threads of the sample read per job: enough for three to five requests of each (one real-model
    /// run per job; EngineSpeedUpTests holds every speed-up and batch shape to the plain engine).
    /// Every size is the phone's (each model version's estimate), never the stand-in's: a dry run
    /// with the model file and one with none at all (exit 4) report the same jobs, which is what
    /// lets bench/dryrun.sh time the one against the other.
    @Test func aDryRunSizesTheSameWithTheModelAndWithout() throws {
        #expect(DefaultModel.path() != nil, "the default model is missing: run scripts/setup")
        let corpus = BuiltProducts.packageRoot + "/corpora/sample.jsonl.zst"
        let directory = try TemporaryDirectory(prefix: "dry-sizes")
        let common = ["--dry-run", "--job", "chips,push", "--limit", "12", "--allow-unsandboxed"]
        let model = try Subprocess.run(BuiltProducts.executable("replay"), common + ["--out", directory.path("model"), corpus])
        let none = try Subprocess.run(BuiltProducts.executable("replay"),
                                      common + ["--model", directory.path("none.gguf"), "--out", directory.path("none"), corpus])
        #expect(model.status == 0 && none.status == 4)
        func jobs(_ run: String) throws -> String {
            let report = try String(contentsOfFile: directory.path(run) + "/report.json", encoding: .utf8)
            let jobs = try #require(report.range(of: "\"jobs\": {"), "a report has its jobs")
            return String(report[jobs.lowerBound...])
        }
        #expect(try jobs("model").contains("\"prompt_sizes\""))
        #expect(try jobs("model") == jobs("none"))
    }

    @Test(arguments: [("chips", 3), ("route", 8), ("push", 3), ("draft", 30)])
    func shippedEngineAnswersAsThePlainOne(job: String, threads: Int) throws {
        #expect(DefaultModel.path() != nil, "the default model is missing: run scripts/setup")
        let corpus = BuiltProducts.packageRoot + "/corpora/sample.jsonl.zst"
        let replay = BuiltProducts.executable("replay-bench")
        let directory = try TemporaryDirectory(prefix: "bench-key")
        let key = try Self.keyFile(in: directory, byte: 0x42)
        let common = ["model", "--job", job, "--limit", String(threads), "--digests", key]
        let shipped = try Subprocess.run(replay, common + ["--lanes", "2", corpus])
        let plain = try Subprocess.run(replay, common + ["--engine", "plain", "--lanes", "1", corpus])
        #expect(shipped.status == 0 && plain.status == 0)

        let (shippedPrompts, shippedAnswers) = Self.lines(shipped.errors)
        let (plainPrompts, plainAnswers) = Self.lines(plain.errors)
        #expect(!shippedAnswers.isEmpty, "the sample gives \(job) something to answer")
        #expect(shippedPrompts == plainPrompts, "both engines were asked the same")
        #expect(shippedAnswers.count == plainAnswers.count)
        let differing = zip(shippedAnswers, plainAnswers).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(differing.isEmpty, "\(job): answers differ at requests \(differing)")
        // The shipped engine did use its speed-ups, or the comparison proves nothing.
        let summary = try #require(shipped.errors.split(separator: "\n").first { $0.hasPrefix("summary\t") })
        // A lane per core the run may use (this process's share, when scripts/test binds it).
        #expect(summary.contains("lanes=\(AvailableProcessors.count)") && summary.contains("prefix=on") && summary.contains("chunk=512")
                && summary.contains("attention=matmul"))
    }

    /// The benchmark's digests are keyed: under another key every digest differs (the token counts
    /// do not), and none is the plain SHA-256 a guess could be checked against.
    @Test func digestsAreKeyedByTheBenchmarksKey() throws {
        #expect(DefaultModel.path() != nil, "the default model is missing: run scripts/setup")
        let corpus = BuiltProducts.packageRoot + "/corpora/sample.jsonl.zst"
        let replay = BuiltProducts.executable("replay-bench")
        let directory = try TemporaryDirectory(prefix: "bench-key")
        func prompts(_ key: String) throws -> [[Substring]] {
            let run = try Subprocess.run(replay, ["model", "--job", "route", "--limit", "12", "--plan-only", "--digests", key, corpus])
            #expect(run.status == 0)
            return Self.lines(run.errors).prompts.map { $0.split(separator: "\t") }
        }
        let one = try prompts(try Self.keyFile(in: directory, byte: 1))
        let two = try prompts(try Self.keyFile(in: directory, byte: 2))
        #expect(!one.isEmpty && one.count == two.count)
        for (a, b) in zip(one, two) {
            #expect(a[6] == b[6], "the same token count")
            #expect((2...5).allSatisfy { a[$0] != b[$0] }, "every digest keyed")
        }
        let noKey = try Subprocess.run(replay, ["model", "--job", "route", "--plan-only", "--digests", corpus])
        #expect(noKey.status == 2)
    }

    /// `--requests N` asks the first N requests of the threads read in order: the first N of
    /// what `--limit` plans over enough threads, the read stopping once it has them; a limit that
    /// gives fewer keeps them all.
    @Test func requestsAreTheFirstOfTheThreadsRead() throws {
        #expect(DefaultModel.path() != nil, "the default model is missing: run scripts/setup")
        let corpus = BuiltProducts.packageRoot + "/corpora/sample.jsonl.zst"
        let replay = BuiltProducts.executable("replay-bench")
        let directory = try TemporaryDirectory(prefix: "bench-key")
        let key = try Self.keyFile(in: directory, byte: 7)
        func planned(_ flags: [String]) throws -> [Substring] {
            let run = try Subprocess.run(replay, ["model", "--job", "route", "--plan-only", "--digests", key] + flags + [corpus])
            #expect(run.status == 0)
            return Self.lines(run.errors).prompts
        }
        let twelveThreads = try planned(["--limit", "12"])
        #expect(twelveThreads.count > 3, "twelve threads of the sample give route several requests")
        #expect(try planned(["--requests", "3"]) == Array(twelveThreads.prefix(3)))
        #expect(try planned(["--requests", "1000", "--limit", "12"]) == twelveThreads)
    }

    /// A key file of 32 bytes of `byte`, mode 0600, in `directory`.
    static func keyFile(in directory: TemporaryDirectory, byte: UInt8) throws -> String {
        let path = try directory.write("key-\(byte)", [UInt8](repeating: byte, count: 32))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        return path
    }

    /// The `prompt` and `output` lines of a replay-bench model run: digests and counts, by request.
    static func lines(_ diagnostics: String) -> (prompts: [Substring], answers: [Substring]) {
        let lines = diagnostics.split(separator: "\n")
        return (lines.filter { $0.hasPrefix("prompt\t") }, lines.filter { $0.hasPrefix("output\t") })
    }
}
