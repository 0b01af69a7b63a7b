import Engine
import Foundation
import Testing
import TestSupport

/// The model stage's speed-ups change no answer on the sample corpus: every job's requests,
/// planned from the sample's threads exactly as a replay plans them, are answered by the engine
/// as it ships (matrix-product attention with 512-token chunks, prefix cache, continuous
/// batching, lanes side by side) and by
/// the plain engine (each of those off, one lane), and every answer's digest and token count is
/// the same. `replay bench-model --digests` prints digests and counts only, so nothing of a
/// thread's words passes through the test; a mismatch is reported by request index.
@Suite(.serialized) struct ModelStageAnswersTests {
    /// Threads of the sample read per job: enough for several requests of each.
    @Test(arguments: [("chips", 6), ("route", 12), ("push", 6), ("draft", 40)])
    func shippedEngineAnswersAsThePlainOne(job: String, threads: Int) throws {
        #expect(DefaultModel.path() != nil, "the default model is missing: run scripts/setup")
        let corpus = BuiltProducts.packageRoot + "/corpora/sample.jsonl.zst"
        let replay = BuiltProducts.executable("replay")
        let common = ["bench-model", "--job", job, "--limit", String(threads), "--digests"]
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
        #expect(summary.contains("lanes=2") && summary.contains("prefix=on") && summary.contains("chunk=512")
                && summary.contains("attention=matmul"))
    }

    /// The `prompt` and `output` lines of a bench-model run: digests and counts, by request.
    static func lines(_ diagnostics: String) -> (prompts: [Substring], answers: [Substring]) {
        let lines = diagnostics.split(separator: "\n")
        return (lines.filter { $0.hasPrefix("prompt\t") }, lines.filter { $0.hasPrefix("output\t") })
    }
}
