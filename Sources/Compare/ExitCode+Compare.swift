import ReplayKit

extension ExitCode {
    /// The codes `replay compare` ends with, in the order its usage lists them.
    public static let compareCodes: [ExitCode] = [.success, .thresholdsNotMet, .usage, .input, .output, .sandboxUnavailable]

    /// What the code means after `replay compare`; nil for a code it never ends with.
    public var compareMeaning: String? {
        switch self {
        case .success: "compared: compare.json, compare.md, compare.html, junit.xml and manifest.json are written; every gate passed"
        case .thresholdsNotMet: "a --fail-if-worse gate failed: the data do not show NEW is not worse by its margin, or it had no pairs"
        case .usage: "usage error (an unknown gate key is named with the valid ones; --out is or is inside a run directory): nothing ran"
        case .input:
            "a run directory is not a finished run (no manifest.json, one it no longer matches, no state.json or items.json.zst),"
                + " or the two runs are not over the same corpus under one run key (both named)"
        case .output: "a result could not be written, or --out could not be created"
        case .sandboxUnavailable: "the kernel cannot sandbox the comparison and --allow-unsandboxed was not given"
        default: nil
        }
    }
}
