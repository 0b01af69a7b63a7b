import Privacy

/// A model that refuses, trips a guardrail or is rate limited at the places its injection picks
/// (`FallbackInjection`), and otherwise answers as the model it wraps.
///
/// An injected request is not sent to the wrapped model: the phone's framework fails before any
/// output, so the outcome carries the request's prompt size (what was prefilled before the
/// refusal) and no output. Everything else passes through untouched, in order.
public final class FallbackInjectingModel: LanguageModel, ForwardingTokenizer {
    public let wrapped: any LanguageModel
    public let injection: FallbackInjection

    public init(_ wrapped: any LanguageModel, injection: FallbackInjection) {
        self.wrapped = wrapped
        self.injection = injection
    }

    public var info: ModelInfo { wrapped.info }

    public func respond(to requests: [GenerationRequest]) -> [GenerationOutcome] {
        respond(to: requests, unless: StopRequest())!
    }

    public func respond(to requests: [GenerationRequest], unless stop: StopRequest) -> [GenerationOutcome]? {
        let reasons = requests.map { injection.reason(at: $0.place) }
        let passed = zip(requests, reasons).compactMap { $1 == nil ? $0 : nil }
        var answers: [GenerationOutcome] = []
        if !passed.isEmpty {
            guard let answered = wrapped.respond(to: passed, unless: stop) else { return nil }
            answers = answered
        } else if stop.isRaised {
            return nil
        }
        var next = answers.makeIterator()
        return zip(requests, reasons).map { request, reason in
            guard let reason else { return next.next()! }
            return GenerationOutcome(output: .failure(reason.failure), promptTokens: wrapped.promptTokenCount(for: request),
                                     outputTokens: 0, hostMilliseconds: 0)
        }
    }

    /// The tokenizer is the wrapped model's.
    public var underlyingTokenizer: any Tokenizer { wrapped }
}
