import Privacy

/// The counts of one job over a corpus, or over one build, model version or locale of it.
///
/// Counts, sums and histograms only: what the report carries. Everything merges exactly, so
/// two halves of a corpus add up to the whole.
///
/// A state file (state.json and checkpoints, docs/report-schema.md) holds every count, sum and
/// histogram bucket, so that a state read back merges exactly as the value did; its keys come in
/// the order of these fields, each dictionary sorted by key. Names of quality measures and
/// counters are written as they are: ReplayKit's `RunState` has put them through their
/// `ReportLabel` rules before, and puts them through again when reading a state back.
public struct JobMetrics: Sendable, Equatable, Codable {
    /// Places the job looked at (agent screens for chips, person messages for routing…).
    public var scanned = 0
    /// Places where it fires.
    public var eligible = 0
    /// Eligible places where the model was asked.
    public var asked = 0
    /// Eligible places with a valid answer within every budget.
    public var answered = 0
    /// Eligible places that fell back, by reason.
    @SortedMap<FallbackReason, Int> public var fallbacks: [FallbackReason: Int] = [:]
    /// Asked places whose valid answer came within the time budget, by the host's clock.
    public var inBudgetHost = 0
    /// The same by the device profile's estimate.
    public var inBudgetDevice = 0
    /// The same as the phone's one queue would see it: waits and cold starts included (`PhoneQueue`).
    public var inBudgetQueued = 0
    /// Eligible places whose input words were cut to the job's cap.
    public var inputCut = 0
    /// Host milliseconds of asked places.
    public var hostLatency = LogHistogram()
    /// Estimated device milliseconds of asked places.
    public var deviceLatency = LogHistogram()
    /// Estimated milliseconds from firing to answer of asked places, in the phone's queue.
    public var queuedLatency = LogHistogram()
    /// Prompt tokens of asked places (template included).
    public var tokensIn = 0
    /// Output tokens of asked places.
    public var tokensOut = 0
    /// Quality measures of what the person saw (answers within the budget on the device, else
    /// the app's fallback): their sums and how many places had each.
    @SortedMap<QualityName, QualityTally> public var quality: [String: QualityTally] = [:]
    /// The same measures over every valid answer, late ones scored as if shown.
    @SortedMap<QualityName, QualityTally> public var qualityAllAnswers: [String: QualityTally] = [:]
    /// Job-specific counters (for example routing's "named").
    @SortedMap<CounterName, Int> public var counters: [String: Int] = [:]
    /// Push in next-run mode (`PushMode.nextRun`): for each eligible push the app ran after,
    /// the seconds from the push to that run (the histogram's unit is the second here, its
    /// sum kept in millionths of one). Empty in any other job or mode.
    public var nextRunDelay = LogHistogram()

    enum CodingKeys: String, CodingKey {
        case scanned, eligible, asked, answered, fallbacks
        case inBudgetHost = "in_budget_host"
        case inBudgetDevice = "in_budget_device"
        case inBudgetQueued = "in_budget_queued"
        case inputCut = "inputs_cut"
        case hostLatency = "host_latency_ms"
        case deviceLatency = "device_latency_ms"
        case queuedLatency = "queued_latency_ms"
        case tokensIn = "tokens_in"
        case tokensOut = "tokens_out"
        case quality
        case qualityAllAnswers = "quality_all_answers"
        case counters
        case nextRunDelay = "next_run_delay_s"
    }

    public init() {}

