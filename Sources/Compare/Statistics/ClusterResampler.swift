import Corpus
/// The items of a paired bootstrap laid out once, so that each replicate costs one pass over them
/// and no sort.
///
/// Each side's values are sorted once, with the cluster of each value beside it. A replicate is a
/// count per cluster (how many times the draws picked it); walking a side's sorted values and
/// writing each one as many times as its cluster was drawn yields that replicate's values already
/// in ascending order, which is what a percentile needs.
struct ClusterResampler: Sendable {
    /// Distinct clusters; a draw picks one by its position in ascending order of cluster id.
    let clusterCount: Int
    /// Items per cluster, by position.
    let sizes: [Int]
    /// The base values in ascending order, and the position of the cluster of each.
    let baseValues: [Double]
    let baseClusters: [UInt32]
    /// The same for the new values.
    let newValues: [Double]
    let newClusters: [UInt32]

    init(_ pairs: [PairedObservation]) {
        precondition(pairs.count < Int(UInt32.max), "a bootstrap of more than 2^32 − 1 items")
        let ids = Set(pairs.map(\.cluster)).sorted()
        var position: [UInt64: UInt32] = [:]
        for (index, id) in ids.enumerated() { position[id] = UInt32(index) }
        let clusterOfItem = pairs.map { position[$0.cluster]! }
        var sizes = [Int](repeating: 0, count: ids.count)
        for cluster in clusterOfItem { sizes[Int(cluster)] += 1 }
        clusterCount = ids.count
        self.sizes = sizes

        // Ascending, NaN last (so the order is a strict weak one even then).
        func sortedSide(_ value: (PairedObservation) -> Double) -> ([Double], [UInt32]) {
            let values = pairs.map(value)
            let order = values.indices.sorted { left, right in
                let x = values[left], y = values[right]
                return x < y || (!x.isNaN && y.isNaN)
            }
            return (order.map { values[$0] }, order.map { clusterOfItem[$0] })
        }
        (baseValues, baseClusters) = sortedSide(\.base)
        (newValues, newClusters) = sortedSide(\.new)
    }

    /// One replicate's draws: `clusterCount` clusters with replacement, as a count per cluster.
    func draw(into counts: inout [Int32], using generator: inout Xoshiro256) {
        let bound = UInt64(clusterCount)
        counts.withUnsafeMutableBufferPointer { counts in
            counts.update(repeating: 0)
            for _ in 0..<clusterCount {
                counts[Int(generator.unbiased(below: bound))] += 1
            }
        }
    }

    /// How many items a replicate with these `counts` holds.
    func itemCount(_ counts: [Int32]) -> Int {
        zip(counts, sizes).reduce(0) { $0 + Int($1.0) * $1.1 }
    }

    /// A side's values in a replicate, ascending: each sorted value repeated as often as its
    /// cluster was drawn. `total` is `itemCount(counts)`.
    ///
    /// A cluster is drawn at most four times in all but about 0.4% of replicates' clusters (the
    /// count is close to Poisson(1)), so each value is stored into the next four slots
    /// unconditionally and the write position moves by the count: no branch to mispredict but the
    /// rare larger counts.
    func resample(_ values: [Double], _ clusters: [UInt32], counts: [Int32], total: Int) -> [Double] {
        let slack = 4
        return [Double](unsafeUninitializedCapacity: total + slack) { output, initialized in
            let out = output.baseAddress!
            var written = 0
            values.withUnsafeBufferPointer { values in
                clusters.withUnsafeBufferPointer { clusters in
                    counts.withUnsafeBufferPointer { counts in
                        for index in 0..<values.count {
                            let value = values[index]
                            let times = Int(counts[Int(clusters[index])])
                            if times <= slack {
                                (out + written).initialize(repeating: value, count: slack)
                            } else {
                                (out + written).initialize(repeating: value, count: times)
                            }
                            written += times
                        }
                    }
                }
            }
            // The slots past `written` hold stray copies: trivial values, nothing to release.
            precondition(written == total, "a replicate's item count does not match its draws")
            initialized = written
        }
    }
}
