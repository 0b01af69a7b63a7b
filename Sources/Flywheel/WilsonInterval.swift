#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A Wilson score interval for a share: where the true rate plausibly lies, given k of n.
///
/// Chosen over the plain normal interval because it stays inside [0, 1] and behaves at 0 of n
/// and n of n, which small cells (one build, one week) often are.
public struct WilsonInterval: Sendable, Equatable {
    /// The lower bound, in [0, 1].
    public let low: Double
    /// The upper bound, in [0, 1].
    public let high: Double

    /// The two-sided 95% normal quantile.
    public static let z95 = 1.959963984540054

    /// The interval for `successes` of `trials`; `nil` when there are no trials (nothing to say).
    public init?(successes: Int, trials: Int, z: Double = WilsonInterval.z95) {
        guard trials > 0, successes >= 0, successes <= trials else { return nil }
        let n = Double(trials)
        let p = Double(successes) / n
        let z2 = z * z
        let denominator = 1 + z2 / n
        let center = (p + z2 / (2 * n)) / denominator
        let half = z * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot() / denominator
        low = successes == 0 ? 0 : max(0, center - half)
        high = successes == trials ? 1 : min(1, center + half)
    }
}
