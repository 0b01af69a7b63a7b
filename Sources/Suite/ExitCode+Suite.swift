import ReplayKit

extension ExitCode {
    /// The codes `replay suite run` ends with, in the order its usage and docs/suite.md list them.
    public static let suiteCodes: [ExitCode] = [.success, .thresholdsNotMet, .usage, .input, .model, .output, .sandboxUnavailable]

    /// What the code means after `replay suite run`; nil for a code it never ends with.
    public var suiteMeaning: String? {
        switch self {
        case .success: "every must case passed: report.json, report.md, junit.xml and manifest.json are written"
        case .thresholdsNotMet: "a must case failed (named on stderr and in junit.xml); the results are written"
        case .usage: "usage error, a prompt set file that cannot be used, or an --out that is refused: nothing ran"
        case .input: "the suite file cannot be read or is not a suite (the error names the file, the case and the key): nothing ran"
        case .model: "the model could not be loaded (no model, a file llama.cpp cannot load, or no server at --endpoint): nothing ran"
        case .output: "a result could not be written, or --out could not be created"
        case .sandboxUnavailable: "the kernel cannot sandbox the run and --allow-unsandboxed was not given"
        default: nil
        }
    }

    /// The codes `replay suite compare` ends with, in the order its usage lists them.
    public static let suiteCompareCodes: [ExitCode] = [.success, .thresholdsNotMet, .usage, .input, .output, .sandboxUnavailable]

    /// What the code means after `replay suite compare`; nil for a code it never ends with.
    public var suiteCompareMeaning: String? {
        switch self {
        case .success: "compared, every gate met: compare.json, compare.md, compare.html, junit.xml and manifest.json are written"
        case .thresholdsNotMet: "a gate was not met (named on stderr and in junit.xml); the results are written"
        case .usage: "usage error, or an --out that is refused: nothing ran"
        case .input: "a directory is not a finished suite run's results (the error names it and says why): nothing was written"
        case .output: "a result could not be written, or --out could not be created"
        case .sandboxUnavailable: "the kernel cannot sandbox the comparison and --allow-unsandboxed was not given"
        default: nil
        }
    }
}
