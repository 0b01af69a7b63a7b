import Foundation
import Testing

extension Tag {
    /// A suite that takes more than a few seconds: real runs of the built binary, the model, the
    /// auditor under strace, a Slurm cluster. `scripts/test --fast` leaves these out.
    @Tag public static var slow: Self
}

/// Which suites a run includes: all of them, or with `REPLAY_TESTS=fast` (`scripts/test --fast`)
/// all but those tagged `slow`, a set that runs in a few minutes while working on a change.
public enum TestSelection {
    /// Whether the slow suites run (they do unless `REPLAY_TESTS=fast`).
    public static let includesSlow = ProcessInfo.processInfo.environment["REPLAY_TESTS"] != "fast"
}
