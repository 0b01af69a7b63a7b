import Testing
@testable import Compare
@testable import ReplayKit

@Suite struct PercentileTests {
    static let values = [-3.5, -1.0, 0.0, 0.25, 2.0, 2.0, 7.5, 10.0, 12.125, 40.0]

    // numpy 2.4.6 `numpy.quantile(values, q, method="linear")` (numpy.percentile's default
    // interpolation, taking q as a fraction so that q · 100 is not rounded), printed by
    // reference.py ("PercentileTests"). Both take the nearer end when interpolating, so the
    // values agree to the last bit.
    @Test(arguments: [
        (0.0, -3.5),
        (1e-12, -3.4999999999775),
        (0.025, -2.9375),
        (0.1, -1.25),
        (0.25, 0.0625),
        (1.0 / 3.0, 0.25),
        (0.5, 2.0),
        (0.9, 14.91249999999999),
        (0.95, 27.45624999999997),
        (0.975, 33.72812500000001),
        (1 - 1e-12, 39.99999999974915),
        (1.0, 40.0),
    ])
    func matchesNumpyLinear(q: Double, expected: Double) {
        #expect(Percentile.of(Self.values, q) == expected)
    }

    @Test(arguments: [0.0, 1e-12, 0.3, 0.5, 1 - 1e-12, 1.0])
    func oneValueIsEveryPercentile(q: Double) {
        #expect(Percentile.of([42.5], q) == 42.5)
    }

    @Test func theEndsAreTheMinimumAndTheMaximum() {
        let values = [0.1, 0.2, 0.30000000000000004, 1e300]
        #expect(Percentile.of(values, 0) == 0.1)
        #expect(Percentile.of(values, 1) == 1e300)
    }

    @Test(arguments: [-0.01, 1.01, -.infinity, .infinity, .nan])
    func qOutsideZeroToOneIsNil(q: Double) {
        #expect(Percentile.of(Self.values, q) == nil)
    }

    @Test func noValuesHaveNoPercentile() {
        #expect(Percentile.of([], 0.5) == nil)
    }

    @Test func percentilesRiseWithQAndStayBetweenNeighbours() throws {
        let qs = (0...1000).map { Double($0) / 1000 }
        let results = try qs.map { try #require(Percentile.of(Self.values, $0)) }
        #expect(zip(results, results.dropFirst()).allSatisfy { $0 <= $1 })
        for (q, result) in zip(qs, results) {
            let rank = Double(Self.values.count - 1) * q
            let below = Self.values[Int(rank.rounded(.down))]
            let above = Self.values[Int(rank.rounded(.up))]
            #expect(result >= below && result <= above)
        }
    }
}
