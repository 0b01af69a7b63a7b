import Corpus
import Foundation
@testable import ReplayKit
import Testing
import TestSupport

/// Whether a tmpfs can be mounted in a user and mount namespace of our own (`unshare -rm`).
enum UserMount {
    static let isPossible: Bool = {
        guard let directory = try? TemporaryDirectory(prefix: "can-mount") else { return false }
        let probe = try? Subprocess.run("/usr/bin/unshare", ["-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs \"$1\"", "sh", directory.path])
        return probe?.status == 0
    }()
}

/// `--out` on a file system that cannot take the results: a read-only mount or a full disk is
/// found before anything is replayed, and a disk that fills during the run stops it at its first
/// failed checkpoint. Either way nothing under `--out` looks like a finished run.
///
/// Each case mounts a small tmpfs in a user and mount namespace of its own (`unshare -rm`, no
/// privilege needed), runs the built binary there and lists what it left, since the mount ends
/// with the namespace.
@Suite(.enabled(if: UserMount.isPossible, "unshare -rm cannot mount a tmpfs here (no user namespaces): the full and read-only --out cases are skipped"),
        .tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out"))
struct FullDiskTests {

    /// Runs replay with `arguments` (`OUT` standing for the tmpfs's out directory) on a tmpfs of
    /// `size`, remounted read-only first if `readOnly`; returns its status, stderr and the names it left.
    static func run(size: String, readOnly: Bool = false, _ arguments: [String]) throws -> (status: Int32, said: String, left: [String]) {
        let directory = try TemporaryDirectory(prefix: "full-disk")
        let mount = directory.path("mnt")
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        let script = """
            mount -t tmpfs -o size=\(size) tmpfs "$1" || exit 90
            mkdir "$1/out" || exit 91
            \(readOnly ? "mount -o remount,ro \"$1\" || exit 92" : "")
            shift
            "$@"
            status=$?
            ls -1A "$OUT"
            exit $status
            """
        let replay = BuiltProducts.executable("replay")
        let out = mount + "/out"
        let result = try Subprocess.run("/usr/bin/env", ["OUT=" + out, "/usr/bin/unshare", "-rm", "sh", "-c", script, "sh", mount, replay]
                                        + arguments.map { $0 == "OUT" ? out : $0 }, timeout: 600)
        return (result.status, result.errors, result.output.split(separator: "\n").map(String.init))
    }

    @Test func aReadOnlyOutFailsBeforeAnythingIsReplayed() throws {
        let directory = try TemporaryDirectory(prefix: "ro-corpus")
        let corpus = try directory.write("c.jsonl", text: ExitStatusTests.corpus)
        let (status, said, left) = try Self.run(size: "4m", readOnly: true, ["--dry-run", "--job", "chips", "--out", "OUT", corpus])
        #expect(status == ExitCode.output.rawValue, "\(said)")
        #expect(said.contains("Read-only file system"), "\(said)")
        #expect(!said.contains("replay: 2 threads"), "nothing was replayed: \(said)")
        #expect(left.isEmpty, "\(left)")
    }

    @Test func aFullOutFailsBeforeAnythingIsReplayed() throws {
        let directory = try TemporaryDirectory(prefix: "full-corpus")
        let corpus = try directory.write("c.jsonl", text: ExitStatusTests.corpus)
        let (status, said, left) = try Self.run(size: "512k", ["--dry-run", "--job", "chips", "--out", "OUT", corpus])
        #expect(status == ExitCode.output.rawValue, "\(said)")
        #expect(said.contains("nothing can be written in the output directory") && said.contains("No space left on device"), "\(said)")
        #expect(left.isEmpty, "\(left)")
    }

    /// A disk that fills with checkpoints stops the run at the first one that fails, says what
    /// the last good one kept, and leaves no result file.
    @Test func aDiskThatFillsStopsTheRunAtItsFirstFailedCheckpoint() throws {
        let directory = try TemporaryDirectory(prefix: "filling-corpus")
        let corpus = directory.path("generated.jsonl.zst")
        _ = try CorpusGenerator(threads: 3000, seed: 37).write(to: corpus)
        let (status, said, left) = try Self.run(size: "3m", ["--dry-run", "--resume", "--checkpoint-every", "5", "--out", "OUT", corpus])
        #expect(status == ExitCode.output.rawValue, "\(said)")
        #expect(said.contains("No space left on device: stopped at once; "), "\(said)")
        #expect(said.contains(" threads kept in "), "\(said)")
        #expect(!said.contains("no more checkpoints are written"))
        let results = left.filter { OutputDirectory.resultFiles.contains($0) }
        #expect(results.isEmpty, "nothing looks like a result: \(results)")
        #expect(left.contains { $0.hasPrefix("checkpoint-") })
    }
}
