import Foundation
import Glibc
import Privacy
@testable import ReplayKit
import Testing
import RunTestSupport
import TestSupport

/// Which corpus a state was made over, keyed by the run key, and the label salt drawn from the
/// same bytes and key.
@Suite(.tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct CorpusIdentityTests {
    static let key = StateFixtures.key
    static let otherKey = RunKey(bytes: Array(repeating: 0xa5, count: RunKey.length))!

    @Test func theSameBytesAreTheSameCorpusWhereverTheyAre() throws {
        let directory = try TemporaryDirectory(prefix: "identity")
        let small = try directory.write("small.jsonl", text: StateFixtures.messy(threads: 3))
        let copy = try directory.write("copy.jsonl", text: StateFixtures.messy(threads: 3))
        let edited = try directory.write("edited.jsonl", text: StateFixtures.messy(threads: 3).replacingOccurrences(of: "m2", with: "m9"))
        let (a, saltA) = CorpusIdentity.of([small], key: Self.key)
        let (b, saltB) = CorpusIdentity.of([copy], key: Self.key)
        let (c, saltC) = CorpusIdentity.of([edited], key: Self.key)
        #expect(a.files[0].hashed == .whole)
        #expect(a.difference(from: b) == nil)
        #expect(saltA != nil && saltA == saltB)
        #expect(a.difference(from: c)?.contains("edited.jsonl") == true)
        #expect(saltA != saltC)
        #expect(a.difference(from: CorpusIdentity.of([small, copy], key: Self.key).identity) != nil)
        // The salt is none of the digests written.
        let saltHex = SHA256.hex(try #require(saltA).bytes)
        #expect(!a.files.contains { $0.digest?.hasPrefix(saltHex) == true })
        // Standard input has no identity, and no corpus salt.
        let (stdin, none) = CorpusIdentity.of(["-"], key: Self.key)
        #expect(none == nil && !stdin.isComplete)
        #expect(stdin.difference(from: stdin) != nil)
    }

    /// The issue's attack: a guessed one-message export hashed with SHA-256 matched state.json's
    /// identity. Now no digest written is the file's SHA-256, and the same bytes under another
    /// key give another identity (refused by the key's check, not by the digests) and salt.
    @Test func aGuessedCorpusCannotBeCheckedWithoutTheKey() throws {
        let directory = try TemporaryDirectory(prefix: "identity")
        let text = #"{"type":"export","version":1}"# + "\n" + #"{"type":"thread","id":"t1","agent":"Coach"}"# + "\n"
        let corpus = try directory.write("one.jsonl", text: text)
        let (mine, salt) = CorpusIdentity.of([corpus], key: Self.key)
        let (theirs, otherSalt) = CorpusIdentity.of([corpus], key: Self.otherKey)
        let guess = SHA256.hex(Array(text.utf8))
        #expect(mine.files[0].digest != guess && theirs.files[0].digest != guess)
        #expect(mine.files[0].digest != theirs.files[0].digest)
        #expect(salt != otherSalt)
        #expect(mine.runKeyCheck == Self.key.check && mine.runKeyCheck != theirs.runKeyCheck)
        #expect(mine.difference(from: theirs)?.contains("another run key") == true)
        // The state written carries the keyed digest and the check, never the plain digest.
        let state = StateFixtures.state([corpus]).stateJSON(key: Self.key)
        #expect(!state.contains(guess))
        #expect(state.contains(Self.key.check))
    }

    /// A file of any size is hashed whole: one byte changed in the middle of a 3 MiB file, its
    /// size the same, is another corpus. The digest is the HMAC of the documented domain and every
    /// byte, recomputed here by hand; the label salt is still drawn from the size and the first
    /// and last MiB (its derivation unchanged, so labels hash as before), also recomputed by hand.
    @Test func aLargeFileIsHashedEveryByte() throws {
        let directory = try TemporaryDirectory(prefix: "identity")
        var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: 3 << 20)
        let original = try directory.write("large.jsonl", bytes)
        let (identity, salt) = CorpusIdentity.of([original], key: Self.key)
        let large = try #require(identity.files.first)
        #expect(large.hashed == .whole && large.bytes == 3 << 20)
        var mac = Self.key.mac("replay.corpus-identity/2")
        mac.update(bytes)
        #expect(large.digest == mac.finalizeHex())
        var material = Self.key.mac(LabelSalt.domain)
        material.update([UInt8(0), 0, 0x30, 0, 0, 0, 0, 0])   // 3 << 20, as 8 little-endian bytes
        material.update(bytes.prefix(1 << 20))
        material.update(bytes.suffix(1 << 20))
        #expect(salt == RunKey.labelSalt(from: material))

        bytes[bytes.count / 2] = UInt8(ascii: "y")
        let (edited, editedSalt) = CorpusIdentity.of([try directory.write("middle.jsonl", bytes)], key: Self.key)
        let middle = try #require(edited.files.first)
        #expect(middle.bytes == large.bytes && middle.digest != large.digest)
        #expect(identity.difference(from: edited)?.contains("other bytes") == true)
        #expect(identity.difference(fromShard: edited)?.contains("changed between the shards") == true)
        #expect(editedSalt == salt, "the salt is drawn from the ends, which did not change")
        bytes[bytes.count / 2] = UInt8(ascii: "x")
        bytes[bytes.count - 10] = UInt8(ascii: "y")
        let end = try #require(CorpusIdentity.of([try directory.write("end.jsonl", bytes)], key: Self.key).identity.files.first)
        #expect(end.digest != large.digest && end.digest != middle.digest)
        #expect(identity.difference(from: CorpusIdentity.of([original], key: Self.key).identity) == nil)
    }

    /// A file split: a shard hashes its own files whole and knows the others by their size and
    /// ends; each file is vouched for by its own shard, the merge keeps the whole digests (the
    /// unsharded identity), and a state that replayed a file it did not hash whole (an older
    /// replay's) is found. Both shards draw the same salt, the unsharded run's.
    @Test func aFileSplitHashesEachFileInItsOwnShard() throws {
        let directory = try TemporaryDirectory(prefix: "identity")
        let bytes = [UInt8](repeating: UInt8(ascii: "x"), count: (2 << 20) + 1)
        let files = try (0..<3).map { try directory.write("f\($0).jsonl", bytes + [UInt8($0)]) }
        let (whole, salt) = CorpusIdentity.of(files, key: Self.key)
        let shards = (0..<2).map { CorpusIdentity.of(files, key: Self.key, shard: ShardSpec(index: $0, count: 2, by: .file)) }
        #expect(shards.map(\.identity.files).map { $0.map(\.hashed) } == [[.whole, .firstAndLastMiB, .whole], [.firstAndLastMiB, .whole, .firstAndLastMiB]])
        #expect(shards.allSatisfy { $0.salt == salt })
        #expect(shards[0].identity.difference(fromShard: shards[1].identity) == nil)
        #expect(shards[0].identity.difference(from: shards[1].identity)?.contains("hashed") == true)
        #expect(shards[0].identity.merged(with: shards[1].identity) == whole)
        #expect(shards[1].identity.merged(with: shards[0].identity) == whole)
        let facts = (0..<2).map { ShardFacts(count: 2, by: .file, indexes: [$0], threadsSeen: 0, unsandboxed: []) }
        #expect(shards[0].identity.unvouchedFile(replayed: facts[0].replays(file:)) == nil)
        #expect(shards[1].identity.unvouchedFile(replayed: facts[1].replays(file:)) == nil)
        #expect(shards[1].identity.unvouchedFile(replayed: facts[0].replays(file:)) == 0)
        let thread = ShardFacts(count: 2, by: .thread, indexes: [1], threadsSeen: 0, unsandboxed: [])
        #expect(whole.unvouchedFile(replayed: thread.replays(file:)) == nil)
        #expect(shards[0].identity.unvouchedFile(replayed: thread.replays(file:)) == 1)
        // A file of another size in the other shard's view: the corpus changed between them.
        _ = try directory.write("f1.jsonl", bytes + [1, 1])
        let grown = CorpusIdentity.of(files, key: Self.key, shard: ShardSpec(index: 1, count: 2, by: .file)).identity
        #expect(shards[0].identity.difference(fromShard: grown)?.contains("differs in size") == true)
    }

    /// A file split whose shards read every file (the facts a drawer or next-run run gathers
    /// first): each shard hashes every file whole, so an edit in the middle of the other shard's
    /// file, the same size and the same ends, is found between the shards.
    @Test func aFileSplitThatReadsEveryFileHashesEveryFileWhole() throws {
        let directory = try TemporaryDirectory(prefix: "identity")
        let bytes = [UInt8](repeating: UInt8(ascii: "x"), count: (3 << 20))
        let files = try (0..<2).map { try directory.write("f\($0).jsonl", bytes + [UInt8($0)]) }
        let first = CorpusIdentity.of(files, key: Self.key, shard: ShardSpec(index: 0, count: 2, by: .file), everyFileWhole: true).identity
        #expect(first.files.map(\.hashed) == [.whole, .whole])
        let ends = CorpusIdentity.of(files, key: Self.key, shard: ShardSpec(index: 0, count: 2, by: .file)).identity
        var edited = bytes
        edited[bytes.count / 2] = UInt8(ascii: "y")
        _ = try directory.write("f1.jsonl", edited + [1])
        let second = CorpusIdentity.of(files, key: Self.key, shard: ShardSpec(index: 1, count: 2, by: .file), everyFileWhole: true).identity
        #expect(first.difference(fromShard: second)?.contains("other bytes") == true)
        // Without it shard 0 knows the other shard's file by its size and ends, which the edit
        // left as they were: sound only when shard 0 never reads that file.
        let owner = CorpusIdentity.of(files, key: Self.key, shard: ShardSpec(index: 1, count: 2, by: .file)).identity
        #expect(ends.files.map(\.hashed) == [.whole, .firstAndLastMiB] && ends.difference(fromShard: owner) == nil)
    }

    /// The salt is chosen once, before the first label: a salt that changed later would count one
    /// value under two hashes.
    @Test func theProcessSaltCannotChangeAfterTheFirstLabel() {
        let before = ReportLabel(build: "the quick brown fox").text
        #expect(!LabelSalt.useForThisProcess(LabelSalt(bytes: [1, 2, 3])))
        #expect(ReportLabel(build: "the quick brown fox").text == before)
    }
}

/// The run key's file: what it may hold, who may write it, and the per-user key made once.
@Suite struct RunKeyFileTests {
    @Test func rawAndHexKeysAreReadAndOthersRefused() throws {
        let directory = try TemporaryDirectory(prefix: "run-key")
        let bytes = (0..<32).map { UInt8($0 * 7 & 0xff) }
        let raw = try directory.write("raw", bytes)
        let hex = try directory.write("hex", text: bytes.map { String(format: "%02x", $0) }.joined() + "\n")
        let short = try directory.write("short", Array(bytes.prefix(31)))
        for path in [raw, hex, short] { chmod(path, 0o600) }
        #expect(try RunKeyFile.read(raw, from: "test") == RunKey(bytes: bytes))
        #expect(try RunKeyFile.read(hex, from: "test") == RunKey(bytes: bytes))
        #expect(throws: RunKeyFile.Problem.self) { try RunKeyFile.read(short, from: "test") }
        #expect(throws: RunKeyFile.Problem.self) { try RunKeyFile.read(directory.path("absent"), from: "test") }
        chmod(raw, 0o622)
        #expect(throws: RunKeyFile.Problem.self) { try RunKeyFile.read(raw, from: "test") }
        #expect("\(try #require(RunKey(bytes: bytes)))" == "RunKey(32 bytes, not shown)")
    }

    /// The built binary, sandboxed, makes its per-user key outside --out: so it is made before
    /// confinement (after it, Landlock would refuse the file). The config's run_key is a key too.
    @Test func theKeyIsHadBeforeConfinement() throws {
        let directory = try TemporaryDirectory(prefix: "run-key")
        let corpus = BuiltProducts.packageRoot + "/corpora/sample.jsonl.zst"
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = directory.path("state")
        environment["REPLAY_RUN_KEY"] = nil
        let run = try Subprocess.run(BuiltProducts.executable("replay"), ["--dry-run", "--limit", "2", "--out", directory.path("out"), corpus],
                                     environment: environment)
        #expect(run.status == 0, "\(run.errors)")
        let made = try RunKeyFile.read(directory.path("state/replay/run-key"), from: "test")
        let state = try String(contentsOfFile: directory.path("out/state.json"), encoding: .utf8)
        #expect(state.contains(made.check))
        // The config's run_key, relative to the working directory, and --run-key over it.
        let key = try directory.write("config-key", [UInt8](repeating: 4, count: 32))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key)
        let config = try directory.write("replay.json", text: #"{"run_key": "\#(key)"}"#)
        guard case .replay(let options) = try ArgumentParser.parse(["--config", config, corpus]) else { Issue.record("not a replay"); return }
        #expect(options.runKeyPath == key)
        guard case .replay(let flagged) = try ArgumentParser.parse(["--run-key", "other", "--config", config, corpus]) else { return }
        #expect(flagged.runKeyPath == "other")
    }

    /// The per-user key is made once, 0600, and read back the same by every later process.
    @Test func thePerUserKeyIsMadeOnceAndPrivate() throws {
        let directory = try TemporaryDirectory(prefix: "run-key")
        let environment = ["XDG_STATE_HOME": directory.path("state")]
        let first = try RunKeyFile.load(explicit: nil, environment: environment)
        let second = try RunKeyFile.load(explicit: nil, environment: environment)
        #expect(first == second)
        var info = stat()
        #expect(stat(directory.path("state/replay/run-key"), &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600 && info.st_size == 32)
        let other = try RunKeyFile.load(explicit: nil, environment: ["XDG_STATE_HOME": directory.path("elsewhere")])
        #expect(other != first)
        // REPLAY_RUN_KEY wins over the per-user key, and --run-key over both.
        let named = try directory.write("named", Array(repeating: 1, count: 32))
        chmod(named, 0o600)
        #expect(try RunKeyFile.load(explicit: nil, environment: environment.merging(["REPLAY_RUN_KEY": named]) { $1 })
                == RunKey(bytes: Array(repeating: 1, count: 32)))
        #expect(try RunKeyFile.load(explicit: named, environment: ["REPLAY_RUN_KEY": directory.path("absent")])
                == RunKey(bytes: Array(repeating: 1, count: 32)))
    }
}
