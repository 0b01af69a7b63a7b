import Engine
import Jobs
import Privacy

/// The one place the run, `replay-bench`, the suite and the tests build a job: the jobs' own
/// registry (`JobKind.job`) given what the run was told, so the job list and the default
/// budgets are written once.
package enum RunJobs {
    /// The job of `kind`, its budget replaced by `--budget`/`--config` when given, showing the
    /// team's `labels`, asking with `prompts` (`--prompts`), in the languages some version of
    /// `profiles` supports, a place of an unknown model version cut to that version's context
    /// on `device`.
    package static func job(_ kind: JobKind, budget: Double? = nil, labels: TeamLabels = .none, prompts: PromptSet = .builtIn,
                            profiles: ModelProfiles = .builtIn, device: DeviceProfile = .iPhone15Pro, routeConfidence: Double? = nil,
                            pushMode: PushMode = .extension, facts: CorpusFacts = .none) -> any Job {
        kind.job(budgetMilliseconds: budget, labels: labels, prompts: prompts, languages: SupportedLanguages(codes: profiles.anyLanguage),
                 contextLimit: profiles.unknownModel.contextTokens(on: device.name), routeConfidence: routeConfidence,
                 pushMode: pushMode, facts: facts)
    }

    /// The jobs a run of `options` asks, in its order, with what the run gathered of the whole
    /// corpus before it (`facts`: the drawer's agents, the app's runs; none, in a run that did not).
    package static func jobs(for options: ReplayOptions, facts: CorpusFacts = .none) -> [any Job] {
        options.jobs.map { job($0, budget: options.budgets[$0], labels: options.labels, prompts: options.prompts,
                               profiles: options.profiles, device: options.device, routeConfidence: options.routeConfidence,
                               pushMode: options.pushMode, facts: facts) }
    }

    /// The facts of the whole corpus a run of `options` needs gathered before it: the drawer's
    /// agents when routing runs, the app's runs when push lines are written at the next run.
    package static func wantedFacts(for options: ReplayOptions) -> CorpusFacts.Wanted {
        CorpusFacts.Wanted(drawer: options.jobs.contains(.route), nextRuns: options.jobs.contains(.push) && options.pushMode == .nextRun)
    }
}
