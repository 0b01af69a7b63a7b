import Privacy
import ReplayKit

/// A fixed output a case feeds to its job's checks instead of asking the model ("a route answer
/// with confidence 0.5 means the lead", "this draft must be rejected"): decided without a model,
/// so every expectation of such a case is deterministic and it may be a must case.
///
/// The output is the team's text and stays sealed: it is judged, never written anywhere.
public struct SuiteGivenOutput: Sendable {
    /// What the model would have written.
    public var output: SealedText
    /// The confidence the engine would have measured (`choiceProbability`), 0 to 1:
    /// routing keeps a member's name only above its minimum confidence.
    public var confidence: Double

    public init(output: SealedText, confidence: Double = 1) {
        self.output = output
        self.confidence = confidence
    }
}
