import Corpus
import Testing
@testable import Compare
@testable import ReplayKit

@Suite struct PairedBootstrapTests {
    /// An estimate's expected numbers, as reference.py prints them.
    struct Expected {
        var base, new, difference, lower, upper, pValue, standardError, minimumDetectable: Double
    }

    /// The Swift code hands the statistic its values sorted and reference.py in draw order, so a
    /// mean may differ in its last bits; percentiles and shares agree exactly.
    func check(_ estimate: PairedBootstrap.Estimate?, _ expected: Expected, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let estimate else { Issue.record("no estimate", sourceLocation: sourceLocation); return }
        expectClose(estimate.base, expected.base, "base", sourceLocation: sourceLocation)
        expectClose(estimate.new, expected.new, "new", sourceLocation: sourceLocation)
        expectClose(estimate.difference, expected.difference, relative: 1e-11, "difference", sourceLocation: sourceLocation)
        expectClose(estimate.lower, expected.lower, relative: 1e-11, "lower", sourceLocation: sourceLocation)
        expectClose(estimate.upper, expected.upper, relative: 1e-11, "upper", sourceLocation: sourceLocation)
        #expect(estimate.pValue == expected.pValue, sourceLocation: sourceLocation)
        expectClose(estimate.standardError, expected.standardError, relative: 1e-11, "standardError", sourceLocation: sourceLocation)
        expectClose(estimate.minimumDetectable, expected.minimumDetectable, relative: 1e-11, "minimumDetectable", sourceLocation: sourceLocation)
    }

    static func mean(_ values: [Double]) -> Double? {
        values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
    }

    // MARK: The generator, against reference.py's independent Python implementation