    /// Every key in the order above; `next_run_delay_s` only when a delay was counted, so a state
    /// of a run without the next-run path reads as before it existed.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(scanned, forKey: .scanned)
        try container.encode(eligible, forKey: .eligible)
        try container.encode(asked, forKey: .asked)
        try container.encode(answered, forKey: .answered)
        try container.encode(_fallbacks, forKey: .fallbacks)
        try container.encode(inBudgetHost, forKey: .inBudgetHost)
        try container.encode(inBudgetDevice, forKey: .inBudgetDevice)
        try container.encode(inBudgetQueued, forKey: .inBudgetQueued)
        try container.encode(inputCut, forKey: .inputCut)
        try container.encode(hostLatency, forKey: .hostLatency)
        try container.encode(deviceLatency, forKey: .deviceLatency)
        try container.encode(queuedLatency, forKey: .queuedLatency)
        try container.encode(tokensIn, forKey: .tokensIn)
        try container.encode(tokensOut, forKey: .tokensOut)
        try container.encode(_quality, forKey: .quality)
        try container.encode(_qualityAllAnswers, forKey: .qualityAllAnswers)
        try container.encode(_counters, forKey: .counters)
        if nextRunDelay.count > 0 { try container.encode(nextRunDelay, forKey: .nextRunDelay) }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        scanned = try container.decode(Int.self, forKey: .scanned)
        eligible = try container.decode(Int.self, forKey: .eligible)
        asked = try container.decode(Int.self, forKey: .asked)
        answered = try container.decode(Int.self, forKey: .answered)
        _fallbacks = try container.decode(SortedMap<FallbackReason, Int>.self, forKey: .fallbacks)
        inBudgetHost = try container.decode(Int.self, forKey: .inBudgetHost)
        inBudgetDevice = try container.decode(Int.self, forKey: .inBudgetDevice)
        inBudgetQueued = try container.decode(Int.self, forKey: .inBudgetQueued)
        inputCut = try container.decode(Int.self, forKey: .inputCut)
        hostLatency = try container.decode(LogHistogram.self, forKey: .hostLatency)
        deviceLatency = try container.decode(LogHistogram.self, forKey: .deviceLatency)
        queuedLatency = try container.decode(LogHistogram.self, forKey: .queuedLatency)
        tokensIn = try container.decode(Int.self, forKey: .tokensIn)
        tokensOut = try container.decode(Int.self, forKey: .tokensOut)
        _quality = try container.decode(SortedMap<QualityName, QualityTally>.self, forKey: .quality)
        _qualityAllAnswers = try container.decode(SortedMap<QualityName, QualityTally>.self, forKey: .qualityAllAnswers)
        _counters = try container.decode(SortedMap<CounterName, Int>.self, forKey: .counters)
        if container.contains(.nextRunDelay) { nextRunDelay = try container.decode(LogHistogram.self, forKey: .nextRunDelay) }
    }

    /// `inBudgetHost` of every eligible place (report.json's `in_budget.host`); nil when none.
    ///
    /// Over eligible places, not asked ones: a place the model was never asked about (an
    /// unsupported language, the context ceiling, no model) showed the person nothing in time
    /// either, so dividing by `asked` would call a job that is rarely asked fast.
    public var inBudgetHostRate: Double? { Self.rate(inBudgetHost, of: eligible) }

    /// `inBudgetDevice` of every eligible place (`in_budget.device`, and the flywheel's
    /// replayed `inBudgetDevice`); nil when none. Over eligible places, as `inBudgetHostRate`.
    public var inBudgetDeviceRate: Double? { Self.rate(inBudgetDevice, of: eligible) }

    /// `inBudgetQueued` of every eligible place (`in_budget.queued`); nil when none.
    public var inBudgetQueuedRate: Double? { Self.rate(inBudgetQueued, of: eligible) }

    /// `answered` of every eligible place (`answered_rate`); nil when none.
    public var answeredRate: Double? { Self.rate(answered, of: eligible) }

    public static func rate(_ count: Int, of places: Int) -> Double? {
        places == 0 ? nil : Double(count) / Double(places)
    }

    /// Counts one result of an eligible place.
    public mutating func add(_ result: ItemResult) {
        eligible += 1
        if result.answered { answered += 1 }
        if let reason = result.fallback { fallbacks[reason, default: 0] += 1 }
        if result.inputWasCut { inputCut += 1 }
        if result.asked {
            asked += 1
            tokensIn += result.promptTokens
            tokensOut += result.outputTokens
        }
        if let ms = result.hostMilliseconds { hostLatency.add(ms) }
        if let ms = result.deviceMilliseconds { deviceLatency.add(ms) }
        if let ms = result.queuedMilliseconds { queuedLatency.add(ms) }
        if result.inBudgetHost == true { inBudgetHost += 1 }
        if result.inBudgetDevice == true { inBudgetDevice += 1 }
        if result.inBudgetQueued == true { inBudgetQueued += 1 }
        for (name, value) in result.quality { quality[name, default: QualityTally()].add(value) }
        for (name, value) in result.qualityAllAnswers { qualityAllAnswers[name, default: QualityTally()].add(value) }
        for (name, n) in result.counters { counters[name, default: 0] += n }
        for name in result.place?.counters(for: result) ?? [] { counters[name, default: 0] += 1 }
    }

    /// Adds everything counted in `other`.
    public mutating func merge(_ other: JobMetrics) {
        scanned += other.scanned
        eligible += other.eligible
        asked += other.asked
        answered += other.answered
        for (reason, n) in other.fallbacks { fallbacks[reason, default: 0] += n }
        inBudgetHost += other.inBudgetHost
        inBudgetDevice += other.inBudgetDevice
        inBudgetQueued += other.inBudgetQueued
        inputCut += other.inputCut
        hostLatency.merge(other.hostLatency)
        deviceLatency.merge(other.deviceLatency)
        queuedLatency.merge(other.queuedLatency)
        tokensIn += other.tokensIn
        tokensOut += other.tokensOut
        for (name, tally) in other.quality { quality[name, default: QualityTally()].merge(tally) }
        for (name, tally) in other.qualityAllAnswers { qualityAllAnswers[name, default: QualityTally()].merge(tally) }
        for (name, n) in other.counters { counters[name, default: 0] += n }
        nextRunDelay.merge(other.nextRunDelay)
    }
}

