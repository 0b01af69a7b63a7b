import Privacy

/// The metrics as a state file holds them (state.json and checkpoints, docs/report-schema.md):
/// every count, sum and histogram bucket, so that a state read back merges exactly as the value did.
///
/// Keys are written in a fixed order and dictionaries sorted, so one state always reads the same.
/// Names of quality measures, counters, builds and models are written as they are: the caller
/// (ReplayKit's `RunState`) has put corpus labels through their `ReportLabel` rules before, and
/// puts them through again when reading a state back.
extension LogHistogram {
    /// `{"count", "sum_ns", "buckets": [[index, count]...]}`, buckets by index.
    public var stateValue: ReportValue {
        .object([
            ("count", .int(count)),
            ("sum_ns", .int(sumNanoseconds)),
            ("buckets", .array(buckets.sorted { $0.key < $1.key }.map { .array([.int($0.key), .int($0.value)]) })),
        ])
    }

    /// Reads what `stateValue` wrote.
    public init(state: ReportValue) throws(StateFormatError) {
        var buckets: [Int: Int] = [:]
        for pair in try state.array("buckets") {
            guard case .array(let items) = pair, items.count == 2, case .int(let index) = items[0], case .int(let n) = items[1],
                  (0...Self.bucketCount).contains(index), n > 0, buckets[index] == nil else {
                throw StateFormatError("a histogram bucket is not [index, count]")
            }
            buckets[index] = n
        }
        let count = try state.int("count")
        guard count == buckets.values.reduce(0, +) else { throw StateFormatError("a histogram's count is not the sum of its buckets") }
        self.init(buckets: buckets, count: count, sumNanoseconds: try state.int("sum_ns"))
    }
}

extension QualityTally {
    /// `{"sum_billionths", "count"}`.
    public var stateValue: ReportValue {
        .object([("sum_billionths", .int(sumBillionths)), ("count", .int(count))])
    }

    /// Reads what `stateValue` wrote.
    public init(state: ReportValue) throws(StateFormatError) {
        self.init(sumBillionths: try state.int("sum_billionths"), count: try state.int("count"))
    }
}

extension JobMetrics {
    /// Every field, in declaration order.
    public var stateValue: ReportValue {
        func counts(_ dictionary: [String: Int]) -> ReportValue {
            .object(dictionary.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })
        }
        func tallies(_ dictionary: [String: QualityTally]) -> ReportValue {
            .object(dictionary.sorted { $0.key < $1.key }.map { ($0.key, $0.value.stateValue) })
        }
        return .object([
            ("scanned", .int(scanned)),
            ("eligible", .int(eligible)),
            ("asked", .int(asked)),
            ("answered", .int(answered)),
            ("fallbacks", .object(fallbacks.sorted { $0.key < $1.key }.map { ($0.key.rawValue, .int($0.value)) })),
            ("in_budget_host", .int(inBudgetHost)),
            ("in_budget_device", .int(inBudgetDevice)),
            ("inputs_cut", .int(inputCut)),
            ("host_latency_ms", hostLatency.stateValue),
            ("device_latency_ms", deviceLatency.stateValue),
            ("tokens_in", .int(tokensIn)),
            ("tokens_out", .int(tokensOut)),
            ("quality", tallies(quality)),
            ("quality_all_answers", tallies(qualityAllAnswers)),
            ("counters", counts(counters)),
        ])
    }

    /// Reads what `stateValue` wrote.
    public init(state: ReportValue) throws(StateFormatError) {
        self.init()
        scanned = try state.int("scanned")
        eligible = try state.int("eligible")
        asked = try state.int("asked")
        answered = try state.int("answered")
        for (name, value) in try state.object("fallbacks") {
            guard let reason = FallbackReason(rawValue: name) else { throw StateFormatError("unknown fallback reason") }
            fallbacks[reason] = try value.asInt()
        }
        inBudgetHost = try state.int("in_budget_host")
        inBudgetDevice = try state.int("in_budget_device")
        inputCut = try state.int("inputs_cut")
        hostLatency = try LogHistogram(state: state.required("host_latency_ms"))
        deviceLatency = try LogHistogram(state: state.required("device_latency_ms"))
        tokensIn = try state.int("tokens_in")
        tokensOut = try state.int("tokens_out")
        for (name, value) in try state.object("quality") { quality[name] = try QualityTally(state: value) }
        for (name, value) in try state.object("quality_all_answers") { qualityAllAnswers[name] = try QualityTally(state: value) }
        for (name, value) in try state.object("counters") { counters[name] = try value.asInt() }
    }
}

extension JobLedger {
    /// `{"overall", "by_build": {label: metrics}, "by_model": {label: metrics}}`, labels sorted.
    public var stateValue: ReportValue {
        func slices(_ dictionary: [String: JobMetrics]) -> ReportValue {
            .object(dictionary.sorted { ReportLabel.precedes($0.key, $1.key) }.map { ($0.key, $0.value.stateValue) })
        }
        return .object([("overall", overall.stateValue), ("by_build", slices(byBuild)), ("by_model", slices(byModel))])
    }

    /// Reads what `stateValue` wrote.
    public init(state: ReportValue) throws(StateFormatError) {
        self.init()
        overall = try JobMetrics(state: state.required("overall"))
        for (label, value) in try state.object("by_build") { byBuild[label] = try JobMetrics(state: value) }
        for (label, value) in try state.object("by_model") { byModel[label] = try JobMetrics(state: value) }
    }
}
