@testable import Compare
@testable import ReplayKit

/// The paired data sets that reference.py computes its values on, built here bit for bit the same.
enum PairedSamples {
    /// Twelve latencies (ms) in four threads of three items each, thread ids out of order.
    static let small: [PairedObservation] = [
        (120.0, 110.0, 17), (95.0, 97.5, 3), (130.0, 121.0, 17), (88.0, 90.0, 42),
        (101.0, 99.0, 3), (150.0, 139.0, 900), (77.0, 80.0, 42), (143.0, 128.0, 900),
        (110.0, 104.0, 17), (99.0, 101.5, 42), (160.0, 149.0, 900), (105.0, 100.0, 3),
    ].map { PairedObservation(base: $0.0, new: $0.1, cluster: $0.2) }

    /// 1000 items in 32 threads of uneven size: thread k holds items k² ..< (k + 1)². Every value
    /// is a multiple of 1/8, so the doubles are exact and the same as reference.py's.
    static let large: [PairedObservation] = (0..<1000).map { i in
        var cluster = 0
        while (cluster + 1) * (cluster + 1) <= i { cluster += 1 }
        let base = Double((i * 37) % 101) / 4
        let new = base + Double((i * 53) % 23) / 8 - 1.25 + Double(cluster % 5) / 4
        return PairedObservation(base: base, new: new, cluster: UInt64(cluster))
    }

    /// `pairs` with each new value replaced by its base value: a comparison of a run with itself.
    static func unchanged(_ pairs: [PairedObservation]) -> [PairedObservation] {
        pairs.map { PairedObservation(base: $0.base, new: $0.base, cluster: $0.cluster) }
    }
}
