#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Audit
import Confinement
import Engine
import Export
import Foundation
import Privacy
@testable import ReplayKit
import Testing
import RunTestSupport
import TestSupport

/// A corpus file edited or replaced after the run took its identity and before the reader opens
/// it (while the model loads) is not replayed: the file fails when opened, named, and the run
/// exits 3 with the rest of the corpus replayed; the state's digest then names bytes nothing
/// was replayed from. Unedited, the run is as ever (no false alarm).
@Suite struct EditAfterIdentityTests {
    /// Sets `path`'s access and modification times to `seconds` past the epoch (so the clock's
    /// granularity cannot hide a rewrite).
    static func setModified(_ path: String, seconds: Int) throws {
        var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
        guard utimensat(AT_FDCWD, path, &times, 0) == 0 else { throw POSIXError(.EIO) }
    }

    /// Writes `text` over `path` in place (the same inode), its time then set to 2001-09-09.
    static func rewrite(_ path: String, _ text: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
        try setModified(path, seconds: 1_000_000_000)
    }

    /// Two corpus files: the one to edit (12 threads) and one left alone (5 threads).
    static func corpus(in directory: TemporaryDirectory) throws -> (edited: String, kept: String) {
        let edited = try directory.write("a.jsonl", text: StateFixtures.messy(threads: 12))
        let kept = try directory.write("b.jsonl", text: StateFixtures.messy(threads: 5, prefix: "k"))
        try setModified(edited, seconds: 1_700_000_000)
        return (edited, kept)
    }

    /// `replay ARGUMENTS` in process, with `edit` called after the identity is taken and before
    /// the model loads and the reader opens anything.
    static func replay(_ arguments: [String], edit: () throws -> Void) throws -> (code: ExitCode, said: String) {
        guard case .replay(let options) = try ArgumentParser.parse(arguments) else { throw POSIXError(.EINVAL) }
        var said = ""
        var editFailure: (any Error)? = nil
        let code = RunCommand.replay(options, sandboxing: Sandboxing(enabled: false, confine: Sandbox.confine), stop: StopRequest(),
                                     diagnostics: { said += $0 + "\n" }, afterIdentity: {
                                         do { try edit() } catch { editFailure = error }
                                     })
        if let editFailure { throw editFailure }
        return (code, said)
    }

    static func state(_ out: String) throws -> RunState {
        try RunState(stateJSON: String(contentsOfFile: out + "/state.json", encoding: .utf8), key: CorpusEditTests.key)
    }

    /// Rewritten in place at the same size between the identity and the read: exit 3, the file
    /// named with its sizes and times, nothing of it replayed, the other file replayed whole.
    @Test func aFileRewrittenAfterTheIdentityFailsTheRun() throws {
        let directory = try TemporaryDirectory(prefix: "edit-after-identity")
        let (edited, kept) = try Self.corpus(in: directory)
        let key = try CorpusEditTests.keyFile(in: directory)
        let out = directory.path("out")
        let other = StateFixtures.messy(threads: 12, prefix: "x")
        let size = try CorpusEditTests.size(edited)
        #expect(other.utf8.count == size)
        let run = try Self.replay(["--dry-run", "--job", "chips", "--run-key", key, "--out", out, edited, kept]) {
            try Self.rewrite(edited, other)
        }
        // 1700000000 s is 2023-11-14T22:13:20Z, 1000000000 s 2001-09-09T01:46:40Z (Python 3:
        // datetime.datetime.fromtimestamp(t, datetime.timezone.utc).isoformat()).
        let message = "\(edited): the file changed after the run took its identity: it was \(size) bytes "
            + "(modified 2023-11-14T22:13:20.000000000Z) when hashed and \(size) bytes (modified 2001-09-09T01:46:40.000000000Z) "
            + "when opened; nothing of it was read"
        #expect(run.code == .input && run.code.rawValue == 3, "\(run.said)")
        #expect(run.said.contains("replay: " + message), "\(run.said)")
        let state = try Self.state(out)
        #expect(state.corpus.errors.map(\.fileIndex) == [0] && state.corpus.errors.map(\.message) == [message])
        #expect(state.corpus.threadsReplayed == 5, "only the file left alone is replayed")
        #expect(state.corpus.stats.files == 2)
    }

    /// Replaced by another file renamed over its path (`mv`, same size and time): exit 3, named
    /// as replaced.
    @Test func aFileReplacedAfterTheIdentityFailsTheRun() throws {
        let directory = try TemporaryDirectory(prefix: "edit-after-identity")
        let (edited, kept) = try Self.corpus(in: directory)
        let replacement = try directory.write("replacement.jsonl", text: StateFixtures.messy(threads: 12, prefix: "x"))
        try Self.setModified(replacement, seconds: 1_700_000_000)
        let key = try CorpusEditTests.keyFile(in: directory)
        let out = directory.path("out")
        let run = try Self.replay(["--dry-run", "--job", "chips", "--run-key", key, "--out", out, edited, kept]) {
            guard rename(replacement, edited) == 0 else { throw POSIXError(.EIO) }
        }
        #expect(run.code == .input, "\(run.said)")
        #expect(run.said.contains("replay: \(edited): the file changed after the run took its identity (another file was put at its path): "), "\(run.said)")
        #expect(try Self.state(out).corpus.threadsReplayed == 5)
    }

