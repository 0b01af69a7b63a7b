import Privacy

/// What a job is, as report.json's job block says it: written once, by the job.
///
/// The report builder and the markdown report iterate over jobs and write these fields, so a
/// job's settings appear in the report without either naming the job.
public struct JobDescription: Sendable {
    /// Which job.
    public var kind: JobKind
    /// Its time budget and where the number comes from.
    public var budget: Budget
    /// Tokens of words the model may see, counted from the end; nil when the job does not cut
    /// (routing and drafts see one message).
    public var inputCapTokens: Int?
    /// The session's token ceiling.
    public var contextLimitTokens: Int
    /// The schema the model fills; nil when it is made per place (routing's choices are the
    /// group's members: `Route.schema(members:)`).
    public var outputSchema: GenerationSchema?
    /// Settings only this job has (push's newest replies, routing's minimum confidence).
    public var settings: JobSettings.Own = JobSettings.Own()
    /// The kinds of its places the report keeps apart (routing's drawer).
    public var countedPlaces: [CountedPlace] = []

    /// The configuration keys of the job's block in report.json (docs/report-schema.md).
    public var reportSettings: JobSettings {
        JobSettings(budgetMilliseconds: budget.milliseconds, budgetSource: budget.source, inputCapTokens: inputCapTokens,
                    contextLimitTokens: contextLimitTokens, own: settings)
    }
}

/// A time budget in milliseconds and where its number comes from.
public struct Budget: Sendable, Equatable {
    public var milliseconds: Double
    public var source: SettingSource
}

/// Where a number the replay judges by comes from; the raw value is what report.json says.
public enum SettingSource: String, Sendable, CaseIterable, Codable {
    /// The spec gives it (chips' 800 ms, spec §2).
    case spec
    /// The spec gives none: the project chose it (route's 400 ms, push's 3,000 ms, draft's
    /// 2,000 ms, route's 0.5 confidence), documented beside each.
    case projectDefault = "default"
    /// `--budget` or `--config` set another number. The command line merges the two, flags
    /// winning, and does not keep which one it was.
    case flagOrConfig = "flag_or_config"
}

extension JobKind {
    /// The job of this kind with its defaults, its budget replaced when `budgetMilliseconds` is
    /// given; `labels` are the names the team allows in its counters (routing's member names);
    /// `prompts` the prompt set whose part for this job it asks with; `languages` every language
    /// some model version answers in and `contextLimit` the ceiling of a place whose model
    /// version no profile names (the run narrows both to each place's own version);
    /// `routeConfidence` routing's floor, `pushMode` where push lines are written, and `facts`
    /// what the run gathered of the whole corpus before it (the drawer's agents, the app's runs).
    ///
    /// The one place a kind becomes a job type: everything else iterates over `JobKind.allCases`
    /// and the jobs' `described`.
    public func job(budgetMilliseconds: Double? = nil, labels: TeamLabels = .none, prompts: PromptSet = .builtIn,
                    languages: SupportedLanguages = .appleIntelligence, contextLimit: Int = 4096,
                    routeConfidence: Double? = nil, pushMode: PushMode = .extension, facts: CorpusFacts = .none) -> any Job {
        switch self {
        case .chips: ChipsJob(budgetMilliseconds: budgetMilliseconds ?? ChipsJob.defaultBudget.milliseconds, contextLimit: contextLimit,
                              supportedLanguages: languages, prompts: prompts.chips)
        case .route: RouteJob(budgetMilliseconds: budgetMilliseconds ?? RouteJob.defaultBudget.milliseconds,
                              minimumConfidence: routeConfidence ?? RouteJob.defaultMinimumConfidence, contextLimit: contextLimit,
                              supportedLanguages: languages, labels: labels, prompts: prompts.route,
                              drawer: facts.drawer, drawerPrompts: prompts.drawer)
        case .push: PushJob(budgetMilliseconds: budgetMilliseconds ?? PushJob.defaultBudget.milliseconds, contextLimit: contextLimit,
                            supportedLanguages: languages, prompts: prompts.push, mode: pushMode, nextRuns: facts.nextRuns)
        case .draft: DraftJob(budgetMilliseconds: budgetMilliseconds ?? DraftJob.defaultBudget.milliseconds, contextLimit: contextLimit,
                              supportedLanguages: languages, prompts: prompts.draft)
        }
    }
}
