/// An option two runs were made with differently, as the command line spells it: the flag that
/// begins each of `StateOptions.differences` (`--prompts` of "--prompts: one ran with …"), and
/// the name compare.json's `differences.options` gives it (compare.md and compare.html show the
/// sentence).
public enum OptionFlag: String, Codable, Sendable, CaseIterable {
    case job = "--job", budget = "--budget", device = "--device", limit = "--limit", strict = "--strict", dryRun = "--dry-run"
    case flywheel = "--flywheel", batch = "--batch", labels = "--labels", prompts = "--prompts", profiles = "--profiles"
    case injectFallbacks = "--inject-fallbacks", routeConfidence = "--route-confidence", asModelVersion = "--as-model-version"
    case pushMode = "--push-mode"

    /// The flag `difference` (one of `StateOptions.differences`) begins with; nil for one this list lacks.
    public init?(difference: String) {
        self.init(rawValue: String(difference.prefix { $0 != ":" }))
    }
}
