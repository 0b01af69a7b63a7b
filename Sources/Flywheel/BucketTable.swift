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
    private var buckets: [Bucket] = []
    /// Whether the slot's key is in the table (a removed key's slot stays, empty).
    private var present: [Bool] = []

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
        buckets.append(Bucket())
        present.append(false)
        return slot
    }

    /// Counts `delta` under the key of `slot`.
    mutating func apply(_ delta: Delta, to slot: Int) {
        present[slot] = true
        buckets[slot].apply(delta)
    }

    /// Adds `bucket`'s counts under `key`.
    mutating func add(_ bucket: Bucket, to key: BucketKey) {
        let slot = slot(key)
        buckets[slot] = present[slot] ? buckets[slot].adding(bucket) : bucket
        present[slot] = true
    }

    /// Takes `key` out of the table and returns its bucket (nil when it was not in).
    mutating func remove(_ key: BucketKey) -> Bucket? {
        guard let slot = slotOf[key], present[slot] else { return nil }
        let bucket = buckets[slot]
        buckets[slot] = Bucket()
        present[slot] = false
        return bucket
    }

    /// The bucket of `key`, if it is in the table.
    subscript(key: BucketKey) -> Bucket? {
        guard let slot = slotOf[key], present[slot] else { return nil }
        return buckets[slot]
    }

    /// The keys in the table and their buckets, in the order the keys were first seen.
    var entries: [(key: BucketKey, bucket: Bucket)] {
        keys.indices.filter { present[$0] }.map { (keys[$0], buckets[$0]) }
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
