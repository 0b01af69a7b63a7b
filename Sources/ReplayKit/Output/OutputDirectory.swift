import Confinement
import Flywheel
import Foundation
import Jobs
import Privacy

/// `--out`: the one writer of every file a run, a merge or `replay flywheel` leaves there.
///
/// Every file is created new (`ReportFile.create`, `O_EXCL`) and never replaced, renamed or
/// removed once the process is confined: the sandbox withholds those rights beneath `--out`, so
/// nothing written can be taken back before an audit scans it. An earlier run's results are
/// cleared before confinement (`prepare`). A checkpoint is therefore a new file each time
/// (`checkpoint-000001.json`, `-000002`, …): the newest complete one wins, and one cut short by a
/// crash, which lacks its closing `"complete": true`, is passed over. That gives atomicity
/// without rename.
///
/// Every state it writes (state.json, a checkpoint) carries its digest under the run key `key`
/// (`StateDigest`), and every checkpoint it reads back is checked against it: one changed since,
/// or of another key, is passed over and named.
public struct OutputDirectory: Sendable {
    public let path: String
    /// The run key states are sealed and checked with; nil where no state is written or read
    /// (a comparison, the flywheel's files).
    public let key: RunKey?

    public init(_ path: String, key: RunKey? = nil) {
        self.path = path
        self.key = key
    }

    /// A checkpoint `newestCompleteCheckpoint` did not take: its file name and why, in a sentence
    /// that never quotes it.
    public struct PassedOver: Sendable, Equatable, CustomStringConvertible {
        public let name: String
        public let problem: StateIntegrityError
        public var description: String { "\(name) was passed over: \(problem.description)" }
    }

    /// What `newestCompleteCheckpoint` found: the newest checkpoint that checks (its items read
    /// back), the highest number any checkpoint file takes, and the newer ones it passed over,
    /// newest first.
    public struct CheckpointSearch: Sendable {
        public var state: RunState?
        public var highestSequence: Int
        public var passedOver: [PassedOver]

        /// Whether nothing checked and a checkpoint was of another run key: a resume given the
        /// wrong key, which must not quietly start again.
        public var onlyOtherRunKeys: Bool {
            state == nil && passedOver.contains { $0.problem == .madeUnderAnotherRunKey }
        }
    }

    /// The result files a run may leave, cleared before confinement so they can be created anew.
    public static let resultFiles = ["report.json", "report.md", "junit.xml", stateFileName, ItemTable.fileName, AuditTap.hashesFileName,
                                     "trials.json"] + FlywheelFiles.names
        + comparisonFiles + [RunManifest.fileName]
    /// What `replay compare` writes besides junit.xml and manifest.json.
    public static let comparisonFiles = ["compare.json", "compare.md", "compare.html"]
    /// The run's state (`replay.state/1`), which `replay merge` reads.
    public static let stateFileName = "state.json"
    public static let checkpointPrefix = "checkpoint-", checkpointSuffix = ".json", segmentSuffix = ".items.json.zst"

    /// A checkpoint's file name: `checkpoint-000042.json`.
    public static func checkpointName(_ sequence: Int) -> String {
        let digits = String(sequence)
        return checkpointPrefix + String(repeating: "0", count: max(0, 6 - digits.count)) + digits + checkpointSuffix
    }

    /// The number of a checkpoint's file (with `suffix`, a segment's) by its name, exactly as
    /// `checkpointName` spells it; nil for any other name.
    public static func checkpointSequence(of name: String, suffix: String = checkpointSuffix) -> Int? {
        guard name.hasPrefix(checkpointPrefix), name.hasSuffix(suffix) else { return nil }
        guard let n = Int(name.dropFirst(checkpointPrefix.count).dropLast(suffix.count)), n > 0,
              checkpointName(n).dropLast(checkpointSuffix.count) + suffix == name else { return nil }
        return n
    }

    /// A checkpoint's item segment: `checkpoint-000042.items.json.zst`.
    public static func segmentName(_ sequence: Int) -> String {
        checkpointName(sequence).dropLast(checkpointSuffix.count) + segmentSuffix
    }

