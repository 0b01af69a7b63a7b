/// The counter's buckets, each key in a slot that stays its own for the life of the table.
///
/// Counting a message touches six buckets; finding them by a string key in a dictionary, six
/// times per message, was a large share of `replay flywheel`. Here a key is hashed once, when
/// first seen, and the counter keeps slot numbers (`LabelSlots`, `OpenThread`). Slots are never
/// reused: removing a key (capping) empties its slot and leaves it out of every view until
/// something is counted under the key again, as a dictionary would.
struct BucketTable: Sendable {
    /// The slot of the overall dimension's one key, made with the table.
    static let overallSlot = 0

    private var slotOf: [BucketKey: Int] = [:]
    private var keys: [BucketKey] = []
    /// Per slot, `stride` integers in one flat array, so counting a message touches no nested
    /// array: the numerators, the denominators (`Metric.allCases.count` each), the events, and
    /// 1 when the key is in the table (a removed key's slot stays, empty, with 0).
    private var counts: [Int] = []

    private static let metricCount = Metric.allCases.count
    private static let stride = 2 * metricCount + 2
    private static let eventsOffset = 2 * metricCount
    private static let presentOffset = 2 * metricCount + 1

    /// An empty table (the overall key has its slot, not yet a bucket).
    init() {
        _ = slot(BucketKey(dimension: .overall, key: MetricDimension.overallKey))
    }

    /// The slot of `key`, made (empty, not present) when the key is new.
    mutating func slot(_ key: BucketKey) -> Int {
        if let slot = slotOf[key] { return slot }
        let slot = keys.count
        slotOf[key] = slot
        keys.append(key)
        counts.append(contentsOf: repeatElement(0, count: BucketTable.stride))
        return slot
    }

    /// Counts `delta` under the keys of six slots, one per dimension, in one pass: each of the
    /// delta's bits is found once and added to all six.
    mutating func apply(_ delta: Delta, to slots: (Int, Int, Int, Int, Int, Int)) {
        counts.withUnsafeMutableBufferPointer { counts in
            guard let base = counts.baseAddress else { return }
            let slotCount = counts.count / BucketTable.stride
            func start(_ slot: Int) -> UnsafeMutablePointer<Int> {
                precondition(slot >= 0 && slot < slotCount, "a slot of this table")
                return base + slot &* BucketTable.stride
            }
            let all = (start(slots.0), start(slots.1), start(slots.2), start(slots.3), start(slots.4), start(slots.5))
            func add(_ offset: Int, _ amount: Int) {
                all.0[offset] += amount
                all.1[offset] += amount
                all.2[offset] += amount
                all.3[offset] += amount
                all.4[offset] += amount
                all.5[offset] += amount
            }
            add(BucketTable.eventsOffset, 1)
            var counted = delta.counted
            while counted != 0 {
                add(BucketTable.metricCount &+ counted.trailingZeroBitCount, 1)
                counted &= counted &- 1
            }
            var hits = delta.hits
            while hits != 0 {
                add(hits.trailingZeroBitCount, 1)
                hits &= hits &- 1
            }
            if let (metric, sum) = delta.firstSum { add(metric, sum) }
            if let (metric, sum) = delta.secondSum { add(metric, sum) }
            all.0[BucketTable.presentOffset] = 1
            all.1[BucketTable.presentOffset] = 1
            all.2[BucketTable.presentOffset] = 1
            all.3[BucketTable.presentOffset] = 1
            all.4[BucketTable.presentOffset] = 1
            all.5[BucketTable.presentOffset] = 1
        }
    }

    private func isPresent(_ slot: Int) -> Bool { counts[slot * BucketTable.stride + BucketTable.presentOffset] != 0 }

    /// Adds `bucket`'s counts under `key`.
    mutating func add(_ bucket: Bucket, to key: BucketKey) {
        let slot = slot(key)
        store(isPresent(slot) ? self.bucket(slot).adding(bucket) : bucket, in: slot, present: true)
    }

    /// Takes `key` out of the table and returns its bucket (nil when it was not in).
    mutating func remove(_ key: BucketKey) -> Bucket? {
        guard let slot = slotOf[key], isPresent(slot) else { return nil }
        let bucket = self.bucket(slot)
        store(Bucket(), in: slot, present: false)
        return bucket
    }

    /// The bucket of `key`, if it is in the table.
    subscript(key: BucketKey) -> Bucket? {
        guard let slot = slotOf[key], isPresent(slot) else { return nil }
        return bucket(slot)
    }

    private func bucket(_ slot: Int) -> Bucket {
        let numerators = slot * BucketTable.stride
        let denominators = numerators + BucketTable.metricCount
        var bucket = Bucket()
        bucket.numerators = Array(counts[numerators..<denominators])
        bucket.denominators = Array(counts[denominators..<denominators + BucketTable.metricCount])
        bucket.events = counts[numerators + BucketTable.eventsOffset]
        return bucket
    }

    private mutating func store(_ bucket: Bucket, in slot: Int, present: Bool) {
        let numerators = slot * BucketTable.stride
        let denominators = numerators + BucketTable.metricCount
        counts.replaceSubrange(numerators..<denominators, with: bucket.numerators)
        counts.replaceSubrange(denominators..<denominators + BucketTable.metricCount, with: bucket.denominators)
        counts[numerators + BucketTable.eventsOffset] = bucket.events
        counts[numerators + BucketTable.presentOffset] = present ? 1 : 0
    }

    /// The keys in the table and their buckets, in the order the keys were first seen.
    var entries: [(key: BucketKey, bucket: Bucket)] {
        keys.indices.filter(isPresent).map { (keys[$0], bucket($0)) }
    }

    /// The table as a dictionary.
    var dictionary: [BucketKey: Bucket] {
        var result: [BucketKey: Bucket] = [:]
        for (key, bucket) in entries { result[key] = bucket }
        return result
    }

    /// The cell of `metric` under `key` of `dimension`; 0 of 0 for a key not in the table.
    func cell(_ metric: Metric, _ dimension: MetricDimension, _ key: String) -> RateCell {
        let bucket = self[BucketKey(dimension: dimension, key: key)]
        return RateCell(metric: metric, dimension: dimension, key: key,
                        numerator: bucket?.numerators[metric.rawValue] ?? 0,
                        denominator: bucket?.denominators[metric.rawValue] ?? 0)
    }
}
