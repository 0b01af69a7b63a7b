/// Holm's step-down adjustment of p-values (statsmodels multipletests(method="holm")), in input order.
///
/// A job reports several metrics at once; Holm keeps the chance of calling any unchanged metric
/// changed at α while giving up less power than Bonferroni. The i-th smallest of m p-values is
/// multiplied by m − i + 1, the products are made non-decreasing in that order (a running
/// maximum), and capped at 1. Tied p-values get the same adjusted value. A NaN stays NaN in its
/// place and is not counted in m.
public enum Holm {
    /// The adjusted p-values, one per input, in input order.
    public static func adjust(_ pValues: [Double]) -> [Double] {
        let order = pValues.indices.filter { !pValues[$0].isNaN }.sorted { pValues[$0] < pValues[$1] }
        var adjusted = pValues
        var runningMaximum = 0.0
        for (rank, index) in order.enumerated() {
            let scaled = Double(order.count - rank) * pValues[index]
            runningMaximum = max(runningMaximum, scaled)
            adjusted[index] = min(1, runningMaximum)
        }
        return adjusted
    }
}
