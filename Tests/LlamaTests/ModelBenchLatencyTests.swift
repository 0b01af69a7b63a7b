import Foundation
import Engine
@testable import Jobs
import Privacy
import Testing
@testable import ReplayBench

/// `replay-bench model`'s latency line: its percentiles, and the device estimate beside the
/// host's figures, which must be the estimate a run's budget judges for the same answers.
@Suite struct ModelBenchLatencyTests {
    /// Known answers from numpy 1.26's `numpy.percentile(values, q)` (its default, linear
    /// method), computed independently of this code.
    @Test(arguments: [
        ([1.0, 2, 3, 4], 0.5, 2.5),
        ([1.0, 2, 3, 4], 0.95, 3.85),
        ([10.0], 0.95, 10.0),
        ([3.0, 1, 2], 0.95, 2.9),
        ([120.0, 80.0, 95.5, 300.0, 42.0], 0.95, 264.0),
    ])
    func percentilesAreNumpysLinearOnes(values: [Double], fraction: Double, expected: Double) throws {
        let value = try #require(ModelBench.percentile(values, fraction))
        #expect(abs(value - expected) < 1e-9)
    }

    @Test func noValuesHaveNoPercentile() {
        #expect(ModelBench.percentile([], 0.5) == nil)
    }

    /// The estimate counts the phone's tokens, never the stand-in's: the prompt as planning
    /// counted it, the answer by the phone's tokenizer; a failed request has no answer to time.
    @Test func theDeviceEstimateIsTheRunsJudgingOfTheSameAnswers() throws {
        let attribution = Attribution(build: nil, model: nil, message: "m1")
        let request = GenerationRequest(instructions: SealedText("Write one line."), prompt: SealedText("invented words"),
                                        grammar: nil, maxOutputTokens: 40)
        let items = [300, 120, 60].map {
            JobItem(job: .push, attribution: attribution, request: request, inputTokens: 10, inputWasCut: false, promptTokens: $0)
        }
        let answer = SealedText("an invented answer of several words")
        // The stand-in's own counts (9,999 prompt tokens, 1 output token) must play no part.
        let outcomes = [
            GenerationOutcome(output: .success(answer), promptTokens: 9_999, outputTokens: 1, hostMilliseconds: 5),
            GenerationOutcome(output: .failure(.decodeFailed(status: 1)), promptTokens: 9_999, outputTokens: 0, hostMilliseconds: 5),
            GenerationOutcome(output: .success(answer), promptTokens: 9_999, outputTokens: 1, hostMilliseconds: 5),
        ]
        let device = ModelBench.deviceMilliseconds(items, outcomes)
        let phone = ModelProfiles.builtIn.device(.iPhone15Pro, model: Attribution.unknown)
        let answerTokens = PhoneTokenizers(.builtIn).tokenizer(forModel: Attribution.unknown).tokenCount(of: answer)
        #expect(answerTokens > 1)
        #expect(device.first == [300 * phone.prefillMillisecondsPerToken, 60 * phone.prefillMillisecondsPerToken])
        #expect(device.answer == [300, 60].map { phone.estimatedMilliseconds(promptTokens: $0, outputTokens: answerTokens) })
        // The same sizes as the run's judging of the item (`Job.evaluate` through `phoneSized`).
        let sized = items[0].phoneSized(outcomes[0], tokens: PhoneTokenizers(.builtIn).tokenizer(forModel: Attribution.unknown))
        #expect(sized.promptTokens == 300 && sized.outputTokens == answerTokens)
        // And the latency line carries them, after the host's six figures.
        let line = ModelBench.latencyLine(.push, outcomes, seconds: 1, device: device).split(separator: "\t")
        #expect(line.count == 12)
        #expect(line[0] == "latency" && line[1] == "push")
        #expect(line[2...5].allSatisfy { $0 == "-" }, "nothing was clocked on the host")
        let median: Double = (device.first[0] + device.first[1]) / 2
        #expect(line[8] == Substring(String(format: "%.1f", median)))
    }
}
