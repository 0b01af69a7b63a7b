import Testing
@testable import Compare
@testable import ReplayKit

@Suite struct PairedDifferenceTests {
    /// One comparison's expected numbers, as reference.py prints them.
    struct Expected {
        var baseMean, newMean, difference, standardError, lower, upper, pValue, minimumDetectable: Double
    }

    func check(_ estimate: PairedDifference?, _ expected: Expected, count: Int, clusters: Int,
               sourceLocation: SourceLocation = #_sourceLocation) {
        guard let estimate else { Issue.record("no estimate", sourceLocation: sourceLocation); return }
        #expect(estimate.count == count, sourceLocation: sourceLocation)
        #expect(estimate.clusters == clusters, sourceLocation: sourceLocation)
        expectClose(estimate.baseMean, expected.baseMean, relative: 1e-15, "baseMean", sourceLocation: sourceLocation)
        expectClose(estimate.newMean, expected.newMean, relative: 1e-15, "newMean", sourceLocation: sourceLocation)
        expectClose(estimate.difference, expected.difference, "difference", sourceLocation: sourceLocation)
        expectClose(estimate.standardError, expected.standardError, "standardError", sourceLocation: sourceLocation)
        expectClose(estimate.lower, expected.lower, "lower", sourceLocation: sourceLocation)
        expectClose(estimate.upper, expected.upper, "upper", sourceLocation: sourceLocation)
        expectClose(estimate.pValue, expected.pValue, relative: 1e-10, "pValue", sourceLocation: sourceLocation)
        expectClose(estimate.minimumDetectable, expected.minimumDetectable, "minimumDetectable", sourceLocation: sourceLocation)
    }

    // statsmodels 0.15.0 `sm.OLS(d, numpy.ones(n)).fit(cov_type="cluster", cov_kwds={"groups": g},
    // use_t=False)`: params[0], bse[0], conf_int(alpha=0.05)[0], pvalues[0]; means from
    // `numpy.mean`; minimumDetectable = (scipy 1.17.1 `norm.ppf(0.975) + norm.ppf(0.8)`) · bse[0].
    // reference.py, "PairedDifferenceTests / SMALL".
    @Test func fourThreadsMatchStatsmodelsClusteredOLS() {
        check(PairedDifference.estimate(PairedSamples.small), Expected(
            baseMean: 114.83333333333333, newMean: 109.91666666666667, difference: -4.916666666666669,
            standardError: 3.3336805374729503, lower: -11.450560456075781, upper: 1.6172271227424444,
            pValue: 0.14025384924107268, minimumDetectable: 9.339590115695113), count: 12, clusters: 4)
    }

    // The same fit with conf_int(alpha=0.1): only the interval moves. reference.py, "SMALL at 90%".
    @Test func aNinetyPercentIntervalMatchesStatsmodels() {
        check(PairedDifference.estimate(PairedSamples.small, confidence: 0.90), Expected(
            baseMean: 114.83333333333333, newMean: 109.91666666666667, difference: -4.916666666666669,
            standardError: 3.3336805374729503, lower: -10.400083189826585, upper: 0.5667498564932467,
            pValue: 0.14025384924107268, minimumDetectable: 9.339590115695113), count: 12, clusters: 4)
    }

    // The same fit with groups = numpy.arange(12): treating correlated items as independent
    // shrinks the SE from 3.33 to 1.84 and makes the change look significant.
    // reference.py, "SMALL, each item its own cluster".
    @Test func itemsAsTheirOwnClustersMatchStatsmodels() {
        let unclustered = PairedSamples.small.enumerated().map {
            PairedObservation(base: $0.element.base, new: $0.element.new, cluster: UInt64($0.offset))
        }
        check(PairedDifference.estimate(unclustered), Expected(
            baseMean: 114.83333333333333, newMean: 109.91666666666667, difference: -4.916666666666669,
            standardError: 1.8431212547187346, lower: -8.529117945055663, upper: -1.3042153882776737,
            pValue: 0.007640052820585644, minimumDetectable: 5.163661262409834), count: 12, clusters: 12)
    }

