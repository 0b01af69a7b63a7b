import Testing
@testable import Compare
@testable import ReplayKit

@Suite struct McNemarTests {
    // statsmodels 0.15.0 `statsmodels.stats.contingency_tables.mcnemar([[5, b], [c, 5]],
    // exact=True).pvalue`, printed by reference.py ("McNemarTests"). The large tables are summed
    // in log space from log-gamma, whose rounding at n = 5000 (lgamma(5001) ≈ 37591) limits the
    // agreement to about 1e-11 relative.
    @Test(arguments: [
        (0, 1, 1.0),
        (1, 0, 1.0),
        (3, 10, 0.09228515625),
        (10, 3, 0.09228515625),
        (0, 12, 0.00048828125),
        (5, 5, 1.0),
        (7, 8, 1.0),
        (12, 30, 0.007915897334896727),
        (2400, 2600, 0.004883649737517494),
        (2000, 3000, 1.3002310005205326e-45),
        (2500, 2500, 1.0),
        (1500, 3500, 9.099785466287642e-181),
        (0, 1000, 1.8665272370064378e-301),
    ])
    func matchesStatsmodelsExactTest(b: Int, c: Int, expected: Double) {
        let tolerance = b + c > 100 ? 1e-10 : 1e-13
        expectClose(McNemar.exactPValue(baseOnly: b, newOnly: c), expected, relative: tolerance, "b = \(b), c = \(c)")
    }

    @Test func noDiscordantPairsGivePOne() {
        // statsmodels: mcnemar([[5, 0], [0, 5]], exact=True).pvalue == 1.0
        #expect(McNemar.exactPValue(baseOnly: 0, newOnly: 0) == 1)
    }

    @Test func aTailBelowTheSmallestDoubleIsZeroNotNaN() {
        // 2 · 2^−5000 is below the smallest subnormal; statsmodels gives 0.0 too (reference.py).
        #expect(McNemar.exactPValue(baseOnly: 0, newOnly: 5000) == 0)
        #expect(McNemar.exactPValue(baseOnly: 5000, newOnly: 0) == 0)
    }

    @Test(arguments: [(0, 1), (3, 10), (12, 30), (999, 1234), (40_000, 41_000)])
    func theTestIsSymmetricInItsCounts(b: Int, c: Int) {
        #expect(McNemar.exactPValue(baseOnly: b, newOnly: c) == McNemar.exactPValue(baseOnly: c, newOnly: b))
    }

    @Test func moreOneSidedChangesGiveSmallerPValues() {
        let pValues = (20...60).map { McNemar.exactPValue(baseOnly: 20, newOnly: $0) }
        #expect(pValues.first == 1)
        #expect(pValues.allSatisfy { $0 >= 0 && $0 <= 1 })
        #expect(zip(pValues, pValues.dropFirst()).allSatisfy { $1 < $0 || $0 == 1 && $1 == 1 })
    }

    @Test func largeBalancedCountsStayFinite() {
        // 200,000 discordant pairs: C(n, k) and 2^−n are far outside a double's range.
        let even = McNemar.exactPValue(baseOnly: 100_000, newOnly: 100_000)
        let skewed = McNemar.exactPValue(baseOnly: 99_500, newOnly: 100_500)
        #expect(even == 1)
        #expect(skewed > 0 && skewed < 0.05 && skewed.isFinite)
    }
}
