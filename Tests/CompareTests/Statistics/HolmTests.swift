import Testing
@testable import Compare
@testable import ReplayKit

@Suite struct HolmTests {
    // statsmodels 0.15.0 `statsmodels.stats.multitest.multipletests(p, method="holm")[1]`,
    // printed by reference.py ("HolmTests"). The products (m − i + 1) · p are the same
    // multiplications numpy makes, so the values agree exactly.
    @Test(arguments: [
        ([0.01, 0.04, 0.03, 0.005], [0.03, 0.06, 0.06, 0.02]),
        // ties: 0.02 and 0.02 get one adjusted value
        ([0.02, 0.02, 0.5, 0.01], [0.06, 0.06, 0.5, 0.04]),
        // 4 · 0.3 and the running maximum would exceed 1
        ([0.3, 0.6, 0.9, 0.45], [1.0, 1.0, 1.0, 1.0]),
        ([0.04], [0.04]),
        ([0.001, 0.2, 0.001, 0.2, 0.8, 0.05], [0.006, 0.6000000000000001, 0.006, 0.6000000000000001, 0.8, 0.2]),
    ])
    func matchesStatsmodels(pValues: [Double], expected: [Double]) {
        #expect(Holm.adjust(pValues) == expected)
    }

    @Test func noPValuesGiveNone() {
        #expect(Holm.adjust([]) == [])
    }

    @Test func adjustedValuesFollowTheirInputs() {
        let pValues = [0.001, 0.2, 0.001, 0.2, 0.8, 0.05]
        let adjusted = Holm.adjust(pValues)
        let order = [4, 0, 5, 2, 1, 3]
        #expect(Holm.adjust(order.map { pValues[$0] }) == order.map { adjusted[$0] })
    }

    @Test func adjustedValuesAreAtLeastTheRawOnesAndAtMostOne() {
        let pValues = (1...40).map { Double(($0 * 7919) % 1000) / 1000 }
        let adjusted = Holm.adjust(pValues)
        #expect(zip(pValues, adjusted).allSatisfy { $0 <= $1 && $1 <= 1 })
    }

    @Test func aNaNStaysInPlaceAndIsNotCounted() {
        let adjusted = Holm.adjust([0.01, .nan, 0.04])
        #expect(adjusted.count == 3)
        #expect(adjusted[1].isNaN)
        // the same as multipletests([0.01, 0.04], method="holm")[1] = [0.02, 0.04]
        #expect(adjusted[0] == 0.02 && adjusted[2] == 0.04)
    }
}
