import Confinement
import Engine
import Privacy

/// A model under `replay audit`: every prompt is counted (and whether it carries the canary)
/// and every output fingerprinted by the audit's tap on its way through; the answers are the
/// model's own.
///
/// The run sees only a `LanguageModel`, so the audit adds no code to the run's stages. Routing's
/// output only names a member chosen from the thread, so it is fingerprinted as a label; a
/// request that measures its answer's confidence is routing's (the only job whose choice is
/// kept only above a confidence).
public final class AuditedModel: LanguageModel, ForwardingTokenizer {
    let model: any LanguageModel
    let tap: AuditTap

    public init(_ model: any LanguageModel, tap: AuditTap) {
        self.model = model
        self.tap = tap
    }

    public var info: ModelInfo { model.info }

    public func respond(to requests: [GenerationRequest]) -> [GenerationOutcome] {
        requests.forEach { tap.notePrompt($0.prompt) }
        return recorded(model.respond(to: requests), of: requests)
    }

    /// The inner model's own stopping, watched the same way: the audit counts every prompt the
    /// model was given; a stopped call's outputs never leave the engine, so none reach the run.
    public func respond(to requests: [GenerationRequest], unless stop: StopRequest) -> [GenerationOutcome]? {
        requests.forEach { tap.notePrompt($0.prompt) }
        return model.respond(to: requests, unless: stop).map { recorded($0, of: requests) }
    }

    private func recorded(_ outcomes: [GenerationOutcome], of requests: [GenerationRequest]) -> [GenerationOutcome] {
        for (request, outcome) in zip(requests, outcomes) {
            if case .success(let output) = outcome.output { tap.record(output: output, isLabel: request.choices != nil) }
        }
        return outcomes
    }

    /// The tokenizer is the model's.
    public var underlyingTokenizer: any Tokenizer { model }
}
