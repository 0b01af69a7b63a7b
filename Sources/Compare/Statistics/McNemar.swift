import Foundation

/// Exact McNemar test: two-sided binomial test of the discordant pairs, p = min(1, 2·P(X ≤ min(b,c))),
/// X ~ Bin(b + c, 1/2); p = 1 when b + c = 0. (statsmodels `mcnemar(table, exact=True)`.)
///
/// For a yes/no outcome per item (a chip accepted, a route right), only the items whose outcome
/// changed between the runs carry evidence: b went yes → no, c went no → yes. Under "no change"
/// each is a fair coin. The tail is summed in log space, outward from its largest term, so a
/// corpus of any size neither overflows the binomial coefficients nor underflows 2^−n.
public enum McNemar {
    /// The exact two-sided p-value for `b` items right only in the base run and `c` right only in
    /// the new one (both ≥ 0).
    public static func exactPValue(baseOnly b: Int, newOnly c: Int) -> Double {
        precondition(b >= 0 && c >= 0, "McNemar counts are numbers of items and cannot be negative")
        let n = b + c
        guard n > 0 else { return 1 }
        let k = min(b, c)
        // log P(X = k) = log C(n, k) − n log 2. The tuple-returning lgamma is the reentrant one.
        let logTerm = lgamma(Double(n) + 1).0 - lgamma(Double(k) + 1).0 - lgamma(Double(n - k) + 1).0
            - Double(n) * log(2.0)
        // P(X ≤ k) / P(X = k) = Σ_{i ≤ k} P(X = i) / P(X = k): since k ≤ n/2 the terms fall going
        // down, by P(X = i − 1) / P(X = i) = i / (n − i + 1), so the sum lies in [1, k + 1].
        var ratio = 1.0
        var sum = 1.0
        var i = k
        while i > 0 {
            ratio *= Double(i) / Double(n - i + 1)
            sum += ratio
            if ratio < sum * 0x1p-60 { break }
            i -= 1
        }
        return min(1, 2 * exp(logTerm + log(sum)))
    }
}
