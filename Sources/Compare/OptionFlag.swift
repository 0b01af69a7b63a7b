import ReplayKit

/// An option two compared runs were made with differently, as compare.json's
/// `differences.options` names it: the flag that begins `StateOptions.differences`' sentence
/// (`--prompts` of "--prompts: one ran with …"); compare.md and compare.html show the sentence.
public enum OptionFlag: String, Codable, Sendable, CaseIterable {
    case job = "--job", budget = "--budget", device = "--device", limit = "--limit", strict = "--strict", dryRun = "--dry-run"
    case flywheel = "--flywheel", batch = "--batch", labels = "--labels", prompts = "--prompts", profiles = "--profiles"
    case injectFallbacks = "--inject-fallbacks"

    /// The flag `difference` (one of `StateOptions.differences`) begins with; nil for one this list lacks.
    public init?(difference: String) {
        self.init(rawValue: String(difference.prefix { $0 != ":" }))
    }
}
