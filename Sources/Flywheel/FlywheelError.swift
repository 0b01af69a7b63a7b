/// Why the flywheel's files could not be written; names the path and the system's reason, never data.
public enum FlywheelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The output directory could not be made.
    case cannotCreateDirectory(path: String, reason: String)
    /// A file could not be written.
    case cannotWrite(path: String, reason: String)

    /// The user-facing message.
    public var description: String {
        switch self {
        case .cannotCreateDirectory(let path, let reason): return "\(path): cannot create the directory (\(reason))"
        case .cannotWrite(let path, let reason): return "\(path): cannot be written (\(reason))"
        }
    }
}
