import Privacy

/// Why a child program could not be started: the program's path and the system's reason.
public enum SpawnError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kernel refused to run the program (missing, not executable, out of processes).
    case programCouldNotStart(program: String, reason: SystemError)
    /// A pipe for one of the program's standard streams could not be made.
    case pipeCouldNotBeMade(reason: SystemError)
    /// The spawn's file actions or attributes could not be set up.
    case spawnCouldNotBePrepared(step: String, reason: SystemError)

    public var description: String {
        switch self {
        case .programCouldNotStart(let program, let reason): "\(program) could not be started: \(reason)"
        case .pipeCouldNotBeMade(let reason): "a pipe for a child's standard streams could not be made: \(reason)"
        case .spawnCouldNotBePrepared(let step, let reason): "a child's spawn could not be prepared (\(step)): \(reason)"
        }
    }
}