    // reference.py, "LARGE": 1000 items in 32 threads of uneven size.
    @Test func thirtyTwoUnevenThreadsMatchStatsmodels() {
        check(PairedDifference.estimate(PairedSamples.large), Expected(
            baseMean: 12.5025, newMean: 13.11575, difference: 0.6132500000000002,
            standardError: 0.07625232031921715, lower: 0.4637981984367228, upper: 0.7627018015632776,
            pValue: 8.811143840372188e-16, minimumDetectable: 0.2136273734531339), count: 1000, clusters: 32)
    }

    @Test func noPairsGiveNoEstimate() {
        #expect(PairedDifference.estimate([]) == nil)
    }

    @Test(arguments: [
        [(1.0, 2.0), (3.0, 3.5), (2.0, 4.0)],
        [(5.0, 4.0)],
    ])
    func oneClusterHasNoStandardErrorAndTheIntervalIsThePoint(values: [(Double, Double)]) throws {
        let pairs = values.map { PairedObservation(base: $0.0, new: $0.1, cluster: 99) }
        let estimate = try #require(PairedDifference.estimate(pairs))
        #expect(estimate.clusters == 1)
        #expect(estimate.difference != 0)
        #expect(estimate.standardError == 0)
        #expect(estimate.lower == estimate.difference && estimate.upper == estimate.difference)
        #expect(estimate.pValue == 0)
        #expect(estimate.minimumDetectable == 0)
    }

    @Test func allDifferencesZeroGivePOneAndAZeroInterval() throws {
        let estimate = try #require(PairedDifference.estimate(PairedSamples.unchanged(PairedSamples.large)))
        #expect(estimate.difference == 0)
        #expect(estimate.standardError == 0)
        #expect(estimate.lower == 0 && estimate.upper == 0)
        #expect(estimate.pValue == 1)
        #expect(estimate.minimumDetectable == 0)
    }

    // Thirty differences of exactly 0.1 average to 0.10000000000000005 (Python: sum([0.1] * 30) / 30),
    // so the residuals d − d̄ are −5e-17, not 0; the standard error must still be 0.
    @Test func equalNonzeroDifferencesHaveNoStandardError() throws {
        let pairs = (0..<30).map { PairedObservation(base: 0, new: 0.1, cluster: UInt64($0 % 7)) }
        let estimate = try #require(PairedDifference.estimate(pairs))
        #expect(estimate.clusters == 7)
        #expect(estimate.standardError == 0)
        #expect(estimate.lower == estimate.upper)
        #expect(estimate.pValue == 0)
        #expect(estimate.minimumDetectable == 0)
    }

    @Test func clusterIdsAreKeysNotPositions() throws {
        let relabelled = PairedSamples.large.map {
            PairedObservation(base: $0.base, new: $0.new, cluster: ($0.cluster &+ 12_345) &* 0x9E37_79B9_7F4A_7C15)
        }
        #expect(PairedDifference.estimate(relabelled) == PairedDifference.estimate(PairedSamples.large))
    }

    @Test func theOrderOfItemsChangesNothingButRounding() throws {
        let forward = try #require(PairedDifference.estimate(PairedSamples.large))
        let backward = try #require(PairedDifference.estimate(PairedSamples.large.reversed()))
        #expect(backward.clusters == forward.clusters)
        expectClose(backward.difference, forward.difference, "difference")
        expectClose(backward.standardError, forward.standardError, "standardError")
        expectClose(backward.pValue, forward.pValue, relative: 1e-9, "pValue")
    }

    @Test func theMinimumDetectableDifferenceIsAboutTwoPointEightStandardErrors() throws {
        let estimate = try #require(PairedDifference.estimate(PairedSamples.small))
        // scipy 1.17.1: norm.ppf(0.975) + norm.ppf(0.8) = 2.8015852181129683
        expectClose(estimate.minimumDetectable / estimate.standardError, 2.8015852181129683, relative: 1e-15)
    }
}
