import Foundation
import Glibc
import Privacy
@testable import ReplayKit
import Testing
import TestSupport

/// Which corpus a state was made over, keyed by the run key, and the label salt drawn from the
/// same bytes and key.
@Suite struct CorpusIdentityTests {
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

    @Test func aLargeFileIsKnownByItsSizeAndEnds() throws {
        let directory = try TemporaryDirectory(prefix: "identity")
        var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: 3 << 20)
        let original = try directory.write("large.jsonl", bytes)
        let large = try #require(CorpusIdentity.of([original], key: Self.key).identity.files.first)
        #expect(large.hashed == .firstAndLastMiB && large.bytes == 3 << 20)
        bytes[bytes.count - 10] = UInt8(ascii: "y")
        let end = try #require(CorpusIdentity.of([try directory.write("end.jsonl", bytes)], key: Self.key).identity.files.first)
        #expect(end.digest != large.digest)
        bytes[bytes.count - 10] = UInt8(ascii: "x")
        bytes[bytes.count / 2] = UInt8(ascii: "y")   // the middle is not read: an export grows at its end
        let middle = try #require(CorpusIdentity.of([try directory.write("middle.jsonl", bytes)], key: Self.key).identity.files.first)
        #expect(middle.digest == large.digest)
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
