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
    /// Every slot's numerators, then denominators, `Metric.allCases.count` each, one flat array
    /// so counting a message touches no nested array.
    private var counts: [Int] = []
    /// Every slot's event count.
    private var events: [Int] = []
    /// Whether the slot's key is in the table (a removed key's slot stays, empty).
    private var present: [Bool] = []

    private static let metricCount = Metric.allCases.count

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
        counts.append(contentsOf: repeatElement(0, count: 2 * BucketTable.metricCount))
        events.append(0)
        present.append(false)
        return slot
    }

    /// Counts `delta` under the keys of six slots, one per dimension.
    mutating func apply(_ delta: Delta, to slots: (Int, Int, Int, Int, Int, Int)) {
        apply(delta, slot: slots.0)
        apply(delta, slot: slots.1)
        apply(delta, slot: slots.2)
        apply(delta, slot: slots.3)
        apply(delta, slot: slots.4)
        apply(delta, slot: slots.5)
    }

    /// Counts `delta` under the key of `slot`.
    private mutating func apply(_ delta: Delta, slot: Int) {
        present[slot] = true
        events[slot] += 1
        let numerators = slot &* 2 &* BucketTable.metricCount
        let denominators = numerators &+ BucketTable.metricCount
        counts.withUnsafeMutableBufferPointer { counts in
            var counted = delta.counted
            while counted != 0 {
                counts[denominators &+ counted.trailingZeroBitCount] += 1
                counted &= counted &- 1
            }
            var hits = delta.hits
            while hits != 0 {
                counts[numerators &+ hits.trailingZeroBitCount] += 1
                hits &= hits &- 1
            }
            if let (metric, sum) = delta.firstSum { counts[numerators &+ metric] += sum }
            if let (metric, sum) = delta.secondSum { counts[numerators &+ metric] += sum }
        }
    }

    /// Adds `bucket`'s counts under `key`.
    mutating func add(_ bucket: Bucket, to key: BucketKey) {
        let slot = slot(key)
        let sum = present[slot] ? self.bucket(slot).adding(bucket) : bucket
        store(sum, in: slot)
        present[slot] = true
    }

    /// Takes `key` out of the table and returns its bucket (nil when it was not in).
    mutating func remove(_ key: BucketKey) -> Bucket? {
        guard let slot = slotOf[key], present[slot] else { return nil }
        let bucket = self.bucket(slot)
        store(Bucket(), in: slot)
        present[slot] = false
        return bucket
    }

    /// The bucket of `key`, if it is in the table.
    subscript(key: BucketKey) -> Bucket? {
        guard let slot = slotOf[key], present[slot] else { return nil }
        return bucket(slot)
    }

    private func bucket(_ slot: Int) -> Bucket {
        let numerators = slot * 2 * BucketTable.metricCount
        let denominators = numerators + BucketTable.metricCount
        var bucket = Bucket()
        bucket.numerators = Array(counts[numerators..<denominators])
        bucket.denominators = Array(counts[denominators..<denominators + BucketTable.metricCount])
        bucket.events = events[slot]
        return bucket
    }

    private mutating func store(_ bucket: Bucket, in slot: Int) {
        let numerators = slot * 2 * BucketTable.metricCount
        let denominators = numerators + BucketTable.metricCount
        counts.replaceSubrange(numerators..<denominators, with: bucket.numerators)
        counts.replaceSubrange(denominators..<denominators + BucketTable.metricCount, with: bucket.denominators)
        events[slot] = bucket.events
    }

    /// The keys in the table and their buckets, in the order the keys were first seen.
    var entries: [(key: BucketKey, bucket: Bucket)] {
        keys.indices.filter { present[$0] }.map { (keys[$0], bucket($0)) }
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
