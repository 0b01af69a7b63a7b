import Confinement
import Privacy
/// Why an audit could not run or complete (exit 7), or why the audited side could not do its part.
///
/// Each reads as a sentence for the summary. None carries text from the audited run.
public enum AuditError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `strace` was not found where the auditor looked.
    case straceMissing(path: String)
    /// The command to audit does not exist or is not executable.
    case commandNotFound(String)
    /// No command was given.
    case noCommand
    /// The audit's own directory (or the child's inside it) could not be made.
    case directoryNotCreated(path: String, reason: String)
    /// The child's output directory already holds files the auditor did not put there.
    case childDirectoryNotEmpty(path: String)
    /// The kernel gave no random bytes for the canary and salt.
    case noRandomness
    /// strace (or the command under it) could not be started.
    case launchFailed(reason: String)
    /// strace ran but recorded nothing: ptrace is probably not allowed here.
    case traceEmpty(status: Int32)
    /// The audited command ended with a failure status, so its run proves nothing.
    case commandFailed(status: Int32)
    /// The audited command was killed by a signal.
    case commandKilled(signal: Int32)
    /// The audited command outlived the audit's time limit and was killed, with all it started.
    case commandTimedOut(seconds: Double)
    /// A `replay` run must leave the hashes file; without it outputs cannot be recognised.
    case hashesMissing(path: String)
    /// The verdict files could not be written.
    case verdictNotWritten(path: String, reason: String)
    /// The command's process tree could not be contained or emptied (no subreaper, or processes
    /// beneath it would not die), so something of it may still act after the verdict.
    case treeNotContained
    /// The run's directory could not be read into a manifest (`ConfinementError`, which says why).
    case manifest(ConfinementError)

    public var description: String {
        switch self {
        case .straceMissing(let path):
            "strace is not installed at \(path) (apt-get install strace): the audit cannot watch the command."
        case .commandNotFound(let command):
            "The command to audit, \(command), was not found or is not executable."
        case .noCommand:
            "No command was given to audit."
        case .directoryNotCreated(let path, let reason):
            "The audit directory \(path) could not be made: \(reason)."
        case .childDirectoryNotEmpty(let path):
            "The run's output directory \(path) already holds files the audit did not make: give a fresh --out."
        case .noRandomness:
            "The kernel gave no random bytes for the canary and salt."
        case .launchFailed(let reason):
            "The audited command could not be started under strace: \(reason)."
        case .traceEmpty(let status):
            "strace recorded no system call (exit \(status)): ptrace is probably not allowed here, so nothing was watched."
        case .commandFailed(let status):
            "The audited command failed (exit \(status)), so its run proves nothing."
        case .commandKilled(let signal):
            "The audited command was killed by signal \(signal), so its run proves nothing."
        case .commandTimedOut(let seconds):
            "The audited command was still running after \(Int(seconds)) s, the audit's time limit, and was killed, so its run proves nothing."
        case .hashesMissing(let path):
            "The run left no output fingerprints at \(path): the audit cannot recognise model outputs (is this replay built with the audit tap?)."
        case .verdictNotWritten(let path, let reason):
            "The verdict could not be written to \(path): \(reason)."
        case .manifest(let error):
            error.description
        case .treeNotContained:
            "The command's process tree could not be contained or emptied, so part of it may still act after the verdict."
        }
    }
}
