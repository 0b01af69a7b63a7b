import Foundation

/// The standard normal distribution (erfc-based cdf; Wichura's AS 241 quantile, |error| < 1e-15).
///
/// `replay compare` turns standard errors into intervals, p-values and minimum detectable
/// differences with these two functions, so both are accurate far into the tails: the cdf goes
/// through `erfc` (no cancellation of `1 - erf`), and the quantile is Wichura's PPND16 (Applied
/// Statistics algorithm AS 241, 1988), three rational approximations with relative error about 1e-16.
public enum NormalDistribution {
    /// P(Z ≤ z) for a standard normal Z; 0 at −∞, 1 at +∞, NaN for NaN.
    public static func cdf(_ z: Double) -> Double {
        0.5 * erfc(-z / 2.0.squareRoot())
    }

    /// The z with `cdf(z) == p`, for `p` in (0, 1). At the ends of the domain it returns −∞ for
    /// p = 0 and +∞ for p = 1; outside [0, 1], and for NaN, it returns NaN.
    public static func quantile(_ p: Double) -> Double {
        guard p > 0, p < 1 else {
            if p == 0 { return -.infinity }
            if p == 1 { return .infinity }
            return .nan
        }
        let q = p - 0.5
        if abs(q) <= 0.425 {
            // 0.075 ≤ p ≤ 0.925: a rational function of r = 0.180625 − q².
            let r = 0.180625 - q * q
            return q * horner(a, r) / horner(b, r)
        }
        // The tail nearer p: r = √(−log min(p, 1 − p)); for p > 0.5, 1 − p is exact (Sterbenz).
        var r = (-log(q < 0 ? p : 1 - p)).squareRoot()
        let value: Double
        if r <= 5 {
            // min(p, 1 − p) ≥ e^−25 ≈ 1.4e-11.
            r -= 1.6
            value = horner(c, r) / horner(d, r)
        } else {
            r -= 5
            value = horner(e, r) / horner(f, r)
        }
        return q < 0 ? -value : value
    }

    /// A polynomial with `coefficients` from the highest power down, by Horner's rule.
    private static func horner(_ coefficients: [Double], _ x: Double) -> Double {
        coefficients.reduce(0) { $0 * x + $1 }
    }

    // AS 241's coefficients, highest power first: a/b for the centre, c/d and e/f for the tails.
    private static let a: [Double] = [
        2509.0809287301226727, 33430.575583588128105, 67265.770927008700853, 45921.953931549871457,
        13731.693765509461125, 1971.5909503065514427, 133.14166789178437745, 3.387132872796366608,
    ]
    private static let b: [Double] = [
        5226.495278852545925, 28729.085735721942674, 39307.89580009271061, 21213.794301586595867,
        5394.1960214247511077, 687.1870074920579083, 42.313330701600911252, 1,
    ]
    private static let c: [Double] = [
        7.7454501427834140764e-4, 0.0227238449892691845833, 0.24178072517745061177, 1.27045825245236838258,
        3.64784832476320460504, 5.7694972214606914055, 4.6303378461565452959, 1.42343711074968357734,
    ]
    private static let d: [Double] = [
        1.05075007164441684324e-9, 5.475938084995344946e-4, 0.0151986665636164571966, 0.14810397642748007459,
        0.68976733498510000455, 1.6763848301838038494, 2.05319162663775882187, 1,
    ]
    private static let e: [Double] = [
        2.01033439929228813265e-7, 2.71155556874348757815e-5, 0.0012426609473880784386, 0.026532189526576123093,
        0.29656057182850489123, 1.7848265399172913358, 5.4637849111641143699, 6.6579046435011037772,
    ]
    private static let f: [Double] = [
        2.04426310338993978564e-15, 1.4215117583164458887e-7, 1.8463183175100546818e-5, 7.868691311456132591e-4,
        0.0148753612908506148525, 0.13692988092273580531, 0.59983220655588793769, 1,
    ]

}
