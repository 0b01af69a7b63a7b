import Foundation
import Testing
@testable import ReplayKit
@testable import Replay
import TestSupport

/// `--out` must be a directory of the run's own: never a shared one, nor one that holds it.
@Suite struct OutDirectoryTests {
    /// Shared places as a machine might have them, already resolved.
    static let places = OutputDirectory.places(environment: ["HOME": "/home/ada", "TMPDIR": "/run/user/1000/tmp"],
                                            workingDirectory: "/home/ada/projects/replay")

    @Test(arguments: [
        ("/", "the root directory"),
        ("/home/ada", "the home directory"),
        ("/home", "the home directory"),
        ("/tmp", "a temporary directory"),
        ("/var/tmp", "a temporary directory"),
        ("/var", "a temporary directory"),
        ("/run/user/1000/tmp", "a temporary directory"),
        ("/run", "a temporary directory"),
        ("/dev/shm", "the shared memory directory"),
        ("/dev", "the shared memory directory"),
        ("/home/ada/projects/replay", "the working directory"),
        ("/home/ada/projects", "the working directory"),
    ])
    func sharedDirectoriesAndTheirAncestorsAreRefused(_ out: String, _ place: String) throws {
        let refusal = try #require(OutputDirectory.refusal(given: out, resolved: out, places: Self.places))
        guard case let .tooBroad(_, _, refused) = refusal else { return }
        #expect(refused.name == place)
        let text = refusal.description
        #expect(text.hasPrefix("--out \(out) ") && text.hasSuffix("(created if missing)."), "\(text)")
    }

    @Test(arguments: ["/home/ada/projects/replay/replay-report", "/home/ada/out", "/tmp/replay-report",
                      "/var/tmp/run-1", "/srv/replay", "/dev/shm/replay", "/home/ada/projects/other"])
    func aDirectoryOfItsOwnIsAllowed(_ out: String) {
        #expect(OutputDirectory.refusal(given: out, resolved: out, places: Self.places) == nil)
    }

    @Test func refusalReadsAsASentence() {
        let home = OutputDirectory.Place(name: "the home directory", path: "/home/ada")
        #expect(OutputDirectory.Refusal.tooBroad(given: "~/..", resolved: "/home", place: home).description
                == "--out ~/.. holds the home directory (/home/ada): the run could write among files that are not its own."
                + " Give it a directory of its own, such as /home/replay-report (created if missing).")
        #expect(OutputDirectory.Refusal.tooBroad(given: ".", resolved: "/home/ada", place: home).description
                == "--out . is the home directory: the run could write among files that are not its own."
                + " Give it a directory of its own, such as /home/ada/replay-report (created if missing).")
    }

    /// Paths are resolved before they are compared: relative, `..`, symbolic links, missing tails.
    @Test func pathsAreResolvedBeforeTheRule() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("out-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/work", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: "/tmp")
        let real = OutputDirectory.resolve(root, from: "/")
        #expect(OutputDirectory.resolve("work/../new/./out", from: root) == real + "/new/out")
        #expect(OutputDirectory.resolve(root + "/link", from: "/") == OutputDirectory.resolve("/tmp", from: "/"))
        #expect(OutputDirectory.resolve(root + "/link/..", from: "/") == "/")

        let environment = ["HOME": root + "/home"]
        #expect(OutputDirectory.refusal(for: root + "/link", environment: environment, workingDirectory: root + "/work") != nil)
        #expect(OutputDirectory.refusal(for: ".", environment: environment, workingDirectory: root + "/work") != nil)
        #expect(OutputDirectory.refusal(for: "..", environment: environment, workingDirectory: root + "/work") != nil)
        #expect(OutputDirectory.refusal(for: "replay-report", environment: environment, workingDirectory: root + "/work") == nil)
    }

    /// The command refuses before it creates anything, whether or not it is sandboxed, with exit 2.
    @Test(arguments: [["flywheel", "--out", "/tmp"], ["--dry-run", "--out", "/"]])
    func commandRefusesWithAUsageError(_ arguments: [String]) {
        let owner = try! TemporaryDirectory(prefix: "replay-test")
        defer { withExtendedLifetime(owner) {} }
        let directory = owner.path
        let corpus = writeCorpus(tinyCorpus, in: directory)
        var said = ""
        let code = ReplayTool.main(arguments + [corpus], diagnostics: { said += $0 + "\n" }, sandboxed: false)
        #expect(code == .usage)
        #expect(said.contains("the run could write among files that are not its own"), "\(said)")
    }
}
