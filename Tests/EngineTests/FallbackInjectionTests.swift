import Engine
import Privacy
import Testing

/// Refusals, guardrails and rate limits injected at configured rates: seeded, decided per place,
/// and passed through untouched everywhere else.
@Suite struct FallbackInjectionTests {
    @Test func eachReasonTakesItsShareOfPlacesWithinBinomialNoise() throws {
        let injection = try FallbackInjection.parse("refusal=0.05,guardrail=0.02,rate_limit=0.01", seed: 7)
        let places = 200_000
        var counts: [FallbackInjection.Reason: Int] = [:]
        for key in 0..<UInt64(places) {
            // Place keys are keyed hashes: spread them as such, not as consecutive numbers.
            if let reason = injection.reason(at: key &* 0x9E37_79B9_7F4A_7C15) { counts[reason, default: 0] += 1 }
        }
        for (reason, rate) in [(FallbackInjection.Reason.refusal, 0.05), (.guardrail, 0.02), (.rateLimit, 0.01)] {
            let expected = Double(places) * rate
            let sd = (Double(places) * rate * (1 - rate)).squareRoot()
            #expect(abs(Double(counts[reason] ?? 0) - expected) < 5 * sd, "\(reason): \(counts[reason] ?? 0) against \(expected)")
        }
    }

    @Test func theSamePlaceGetsTheSameDecisionAndAnotherSeedOtherPlaces() throws {
        let a = try FallbackInjection.parse("refusal=0.1", seed: 1)
        let b = try FallbackInjection.parse("refusal=0.1", seed: 2)
        let keys = (0..<5_000).map { UInt64($0) &* 0xD6E8_FEB8_6659_FD93 }
        let first = keys.filter { a.reason(at: $0) != nil }
        #expect(first == keys.filter { a.reason(at: $0) != nil })
        let second = Set(keys.filter { b.reason(at: $0) != nil })
        #expect(Set(first) != second && !second.isEmpty)
        #expect(try FallbackInjection.parse("refusal=0", seed: 1).reason(at: 42) == nil)
        #expect(try FallbackInjection.parse("refusal=1", seed: 1).reason(at: 42) == .refusal)
    }

    @Test(arguments: [
        ("refusal", "is not REASON=RATE"), ("refusals=0.1", "'refusals' is not a fallback that can be injected"),
        ("refusal=0.1,refusal=0.2", "refusal is given twice"), ("refusal=1.5", "is not a number from 0 to 1"),
        ("refusal=nan", "is not a number from 0 to 1"), ("refusal=0.6,guardrail=0.6", "add up to more than 1"),
    ])
    func aBadValueSaysWhatIsWrong(text: String, expected: String) {
        #expect {
            _ = try FallbackInjection.parse(text)
        } throws: { error in
            let description = (error as? EngineError)?.description ?? ""
            return description.hasPrefix("--inject-fallbacks: ") && description.contains(expected)
        }
    }

    @Test func injectedPlacesFailWithTheirReasonAndTheRestAreTheWrappedModelsAnswersInOrder() throws {
        let inner = CountingModel()
        let injection = try FallbackInjection.parse("refusal=0.3,guardrail=0.2,rate_limit=0.1", seed: 3)
        let model = FallbackInjectingModel(inner, injection: injection)
        let requests = (0..<200).map { index -> GenerationRequest in
            var request = GenerationRequest(instructions: .empty, prompt: SealedText("p\(index)"), grammar: nil, maxOutputTokens: 8)
            request.place = UInt64(index) &* 0x9E37_79B9_7F4A_7C15
            return request
        }
        let outcomes = model.respond(to: requests)
        #expect(outcomes.count == requests.count)
        var passed = 0
        for (request, outcome) in zip(requests, outcomes) {
            switch injection.reason(at: request.place) {
            case .refusal?: #expect(outcome.output == .failure(.refused))
            case .guardrail?: #expect(outcome.output == .failure(.guardrailViolation))
            case .rateLimit?: #expect(outcome.output == .failure(.rateLimited))
            case nil:
                // The wrapped model answers with the index of the request it was given, counted
                // over the requests it saw: the passed requests, in order.
                #expect(outcome.outputTokens == passed)
                passed += 1
            }
            if case .failure = outcome.output { #expect(outcome.outputTokens == 0 && outcome.promptTokens == 1) }
        }
        #expect(inner.asked == passed && passed > 50 && passed < 150)
    }

    @Test func aStopBeforeTheCallDropsItWholeEvenWhenEveryPlaceIsInjected() throws {
        let model = FallbackInjectingModel(CountingModel(), injection: try FallbackInjection.parse("refusal=1"))
        let stop = StopRequest()
        stop.raise()
        #expect(model.respond(to: [GenerationRequest(instructions: .empty, prompt: .empty, grammar: nil, maxOutputTokens: 1)], unless: stop) == nil)
    }
}

/// A model that answers each request with its running count as `outputTokens`, one prompt token.
final class CountingModel: LanguageModel, @unchecked Sendable {
    var asked = 0
    var info: ModelInfo { ModelInfo(name: "counting", description: "", path: "scripted", parameters: 0, contextPerSequence: 4096, batchSize: 4) }
    func respond(to requests: [GenerationRequest]) -> [GenerationOutcome] {
        requests.map { _ in
            defer { asked += 1 }
            return GenerationOutcome(output: .success(SealedText("{}")), promptTokens: 1, outputTokens: asked, hostMilliseconds: 1)
        }
    }
    func tokenCount(of text: SealedText) -> Int { 1 }
    func suffix(of text: SealedText, maxTokens: Int) -> TokenCut { TokenCut(text: text, keptTokens: 1, wasCut: false) }
    func promptTokenCount(for request: GenerationRequest) -> Int { 1 }
}