    /// Nothing edited: the run succeeds and replays both files (no false alarm), and its state
    /// has the bytes of a run without the expectation (none of it is written).
    @Test func anUneditedCorpusRunsAsEver() throws {
        let directory = try TemporaryDirectory(prefix: "edit-after-identity")
        let (edited, kept) = try Self.corpus(in: directory)
        let key = try CorpusEditTests.keyFile(in: directory)
        let run = try Self.replay(["--dry-run", "--job", "chips", "--run-key", key, "--out", directory.path("out"), edited, kept]) {}
        #expect(run.code == .success, "\(run.said)")
        let state = try Self.state(directory.path("out"))
        #expect(state.corpus.errors.isEmpty && state.corpus.threadsReplayed == 17)
        let json = try String(contentsOfFile: directory.path("out") + "/state.json", encoding: .utf8)
        #expect(!json.contains("inode") && !json.contains("modified"), "no version in the state")
    }

    static func version(_ path: String) throws -> FileVersion {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXError(.ENOENT) }
        defer { close(descriptor) }
        return try #require(FileVersion.ofOpenFile(descriptor))
    }

    /// The stages without the command: the identity taken, the file edited, the runner given the
    /// expectations: the tally has the file's error at its index and the other file's threads;
    /// the same runner without them replays the edited bytes (the gap this closes).
    @Test func theRunnerFailsAFileThatIsNotTheVersionHashed() throws {
        let directory = try TemporaryDirectory(prefix: "edit-after-identity")
        let (edited, kept) = try Self.corpus(in: directory)
        let options = StateFixtures.options([edited, kept], dryRun: true)
        let files = try CorpusReader(paths: options.corpus).files
        let (identity, _, expected) = CorpusIdentity.take(files, key: StateFixtures.key)
        #expect(expected.files == files && Set(expected.versions.keys) == Set(files))
        #expect(identity == CorpusIdentity.of(files, key: StateFixtures.key).identity, "take and of agree")
        let hashed = try #require(expected.versions[edited])
        try Self.rewrite(edited, StateFixtures.messy(threads: 12, prefix: "x"))
        let opened = try Self.version(edited)

        func run(_ expected: ExpectedCorpus?) -> ReplayTally {
            let jobs = options.jobs.map { RunJobs.job($0) }
            let runner = ReplayRunner(options: options, jobs: jobs, model: nil, planningWorkers: 2,
                                      itemKeys: ItemKeys(key: StateFixtures.key, fileDigests: identity.files.map(\.digest)))
            runner.expectedCorpus = expected
            return runner.run()
        }
        let checked = run(expected)
        #expect(checked.fileErrors == [.fileChangedAfterIdentity(file: edited, hashed: hashed, opened: opened)])
        #expect(checked.fileErrorFiles == [0])
        #expect(checked.threadsReplayed == 5)
        let unchecked = run(nil)
        #expect(unchecked.fileErrors.isEmpty && unchecked.threadsReplayed == 17, "without the expectations the edited bytes are replayed")
    }

    /// A file added to a corpus directory after the identity is not read: the run reads the files
    /// its identity was taken over, not the directory listed again.
    @Test func aFileAddedToTheDirectoryAfterTheIdentityIsNotRead() throws {
        let directory = try TemporaryDirectory(prefix: "edit-after-identity")
        let shards = try directory.makeDirectory("shards")
        try directory.write("shards/a.jsonl", text: StateFixtures.messy(threads: 4))
        let options = StateFixtures.options([shards], dryRun: true)
        let files = try CorpusReader(paths: options.corpus).files
        let (identity, _, expected) = CorpusIdentity.take(files, key: StateFixtures.key)
        try directory.write("shards/b.jsonl", text: StateFixtures.messy(threads: 3, prefix: "k"))
        let source = ThreadSource(options: options, expected: expected)
        #expect(source.allFiles == files && files.count == 1 && identity.files.count == 1)
        let tally = source.read(resume: nil, thread: { _ in true }, boundary: { _, _ in true }, progress: { _, _ in })
        #expect(tally.threadsReplayed == 4 && tally.fileErrors.isEmpty && tally.corpus.files == 1)
    }

    /// Standard input has no version to expect; regular files each have theirs.
    @Test func standardInputHasNoVersion() throws {
        let directory = try TemporaryDirectory(prefix: "edit-after-identity")
        let file = try directory.write("a.jsonl", text: StateFixtures.messy(threads: 2))
        let taken = CorpusIdentity.take(["-", file], key: StateFixtures.key)
        #expect(taken.expected.versions == [file: try Self.version(file)])
        #expect(taken.expected.files == ["-", file])
    }
}