/// A sum and a count, for a mean that merges exactly.
///
/// The sum is kept in billionths, an integer: measures are rates and small means, and a
/// floating-point sum would depend on the order of the additions, so the halves of a corpus
/// merged in another order than one run added them could differ in the last bits.
public struct QualityTally: Sendable, Equatable, Codable {
    /// The sum of the values, each in billionths (rounded to the nearest).
    public private(set) var sumBillionths = 0
    public var count = 0

    /// A state's `{"sum_billionths", "count"}`.
    enum CodingKeys: String, CodingKey {
        case sumBillionths = "sum_billionths"
        case count
    }
    public init() {}
    /// The sum of the values.
    public var sum: Double { Double(sumBillionths) / 1_000_000_000 }
    public mutating func add(_ value: Double) {
        sumBillionths += value.isFinite ? Int((max(-9e9, min(9e9, value)) * 1_000_000_000).rounded()) : 0
        count += 1
    }
    public mutating func merge(_ other: QualityTally) { sumBillionths += other.sumBillionths; count += other.count }
    /// The mean, or nil when nothing was measured.
    public var mean: Double? { count == 0 ? nil : sum / Double(count) }
}

/// One job's metrics overall and split by app build, by model version, by locale, and by the cell a
/// release is decided on: app build × model version.
///
/// A state holds it as `{"overall", "by_build": {label: metrics}, "by_model": …, "by_locale": …,
/// "by_build_model": {build: {model: metrics}}}`, labels in display order.
public struct JobLedger: Sendable, Equatable, Codable {
    public var overall = JobMetrics()
    @SortedMap<BuildLabel, JobMetrics> public var byBuild: [String: JobMetrics] = [:]
    @SortedMap<ModelLabel, JobMetrics> public var byModel: [String: JobMetrics] = [:]
    /// Keyed by `Attribution.locale`: the raw tag, as the other slices hold raw builds and models.
    @SortedMap<LocaleLabel, JobMetrics> public var byLocale: [String: JobMetrics] = [:]
    /// Keyed by raw build, then by raw model version: each (build, model) cell's metrics.
    @SortedMap<BuildLabel, SortedMap<ModelLabel, JobMetrics>> public var byBuildModel: [String: SortedMap<ModelLabel, JobMetrics>] = [:]

