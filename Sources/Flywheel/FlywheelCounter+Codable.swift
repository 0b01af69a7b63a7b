import Privacy

/// The counter as a state file holds it (state.json and checkpoints): every settled numerator,
/// denominator and event count, uncapped, so that counters read back merge exactly. Written and
/// read through `ReportValueEncoder` and `ReportValueDecoder`.
///
/// Capping to 20 keys happens only when the files people read are rendered, after every shard is
/// merged (the top keys of a shard are not those of the whole). Keys are labels already; reading
/// puts each through its dimension's `ReportLabel` rule again, with the team's list in the
/// decoder's `userInfo[.teamLabels]`, so a state edited by hand cannot bring a sentence into the
/// merged files.
extension FlywheelCounter: Codable {
    /// `{"threads", "messages", "buckets": [{"dimension", "key", "events", "metrics": {name: [n, d]}}]}`,
    /// buckets by dimension then key in display order, metrics with a non-zero count only.
    enum CodingKeys: String, CodingKey {
        case threads, messages, buckets
    }

    enum BucketKeys: String, CodingKey {
        case dimension, key, events, metrics
    }

    public func encode(to encoder: any Encoder) throws {
        let settled = settledBuckets.sorted { a, b in
            a.key.dimension != b.key.dimension ? a.key.dimension < b.key.dimension : ReportLabel.precedes(a.key.key, b.key.key)
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(threads, forKey: .threads)
        try container.encode(messages, forKey: .messages)
        var list = container.nestedUnkeyedContainer(forKey: .buckets)
        for (key, bucket) in settled {
            var item = list.nestedContainer(keyedBy: BucketKeys.self)
            try item.encode(key.dimension.name, forKey: .dimension)
            try item.encode(key.key, forKey: .key)
            try item.encode(bucket.events, forKey: .events)
            try item.encode(ResultMap(Metric.allCases.compactMap { metric in
                let (n, d) = (bucket.numerators[metric.rawValue], bucket.denominators[metric.rawValue])
                return n == 0 && d == 0 ? nil : (metric, [n, d])
            }), forKey: .metrics)
        }
    }

    /// Reads what `encode(to:)` wrote, labelling its keys again with the team's list
    /// (`decoder.teamLabels`).
    public init(from decoder: any Decoder) throws {
        let listed = decoder.teamLabels
        self.init(listed: listed)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        threads = try container.decode(Int.self, forKey: .threads)
        messages = try container.decode(Int.self, forKey: .messages)
        var list = try container.nestedUnkeyedContainer(forKey: .buckets)
        while !list.isAtEnd {
            let item = try list.nestedContainer(keyedBy: BucketKeys.self)
            guard let dimension = MetricDimension(name: try item.decode(String.self, forKey: .dimension)) else {
                throw StateFormatError(at: item.codingPath + [BucketKeys.dimension], "a flywheel bucket has an unknown dimension")
            }
            let text = try item.decode(String.self, forKey: .key)
            try decoder.judge(text, as: .flywheelKey(dimension: dimension.name), at: item.codingPath + [BucketKeys.key])
            let key = BucketKey(dimension: dimension, key: Self.label(text, dimension, listed: listed))
            var bucket = Bucket()
            bucket.events = try item.decode(Int.self, forKey: .events)
            for (metric, counts) in try item.decode(ResultMap<Metric, [Int]>.self, forKey: .metrics).pairs {
                guard counts.count == 2 else {
                    throw StateFormatError(at: item.codingPath + [BucketKeys.metrics], "a flywheel metric is not [numerator, denominator]")
                }
                bucket.numerators[metric.rawValue] = counts[0]
                bucket.denominators[metric.rawValue] = counts[1]
            }
            table.add(bucket, to: key)
        }
    }

    /// `key` through the rule of its dimension (idempotent on a label that passed it).
    static func label(_ key: String, _ dimension: MetricDimension, listed: TeamLabels) -> String {
        switch dimension {
        case .overall: return MetricDimension.overallKey
        case .build: return ReportLabel(build: key, listed: listed).text
        case .model: return ReportLabel(model: key, listed: listed).text
        case .locale: return ReportLabel(locale: key).text
        case .agent: return ReportLabel(agent: key, listed: listed).text
        case .week: return ISOWeek.monday(of: key) != nil || key == MetricDimension.unknownKey ? key : MetricDimension.unknownKey
        }
    }
}
