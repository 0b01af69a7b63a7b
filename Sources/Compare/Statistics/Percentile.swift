/// Percentile of values, linear interpolation between order statistics (numpy's default, "type 7").
///
/// The q-th percentile of n sorted values sits at fractional rank h = (n − 1) · q; it is the value
/// at ⌊h⌋ moved toward the next by the fraction h − ⌊h⌋. The step is taken from whichever end is
/// nearer, as numpy does, so the result matches numpy's to the last bit and never leaves the
/// interval between the two order statistics.
public enum Percentile {
    /// The `q`-quantile of `sorted` (ascending), for `q` in [0, 1]: the minimum at 0, the maximum
    /// at 1. Nil when `sorted` is empty or `q` is outside [0, 1] or NaN.
    public static func of(_ sorted: [Double], _ q: Double) -> Double? {
        guard !sorted.isEmpty, q >= 0, q <= 1 else { return nil }
        let rank = Double(sorted.count - 1) * q
        let below = Int(rank.rounded(.down))
        let above = Swift.min(below + 1, sorted.count - 1)
        return interpolate(sorted[below], sorted[above], rank - Double(below))
    }

    /// `low` + t · (`high` − `low`), computed from the nearer end (numpy's `_lerp`).
    static func interpolate(_ low: Double, _ high: Double, _ t: Double) -> Double {
        let step = high - low
        return t < 0.5 ? low + step * t : high - step * (1 - t)
    }
}
