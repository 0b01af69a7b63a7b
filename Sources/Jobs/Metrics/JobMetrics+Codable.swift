import Privacy

/// The metrics as a state file holds them (state.json and checkpoints, docs/report-schema.md):
/// every count, sum and histogram bucket, so that a state read back merges exactly as the value did.
/// Written and read through `ReportValueEncoder` and `ReportValueDecoder`.
///
/// Keys are written in a fixed order and dictionaries sorted, so one state always reads the same.
/// Names of quality measures, counters, builds and models are written as they are: the caller
/// (ReplayKit's `RunState`) has put corpus labels through their `ReportLabel` rules before, and
/// puts them through again when reading a state back.
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

extension JobMetrics: Codable {
    /// Every field, in declaration order; dictionaries sorted by key.
    enum CodingKeys: String, CodingKey {
        case scanned, eligible, asked, answered, fallbacks
        case inBudgetHost = "in_budget_host"
        case inBudgetDevice = "in_budget_device"
        case inputCut = "inputs_cut"
        case hostLatency = "host_latency_ms"
        case deviceLatency = "device_latency_ms"
        case tokensIn = "tokens_in"
        case tokensOut = "tokens_out"
        case quality
        case qualityAllAnswers = "quality_all_answers"
        case counters
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(scanned, forKey: .scanned)
        try container.encode(eligible, forKey: .eligible)
        try container.encode(asked, forKey: .asked)
        try container.encode(answered, forKey: .answered)
        try container.encode(ResultMap(fallbacks.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }), forKey: .fallbacks)
        try container.encode(inBudgetHost, forKey: .inBudgetHost)
        try container.encode(inBudgetDevice, forKey: .inBudgetDevice)
        try container.encode(inputCut, forKey: .inputCut)
        try container.encode(hostLatency, forKey: .hostLatency)
        try container.encode(deviceLatency, forKey: .deviceLatency)
        try container.encode(tokensIn, forKey: .tokensIn)
        try container.encode(tokensOut, forKey: .tokensOut)
        try container.encode(Self.measures(quality), forKey: .quality)
        try container.encode(Self.measures(qualityAllAnswers), forKey: .qualityAllAnswers)
        try container.encode(ResultMap(counters.sorted { $0.key < $1.key }.map { (CounterName($0.key), $0.value) }), forKey: .counters)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        scanned = try container.decode(Int.self, forKey: .scanned)
        eligible = try container.decode(Int.self, forKey: .eligible)
        asked = try container.decode(Int.self, forKey: .asked)
        answered = try container.decode(Int.self, forKey: .answered)
        for (reason, n) in try container.decode(ResultMap<FallbackReason, Int>.self, forKey: .fallbacks).pairs { fallbacks[reason] = n }
        inBudgetHost = try container.decode(Int.self, forKey: .inBudgetHost)
        inBudgetDevice = try container.decode(Int.self, forKey: .inBudgetDevice)
        inputCut = try container.decode(Int.self, forKey: .inputCut)
        hostLatency = try container.decode(LogHistogram.self, forKey: .hostLatency)
        deviceLatency = try container.decode(LogHistogram.self, forKey: .deviceLatency)
        tokensIn = try container.decode(Int.self, forKey: .tokensIn)
        tokensOut = try container.decode(Int.self, forKey: .tokensOut)
        for (name, tally) in try container.decode(ResultMap<QualityName, QualityTally>.self, forKey: .quality).pairs { quality[name.name] = tally }
        for (name, tally) in try container.decode(ResultMap<QualityName, QualityTally>.self, forKey: .qualityAllAnswers).pairs {
            qualityAllAnswers[name.name] = tally
        }
        for (name, n) in try container.decode(ResultMap<CounterName, Int>.self, forKey: .counters).pairs { counters[name.text] = n }
    }

    /// Quality tallies by measure, sorted by name.
    static func measures(_ tallies: [String: QualityTally]) -> ResultMap<QualityName, QualityTally> {
        ResultMap(tallies.sorted { $0.key < $1.key }.map { (QualityName($0.key), $0.value) })
    }
}

extension JobLedger: Codable {
    /// `{"overall", "by_build": {label: metrics}, "by_model": {label: metrics}, "by_locale":
    /// {label: metrics}}`, labels sorted.
    enum CodingKeys: String, CodingKey {
        case overall
        case byBuild = "by_build"
        case byModel = "by_model"
        case byLocale = "by_locale"
    }

    public func encode(to encoder: any Encoder) throws {
        func slices<Rule>(_ dictionary: [String: JobMetrics]) -> ResultMap<Judged<Rule>, JobMetrics> {
            ResultMap(dictionary.sorted { ReportLabel.precedes($0.key, $1.key) }.map { (Judged($0.key), $0.value) })
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(overall, forKey: .overall)
        try container.encode(slices(byBuild) as ResultMap<BuildLabel, JobMetrics>, forKey: .byBuild)
        try container.encode(slices(byModel) as ResultMap<ModelLabel, JobMetrics>, forKey: .byModel)
        try container.encode(slices(byLocale) as ResultMap<LocaleLabel, JobMetrics>, forKey: .byLocale)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        overall = try container.decode(JobMetrics.self, forKey: .overall)
        for (label, metrics) in try container.decode(ResultMap<BuildLabel, JobMetrics>.self, forKey: .byBuild).pairs { byBuild[label.text] = metrics }
        for (label, metrics) in try container.decode(ResultMap<ModelLabel, JobMetrics>.self, forKey: .byModel).pairs { byModel[label.text] = metrics }
        // A state written before locales were counted has none.
        if container.contains(.byLocale) {
            for (label, metrics) in try container.decode(ResultMap<LocaleLabel, JobMetrics>.self, forKey: .byLocale).pairs {
                byLocale[label.text] = metrics
            }
        }
    }
}
