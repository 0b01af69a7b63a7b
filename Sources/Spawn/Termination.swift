import Foundation
import Privacy

/// How a child program ended, and what it printed where that was captured.
public struct Termination: Sendable {
    /// The exit status, or the signal number when `signalled`.
    public var status: Int32
    /// Whether a signal ended the program (including the kill of a time limit).
    public var signalled: Bool
    /// Whether the program outlived its time limit and was killed, with its process group.
    public var timedOut = false
    /// Whether captured output reached its limit, the rest unread and the program killed.
    public var outputTruncated = false
    /// Standard output, when captured.
    public var standardOutput = Data()
    /// Standard error, when captured.
    public var standardError = Data()
    /// For a contained child: how many processes of its tree were still alive when it ended
    /// (each killed), or a negative number when the tree could not be emptied.
    public var survivors = 0
    /// For a contained child asked to be isolated: what of the isolation was in force.
    public var isolation = Isolation()

    /// The namespaces a contained child's tree ran in (`ChildProcess`'s `isolated`).
    public struct Isolation: Sendable, Equatable {
        /// The tree had a PID namespace of its own: no pid outside it names a process to it.
        public var ownPidNamespace = false
        /// The tree's /proc was its namespace's: it could read nothing of another process there.
        public var privateProc = false
        /// Why a step failed (unshare without CAP_SYS_ADMIN: EPERM), when one did.
        public var failure: SystemError? = nil

        public init(ownPidNamespace: Bool = false, privateProc: Bool = false, failure: SystemError? = nil) {
            self.ownPidNamespace = ownPidNamespace
            self.privateProc = privateProc
            self.failure = failure
        }
    }

    /// Whether the program exited by itself with status 0.
    public var succeeded: Bool { !signalled && !timedOut && status == 0 }

    /// Reads a `waitpid` status word (the W* macros, which Swift cannot import).
    init(waitStatus: Int32) {
        let signal = waitStatus & 0x7f
        if signal == 0 {
            status = (waitStatus >> 8) & 0xff
            signalled = false
        } else {
            status = signal
            signalled = true
        }
    }
}
