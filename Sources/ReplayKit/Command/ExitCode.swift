import Confinement

/// What `replay`'s exit status means: the one list of codes, each with its meaning.
///
/// Every command ends with one of these, `replay audit` included (its verdict is mapped by the
/// command that runs it, `AuditCommand`). `replay --help` and `replay audit --help` print
/// the meanings from here, and the tests hold the README's two exit tables to them.
public enum ExitCode: Int32, Sendable, CaseIterable {
    /// The run finished and the report is written.
    case success = 0
    /// A threshold given with `--fail-under` was not met, or a `--fail-if-worse` gate of
    /// `replay compare` failed (CI gates).
    case thresholdsNotMet = 1
    /// The command line was wrong, `--out` too broad included; nothing ran.
    case usage = 2
    /// The input could not be read completely: a missing path, a file refused whole (another
    /// export version, a `.zst` name on something else, not one record), a corrupt or truncated
    /// frame, input that ends inside a record (a last line without its line end that is not valid
    /// JSON), a file written while it was read, or (with `--strict`) a bad line. What was read is
    /// still in the report. For `replay merge`, also a shard's state that is missing, repeated,
    /// unreadable or of another run; for `replay compare`, a run directory that is not a finished
    /// run, or runs over different corpora.
    case input = 3
    /// The model could not be loaded or run.
    case model = 4
    /// A result (the report, the flywheel files, a generated corpus) could not be written, or
    /// `--out` could not be created.
    case output = 5
    /// `replay audit` found something written or sent that must not be (see audit.sarif).
    case auditFindings = 6
    /// `replay audit` could not run its child or observe it; never a pass.
    case auditCouldNotRun = 7
    /// The kernel cannot confine the run (Landlock or seccomp unavailable) and
    /// `--allow-unsandboxed` was not given.
    case sandboxUnavailable = 8
    /// `replay verify`: the directory differs from the manifest taken when it was finished.
    case verifyMismatch = 9
    /// The run was stopped by SIGTERM or SIGINT before its end (a scheduler's preemption or
    /// eviction, Ctrl-C): with `--resume` what it kept is in a checkpoint, and the same command
    /// goes on from there. Nothing under `--out` is a finished run.
    case stopped = 10

    /// The code's meaning in one line, as `replay --help` and the README's exit table give it.
    public var meaning: String {
        switch self {
        case .success:
            "the run finished; the report is written"
        case .thresholdsNotMet:
            "a --fail-under or --fail-over threshold, or a replay compare --fail-if-worse gate, was not met (CI gates)"
        case .usage:
            "usage error, or an --out as broad as /, the home, a temporary or the working directory: nothing ran"
        case .input:
            "input error: a path is missing or unreadable (nothing ran); or a file was refused or cut short"
                + " (an export version other than 1, a .zst file that is not zstd, no valid record in it,"
                + " a corrupt or truncated zstd frame, input that ends inside a record, a file changed while it was read or after the run hashed it:"
                + " the error names the file and its version, first bytes"
                + " or byte offset, and the rest of the corpus is read and reported); or a bad line under --strict;"
                + " or, for replay merge, a shard's state that is missing, given twice, unreadable, of another run or changed since it was written (its digest does not check; named);"
                + " or, for replay compare, a run directory that is not a finished run (its state.json's digest included), or two runs over different corpora (named)"
        case .model:
            "model error: no model, or it could not be loaded (the run still completes, every job falling back)"
        case .output:
            "a result could not be written (the report, the flywheel files, a generated corpus), or --out could not be created"
        case .auditFindings:
            "replay audit found a finding (see audit.sarif)"
        case .auditCouldNotRun:
            "replay audit could not run or observe its child: never a pass"
        case .sandboxUnavailable:
            "the run cannot be sandboxed and --allow-unsandboxed was not given: the kernel lacks Landlock ABI >= 4 or seccomp, or the process was started holding what the sandbox cannot confine (named: a network socket, a writable descriptor it cannot close)"
        case .verifyMismatch:
            "replay verify: an entry changed, is missing, is extra or cannot be vouched for since the manifest was taken (each named)"
        case .stopped:
            "stopped by SIGTERM or SIGINT before the end (preemption, eviction, Ctrl-C): with --resume the threads kept are in a checkpoint"
                + " (stderr names it) and the same command goes on from there; requeue on it. No finished run is left under --out"
        }
    }

    /// The codes `replay verify` ends with, in the order its usage lists them.
    public static let verifyCodes: [ExitCode] = [.success, .verifyMismatch, .input, .usage]

    /// What the code means after `replay verify`; nil for a code it never ends with.
    public var verifyMeaning: String? {
        switch self {
        case .success: "verified: every entry is as the manifest records it, and nothing was added"
        case .verifyMismatch: "an entry changed, is missing, is extra or cannot be vouched for (each named, never its content)"
        case .input: "no usable manifest: DIR holds neither audit.sarif with a manifest nor manifest.json, or it is unreadable or malformed (named)"
        case .usage: "usage error"
        default: nil
        }
    }

    /// "Exit status:" and a line per code with its meaning, wrapped under a hanging indent: the
    /// end of a usage text.
    public static func usageSection(_ codes: [ExitCode], meaning: (ExitCode) -> String?, width: Int = 96) -> String {
        var lines = ["Exit status:"]
        for code in codes {
            guard let text = meaning(code) else { continue }
            var line = "  \(code.rawValue)  "
            let indent = String(repeating: " ", count: line.count)
            var lineHasWord = false
            for word in text.split(separator: " ") {
                if lineHasWord && line.count + 1 + word.count > width {
                    lines.append(line)
                    line = indent
                    lineHasWord = false
                }
                line += (lineHasWord ? " " : "") + word
                lineHasWord = true
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
