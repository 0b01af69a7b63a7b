import Engine
import Confinement
import Llama

/// The model a run asks, and how a state names it.
///
/// No model (a missing or unreadable file): the run still completes and every job reports the
/// fallback, as the app would fall back on a phone without the model; exit 4 says so. A dry run
/// sizes in the phone's tokens and asks nothing, so it only checks the model file's metadata,
/// while the reader reads, to say whether the model is there (`LlamaModel.check`); a run with the
/// model loads it here, before any thread is read.
final class RunModel {
    let path: String?
    /// The engine that answers; nil in a dry run and when the model could not be loaded.
    let engine: LlamaEnginePool?
    let availability: ModelAvailability
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
                availability = ModelAvailability { try LlamaModel.check(path: path) }
            } else {
                do {
                    let loaded = try LocalModel.engine(path: path, batch: options.batchSize, profiles: options.profiles,
                                                       device: options.device)
                    engine = loaded
                    availability = ModelAvailability(problem: nil)
                } catch {
                    availability = ModelAvailability(problem: error.description)
                }
            }
        } else {
            availability = ModelAvailability(problem: "no model: pass --model PATH, or run scripts/setup to install the default model")
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

    /// The model as a state names it, once it is known to be usable or not; its problem is said once.
    func identity(diagnostics: (String) -> Void) -> ModelIdentity {
        if let known { return known }
        let problem = availability.problem
        if let problem { diagnostics("replay: \(problem); every job falls back (model_unavailable)") }
        let identity = ModelIdentity(path: path, bytes: path.map(RunCommand.fileSize), sha256: digest ?? (problem == nil ? file?.digest : nil),
                                     hashed: problem == nil ? file?.hashed ?? .whole : .whole, unavailable: problem,
                                     approximateTokens: problem != nil, description: description?.report)
        known = identity
        return identity
    }
}
