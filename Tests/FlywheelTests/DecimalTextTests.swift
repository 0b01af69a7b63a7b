import Foundation
import Testing
@testable import Flywheel

/// `DecimalText.fixed` writes exactly what `String(format:)` writes, so the files stay the same.
struct DecimalTextTests {
    @Test(arguments: [1, 2, 6])
    func fixedMatchesStringFormat(digits: Int) {
        var values: [Double] = [0, -0.0, 0.05, 0.15, 0.25, 0.35, 1.005, 2.675, 0.125, 0.5, 1.5, 2.5, -1.25, 99.95, 99.995,
                                1e-7, 123456789.123456, -0.000_000_4, 1e20, 1e300, .pi, -.pi, .infinity, -.infinity, .nan]
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2_000 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            values.append(Double(seed >> 11) / Double(1 << 53) * 200 - 100)
        }
        for value in values {
            #expect(DecimalText.fixed(value, digits: digits) == String(format: "%.\(digits)f", value), "\(value)")
        }
    }
}
