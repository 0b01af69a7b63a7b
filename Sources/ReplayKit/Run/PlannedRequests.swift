import Engine
import Jobs

/// The requests a replay would send for one job: the corpus read, and each thread planned, exactly
/// as a run reads and plans it (`ThreadSource`, `Planner`), with nothing asked. For measuring the
/// model stage on its own (`replay-bench model`), where the requests must be a run's.
public enum PlannedRequests {
    /// The reason the corpus could not be read or planned, in a sentence naming the file.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The first requests of `job` over `corpus`: those of the first `threads` threads (all when
    /// nil), cut to the first `requests` when given, sized as a run sizes them (the phone's tokens
    /// of the built-in profiles); `batchSize` is the run's `--batch`.
    public static func of(_ job: JobKind, corpus: [String], threads: Int?, requests wanted: Int?, batchSize: Int,
                          prompts: PromptSet) throws(Failure) -> [GenerationRequest] {
        try items(job, corpus: corpus, threads: threads, requests: wanted, batchSize: batchSize, prompts: prompts).compactMap(\.request)
    }

    /// The items behind `of`'s requests, with what each needs to be judged (`JobItem.labels`):
    /// those that ask only, as `of`'s.
    public static func items(_ job: JobKind, corpus: [String], threads: Int?, requests wanted: Int?, batchSize: Int,
                             prompts: PromptSet) throws(Failure) -> [JobItem] {
        var options = ReplayOptions()
        options.jobs = [job]
        options.corpus = corpus
        options.threadLimit = threads
        options.batchSize = batchSize
        options.prompts = prompts
        let source = ThreadSource(options: options, screens: ThreadSource.screenDetail(for: [RunJobs.job(job)], plantsCanary: false))
        if let failure = source.failure { throw Failure(description: failure) }
        // What a run gathers of the whole corpus before it (routing's drawer agents), so the
        // route job plans the drawer's places as a run does.
        let facts = CorpusFactsPass.read(source.allFiles, wanted: RunJobs.wantedFacts(for: options)).facts
        let planned = RunJobs.job(job, prompts: prompts, facts: facts)
        let planner = Planner(options: options, jobs: [planned], phoneTokens: PhoneTokenizers(options.profiles), canary: nil, modelUnavailable: false, dryRun: false,
                              itemKeys: .unkeyed(fileCount: source.allFiles.count))
        var items: [JobItem] = []
        let read = source.read(
            resume: nil,
            thread: { input in
                items += planner.plan(input).queued.filter { $0.request != nil }
                return wanted.map { items.count < $0 } ?? true
            },
            boundary: { _, _ in true }, progress: { _, _ in })
        if case .input(let failure) = read.fatal { throw Failure(description: "\(failure)") }
        if let wanted, items.count > wanted { items.removeLast(items.count - wanted) }
        return items
    }
}
