/// What `replay`'s exit status means. Documented in the README and in `replay --help`.
public enum ExitCode: Int32, Sendable, CaseIterable {
    /// The run finished and the report is written.
    case success = 0
    /// A threshold given with `--fail-under` was not met (reserved for CI gates).
    case thresholdsNotMet = 1
    /// The command line was wrong; nothing ran.
    case usage = 2
    /// The input could not be read completely: a missing file, a corrupt or truncated frame,
    /// or (with `--strict`) a bad line. What was read before is still in the report.
    case input = 3
    /// The model could not be loaded or run.
    case model = 4
    /// The report could not be written.
    case output = 5
    /// `replay audit` found something written or sent that must not be (see audit.sarif).
    case auditFindings = 6
    /// `replay audit` could not run its child or observe it; never a pass.
    case auditCouldNotRun = 7
    /// The kernel cannot confine the run (Landlock or seccomp unavailable) and
    /// `--allow-unsandboxed` was not given.
    case sandboxUnavailable = 8
}
