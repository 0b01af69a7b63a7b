import Engine
import Confinement
import Llama

/// The model a run asks, and how a state names it.
///
/// No model (a missing or unreadable file): the run still completes and every job reports the
/// fallback, as the app would fall back on a phone without the model; exit 4 says so. A dry run
/// sizes in the phone's tokens and asks nothing, so it loads only the vocabulary, while the reader
/// reads, to say whether the model is there; a run with the model loads it here, before any
/// thread is read.
final class RunModel {
    let path: String?
    /// The engine that answers; nil in a dry run and when the model could not be loaded.
    let engine: LlamaEnginePool?
    let tokenizer: DeferredTokenizer
    private let digest: String?
    private let file: CorpusIdentity.File?
    private let description: ModelDescription?
    private var known: ModelIdentity?

    init(_ options: ReplayOptions) {
        let path = options.modelPath ?? DefaultModel.path()
        self.path = path
        var engine: LlamaEnginePool? = nil
        if let path {
            if options.dryRun {
                tokenizer = DeferredTokenizer { try LlamaModel(path: path, vocabularyOnly: true) }
            } else {
                do {
                    let loaded = try LocalModel.engine(path: path, batch: options.batchSize, profiles: options.profiles,
                                                       device: options.device)
                    engine = loaded
                    tokenizer = DeferredTokenizer(.init(tokenizer: loaded, problem: nil))
                } catch {
                    tokenizer = DeferredTokenizer(.init(tokenizer: ApproximateTokenizer(), problem: error.description))
                }
            }
        } else {
            tokenizer = DeferredTokenizer(.init(tokenizer: ApproximateTokenizer(),
                                                problem: "no model: pass --model PATH, or run scripts/setup to install the default model"))
        }
        self.engine = engine
        // The model's digest identifies it for a merge or a resume: the whole file's SHA-256 with
        // the model (the report's model.sha256), its first and last MiB in a dry run (hashing
        // 100 MB would cost more than the dry run).
        let digest = engine == nil ? nil : path.flatMap(CorpusIdentity.sha256(ofFile:))
        self.digest = digest
        file = engine == nil ? path.flatMap(CorpusIdentity.file) : nil
        description = engine.map { ModelDescription(info: $0.info, fileBytes: RunCommand.fileSize(path ?? ""), sha256: digest) }
    }

    /// The model as a state names it, once the tokenizer is loaded; its problem is said once.
    func identity(diagnostics: (String) -> Void) -> ModelIdentity {
        if let known { return known }
        let loaded = tokenizer.loaded
        if let problem = loaded.problem { diagnostics("replay: \(problem); every job falls back (model_unavailable)") }
        let identity = ModelIdentity(path: path, bytes: path.map(RunCommand.fileSize), sha256: digest ?? (loaded.problem == nil ? file?.digest : nil),
                                     hashed: loaded.problem == nil ? file?.hashed ?? .whole : .whole, unavailable: loaded.problem,
                                     approximateTokens: loaded.tokenizer is ApproximateTokenizer, description: description?.report)
        known = identity
        return identity
    }
}
