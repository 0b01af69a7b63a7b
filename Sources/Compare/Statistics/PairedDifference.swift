import Foundation

/// The mean of NEW − BASE over paired items, with a cluster-robust standard error
/// (CR1: Var = G/(G−1) · Σ_g (Σ_{i∈g} (d_i − d̄))² / n², the same as statsmodels OLS of d on a
/// constant with cov_type="cluster"), a 95% normal interval, a two-sided normal p-value, and
/// the minimum detectable difference at 80% power ((z_.975 + z_.80) · SE).
/// With one cluster, or zero variance, the SE is 0 (interval is the point; p = 1 when d̄ == 0, else 0).
///
/// This is the clustered paired analysis of E. Miller, "Adding Error Bars to Evals" (2024): pairing
/// removes the variance items share across runs, and clustering by thread keeps correlated items
/// from passing for independent evidence. Values are expected finite; a NaN or infinity makes the
/// numbers that depend on it NaN.
public struct PairedDifference: Sendable, Equatable {
    /// Paired items.
    public var count: Int
    /// Distinct clusters (threads) among them.
    public var clusters: Int
    public var baseMean: Double
    public var newMean: Double
    /// newMean − baseMean.
    public var difference: Double
    /// Cluster-robust (CR1) standard error of `difference`.
    public var standardError: Double
    /// The interval at the requested confidence (95% by default): difference ∓ z · SE.
    public var lower: Double
    public var upper: Double
    /// Two-sided, normal: 2 · P(Z ≥ |difference| / SE).
    public var pValue: Double
    /// The smallest true difference this comparison would find at 80% power, two-sided α = 0.05,
    /// whatever `confidence` the interval was asked at.
    public var minimumDetectable: Double

    /// z_.975 + z_.80: the multiple of the standard error a true difference must reach to be found
    /// four times out of five by a two-sided test at α = 0.05.
    static let detectableMultiple = NormalDistribution.quantile(0.975) + NormalDistribution.quantile(0.80)

    /// The paired difference of `pairs`, or nil when there are none. `confidence` sets the
    /// interval only (in (0, 1)); the p-value and the minimum detectable difference do not depend on it.
    public static func estimate(_ pairs: [PairedObservation], confidence: Double = 0.95) -> PairedDifference? {
        guard !pairs.isEmpty else { return nil }
        let n = Double(pairs.count)
        var baseSum = 0.0
        var newSum = 0.0
        var differenceSum = 0.0
        var smallest = Double.infinity
        var largest = -Double.infinity
        for pair in pairs {
            let d = pair.new - pair.base
            baseSum += pair.base
            newSum += pair.new
            differenceSum += d
            smallest = min(smallest, d)
            largest = max(largest, d)
        }
        let baseMean = baseSum / n
        let newMean = newSum / n
        let meanDifference = differenceSum / n

        // Σ over each cluster of the residuals d_i − d̄ (a second pass, so a large mean does not
        // swamp small residuals), clusters in order of first appearance so that the sum of their
        // squares, and so every digit of the result, is the same from run to run.
        var clusterIndex: [UInt64: Int] = [:]
        var residualSums: [Double] = []
        for pair in pairs {
            let residual = (pair.new - pair.base) - meanDifference
            if let index = clusterIndex[pair.cluster] {
                residualSums[index] += residual
            } else {
                clusterIndex[pair.cluster] = residualSums.count
                residualSums.append(residual)
            }
        }
        let g = Double(residualSums.count)
        var standardError = 0.0
        // Equal differences have no variance, whatever rounding leaves in the residuals.
        let constant = smallest == largest && meanDifference.isFinite
        if residualSums.count > 1, !constant {
            let meat = residualSums.reduce(0) { $0 + $1 * $1 }
            standardError = (g / (g - 1) * meat).squareRoot() / n
        }

        let difference = newMean - baseMean
        let z = NormalDistribution.quantile(1 - (1 - confidence) / 2)
        let pValue: Double
        if difference.isNaN || standardError.isNaN {
            pValue = .nan
        } else if standardError > 0 {
            pValue = erfc(abs(difference) / standardError / 2.0.squareRoot())
        } else {
            pValue = difference == 0 ? 1 : 0
        }
        return PairedDifference(
            count: pairs.count, clusters: residualSums.count,
            baseMean: baseMean, newMean: newMean, difference: difference,
            standardError: standardError,
            lower: difference - z * standardError, upper: difference + z * standardError,
            pValue: pValue, minimumDetectable: detectableMultiple * standardError)
    }
}
