import Foundation
import Jobs
import Llama
import Privacy
import Testing
@testable import Compare
@testable import ReplayKit
@testable import Replay
import RunTestSupport
import TestSupport

/// A prompt experiment with the real model, as a team runs one: the built-in chips prompt
/// against a prompt set that asks for one reply only (examples/prompts/chips-one-reply.json),
/// both replayed over the same screens of the sample, then `replay compare`. Asking for one
/// reply where the built-in asks for one to three must show in what the model writes: a
/// detectable change in chips, and none in what the prompt cannot touch.
@Suite(.serialized, .tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct PromptExperimentTests {
    static let corpus = BuiltProducts.packageRoot + "/corpora/sample.jsonl.zst"
    static let oneReply = BuiltProducts.packageRoot + "/examples/prompts/chips-one-reply.json"

    /// Chips over the first 25 threads of the sample (44 screens that ask) with the real model,
    /// in process. The one-reply prompt takes about 9 of the phone's tokens off a screen's answer
    /// (p about 0.015, 0.3 after Holm's adjustment: the test holds its direction only), and so
    /// 25 points more chips are ready within the budget on the phone's clock, which 25 threads
    /// detect after Holm's adjustment (p about 0.02; the smallest difference they can detect is
    /// about 24 points; 33 threads give p 0.001). Greedy answers make the outcome the same at
    /// every run.
    static func run(_ out: String, _ extra: [String] = []) -> ExitCode {
        ReplayTool.main(["--job", "chips", "--limit", "25", "--out", out] + extra + [corpus], diagnostics: { _ in }, sandboxed: false)
    }

    @Test func askingForOneReplyIsADetectableChangeInChips() throws {
        _ = try #require(DefaultModel.path(), "run scripts/setup first")
        let work = try TemporaryDirectory(prefix: "prompt-experiment")
        #expect(Self.run(work.path("base")) == .success)
        #expect(Self.run(work.path("new"), ["--prompts", Self.oneReply]) == .success)

        let (code, said) = CompareFixtures.compare(["--out", work.path("cmp"), work.path("base"), work.path("new")])
        #expect(code == .success, "\(said)")
        let key = try StateFixtures.processKey()
        let base = try RunDirectory.read(work.path("base"), key: key), new = try RunDirectory.read(work.path("new"), key: key)
        let comparison = Comparison(base: base.items, new: new.items)
        #expect(comparison.join.paired > 40 && comparison.join.baseOnly == 0 && comparison.join.newOnly == 0)
        let chips = try #require(comparison.job(.chips)?.overall)
        // The prompt asks for fewer replies: the model writes fewer tokens, so more chips are
        // ready within the budget on the device, beyond what chance explains after Holm's
        // adjustment across chips's metrics.
        let tokensOut = try #require(chips.metric("tokens.out"))
        #expect((tokensOut.difference ?? 0) < -5, "tokens.out: \(tokensOut.difference ?? .nan)")
        let answered = try #require(chips.metric("answered"))
        #expect(answered.verdict == .better, "answered: \(answered.verdict) \(answered.difference ?? .nan)")
        let inBudget = try #require(chips.metric("in_budget.device"))
        #expect(inBudget.verdict == .better, "in_budget.device: \(inBudget.verdict) \(inBudget.difference ?? .nan)")
        // What the prompt cannot change does not: the same screens were eligible and asked, with
        // the same prompt sizes but for the instructions' own tokens.
        let asked = try #require(chips.metric("asked"))
        #expect(asked.difference == 0 && asked.verdict == .noDetectableChange)
        let tokensIn = try #require(chips.metric("tokens.in"))
        #expect((tokensIn.difference ?? 0) < 0, "the one-reply instructions are shorter")
        // The report names each run's prompt set, and the comparison says the sets differ.
        let document = try ReportValueDecoder(strict: true).decode(
            CompareDocument.self, from: ReportValue(parsingExactJSON: String(contentsOfFile: work.path("cmp/compare.json"), encoding: .utf8)))
        #expect(document.differences.options.contains(.prompts), "\(document.differences.options)")
    }
}
