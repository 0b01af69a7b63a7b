import Foundation
import Testing
@testable import Compare
@testable import ReplayKit

@Suite struct NormalDistributionTests {
    // scipy 1.17.1 `scipy.stats.norm.cdf(z)`, printed by reference.py ("cdf"). Far in the tails
    // scipy's Cephes ndtr and glibc's erfc each err by ~1e-13 relative (mpmath 1.3.0 `ncdf(-37)` =
    // 5.7255712225245768e-300 lies between them), hence the looser tolerance there.
    @Test(arguments: [
        (-37.0, 5.7255712225239266e-300, 1e-12),
        (-10.0, 7.61985302416047e-24, 1e-13),
        (-5.0, 2.866515718791933e-07, 1e-14),
        (-1.959963984540054, 0.025, 1e-14),
        (-1.0, 0.15865525393145707, 1e-15),
        (0.0, 0.5, 0),
        (0.5, 0.6914624612740131, 1e-15),
        (1.959963984540054, 0.975, 1e-15),
        (3.0, 0.9986501019683699, 1e-15),
        (8.3, 1.0, 0),
        (40.0, 1.0, 0),
    ])
    func cdfMatchesScipy(z: Double, expected: Double, tolerance: Double) {
        expectClose(NormalDistribution.cdf(z), expected, relative: tolerance, "cdf(\(z))")
    }

    // scipy 1.17.1 `scipy.stats.norm.ppf(p)`, printed by reference.py ("quantile"). The cases
    // cover AS 241's three regions: |p − ½| ≤ 0.425, the tails to e^−25, and beyond.
    @Test(arguments: [
        (1e-300, -37.0470962993612),
        (1e-12, -7.034483825301131),
        (1e-6, -4.753424308822899),
        (0.025, -1.9599639845400545),
        (0.2, -0.8416212335729142),
        (0.5, 0.0),
        (0.8, 0.8416212335729143),
        (0.975, 1.959963984540054),
        (0.999999, 4.753424308817087),
        (1 - 1e-12, 7.0344869100478356),
    ])
    func quantileMatchesScipy(p: Double, expected: Double) {
        expectClose(NormalDistribution.quantile(p), expected, relative: 4e-16, "quantile(\(p))")
    }

    @Test(arguments: [1e-300, 1e-100, 1e-20, 1e-12, 1e-11, 1e-6, 0.001, 0.0749, 0.075, 0.3, 0.5, 0.7, 0.925, 0.9251, 0.999, 1 - 1e-9])
    func quantileInvertsTheCdf(p: Double) {
        // The quantile is good to ~2e-16 relative everywhere (mpmath 1.3.0 `findroot(ncdf(z) − p)`:
        // z(1e-100) = −21.273453560965324, ours −21.27345356096532); glibc's erfc is good to
        // ~1e-15 down to 1e-15 and ~2e-13 beyond, where cdf(quantile(1e-100)) = 1.00000000000016e-100.
        let tolerance = p < 1e-15 ? 5e-13 : 1e-14
        expectClose(NormalDistribution.cdf(NormalDistribution.quantile(p)), p, relative: tolerance, "cdf(quantile(\(p)))")
    }

    @Test(arguments: [1e-12, 1e-6, 0.025, 0.2, 0.4375])
    func quantileIsOddAboutOneHalf(p: Double) {
        // 1 − p is rounded for these p, so the two sides agree only to the rounding of p.
        expectClose(NormalDistribution.quantile(1 - p), -NormalDistribution.quantile(p), relative: 1e-15 / p, "quantile(1 − \(p))")
    }

    @Test func theEndsOfTheDomainGiveInfinitiesAndOutsideItNaN() {
        #expect(NormalDistribution.quantile(0) == -.infinity)
        #expect(NormalDistribution.quantile(1) == .infinity)
        #expect(NormalDistribution.quantile(-0.1).isNaN)
        #expect(NormalDistribution.quantile(1.5).isNaN)
        #expect(NormalDistribution.quantile(.nan).isNaN)
        #expect(NormalDistribution.cdf(-.infinity) == 0)
        #expect(NormalDistribution.cdf(.infinity) == 1)
        #expect(NormalDistribution.cdf(.nan).isNaN)
    }
}
