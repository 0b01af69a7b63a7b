import Jobs
import ReplayKit

extension MetricDefinition {
    /// The metric's value for one item in one run; nil when the item does not count for it (not
    /// asked, for tokens and latencies; without the measure, for a quality key).
    ///
    /// Rates are over every eligible item, as the report's are: an item the model was never
    /// asked about is not in budget, and counts as 0 there.
    public func value(of item: ItemOutcome) -> Double? {
        switch key {
        case "asked": return item.asked ? 1 : 0
        case "answered": return item.answered ? 1 : 0
        case "in_budget.host": return item.inBudgetHost == true ? 1 : 0
        case "in_budget.device": return item.inBudgetDevice == true ? 1 : 0
        case "in_budget.queued": return item.inBudgetQueued == true ? 1 : 0
        case "tokens.in": return item.asked ? Double(item.tokensIn) : nil
        case "tokens.out": return item.asked ? Double(item.tokensOut) : nil
        case "latency.host.p50", "latency.host.p95": return item.asked ? item.hostMicroseconds.map { Double($0) / 1000 } : nil
        case "latency.device.p50", "latency.device.p95": return item.asked ? item.deviceMicroseconds.map { Double($0) / 1000 } : nil
        default: break
        }
        if key.hasPrefix("violation.") {
            return item.violations.contains { "violation." + $0.rawValue == key } ? 1 : 0
        }
        if key.hasPrefix("fallback.") {
            return item.fallback.map { "fallback." + $0.rawValue } == key ? 1 : 0
        }
        for family in Self.qualityFamilies where key.hasPrefix(family + ".") {
            let name = String(key.dropFirst(family.count + 1))
            let measures = family == "quality" ? item.quality : item.qualityAllAnswers
            // Billionths, as the report's `QualityTally` keeps them, so means agree with report.json.
            return measures[name].map { Double($0) / 1e9 }
        }
        return nil
    }

    /// For a percentile: which (`latency.host.p95`: 0.95).
    public var quantile: Double? {
        guard kind == .percentile else { return nil }
        return key.hasSuffix(".p50") ? 0.5 : key.hasSuffix(".p95") ? 0.95 : nil
    }
}
