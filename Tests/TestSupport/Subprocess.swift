import Foundation
import Spawn

/// Runs a program to completion for a test: its exit status and what it printed.
///
/// Through Spawn's `ChildProcess`, never Foundation's `Process`: each run waits for its own
/// child, and none waits forever. A program still running after `timeout` seconds is killed with
/// its process group and the run throws `Subprocess.TimedOut`, so a hang fails its test by name
/// instead of stalling the whole suite.
public struct Subprocess: Sendable {
    /// The exit status (or the signal number, when `signalled`).
    public var status: Int32
    /// Whether a signal ended the program.
    public var signalled: Bool
    public var standardOutput: Data
    public var standardError: Data

    /// Standard output as UTF-8 text.
    public var output: String { String(decoding: standardOutput, as: UTF8.self) }
    /// Standard error as UTF-8 text.
    public var errors: String { String(decoding: standardError, as: UTF8.self) }

    /// How long a test's program may run unless the test says otherwise: beyond the longest (an
    /// audited replay of the sample: 5 minutes in CI, 20 on a machine loaded five times over),
    /// well below CI's 90 minutes.
    public static let defaultTimeout: Double = 1800

    /// A program that outlived its time limit and was killed.
    public struct TimedOut: Error, CustomStringConvertible {
        public var command: [String]
        public var seconds: Double
        /// The end of what it wrote on standard error before it was killed.
        public var lastErrors: String
        public var description: String {
            "\(command.joined(separator: " ")) did not finish within \(Int(seconds)) s and was killed; "
                + "its standard error ended with: \(lastErrors)"
        }
    }

    /// Runs `executable` (a path) with `arguments`, `input` on its standard input.
    public static func run(_ executable: String, _ arguments: [String] = [], input: Data? = nil,
                           environment: [String: String]? = nil, directory: String? = nil,
                           timeout: Double = defaultTimeout) throws -> Subprocess {
        let ended = try ChildProcess.run(executable, arguments, environment: environment, directory: directory,
                                         input: input.map { .bytes($0) } ?? .null, timeout: timeout)
        if ended.timedOut {
            throw TimedOut(command: [executable] + arguments, seconds: timeout,
                           lastErrors: String(String(decoding: ended.standardError, as: UTF8.self).suffix(2000)))
        }
        return Subprocess(status: ended.status, signalled: ended.signalled,
                          standardOutput: ended.standardOutput, standardError: ended.standardError)
    }

    /// Runs a program found in PATH (through /usr/bin/env).
    public static func run(tool: String, _ arguments: [String] = [], input: Data? = nil,
                           timeout: Double = defaultTimeout) throws -> Subprocess {
        try run("/usr/bin/env", [tool] + arguments, input: input, timeout: timeout)
    }
}
