/// What replaying one job over the same corpus gave, to show beside the real usage it predicts.
///
/// The flywheel counts what people did; a replay counts what the model would have offered. Side by
/// side they answer "does the model fire where people use the feature": chips' coverage next to
/// the suggested share, routing's next to guessed-and-kept, drafts' next to drafts used.
public struct ReplayedJobSummary: Sendable, Equatable {
    /// The job, by the feature of its name (`JobKind`'s raw values are the features').
    public var job: Feature
    /// Places where the job fires.
    public var eligible: Int
    /// Eligible places with a valid answer within every budget.
    public var answered: Int
    /// The share of eligible places with a valid answer within the time budget on the device
    /// profile, 0…1: report.json's `in_budget.device` (`JobMetrics.inBudgetDeviceRate`), over
    /// eligible places, not asked ones; nil in a dry run or with no eligible place.
    public var inBudgetDevice: Double?

    /// A summary.
    public init(job: Feature, eligible: Int, answered: Int, inBudgetDevice: Double? = nil) {
        self.job = job
        self.eligible = eligible
        self.answered = answered
        self.inBudgetDevice = inBudgetDevice
    }

    /// `answered` of `eligible` as a share with its interval (same rules as a metric's cell).
    public var coverage: (rate: Double?, interval: WilsonInterval?) {
        (eligible > 0 ? Double(answered) / Double(eligible) : nil,
         WilsonInterval(successes: answered, trials: eligible))
    }

    /// The real-usage metric this job's coverage is shown beside; `nil` for a job with none
    /// (the push line has no usage signal in the metadata; the contract checks are no job).
    public var usageMetric: Metric? {
        switch job {
        case .chips: return .chipsSuggested
        case .route: return .routeGuessedKept
        case .draft: return .draftUsed
        case .push, .contract: return nil
        }
    }
}
