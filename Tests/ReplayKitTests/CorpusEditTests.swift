import Audit
import Confinement
import Foundation
import Privacy
@testable import ReplayKit
import Testing
import RunTestSupport
import TestSupport

/// The corpus is the corpus: one byte changed in the middle of a corpus file larger than 2 MiB,
/// its size the same, between two shards or between a checkpoint and `--resume`, is refused by
/// name; the same corpus unchanged is accepted (no false alarm).
@Suite(.tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct CorpusEditTests {
    /// A corpus of well over 2 MiB (the size beyond which only a file's ends used to be hashed).
    static func largeCorpus(in directory: TemporaryDirectory, name: String = "large.jsonl", prefix: String = "m") throws -> String {
        let text = StateFixtures.messy(threads: 4000, prefix: prefix)
        #expect(text.utf8.count > (2 << 20) + (1 << 19))
        return try directory.write(name, text: text)
    }

    /// Changes one letter of the message text nearest the middle of `path` ("Fine thanks" to
    /// "Fine thankz"): the same size, the same ends, still a valid export.
    static func editMiddle(_ path: String) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let needle = Array("Fine thanks".utf8)
        var at = bytes.count / 2
        while !bytes[at..<(at + needle.count)].elementsEqual(needle) { at += 1 }
        #expect(at > 1 << 20 && at < bytes.count - (1 << 20), "the edit is outside both ends")
        bytes[at + needle.count - 1] = UInt8(ascii: "z")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    static func replay(_ arguments: [String]) -> (code: ExitCode, said: String) { ShardMergeTests.replay(arguments) }

    /// The run key of `keyFile`.
    static let key = RunKey(bytes: [UInt8](repeating: 7, count: RunKey.length))!

    /// A run key file of the test's own (the shards of one run share it).
    static func keyFile(in directory: TemporaryDirectory) throws -> String {
        let path = try directory.write("run-key", [UInt8](repeating: 7, count: RunKey.length))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        return path
    }

    static func size(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? -1
    }

    @Test func anEditBetweenShardsIsRefusedByTheMerge() throws {
        let directory = try TemporaryDirectory(prefix: "corpus-edit")
        let corpus = try Self.largeCorpus(in: directory)
        let key = try Self.keyFile(in: directory)
        func shard(_ index: Int, _ name: String) -> String {
            let out = directory.path(name)
            let run = Self.replay(["--dry-run", "--job", "chips", "--run-key", key, "--shard", "\(index)/2", "--out", out, corpus])
            #expect(run.code == .success, "\(name): \(run.said)")
            return out
        }
        let s0 = shard(0, "s0"), s1 = shard(1, "s1")
        let same = Self.replay(["merge", "--run-key", key, "--out", directory.path("merged"), s0, s1])
        #expect(same.code == .success, "no false alarm: \(same.said)")

        let before = try Self.size(corpus)
        try Self.editMiddle(corpus)
        #expect(try Self.size(corpus) == before)
        let edited = shard(1, "s1-edited")
        let refused = Self.replay(["merge", "--run-key", key, "--out", directory.path("refused"), s0, edited])
        #expect(refused.code == .input, "\(refused.said)")
        #expect(refused.said.contains("\(edited) is not over the corpus of \(s0)") && refused.said.contains("other bytes")
                && refused.said.contains("changed between the shards"), "\(refused.said)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("refused/report.json")))
        // The built state says how it was hashed: every byte.
        let state = try RunState(stateJSON: String(contentsOfFile: edited + "/state.json", encoding: .utf8), key: Self.key)
        #expect(state.corpusIdentity.files.map(\.hashed) == [.whole])
    }

    @Test func anEditBeforeAResumeIsRefused() throws {
        let directory = try TemporaryDirectory(prefix: "corpus-edit")
        let corpus = try Self.largeCorpus(in: directory)
        let out = directory.path("out")
        let key = try Self.keyFile(in: directory)
        let arguments = ["--dry-run", "--job", "chips", "--run-key", key, "--resume", "--checkpoint-every", "500", "--out", out, corpus]
        /// The run's results but for its checkpoints gone, as if it had been killed after the last.
        func killedAfterTheLastCheckpoint() throws {
            for name in [RunManifest.fileName, OutputDirectory.stateFileName] where FileManager.default.fileExists(atPath: out + "/" + name) {
                try FileManager.default.removeItem(atPath: out + "/" + name)
            }
        }
        let first = Self.replay(arguments)
        #expect(first.code == .success, "\(first.said)")
        #expect(!OutputDirectory(out).checkpointSequences().isEmpty)
        try killedAfterTheLastCheckpoint()
        let again = Self.replay(arguments)
        #expect(again.code == .success && again.said.contains("resuming after checkpoint-"), "no false alarm: \(again.said)")

        try killedAfterTheLastCheckpoint()
        try Self.editMiddle(corpus)
        let refused = Self.replay(arguments)
        #expect(refused.code == .usage, "\(refused.said)")
        #expect(refused.said.contains("--resume") && refused.said.contains("was made by another run")
                && refused.said.contains("corpus file 1") && refused.said.contains("other bytes"), "\(refused.said)")
    }

    /// A file split: each shard hashes its own file whole and the other by its size and ends. A
    /// same-size edit to a file after the shard that does not read it ran changes nothing that
    /// shard counted: the merge is accepted and holds the whole digests of the bytes each file's
    /// shard read. A file whose size changed between the shards is refused; so is a shard's state
    /// that replayed a file without hashing it whole (as an older replay's did).
    @Test func aFileSplitIsVouchedForFileByFile() throws {
        let directory = try TemporaryDirectory(prefix: "corpus-edit")
        let files = [try Self.largeCorpus(in: directory, name: "a.jsonl", prefix: "a"), try Self.largeCorpus(in: directory, name: "b.jsonl", prefix: "b")]
        let key = try Self.keyFile(in: directory)
        func shard(_ index: Int, _ name: String) -> String {
            let out = directory.path(name)
            let run = Self.replay(["--dry-run", "--job", "chips", "--run-key", key, "--shard-by", "file", "--shard", "\(index)/2", "--out", out] + files)
            #expect(run.code == .success, "\(name): \(run.said)")
            return out
        }
        let s0 = shard(0, "s0")
        let s0State = try RunState(stateJSON: String(contentsOfFile: s0 + "/state.json", encoding: .utf8), key: Self.key)
        #expect(s0State.corpusIdentity.files.map(\.hashed) == [.whole, .firstAndLastMiB])
        try Self.editMiddle(files[1])   // shard 0 never reads b.jsonl
        let s1 = shard(1, "s1")
        let merged = Self.replay(["merge", "--run-key", key, "--out", directory.path("merged"), s0, s1])
        #expect(merged.code == .success, "\(merged.said)")
        let state = try RunState(stateJSON: String(contentsOfFile: directory.path("merged/state.json"), encoding: .utf8), key: Self.key)
        #expect(state.corpusIdentity == CorpusIdentity.of(files, key: try #require(RunKey(bytes: [UInt8](repeating: 7, count: RunKey.length)))).identity)
        // The one-process run over the same bytes: the same identity, and items keyed alike.
        let one = Self.replay(["--dry-run", "--job", "chips", "--run-key", key, "--out", directory.path("one")] + files)
        #expect(one.code == .success, "\(one.said)")
        let oneState = try RunState(stateJSON: String(contentsOfFile: directory.path("one/state.json"), encoding: .utf8), key: Self.key)
        #expect(oneState.corpusIdentity == state.corpusIdentity)
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.path("one/items.json.zst")))
                == Data(contentsOf: URL(fileURLWithPath: directory.path("merged/items.json.zst"))))

        // a.jsonl grows after shard 0 read it: shard 1's view of it is of another size.
        let handle = try #require(FileHandle(forWritingAtPath: files[0]))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("\n".utf8))
        try handle.close()
        let grown = shard(1, "s1-grown")
        let refused = Self.replay(["merge", "--run-key", key, "--out", directory.path("refused"), s0, grown])
        #expect(refused.code == .input && refused.said.contains("differs in size"), "\(refused.said)")

        // A shard's state that replayed its file knowing only its ends.
        var older = s0State
        older.corpusIdentity.files[0].hashed = .firstAndLastMiB
        let s1State = try RunState(stateJSON: String(contentsOfFile: s1 + "/state.json", encoding: .utf8), key: Self.key)
        #expect(throws: MergeCommand.Problem.self) { try MergeCommand.merge([("older", older), ("s1", s1State)]) }
        do {
            _ = try MergeCommand.merge([("older", older), ("s1", s1State)])
        } catch {
            #expect(error.description.contains("older replayed corpus file 1") && error.description.contains("without hashing every byte"))
        }
    }
}
