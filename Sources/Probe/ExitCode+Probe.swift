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

    /// The codes `replay probe compare` ends with, in the order its usage lists them.
    public static let probeCompareCodes: [ExitCode] = [.success, .thresholdsNotMet, .usage, .input, .output, .sandboxUnavailable]

    /// What the code means after `replay probe compare`; nil for a code it never ends with.
    public var probeCompareMeaning: String? {
        switch self {
        case .success: "compared, every --fail-if-worse gate passed (or none was given): compare.json, compare.md, junit.xml and manifest.json are written"
        case .thresholdsNotMet: "a later probe's attack success is detectably worse than the first's for a gated job (named on stderr and in junit.xml); the results are written"
        case .usage: "usage error, or an --out that is refused: nothing ran"
        case .input: "a directory is not a finished probe's results, or two probes cannot be paired (other attack sets, no trial in common): nothing was written"
        case .output: "a result could not be written, or --out could not be created"
        case .sandboxUnavailable: "the kernel cannot sandbox the comparison and --allow-unsandboxed was not given"
        default: nil
        }
    }
}
