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
                            profiles: ModelProfiles = .builtIn, device: DeviceProfile = .iPhone15Pro, routeConfidence: Double? = nil) -> any Job {
        kind.job(budgetMilliseconds: budget, labels: labels, prompts: prompts, languages: SupportedLanguages(codes: profiles.anyLanguage),
                 contextLimit: profiles.unknownModel.contextTokens(on: device.name), routeConfidence: routeConfidence)
    }

    /// The jobs a run of `options` asks, in its order.
    package static func jobs(for options: ReplayOptions) -> [any Job] {
        options.jobs.map { job($0, budget: options.budgets[$0], labels: options.labels, prompts: options.prompts,
                               profiles: options.profiles, device: options.device, routeConfidence: options.routeConfidence) }
    }
}