    enum CodingKeys: String, CodingKey {
        case overall
        case byBuild = "by_build"
        case byModel = "by_model"
        case byLocale = "by_locale"
        case byBuildModel = "by_build_model"
    }

    public init() {}

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        overall = try container.decode(JobMetrics.self, forKey: .overall)
        _byBuild = try container.decode(SortedMap<BuildLabel, JobMetrics>.self, forKey: .byBuild)
        _byModel = try container.decode(SortedMap<ModelLabel, JobMetrics>.self, forKey: .byModel)
        // A state written before locales were counted has none.
        if container.contains(.byLocale) { _byLocale = try container.decode(SortedMap<LocaleLabel, JobMetrics>.self, forKey: .byLocale) }
        _byBuildModel = try container.decode(SortedMap<BuildLabel, SortedMap<ModelLabel, JobMetrics>>.self, forKey: .byBuildModel)
    }

    /// The metrics of one (build, model version) cell, raw values as the other slices hold them.
    public subscript(build build: String, model model: String) -> JobMetrics {
        get { byBuildModel[build]?.wrappedValue[model] ?? JobMetrics() }
        set { byBuildModel[build, default: SortedMap()].wrappedValue[model] = newValue }
    }

    /// Counts a place the job looked at.
    public mutating func scanned(_ attribution: Attribution) {
        overall.scanned += 1
        byBuild[attribution.build, default: JobMetrics()].scanned += 1
        byModel[attribution.model, default: JobMetrics()].scanned += 1
        byLocale[attribution.locale, default: JobMetrics()].scanned += 1
        self[build: attribution.build, model: attribution.model].scanned += 1
    }

    /// Counts a job-specific event.
    public mutating func count(_ counter: String, _ attribution: Attribution) {
        overall.counters[counter, default: 0] += 1
        byBuild[attribution.build, default: JobMetrics()].counters[counter, default: 0] += 1
        byModel[attribution.model, default: JobMetrics()].counters[counter, default: 0] += 1
        byLocale[attribution.locale, default: JobMetrics()].counters[counter, default: 0] += 1
        self[build: attribution.build, model: attribution.model].counters[counter, default: 0] += 1
    }

    /// Counts the result of an eligible place.
    public mutating func add(_ result: ItemResult) {
        overall.add(result)
        byBuild[result.attribution.build, default: JobMetrics()].add(result)
        byModel[result.attribution.model, default: JobMetrics()].add(result)
        byLocale[result.attribution.locale, default: JobMetrics()].add(result)
        self[build: result.attribution.build, model: result.attribution.model].add(result)
    }

    /// Counts an eligible push in next-run mode that the app ran after, `seconds` after it.
    public mutating func nextRun(afterSeconds seconds: Double, _ attribution: Attribution) {
        overall.nextRunDelay.add(seconds)
        byBuild[attribution.build, default: JobMetrics()].nextRunDelay.add(seconds)
        byModel[attribution.model, default: JobMetrics()].nextRunDelay.add(seconds)
        byLocale[attribution.locale, default: JobMetrics()].nextRunDelay.add(seconds)
        self[build: attribution.build, model: attribution.model].nextRunDelay.add(seconds)
    }

    /// Adds another ledger of the same job.
    public mutating func merge(_ other: JobLedger) {
        overall.merge(other.overall)
        for (key, metrics) in other.byBuild { byBuild[key, default: JobMetrics()].merge(metrics) }
        for (key, metrics) in other.byModel { byModel[key, default: JobMetrics()].merge(metrics) }
        for (key, metrics) in other.byLocale { byLocale[key, default: JobMetrics()].merge(metrics) }
        for (build, models) in other.byBuildModel {
            for (model, metrics) in models.wrappedValue { self[build: build, model: model].merge(metrics) }
        }
    }
}
