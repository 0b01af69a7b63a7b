import Jobs
import Privacy

/// What one place a job fired at came to in a run, as the run keeps it for `replay compare`:
/// numbers and keyed hashes only.
///
/// Two runs over the same corpus under the same run key give the same `key` to the same place
/// (the corpus file, the thread, the message and the job), so they can be joined item by item;
/// `thread` is the keyed hash of the thread alone, the unit items share, by which a comparison's
/// standard errors are clustered. Neither can be linked to the corpus without the key.
public struct ItemOutcome: Sendable, Equatable {
    /// The place: `ItemKeys.key(file:thread:message:job:)`.
    public var key: UInt64
    /// The thread: `ItemKeys.thread(file:thread:)`.
    public var thread: UInt64
    public var job: JobKind
    /// The build, model version and locale the item is counted under, as the report shows them
    /// (`ReportLabel`: a version or locale shape, a label the team listed, or a salted hash).
    public var build: String
    public var model: String
    public var locale: String
    /// Whether the model was asked.
    public var asked: Bool
    /// A valid answer within every budget.
    public var answered: Bool
    public var fallback: FallbackReason?
    public var inputWasCut: Bool
    /// Valid and within the budget by each clock; nil when not asked.
    public var inBudgetHost: Bool?
    public var inBudgetDevice: Bool?
    /// Valid and within the budget in the phone's queue (`PhoneQueue`); nil when not asked.
    public var inBudgetQueued: Bool? = nil
    /// Host and estimated device time in whole microseconds; nil when not asked.
    public var hostMicroseconds: Int?
    public var deviceMicroseconds: Int?
    /// Prompt tokens (the template included) and output tokens; what the report sums.
    public var tokensIn: Int
    public var tokensOut: Int
    /// Each quality measure of what the person saw, in billionths (`QualityTally`'s unit, so a
    /// comparison's means equal the report's exactly).
    public var quality: [String: Int]
    /// The same with every valid answer scored as if shown.
    public var qualityAllAnswers: [String: Int]
    /// The spec's never rules its answer broke (`NeverRule`, from the job's `never:` counters).
    public var violations: Set<NeverRule>

    public init(key: UInt64, thread: UInt64, job: JobKind, build: String, model: String, locale: String = ReportLabel.unknown.text,
                asked: Bool, answered: Bool,
                fallback: FallbackReason?, inputWasCut: Bool, inBudgetHost: Bool?, inBudgetDevice: Bool?, inBudgetQueued: Bool? = nil,
                hostMicroseconds: Int?, deviceMicroseconds: Int?, tokensIn: Int, tokensOut: Int,
                quality: [String: Int] = [:], qualityAllAnswers: [String: Int] = [:], violations: Set<NeverRule> = []) {
        self.key = key
        self.thread = thread
        self.job = job
        self.build = build
        self.model = model
        self.locale = locale
        self.asked = asked
        self.answered = answered
        self.fallback = fallback
        self.inputWasCut = inputWasCut
        self.inBudgetHost = inBudgetHost
        self.inBudgetDevice = inBudgetDevice
        self.inBudgetQueued = inBudgetQueued
        self.hostMicroseconds = hostMicroseconds
        self.deviceMicroseconds = deviceMicroseconds
        self.tokensIn = tokensIn
        self.tokensOut = tokensOut
        self.quality = quality
        self.qualityAllAnswers = qualityAllAnswers
        self.violations = violations
    }

    /// The outcome of `result` at the place keyed `key` in the thread keyed `thread`, its build,
    /// model and locale as the report shows them.
    public init(_ result: ItemResult, key: UInt64, thread: UInt64, build: String, model: String, locale: String) {
        self.init(key: key, thread: thread, job: result.job, build: build, model: model, locale: locale, asked: result.asked,
                  answered: result.answered, fallback: result.fallback, inputWasCut: result.inputWasCut,
                  inBudgetHost: result.inBudgetHost, inBudgetDevice: result.inBudgetDevice, inBudgetQueued: result.inBudgetQueued,
                  hostMicroseconds: result.hostMilliseconds.map(Self.microseconds),
                  deviceMicroseconds: result.deviceMilliseconds.map(Self.microseconds),
                  tokensIn: result.asked ? result.promptTokens : 0, tokensOut: result.asked ? result.outputTokens : 0,
                  quality: result.quality.mapValues(Self.billionths),
                  qualityAllAnswers: result.qualityAllAnswers.mapValues(Self.billionths),
                  violations: Set(NeverRule.allCases.filter { (result.counters[$0.counter] ?? 0) > 0 }))
    }

    /// Milliseconds as whole microseconds (a negative or non-finite time as 0).
    static func microseconds(_ milliseconds: Double) -> Int {
        milliseconds.isFinite ? Int((max(0, min(1e12, milliseconds)) * 1000).rounded()) : 0
    }

    /// A measure in billionths, rounded as `QualityTally.add` rounds it.
    static func billionths(_ value: Double) -> Int {
        var tally = QualityTally()
        tally.add(value)
        return tally.sumBillionths
    }
}
