import ReplayKit

/// A `--fail-if-worse` gate judged: the bound of the 95% interval it tests, and whether it passed.
public struct GateVerdict: Sendable, Equatable {
    public var gate: ComparisonGate
    /// The lower bound of NEW − BASE (higher is better) or its upper bound (lower is better);
    /// nil when the metric has no pairs.
    public var bound: Double?

    public init(gate: ComparisonGate, bound: Double?) {
        self.gate = gate
        self.bound = bound
    }

    /// Whether the bound tested is the interval's upper one (lower is better).
    public var testsUpperBound: Bool { gate.metric.direction == .lowerIsBetter }

    /// The bound must lie beyond this: −MARGIN for a lower bound, +MARGIN for an upper one.
    public var limit: Double { testsUpperBound ? gate.margin : -gate.margin }

    public var passed: Bool {
        guard let bound else { return false }
        return testsUpperBound ? bound < limit : bound > limit
    }

    /// Why a gate with no pairs fails, in a sentence.
    public var noPairsReason: String {
        let job = gate.job.rawValue + (gate.key.slice == .overall ? "" : " in the slice")
        switch gate.metric.kind {
        case .rate: return "no item of \(job) is in both runs"
        case .percentile: return "no item of \(job) was asked in both runs"
        case .mean:
            return gate.metric.key.hasPrefix("tokens.") ? "no item of \(job) was asked in both runs"
                : "no item of \(job) has \(gate.metric.key) in both runs"
        }
    }

    /// One line for people: the gate, the bound against its limit, and the outcome.
    public var line: String {
        let which = testsUpperBound ? "upper" : "lower"
        guard let bound else {
            return "\(gate.name): \(noPairsReason), so nothing shows it is not worse by \(CompareText.number(gate.margin)) (failed)"
        }
        let shown = CompareText.number(bound), limit = CompareText.number(self.limit)
        if passed {
            return "\(gate.name): \(which) 95% bound \(shown) \(testsUpperBound ? "<" : ">") \(limit): "
                + "not worse by \(CompareText.number(gate.margin)) or more (passed)"
        }
        return "\(gate.name): \(which) 95% bound \(shown) \(testsUpperBound ? ">=" : "<=") \(limit): "
            + "the data do not show it is not worse by \(CompareText.number(gate.margin)) (failed)"
    }
}
