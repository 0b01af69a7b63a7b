import Confinement
import Foundation
import Spawn
import Testing
import TestSupport

/// Code inside a real `replay` run, acting after confinement: a library preloaded into it
/// (`Adversary/adversary.c`, compiled here) takes over the first call that reads the corpus and
/// tries to publish a token through every storage channel another process could read: the process
/// and thread names, the argument and environment areas, locks, its own limits, nice, affinity,
/// umask and OOM adjustment, and the limits, nice and affinity of another process of the same user.
/// It reads each back as an outsider would (/proc) and prints only "open" or "closed".
///
/// The same library acting from its constructor, before confinement, must find every channel
/// open: that is what makes "closed" the sandbox's doing and not a broken check.
@Suite(.serialized, .tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct InProcessAdversaryTests {
    static let channels = ["process-name", "comm-file", "thread-name", "cmdline", "environ", "flock", "fcntl-lock",
                           "own-limit", "own-nice", "own-affinity", "umask", "oom-score-adj",
                           "victim-limit", "victim-nice", "victim-affinity"]

    /// What one run of `replay --dry-run` with the library preloaded printed per channel, and
    /// what the victim process looked like from outside afterwards.
    struct Run {
        var status: Int32
        var verdicts: [String: String]
        var victimNiceBefore: Int?
        var victimNice: Int?
        var victimOpenFiles: String?
    }

    struct CompileFailed: Error, CustomStringConvertible {
        var errors: String
        var description: String { "the adversary library did not compile: \(errors)" }
    }

    /// Compiles the library into `directory` with the toolchain's clang (or the system's cc).
    static func compile(into directory: TemporaryDirectory) throws -> String {
        let source = BuiltProducts.packageRoot + "/Tests/ReplayKitTests/Adversary/adversary.c"
        let output = directory.path("libadversary.so")
        let flags = ["-shared", "-fPIC", "-O1", "-o", output, source, "-ldl", "-lpthread"]
        var compiled = try Subprocess.run(tool: "clang", flags)
        if compiled.status != 0 { compiled = try Subprocess.run(tool: "cc", flags) }
        guard compiled.status == 0 else { throw CompileFailed(errors: compiled.errors) }
        return output
    }

    static func run(actAtStart: Bool) throws -> Run {
        let directory = try TemporaryDirectory(prefix: "adversary-run")
        let library = try compile(into: directory)
        let victim = try ChildProcess("/bin/sleep", ["600"])
        let niceBefore = niceOf(victim.processIdentifier)
        defer { victim.send(SIGKILL); _ = victim.wait(timeout: 10) }
        var environment = ProcessInfo.processInfo.environment
        environment["LD_PRELOAD"] = library
        environment["REPLAY_ADVERSARY_VICTIM"] = String(victim.processIdentifier)
        if actAtStart { environment["REPLAY_ADVERSARY_AT"] = "start" }
        let corpus = BuiltProducts.packageRoot + "/corpora/sample.jsonl.zst"
        let replay = try Subprocess.run(BuiltProducts.executable("replay"),
                                        ["--dry-run", "--limit", "2", "--out", directory.path("out"), corpus],
                                        environment: environment, timeout: 600)
        var verdicts: [String: String] = [:]
        for line in replay.errors.split(separator: "\n") where line.hasPrefix("adversary: ") {
            let parts = line.dropFirst("adversary: ".count).split(separator: " ")
            if parts.count == 2 { verdicts[String(parts[0])] = String(parts[1]) }
        }
        let pid = victim.processIdentifier
        let limits = (try? String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)) ?? ""
        let openFiles = limits.split(separator: "\n").first { $0.hasPrefix("Max open files") }.map(String.init)
        return Run(status: replay.status, verdicts: verdicts, victimNiceBefore: niceBefore, victimNice: niceOf(pid),
                   victimOpenFiles: openFiles)
    }

    /// A process's nice, field 19 of /proc/PID/stat as any user reads it (the fields after the
    /// name in parentheses start at field 3).
    static func niceOf(_ pid: pid_t) -> Int? {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        return fields.count > 16 ? Int(fields[16]) : nil
    }

    static let confined = Result { try InProcessAdversaryTests.run(actAtStart: false) }
    static let beforeConfinement = Result { try InProcessAdversaryTests.run(actAtStart: true) }

    /// The affinity channels move the run to one core: with one core to begin with (a machine of
    /// one, or a test process bound to one) there is nothing to see.
    static var multipleCores: Bool { AvailableProcessors.count > 1 }

    @Test(arguments: InProcessAdversaryTests.channels)
    func aChannelTriedAfterConfinementIsClosed(_ channel: String) throws {
        if channel.hasSuffix("affinity"), !Self.multipleCores { return }
        let run = try Self.confined.get()
        #expect(run.verdicts[channel] == "closed")
        #expect(try Self.beforeConfinement.get().verdicts[channel] == "open", "the check must see the channel open unconfined")
    }

    /// The run itself is untouched by the failed attempts: it finishes and reports as always.
    @Test func theRunStillSucceeds() throws {
        #expect(try Self.confined.get().status == 0)
    }

    /// Seen from outside: the victim's nice and open-file limit are what they were.
    @Test func anotherProcessIsUnchangedSeenFromOutside() throws {
        let confined = try Self.confined.get()
        #expect(confined.victimNice != nil && confined.victimNice == confined.victimNiceBefore)
        #expect(confined.victimOpenFiles?.contains(" 1212 ") == false)
        let open = try Self.beforeConfinement.get()
        #expect(open.victimNice == 17)
        #expect(open.victimOpenFiles?.contains(" 1212 ") == true)
    }
}
