import Privacy

/// A histogram as a state file holds it (`JobMetrics`): every bucket, so that a state read back
/// merges exactly as the value did. Written and read through `ReportValueEncoder` and
/// `ReportValueDecoder`; reading refuses buckets that do not add up to the count.
extension LogHistogram: Codable {
    /// `{"count", "sum_ns", "buckets": [[index, count]...]}`, buckets by index.
    enum CodingKeys: String, CodingKey {
        case count
        case sumNanoseconds = "sum_ns"
        case buckets
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(count, forKey: .count)
        try container.encode(sumNanoseconds, forKey: .sumNanoseconds)
        try container.encode(buckets.sorted { $0.key < $1.key }.map { [$0.key, $0.value] }, forKey: .buckets)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var buckets: [Int: Int] = [:]
        for pair in try container.decode([[Int]].self, forKey: .buckets) {
            guard pair.count == 2, (0...Self.bucketCount).contains(pair[0]), pair[1] > 0, buckets[pair[0]] == nil else {
                throw StateFormatError(at: container.codingPath + [CodingKeys.buckets], "a histogram bucket is not [index, count]")
            }
            buckets[pair[0]] = pair[1]
        }
        let count = try container.decode(Int.self, forKey: .count)
        guard count == buckets.values.reduce(0, +) else {
            throw StateFormatError(at: container.codingPath + [CodingKeys.count], "a histogram's count is not the sum of its buckets")
        }
        self.init(buckets: buckets, count: count, sumNanoseconds: try container.decode(Int.self, forKey: .sumNanoseconds))
    }
}
