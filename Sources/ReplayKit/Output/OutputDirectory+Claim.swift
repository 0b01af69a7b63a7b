import Confinement
import Foundation
import Privacy

extension OutputDirectory {
    /// `--out` taken by one process for as long as it runs: an exclusive `flock` on the directory.
    ///
    /// Two runs on one directory would mix their results (the report of one beside the state of
    /// the other), and a run started over a finished one would clear it. The claim is a lock, not a
    /// marker file: the kernel drops it when the process ends, however it ends (SIGKILL, a node
    /// lost), so a killed run leaves nothing stale to recognise and `--resume` simply takes it
    /// again. It is taken before confinement (the sandbox refuses locks) and held by its descriptor,
    /// which `release()` (or the end of the process) closes. A file system that cannot lock
    /// directories (some network mounts) is named in a warning and the run goes on unclaimed.
    package final class Claim {
        private var descriptor: Int32

        private init(descriptor: Int32) { self.descriptor = descriptor }

        deinit { release() }

        /// Drops the claim (at the end of a command run in process; a process that ends drops it anyway).
        package func release() {
            guard descriptor >= 0 else { return }
            close(descriptor)
            descriptor = -1
        }

        /// Why `--out` cannot be taken.
        enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
            /// Another process holds it now.
            case inUse(directory: String)
            /// It holds a finished run (its manifest.json), which this run would clear.
            case holdsFinishedRun(directory: String)

            var description: String {
                switch self {
                case .inUse(let directory):
                    "--out \(directory) is in use by another replay process running now (it holds the directory's lock):"
                        + " two runs on one directory would mix their results. Wait for it, or give another --out."
                case .holdsFinishedRun(let directory):
                    "--out \(directory) holds a finished run (its \(RunManifest.fileName)), which this run would clear:"
                        + " give another --out, or --force to replace it."
                }
            }
        }

        /// Takes `directory` (which exists) for this process; `force` allows clearing a finished run.
        /// `warn` hears about a file system that cannot lock.
        static func take(_ directory: String, force: Bool, warn: (String) -> Void) throws(Refusal) -> OutputDirectory.Claim? {
            let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }   // creating it just succeeded: the clearing step names what is wrong
            if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                let error = errno
                close(descriptor)
                if error == EWOULDBLOCK { throw .inUse(directory: directory) }
                warn("replay: --out \(directory) cannot be locked (\(SystemError(error).message)): a second run on it would not be refused")
                return nil
            }
            let claim = OutputDirectory.Claim(descriptor: descriptor)
            if !force, FileManager.default.fileExists(atPath: directory + "/" + RunManifest.fileName) {
                throw .holdsFinishedRun(directory: directory)
            }
            return claim
        }
    }
}
