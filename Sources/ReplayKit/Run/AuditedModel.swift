import Audit
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
final class AuditedModel: LanguageModel {
    let model: any LanguageModel
    let tap: AuditTap

    init(_ model: any LanguageModel, tap: AuditTap) {
        self.model = model
        self.tap = tap
    }

    var info: ModelInfo { model.info }

    func respond(to requests: [GenerationRequest]) -> [GenerationOutcome] {
        requests.forEach { tap.notePrompt($0.prompt) }
        let outcomes = model.respond(to: requests)
        for (request, outcome) in zip(requests, outcomes) {
            if case .success(let output) = outcome.output { tap.record(output: output, isLabel: request.measuresConfidence) }
        }
        return outcomes
    }

    func tokenCount(of text: SealedText) -> Int { model.tokenCount(of: text) }
    func suffix(of text: SealedText, maxTokens: Int) -> TokenCut { model.suffix(of: text, maxTokens: maxTokens) }
    func promptTokenCount(for request: GenerationRequest) -> Int { model.promptTokenCount(for: request) }
    func promptTokenCount(for request: GenerationRequest, promptParts parts: [SealedText], separator: String,
                          knownCounts: [Int?]) -> Int {
        model.promptTokenCount(for: request, promptParts: parts, separator: separator, knownCounts: knownCounts)
    }
}