    @Test func splitMixMatchesItsPublishedSequence() {
        // reference.py "SplitMix64(seed 1234567)"; the same five values are the published ones
        // for that seed (Rosetta Code, "Pseudo-random numbers/Splitmix64").
        var state: UInt64 = 1_234_567
        let outputs = (0..<5).map { _ in Xoshiro256.splitMix(&state) }
        #expect(outputs == [6_457_827_717_110_365_317, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423,
                            4_593_380_528_125_082_431, 16_408_922_859_458_223_821])
    }

    @Test func xoshiroMatchesTheReference() {
        // reference.py "Xoshiro256StarStar(seed 20261201), first five outputs"
        var generator = Xoshiro256(seed: 20_261_201)
        let outputs = (0..<5).map { _ in generator.next() }
        #expect(outputs == [4_459_680_557_555_419_115, 13_811_539_781_512_816_784, 9_451_410_305_657_432_870,
                            2_617_321_190_124_676_003, 7_714_048_942_462_320_186])
    }

    @Test func boundedDrawsMatchTheReference() {
        // reference.py "Xoshiro256StarStar(seed 7), below(n)"; 2^63 + 1 rejects about half its
        // draws, so this also replays the rejection.
        var generator = Xoshiro256(seed: 7)
        let draws = [1, 3, 10, (1 << 63) + 1, 4, 1000].map { generator.unbiased(below: $0) }
        #expect(draws == [0, 0, 8, 9_049_029_322_324_588_832, 3, 872])
    }

    // MARK: Estimates, against reference.py replaying the documented procedure

    @Test func smallMeanMatchesTheReference() {
        // reference.py "SMALL mean, seed 20261201, 200 replicates"
        check(PairedBootstrap(replicates: 200).estimate(PairedSamples.small, statistic: Self.mean), Expected(
            base: 114.83333333333333, new: 109.91666666666667, difference: -4.916666666666657,
            lower: -10.333333333333329, upper: 1.5, pValue: 0.15,
            standardError: 3.098205902735549, minimumDetectable: 8.67988785977426))
    }

    @Test func smallMedianMatchesTheReference() {
        // reference.py "SMALL p50, seed 20261201, 200 replicates"
        check(PairedBootstrap(replicates: 200).estimate(PairedSamples.small) { Percentile.of($0, 0.5) }, Expected(
            base: 107.5, new: 102.75, difference: -4.75, lower: -13.0, upper: 2.25, pValue: 0.37,
            standardError: 4.770765243126633, minimumDetectable: 13.365705384230697))
    }

    @Test func smallP95WithAnotherSeedMatchesTheReference() {
        // reference.py "SMALL p95, seed 7, 500 replicates"
        check(PairedBootstrap(seed: 7, replicates: 500).estimate(PairedSamples.small) { Percentile.of($0, 0.95) }, Expected(
            base: 154.5, new: 143.5, difference: -11.0, lower: -11.0, upper: -3.5, pValue: 0.0,
            standardError: 1.909435076697882, minimumDetectable: 5.349445085823188))
    }

    @Test func replicatesWithANilStatisticAreLeftOut() {
        // reference.py "LARGE mean unless more than 1000 items, seed 11, 300 replicates"
        let estimate = PairedBootstrap(seed: 11, replicates: 300).estimate(PairedSamples.large) {
            $0.count <= 1000 ? Self.mean($0) : nil
        }
        check(estimate, Expected(
            base: 12.5025, new: 13.11575, difference: 0.6132500000000007,
            lower: 0.4651782468615699, upper: 0.763875602217467, pValue: 0.0,
            standardError: 0.07895223848586776, minimumDetectable: 0.22119142427893693))
    }

    @Test func largeP95WithTheDefaultsMatchesTheReference() {
        // reference.py "LARGE p95, seed 20261201, 2000 replicates"
        check(PairedBootstrap().estimate(PairedSamples.large) { Percentile.of($0, 0.95) }, Expected(
            base: 23.76249999999999, new: 24.5, difference: 0.7375000000000114, lower: 0.25, upper: 0.875,
            pValue: 0.0, standardError: 0.15940078222218917, minimumDetectable: 0.44657487522932965))
    }

    @Test func theMeanIntervalBracketsTheClusteredNormalOne() throws {
        // statsmodels 0.15.0 clustered OLS of LARGE (reference.py "PairedDifferenceTests / LARGE"):
        // difference 0.6132500000000002, bse 0.07625232031921715, 95% [0.4637981984367228,
        // 0.7627018015632776]. Resampling 32 threads should land close to it, not on it.
        let estimate = try #require(PairedBootstrap().estimate(PairedSamples.large, statistic: Self.mean))
        let (lower, upper, standardError) = (0.4637981984367228, 0.7627018015632776, 0.07625232031921715)
        #expect(estimate.lower < 0.6132500000000002 && 0.6132500000000002 < estimate.upper)
        #expect(abs(estimate.lower - lower) < 0.15 * (upper - lower))
        #expect(abs(estimate.upper - upper) < 0.15 * (upper - lower))
        #expect(abs(estimate.standardError / standardError - 1) < 0.15)
        #expect(estimate.pValue < 0.001)
    }

    // MARK: Edge cases

    @Test func identicalRunsGiveZeroEverywhere() throws {
        let same = PairedSamples.unchanged(PairedSamples.large)
        let statistics: [([Double]) -> Double?] = [Self.mean, { Percentile.of($0, 0.5) }, { Percentile.of($0, 0.95) }]
        for statistic in statistics {
            let estimate = try #require(PairedBootstrap(replicates: 300).estimate(same, statistic: statistic))
            #expect(estimate.base == estimate.new)
            #expect(estimate.difference == 0)
            #expect(estimate.lower == 0 && estimate.upper == 0)
            #expect(estimate.standardError == 0 && estimate.minimumDetectable == 0)
            #expect(estimate.pValue == 1)
        }
    }

    @Test func noPairsNoReplicatesOrNoStatisticGiveNoEstimate() {
        #expect(PairedBootstrap().estimate([], statistic: Self.mean) == nil)
        #expect(PairedBootstrap(replicates: 0).estimate(PairedSamples.small, statistic: Self.mean) == nil)
        #expect(PairedBootstrap(replicates: 50).estimate(PairedSamples.small) { _ in nil } == nil)
        // Nil on every replicate though not on the whole sample (the first two calls).
        var calls = 0
        #expect(PairedBootstrap(replicates: 50).estimate(PairedSamples.small) { values in
            calls += 1
            return calls <= 2 ? Self.mean(values) : nil
        } == nil)
        #expect(calls == 2 + 2 * 50)
    }

    @Test func oneClusterGivesThePointAsTheInterval() throws {
        let pairs = PairedSamples.small.map { PairedObservation(base: $0.base, new: $0.new, cluster: 5) }
        let estimate = try #require(PairedBootstrap(replicates: 100).estimate(pairs) { Percentile.of($0, 0.95) })
        #expect(estimate.difference == -11)
        #expect(estimate.lower == -11 && estimate.upper == -11)
        #expect(estimate.standardError == 0 && estimate.minimumDetectable == 0)
        #expect(estimate.pValue == 0)
    }

    @Test func aSingleReplicateHasNoStandardError() throws {
        let estimate = try #require(PairedBootstrap(replicates: 1).estimate(PairedSamples.large, statistic: Self.mean))
        #expect(estimate.lower == estimate.upper)
        #expect(estimate.standardError == 0)
    }

    @Test func theStatisticSeesEachReplicateSortedAndWhole() {
        var calls = 0
        var unsorted = 0
        var sizes = Set<Int>()
        _ = PairedBootstrap(replicates: 100).estimate(PairedSamples.large) { values in
            calls += 1
            if values != values.sorted() { unsorted += 1 }
            sizes.insert(values.count)
            return Self.mean(values)
        }
        #expect(calls == 2 * 101)  // base and new, for the sample and each replicate
        #expect(unsorted == 0)
        #expect(sizes.contains(1000) && sizes.count > 10)  // whole threads: sizes vary around 1000
    }

    @Test func theSeedFixesTheResult() throws {
        let first = try #require(PairedBootstrap(seed: 3, replicates: 200).estimate(PairedSamples.large, statistic: Self.mean))
        let again = try #require(PairedBootstrap(seed: 3, replicates: 200).estimate(PairedSamples.large, statistic: Self.mean))
        let other = try #require(PairedBootstrap(seed: 4, replicates: 200).estimate(PairedSamples.large, statistic: Self.mean))
        #expect(first == again)
        #expect(first.lower != other.lower || first.upper != other.upper)
        #expect(first.difference == other.difference)
    }

    @Test func manyThreadsGiveAnIntervalNearTheClusteredOne() throws {
        // 20,000 items in 2,000 threads: the resampling path at scale, checked against the
        // analytic clustered SE of the same data.
        var generator = Xoshiro256(seed: 99)
        let pairs = (0..<20_000).map { index in
            let thread = UInt64(index % 2000)
            let base = Double(generator.unbiased(below: 1000)) + 100
            return PairedObservation(base: base, new: base + Double(generator.unbiased(below: 100)) - 45 + Double(thread % 3), cluster: thread)
        }
        let analytic = try #require(PairedDifference.estimate(pairs))
        let bootstrap = try #require(PairedBootstrap(replicates: 400).estimate(pairs, statistic: Self.mean))
        #expect(abs(bootstrap.standardError / analytic.standardError - 1) < 0.15)
        #expect(abs(bootstrap.lower - analytic.lower) < 0.2 * (analytic.upper - analytic.lower))
        #expect(abs(bootstrap.upper - analytic.upper) < 0.2 * (analytic.upper - analytic.lower))
    }
}
