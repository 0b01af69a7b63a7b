import Engine

extension JobItem {
    /// `outcome` with its sizes counted in the phone's tokens, as the device estimate and the
    /// budget count them: the prompt as planning counted it for the place's model version
    /// (`promptTokens`, else `tokens`), and the output by `tokens` (the same version's
    /// `PhoneTokenizer`). A failure has no output to count: one that ran out of its allowance
    /// (`outputTruncated`) wrote the whole allowance, which is the phone's too; any other wrote
    /// nothing that is shown, counted 0.
    ///
    /// One function for the run's judging (`Job.evaluate`) and the model-stage bench's device
    /// latency, so the two cannot size an answer differently.
    public func phoneSized(_ outcome: GenerationOutcome, tokens: any Tokenizer) -> GenerationOutcome {
        var sized = outcome
        sized.promptTokens = promptTokens ?? request.map(tokens.promptTokenCount(for:)) ?? outcome.promptTokens
        switch outcome.output {
        case .success(let text): sized.outputTokens = tokens.tokenCount(of: text)
        case .failure(.outputTruncated): sized.outputTokens = request?.maxOutputTokens ?? outcome.outputTokens
        case .failure: sized.outputTokens = 0
        }
        return sized
    }
}