    /// A file under `--out` that could not be written: its path and the system's reason.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "cannot write \(path): \(reason)" }
    }

    // MARK: - Before confinement

    /// Clears an earlier run's result files, and its checkpoints unless `keepingCheckpoints`
    /// (`--resume` continues from them). Call before the sandbox is applied: afterwards nothing
    /// beneath `--out` can be removed.
    public func prepare(keepingCheckpoints: Bool) throws(SystemError) {
        var names = Self.resultFiles
        if !keepingCheckpoints {
            names += checkpointSequences().map(Self.checkpointName)
            names += checkpointSequences(suffix: Self.segmentSuffix).map(Self.segmentName)
        }
        try ReportFile.clearStale(names, in: path)
    }

    /// The free space below which a run does not start: room for the first checkpoints and a
    /// report of an ordinary run. A run that fills the rest stops at its first failed write.
    public static let minimumFreeBytes = 1 << 20

    /// Whether results can be written here, asked of the file system without writing anything
    /// (a probe file would be one more file under `--out` for the audit, written and removed):
    /// a read-only mount, no write permission or less than `minimumFreeBytes` free fails here,
    /// before anything is replayed.
    public func checkWritable() throws(SystemError) {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { throw .current }
        if info.f_flag & UInt(ST_RDONLY) != 0 { throw SystemError(EROFS) }
        guard access(path, W_OK) == 0 else { throw .current }
        if Int(info.f_bavail) * Int(info.f_frsize) < Self.minimumFreeBytes { throw SystemError(ENOSPC) }
    }

    // MARK: - Checkpoints

    /// The numbers of the checkpoint files present, in order.
    public func checkpointSequences(suffix: String = OutputDirectory.checkpointSuffix) -> [Int] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.compactMap { Self.checkpointSequence(of: $0, suffix: suffix) }.sorted()
    }

    /// The newest checkpoint that reads whole and checks under `key` (a crash mid-write leaves
    /// one that does not read whole; an edit or a copy from another run leaves one that does not
    /// check), with the newer ones it passed over and why, and the highest number taken by any
    /// checkpoint file, complete or not: the next is one more. Read with the team's list `labels`
    /// (a checkpoint of another list differs in `--labels`). A segment whose checkpoint was never
    /// written (a kill between the two) takes its number too.
    public func newestCompleteCheckpoint(labels: TeamLabels = .none) -> CheckpointSearch {
        let sequences = checkpointSequences()
        let highest = max(sequences.last ?? 0, checkpointSequences(suffix: Self.segmentSuffix).last ?? 0)
        var passed: [PassedOver] = []
        for sequence in sequences.reversed() {
            let name = Self.checkpointName(sequence)
            do throws(StateIntegrityError) {
                var state = try checkpoint(name, sequence: sequence, labels: labels)
                guard let checkpoint = state.checkpoint else { throw .unreadable(StateFormatError("it is a finished state, not a checkpoint")) }
                do {
                    state.items = try items(of: checkpoint)
                } catch {
                    throw .unreadable(error)
                }
                return CheckpointSearch(state: state, highestSequence: highest, passedOver: passed)
            } catch {
                passed.append(PassedOver(name: name, problem: error))
            }
        }
        return CheckpointSearch(state: nil, highestSequence: highest, passedOver: passed)
    }

    /// The checkpoint in file `name`, checked under `key`; its number must be the file's.
    private func checkpoint(_ name: String, sequence: Int, labels: TeamLabels) throws(StateIntegrityError) -> RunState {
        guard let key else { throw .unreadable(StateFormatError("there is no run key to check it with")) }
        guard let text = try? String(contentsOfFile: path + "/" + name, encoding: .utf8) else {
            throw .unreadable(StateFormatError("it cannot be read as UTF-8 text"))
        }
        let state = try RunState(stateJSON: text, key: key, labels: labels)
        if let number = state.checkpoint?.sequence, number != sequence {
            throw .unreadable(StateFormatError("it holds checkpoint \(number), not \(sequence)"))
        }
        return state
    }

    /// The items of a checkpoint's chain, every segment read whole and checked against its
    /// SHA-256 and count; a missing or changed segment makes the checkpoint unusable.
    func items(of checkpoint: Checkpoint) throws(StateFormatError) -> [ItemOutcome] {
        var items: [ItemOutcome] = []
        for segment in checkpoint.segments {
            let name = Self.segmentName(segment.sequence)
            guard let data = FileManager.default.contents(atPath: path + "/" + name) else { throw StateFormatError("\(name) is missing") }
            let bytes = [UInt8](data)
            guard SHA256.hex(bytes) == segment.sha256 else { throw StateFormatError("\(name) is not the segment its checkpoint names") }
            let table = try ItemTable(compressed: bytes, name: name)
            guard table.items.count == segment.count else { throw StateFormatError("\(name) holds \(table.items.count) items, not \(segment.count)") }
            items += table.items
        }
        return items
    }

    /// Writes `state` as its checkpoint (`state.checkpoint` must be set): first the segment of
    /// the items since the chain's last segment, then the checkpoint naming every segment.
    @discardableResult
    public func saveCheckpoint(_ state: RunState) throws(Failure) -> ItemSegment? {
        guard var checkpoint = state.checkpoint else { return nil }
        guard key != nil else { throw Failure(path: path + "/" + Self.checkpointName(checkpoint.sequence), reason: Self.noKey) }
        let kept = checkpoint.segments.reduce(0) { $0 + $1.count }
        let bytes = ItemTable(Array(state.items.dropFirst(kept))).compressed()
        try create(Self.segmentName(checkpoint.sequence), bytes: bytes)
        checkpoint.segments.append(ItemSegment(sequence: checkpoint.sequence, count: state.items.count - kept, sha256: SHA256.hex(bytes)))
        var written = state
        written.checkpoint = checkpoint
        try create(Self.checkpointName(checkpoint.sequence), try sealed(written, name: Self.checkpointName(checkpoint.sequence)))
        return checkpoint.segments.last
    }

    // MARK: - Results

    /// report.json and report.md.
    public func saveReport(_ report: RunReport) throws(Failure) {
        try create("report.json", report.json())
        try create("report.md", MarkdownReport.render(report))
    }

    /// state.json, with its digest under `key`.
    public func saveState(_ state: RunState) throws(Failure) {
        try create(Self.stateFileName, try sealed(state, name: Self.stateFileName))
    }

    static let noKey = "there is no run key to seal the state with"

    /// `state`'s file text under `key`; without a key no state is written.
    private func sealed(_ state: RunState, name: String) throws(Failure) -> String {
        guard let key else { throw Failure(path: path + "/" + name, reason: Self.noKey) }
        return state.stateJSON(key: key)
    }

    /// items.json.zst: every item's outcome (`ItemTable`).
    public func saveItems(_ items: [ItemOutcome]) throws(Failure) {
        try create(ItemTable.fileName, bytes: ItemTable(items).compressed())
    }

    /// metrics.csv, metrics.json and dashboard.html (capped as they are rendered).
    public func saveFlywheel(_ counter: FlywheelCounter, replayed: [ReplayedJobSummary]? = nil) throws(Failure) {
        for (name, text) in FlywheelFiles.contents(counter, replayed: replayed) { try create(name, text) }
    }

    /// junit.xml: one test case per gate.
    public func saveJUnit(_ verdicts: [Threshold.Verdict]) throws(Failure) {
        try create("junit.xml", JUnitReport.render(verdicts))
    }

    /// `replay compare`'s results: compare.json, compare.md, compare.html and junit.xml, in that order.
    /// Then, last, the manifest that marks the comparison finished (`replay verify` checks it).
    public func saveComparison(json: String, markdown: String, html: String, junit: String) throws(Failure) {
        for (name, text) in zip(Self.comparisonFiles + ["junit.xml"], [json, markdown, html, junit]) { try create(name, text) }
        try saveManifest()
    }

    /// `replay probe compare`'s results: compare.json (`replay.probe-compare/1`), compare.md and
    /// junit.xml, in that order, then, last, the manifest that marks them finished.
    public func saveProbeComparison(json: String, markdown: String, junit: String) throws(Failure) {
        for (name, text) in zip(["compare.json", "compare.md", "junit.xml"], [json, markdown, junit]) { try create(name, text) }
        try saveManifest()
    }

    /// `replay suite run`'s results: report.json (`replay.suite-report/1`), report.md and junit.xml,
    /// in that order, then, last, the manifest that marks them finished (`replay verify` checks it).
    public func saveSuite(json: String, markdown: String, junit: String) throws(Failure) {
        for (name, text) in zip(["report.json", "report.md", "junit.xml"], [json, markdown, junit]) { try create(name, text) }
        try saveManifest()
    }

    /// `replay probe injection`'s results: report.json and report.md, then manifest.json.
    public func saveProbe(json: String, trials: String, markdown: String) throws(Failure) {
        for (name, text) in zip(["report.json", "trials.json", "report.md"], [json, trials, markdown]) { try create(name, text) }
        try saveManifest()
    }

    /// Every result of `state` but junit.xml: report.json, report.md, the flywheel's files (when
    /// the run counted them) and state.json, in that order.
    public func saveResults(of state: RunState, report: RunReport) throws(Failure) {
        try saveReport(report)
        if let counter = state.flywheel {
            try saveFlywheel(counter, replayed: Self.replayed(state))
        }
        try saveItems(state.items)
        try saveState(state)
    }

    /// Writes `manifest.json` (`replay.manifest/1`): every entry under `--out` with its size and
    /// SHA-256, itself excepted. Written last, after every other result, so a run that stopped
    /// before its end (a full disk, a kill) leaves none, and `replay verify DIR` tells a finished,
    /// untouched run from anything else. The files it lists hold no words (counts, hashes and
    /// labels that passed their rule), so their digests confirm nothing about a corpus.
    public func saveManifest() throws(Failure) {
        let manifest: RunManifest
        do {
            manifest = try RunManifest.take(path, excluding: [RunManifest.fileName])
        } catch {
            throw Failure(path: path + "/" + RunManifest.fileName, reason: error.description)
        }
        try create(RunManifest.fileName, manifest.json())
    }

    /// What replaying each job gave, to show beside the flywheel's usage metrics.
    static func replayed(_ state: RunState) -> [ReplayedJobSummary] {
        state.options.jobs.map { kind in
            let m = state.ledgers[kind]?.overall ?? JobMetrics()
            // Each job is the feature of its name.
            return ReplayedJobSummary(job: Feature(rawValue: kind.rawValue)!, eligible: m.eligible, answered: m.answered,
                                      inBudgetDevice: state.options.dryRun ? nil : m.inBudgetDeviceRate)
        }
    }

    private func create(_ name: String, _ text: String) throws(Failure) {
        try create(name, bytes: Array(text.utf8))
    }

    private func create(_ name: String, bytes: [UInt8]) throws(Failure) {
        let file = path + "/" + name
        do {
            try ReportFile.create(file, bytes: bytes)
        } catch {
            throw Failure(path: file, reason: error.message)
        }
    }
}
