/// What `replay`'s own command line (a run, not a subcommand) asked for.
public enum ReplayCommand: Sendable, Equatable {
    /// Replay a corpus through jobs and write a report.
    case replay(ReplayOptions)
    case help
    case version
}
