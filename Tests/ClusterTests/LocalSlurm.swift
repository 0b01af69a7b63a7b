import Foundation
import Testing
import TestSupport

/// The package's files these tests read and run.
enum Repository {
    static let root = BuiltProducts.packageRoot
    static func path(_ relative: String) -> String { root + "/" + relative }
    static func text(_ relative: String) throws -> String { try String(contentsOfFile: path(relative), encoding: .utf8) }
    static let sample = path("corpora/sample.jsonl.zst")
}

/// A one-node Slurm cluster started by `scripts/slurm/local-cluster` in a temporary directory and
/// stopped (by its pid files) when `stop()` runs; the commands run with SLURM_CONF pointing at it.
final class LocalSlurm: @unchecked Sendable {
    /// Whether this process can run the cluster at all: slurmctld, slurmd and munged run as root.
    static var canBeRoot: Bool { getuid() == 0 }

    let directory: TemporaryDirectory
    let clusterDirectory: String
    private(set) var stopped = false

    /// Installs Slurm and munge when missing (scripts/setup --slurm), then starts the cluster.
    init() throws {
        try Self.installIfMissing()
        directory = try TemporaryDirectory(prefix: "replay-slurm")
        clusterDirectory = directory.path("cluster")
        let started = try Subprocess.run(Repository.path("scripts/slurm/local-cluster"), ["start", clusterDirectory])
        if started.status != 0 {
            let logs = Self.tails(of: clusterDirectory + "/log")
            _ = try? Subprocess.run(Repository.path("scripts/slurm/local-cluster"), ["stop", clusterDirectory])
            throw Failure("scripts/slurm/local-cluster start exited \(started.status): \(started.errors)\n\(logs)")
        }
    }

    deinit { stop() }

    /// Stops the daemons (idempotent).
    func stop() {
        guard !stopped else { return }
        stopped = true
        _ = try? Subprocess.run(Repository.path("scripts/slurm/local-cluster"), ["stop", clusterDirectory])
    }

    /// The environment the Slurm commands and the jobs they submit see.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["SLURM_CONF"] = clusterDirectory + "/slurm.conf"
        environment["PATH"] = (environment["PATH"] ?? "/usr/bin:/bin") + ":/usr/sbin:/sbin"
        return environment
    }

    /// Runs a Slurm command (or any program found on PATH) against this cluster, in the test's directory.
    @discardableResult
    func run(_ tool: String, _ arguments: [String], extraEnvironment: [String: String] = [:]) throws -> Subprocess {
        try Subprocess.run("/usr/bin/env", [tool] + arguments,
                           environment: environment.merging(extraEnvironment) { _, new in new },
                           directory: directory.path)
    }

    /// `sbatch --parsable ARGS`: the job id.
    func submit(_ arguments: [String], extraEnvironment: [String: String] = [:]) throws -> String {
        let result = try run("sbatch", ["--parsable"] + arguments, extraEnvironment: extraEnvironment)
        guard result.status == 0 else { throw Failure("sbatch \(arguments) exited \(result.status): \(result.errors)") }
        return String(result.output.split(separator: ";").first ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The states of a job that has not ended yet (a requeued one is PENDING again).
    static let unfinishedStates: Set<String> = ["PENDING", "RUNNING", "COMPLETING", "CONFIGURING", "REQUEUED", "RESIZING", "SUSPENDED"]

    /// Waits until none of `jobs` (ids; an array's id covers its tasks) is pending, running or
    /// completing, then returns the final state of every job and task, e.g. ["7_0": "COMPLETED"].
    /// A job pending on a dependency that can never be met is still waiting (submit cancels those).
    func wait(for jobs: [String], timeout: TimeInterval = 120) throws -> [String: String] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let states = try self.states(of: jobs)
            let waiting = states.filter { Self.unfinishedStates.contains($0.value.state) }
            if !states.isEmpty && waiting.isEmpty { return states.mapValues(\.state) }
            if Date() > deadline {
                throw Failure("jobs \(jobs) still waiting after \(Int(timeout)) s: \(waiting.mapValues { "\($0.state) (\($0.reason))" })\n" + Self.tails(of: clusterDirectory + "/log"))
            }
            Thread.sleep(forTimeInterval: 0.5)
        }
    }

    /// Every record `scontrol show job` has for `jobs`: JobId (ArrayJobId_TaskId for array tasks) → state and reason.
    func states(of jobs: [String]) throws -> [String: (state: String, reason: String)] {
        var states: [String: (state: String, reason: String)] = [:]
        for job in jobs {
            let shown = try run("scontrol", ["-o", "show", "job", job])
            guard shown.status == 0 else { throw Failure("scontrol show job \(job) exited \(shown.status): \(shown.errors)") }
            for record in shown.output.split(separator: "\n") {
                let fields = Self.fields(String(record))
                var id = fields["JobId"] ?? job
                if let array = fields["ArrayJobId"], let task = fields["ArrayTaskId"] { id = array + "_" + task }
                states[id] = (fields["JobState"] ?? "?", fields["Reason"] ?? "")
            }
        }
        return states
    }

    /// The fields `scontrol -o show job` gives for one job or array task (`7_0`), e.g. JobState,
    /// Restarts, EligibleTime.
    func fields(ofJob job: String) throws -> [String: String] {
        let shown = try run("scontrol", ["-o", "show", "job", job])
        guard shown.status == 0, let record = shown.output.split(separator: "\n").first else {
            throw Failure("scontrol show job \(job) exited \(shown.status): \(shown.errors)")
        }
        return Self.fields(String(record))
    }

    /// `Key=Value Key=Value` fields of one `scontrol -o` record.
    static func fields(_ record: String) -> [String: String] {
        var fields: [String: String] = [:]
        for word in record.split(separator: " ") {
            guard let equals = word.firstIndex(of: "=") else { continue }
            fields[String(word[..<equals])] = String(word[word.index(after: equals)...])
        }
        return fields
    }

    /// The last lines of every log in `directory`, for a failure message. These are the Slurm
    /// daemons' logs and replay's stderr (counts and diagnostics, never a corpus's words).
    static func tails(of directory: String, lines: Int = 15) -> String {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory).sorted()) ?? []
        return names.map { name in
            let text = (try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)) ?? ""
            return "--- \(name)\n" + text.split(separator: "\n").suffix(lines).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    static func installIfMissing() throws {
        let tools = ["/usr/sbin/munged", "/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/bin/sbatch", "/usr/bin/scontrol"]
        guard tools.contains(where: { !FileManager.default.isExecutableFile(atPath: $0) }) else { return }
        let setup = try Subprocess.run(Repository.path("scripts/setup"), ["--deps-only", "--slurm"])
        guard setup.status == 0 else { throw Failure("scripts/setup --deps-only --slurm exited \(setup.status): \(setup.errors)") }
    }
}

struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
