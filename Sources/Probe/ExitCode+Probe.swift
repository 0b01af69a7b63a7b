import ReplayKit

extension ExitCode {
    /// The codes `replay probe injection` ends with.
    public static let probeCodes: [ExitCode] = [.success, .thresholdsNotMet, .usage, .input, .model, .output, .sandboxUnavailable]

    /// What the code means after `replay probe injection`; nil for a code it never ends with.
    public var probeMeaning: String? {
        switch self {
        case .success: "every --fail-over gate passed (or none was given): report.json, trials.json, report.md and manifest.json are written"
        case .thresholdsNotMet: "an attack success rate is above its --fail-over maximum (named on stderr); the results are written"
        case .usage: "usage error, a prompt set file that cannot be used, or an --out that is refused: nothing ran"
        case .input: "the attack set or the corpus cannot be read (the error names the file and what is wrong): nothing ran"
        case .model: "the model could not be loaded (no model, or a file llama.cpp cannot load): nothing ran"
        case .output: "a result could not be written, or --out could not be created"
        case .sandboxUnavailable: "the kernel cannot sandbox the run and --allow-unsandboxed was not given"
        default: nil
        }
    }
}
