import Audit
import Confinement
import Foundation
import Privacy
@testable import Compare
@testable import ReplayKit
@testable import Replay
import Testing
import RunTestSupport
import TestSupport

/// Every state file carries its digest under the run key (`StateDigest`), and every reader checks
/// it: `--resume` passes over a checkpoint changed since it was written, or of another key, says
/// which and why, and resumes from the one before, to the counts of a run never stopped;
/// `replay merge` and `replay compare` refuse such a state.json naming its directory; and a run,
/// its resume, its merge and its comparison left alone raise nothing.
@Suite(.serialized, .tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct StateIntegrityTests {
    typealias F = CompareFixtures

    /// One way a state file differs from the one its run wrote.
    enum Tampering: String, CaseIterable, Sendable {
        case threads, eventsRead, eligible, digestChanged, digestRemoved, anotherRunKey

        /// What a reader says of the file.
        var problem: StateIntegrityError {
            switch self {
            case .threads, .eventsRead, .eligible, .digestChanged: .digestDoesNotMatch
            case .digestRemoved: .carriesNoDigest
            case .anotherRunKey: .madeUnderAnotherRunKey
            }
        }

        /// The key whose number gets one digit changed, for the cases that change a count.
        var countKey: String? {
            switch self {
            case .threads: "\"threads\": "
            case .eventsRead: "\"events_read\": "
            case .eligible: "\"eligible\": "
            default: nil
            }
        }

        /// `text` (a state file written under the run's key) changed this way; `foreign` is the
        /// same file as a run under another key wrote it.
        func apply(to text: String, foreign: String) throws -> String {
            if let key = countKey { return try StateIntegrityTests.changingOneDigit(after: key, in: text) }
            switch self {
            case .digestChanged: return try StateIntegrityTests.changingOneDigit(after: "\"digest\": \"" + StateDigest.prefix, in: text)
            case .digestRemoved:
                let cut = try #require(text.range(of: StateDigest.keyOpening))
                return String(text[..<cut.lowerBound]) + StateDigest.unsealedEnd
            default: return foreign
            }
        }
    }

    /// `text` with the last digit of the first value after `key` changed (0→1, …, 9→0, f→0).
    static func changingOneDigit(after key: String, in text: String) throws -> String {
        let start = try #require(text.range(of: key), "\(key) is in the state").upperBound
        var end = start
        while end < text.endIndex, text[end].isHexDigit { end = text.index(after: end) }
        let last = text.index(before: end)
        try #require(start < end, "a number or hex digits follow \(key)")
        let digits = Array("0123456789abcdef")
        let isHex = key.hasSuffix(StateDigest.prefix)
        let position = try #require(digits.firstIndex(of: text[last]))
        let changed = digits[(position + 1) % (isHex ? 16 : 10)]
        return String(text[..<last]) + String(changed) + String(text[end...])
    }

    /// Runs `replay` in this process (unsandboxed: tests have other threads) and returns what it said.
    static func replay(_ arguments: [String]) -> (code: ExitCode, said: String) {
        var said = ""
        let code = ReplayTool.main(arguments, diagnostics: { said += $0 + "\n" }, sandboxed: false)
        return (code, said)
    }

    /// A key file of fixed bytes, mode 0600.
    static func keyFile(in directory: TemporaryDirectory, byte: UInt8) throws -> String {
        let path = try directory.write("key-\(byte)", [UInt8](repeating: byte, count: RunKey.length))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        return path
    }

    /// Removes checkpoints after `kept` and their segments, as a run killed after writing
    /// checkpoint `kept` leaves its --out.
    static func keepCheckpoints(through kept: Int, in out: String) throws {
        // A killed run never wrote its manifest: without it the directory is not a finished run.
        try? FileManager.default.removeItem(atPath: out + "/" + RunManifest.fileName)
        for sequence in OutputDirectory(out).checkpointSequences() where sequence > kept {
            try FileManager.default.removeItem(atPath: out + "/" + OutputDirectory.checkpointName(sequence))
        }
        for sequence in OutputDirectory(out).checkpointSequences(suffix: OutputDirectory.segmentSuffix) where sequence > kept {
            try FileManager.default.removeItem(atPath: out + "/" + OutputDirectory.segmentName(sequence))
        }
    }

    static func replace(_ path: String, with text: String) throws {
        try FileManager.default.removeItem(atPath: path)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    /// The same states and items as a run never stopped, and the same report.
    static func expectSameCounts(_ out: String, as whole: String, key: RunKey) throws {
        let a = try StateFixtures.report(at: out + "/report.json"), b = try StateFixtures.report(at: whole + "/report.json")
        #expect(StateFixtures.comparable(a) == StateFixtures.comparable(b))
        let stateA = try RunState(stateJSON: String(contentsOfFile: out + "/state.json", encoding: .utf8), key: key)
        let stateB = try RunState(stateJSON: String(contentsOfFile: whole + "/state.json", encoding: .utf8), key: key)
        #expect(StateFixtures.comparable(stateA) == StateFixtures.comparable(stateB))
        for name in ["report.md", "junit.xml", "items.json.zst"] {
            #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/" + name)) == Data(contentsOf: URL(fileURLWithPath: whole + "/" + name)), "\(name)")
        }
    }

    // MARK: - The state itself

    @Test(arguments: Tampering.allCases)
    func aChangedStateIsRefusedByName(_ way: Tampering) throws {
        let directory = try TemporaryDirectory(prefix: "integrity-state")
        let paths = try StateFixtures.corpus(in: directory)
        var state = StateFixtures.state(paths, dryRun: true)
        state.checkpoint = Checkpoint(sequence: 4, eventsRead: 57)
        let text = state.stateJSON(key: StateFixtures.key)
        let otherKey = try #require(RunKey(bytes: [UInt8](repeating: 7, count: RunKey.length)))
        var foreign = state
        foreign.corpusIdentity = CorpusIdentity.of(paths, key: otherKey).identity
        let changed = try way.apply(to: text, foreign: foreign.stateJSON(key: otherKey))
        #expect(changed != text)
        #expect(throws: way.problem) { try RunState(stateJSON: changed, key: StateFixtures.key) }
        // The sentence names no count and quotes nothing of the file (its only digits name the algorithm).
        #expect(!way.problem.description.replacingOccurrences(of: "sha256", with: "").contains { $0.isNumber })
        // The file as written reads back, under its own key only.
        #expect(try RunState(stateJSON: text, key: StateFixtures.key).checkpoint?.eventsRead == 57)
        #expect(throws: StateIntegrityError.madeUnderAnotherRunKey) { try RunState(stateJSON: text, key: otherKey) }
    }

    /// The digest is the HMAC-SHA-256 under the run key, domain and a NUL first, of the text
    /// without it, as docs/report-schema.md documents; the reference is Python's, not ours.
    @Test func theDigestIsTheKeyedHMACOfTheTextWithoutIt() throws {
        let sealed = StateDigest.seal("{\n  \"complete\": true\n}\n", key: StateFixtures.key)
        #expect(sealed.hasPrefix("{\n  \"complete\": true,\n  \"digest\": \"hmac-sha256:") && sealed.hasSuffix("\"\n}\n"))
        let (unsealed, digest) = try #require(StateDigest.split(sealed))
        #expect(unsealed == "{\n  \"complete\": true\n}\n")
        #expect(digest == Self.referenceDigest)
        #expect(StateDigest.split("{\n  \"complete\": true\n}\n") == nil)
    }

    /// Python 3 (hmac, hashlib): `hmac.new(b"\x5a" * 32, b"replay.state-digest/1\x00" + b'{\n  "complete": true\n}\n', hashlib.sha256).hexdigest()`.
    static let referenceDigest = "77a9df1a045a89856dae35edb179ebdb70c27057f6689bf1776d818a6b84d406"

    // MARK: - --resume

    /// A run with checkpoints every 2 threads, cut back to its first 3 (as a kill after the third
    /// leaves it), the third changed: the resume passes it over, says so, resumes after the
    /// second, and counts what a run never stopped counts.
    @Test(arguments: Tampering.allCases)
    func aResumePassesOverAChangedCheckpointAndSaysWhy(_ way: Tampering) throws {
        let directory = try TemporaryDirectory(prefix: "integrity-resume")
        let corpus = try directory.write("c.jsonl", text: StateFixtures.messy(threads: 12))
        let out = directory.path("out"), whole = directory.path("whole"), foreignOut = directory.path("foreign")
        let arguments = ["--dry-run", "--resume", "--checkpoint-every", "2", "--out", out, corpus]
        #expect(Self.replay(arguments).code == .success)
        #expect(Self.replay(["--dry-run", "--out", whole, corpus]).code == .success)
        let other = try Self.keyFile(in: directory, byte: 11)
        #expect(Self.replay(["--dry-run", "--checkpoint-every", "2", "--run-key", other, "--out", foreignOut, corpus]).code == .success)
        #expect(OutputDirectory(out).checkpointSequences().count >= 4)

        try Self.keepCheckpoints(through: 3, in: out)
        let third = out + "/" + OutputDirectory.checkpointName(3)
        let text = try String(contentsOfFile: third, encoding: .utf8)
        let foreign = try String(contentsOfFile: foreignOut + "/" + OutputDirectory.checkpointName(3), encoding: .utf8)
        try Self.replace(third, with: try way.apply(to: text, foreign: foreign))

        let key = try StateFixtures.processKey()
        let found = OutputDirectory(out, key: key).newestCompleteCheckpoint()
        #expect(found.state?.checkpoint?.sequence == 2 && found.highestSequence == 3)
        #expect(found.passedOver == [OutputDirectory.PassedOver(name: OutputDirectory.checkpointName(3), problem: way.problem)])

        let resumed = Self.replay(arguments)
        #expect(resumed.code == .success, "\(resumed.said)")
        #expect(resumed.said.contains("replay: --resume: checkpoint-000003.json was passed over: \(way.problem.description)"), "\(resumed.said)")
        #expect(resumed.said.contains("resuming after checkpoint-000002.json"), "\(resumed.said)")
        #expect(OutputDirectory(out).checkpointSequences().first { $0 > 3 } == 4, "numbered after the one passed over")
        try Self.expectSameCounts(out, as: whole, key: key)
    }

    // MARK: - replay merge

    @Test(arguments: [Tampering.threads, .eligible, .digestChanged, .digestRemoved, .anotherRunKey])
    func aMergeRefusesAChangedShardStateNamingItsDirectory(_ way: Tampering) throws {
        let directory = try TemporaryDirectory(prefix: "integrity-merge")
        let corpus = try directory.write("c.jsonl", text: StateFixtures.messy(threads: 9))
        let s0 = directory.path("s0"), s1 = directory.path("s1"), foreignOut = directory.path("foreign")
        #expect(Self.replay(["--dry-run", "--shard", "0/2", "--out", s0, corpus]).code == .success)
        #expect(Self.replay(["--dry-run", "--shard", "1/2", "--out", s1, corpus]).code == .success)
        let other = try Self.keyFile(in: directory, byte: 12)
        #expect(Self.replay(["--dry-run", "--shard", "1/2", "--run-key", other, "--out", foreignOut, corpus]).code == .success)
        let state = s1 + "/state.json"
        let foreign = try String(contentsOfFile: foreignOut + "/state.json", encoding: .utf8)
        try Self.replace(state, with: try way.apply(to: try String(contentsOfFile: state, encoding: .utf8), foreign: foreign))

        let merged = directory.path("merged")
        let run = Self.replay(["merge", "--out", merged, s0, s1])
        #expect(run.code == .input, "\(run.said)")
        #expect(run.said.contains(s1), "\(run.said)")
        #expect(!run.said.contains(s0 + "/") && !run.said.contains(s0 + " "), "\(run.said)")
        let sentence = way == .anotherRunKey ? "was made under another run key" : way.problem.description
        #expect(run.said.contains(sentence), "\(run.said)")
        #expect(!FileManager.default.fileExists(atPath: merged + "/report.json"))
        #expect(!FileManager.default.fileExists(atPath: merged + "/state.json"))
    }

    // MARK: - replay compare

    @Test(arguments: [Tampering.threads, .eligible, .digestChanged, .digestRemoved])
    func aCompareRefusesAChangedStateNamingItsDirectory(_ way: Tampering) throws {
        let work = try TemporaryDirectory(prefix: "integrity-compare")
        let key = try F.runKey(in: work)
        let corpus = try work.write("c.jsonl", text: F.corpus(threads: 3))
        let base = work.path("base"), new = work.path("new")
        #expect(F.dryRun(corpus, out: base, key: key) == .success)
        #expect(F.dryRun(corpus, out: new, key: key) == .success)
        // Changed, and its manifest taken again, as whoever changed it could: only the digest tells.
        let state = new + "/state.json"
        try Self.replace(state, with: try way.apply(to: try String(contentsOfFile: state, encoding: .utf8), foreign: ""))
        try FileManager.default.removeItem(atPath: new + "/manifest.json")
        try OutputDirectory(new).saveManifest()
        #expect(ReplayTool.main(["verify", new], diagnostics: { _ in }, sandboxed: false) == .success)

        let (code, said) = F.compare(["--run-key", key, "--out", work.path("cmp"), base, new])
        #expect(code == .input, "\(said)")
        #expect(said.contains("replay compare: \(new) is not a finished run to compare: its state.json is refused: \(way.problem.description)"), "\(said)")
        #expect(!said.contains("\(base) is not"), "\(said)")
        #expect(!FileManager.default.fileExists(atPath: work.path("cmp/compare.json")))
    }

    // MARK: - No false alarm

    /// A run, a resume from its checkpoints, shards and their merge, and a comparison, none of
    /// them touched: every state checks, and nothing is passed over or refused.
    @Test func untouchedStatesRaiseNothing() throws {
        let directory = try TemporaryDirectory(prefix: "integrity-clean")
        let corpus = try directory.write("c.jsonl", text: StateFixtures.messy(threads: 10))
        let out = directory.path("out"), whole = directory.path("whole")
        let arguments = ["--dry-run", "--resume", "--checkpoint-every", "2", "--out", out, corpus]
        let first = Self.replay(arguments)
        #expect(first.code == .success && !first.said.contains("passed over"), "\(first.said)")
        #expect(Self.replay(["--dry-run", "--out", whole, corpus]).code == .success)
        let key = try StateFixtures.processKey()
        let all = OutputDirectory(out, key: key).newestCompleteCheckpoint()
        #expect(all.passedOver.isEmpty && all.state?.checkpoint?.sequence == all.highestSequence)

        try Self.keepCheckpoints(through: 2, in: out)
        let resumed = Self.replay(arguments)
        #expect(resumed.code == .success, "\(resumed.said)")
        #expect(!resumed.said.contains("passed over") && resumed.said.contains("resuming after checkpoint-000002.json"), "\(resumed.said)")
        try Self.expectSameCounts(out, as: whole, key: key)

        let s0 = directory.path("s0"), s1 = directory.path("s1"), merged = directory.path("merged")
        #expect(Self.replay(["--dry-run", "--shard", "0/2", "--out", s0, corpus]).code == .success)
        #expect(Self.replay(["--dry-run", "--shard", "1/2", "--out", s1, corpus]).code == .success)
        let merge = Self.replay(["merge", "--out", merged, s0, s1])
        #expect(merge.code == .success, "\(merge.said)")
        #expect(!merge.said.contains("digest") && !merge.said.contains("refused"), "\(merge.said)")
        // The merged state is sealed too, and reads back as the whole run's.
        let mergedState = try RunState(stateJSON: String(contentsOfFile: merged + "/state.json", encoding: .utf8), key: key)
        let wholeState = try RunState(stateJSON: String(contentsOfFile: whole + "/state.json", encoding: .utf8), key: key)
        #expect(StateFixtures.comparable(mergedState) == StateFixtures.comparable(wholeState))

        let compared = F.compare(["--out", directory.path("cmp"), whole, merged])
        #expect(compared.code == .success, "\(compared.said)")
    }
}
