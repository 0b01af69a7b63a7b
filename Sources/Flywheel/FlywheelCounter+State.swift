import Privacy

/// The counter as a state file holds it (state.json and checkpoints): every settled numerator,
/// denominator and event count, uncapped, so that counters read back merge exactly.
///
/// Capping to 20 keys happens only when the files people read are rendered, after every shard is
/// merged (the top keys of a shard are not those of the whole). Keys are labels already; reading
/// puts each through its dimension's `ReportLabel` rule again, so a state edited by hand cannot
/// bring a sentence into the merged files.
extension FlywheelCounter {
    /// `{"threads", "messages", "buckets": [{"dimension", "key", "events", "metrics": {name: [n, d]}}]}`,
    /// buckets by dimension then key in display order, metrics with a non-zero count only.
    public var stateValue: ReportValue {
        let settled = settledBuckets.sorted { a, b in
            a.key.dimension != b.key.dimension ? a.key.dimension < b.key.dimension : ReportLabel.precedes(a.key.key, b.key.key)
        }
        return .object([
            ("threads", .int(threads)),
            ("messages", .int(messages)),
            ("buckets", .array(settled.map { key, bucket in
                .object([
                    ("dimension", .label(key.dimension.name)),
                    ("key", .label(key.key)),
                    ("events", .int(bucket.events)),
                    ("metrics", .object(Metric.allCases.compactMap { metric in
                        let (n, d) = (bucket.numerators[metric.rawValue], bucket.denominators[metric.rawValue])
                        return n == 0 && d == 0 ? nil : (metric.name, .array([.int(n), .int(d)]))
                    })),
                ])
            })),
        ])
    }

    /// Reads what `stateValue` wrote, labelling its keys again with the team's list `listed`.
    public init(state: ReportValue, listed: TeamLabels = .none) throws(StateFormatError) {
        self.init(listed: listed)
        threads = try state.int("threads")
        messages = try state.int("messages")
        for item in try state.array("buckets") {
            guard let dimension = MetricDimension(name: try item.string("dimension")) else {
                throw StateFormatError("a flywheel bucket has an unknown dimension")
            }
            let key = BucketKey(dimension: dimension, key: Self.label(try item.string("key"), dimension, listed: listed))
            var bucket = Bucket()
            bucket.events = try item.int("events")
            for (name, pair) in try item.object("metrics") {
                guard let metric = Metric.allCases.first(where: { $0.name == name }), case .array(let counts) = pair,
                      counts.count == 2, case .int(let n) = counts[0], case .int(let d) = counts[1] else {
                    throw StateFormatError("a flywheel metric is not a known name with [numerator, denominator]")
                }
                bucket.numerators[metric.rawValue] = n
                bucket.denominators[metric.rawValue] = d
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
