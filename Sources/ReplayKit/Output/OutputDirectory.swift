import Audit
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
public struct OutputDirectory: Sendable {
    public let path: String

    public init(_ path: String) { self.path = path }

    /// The result files a run may leave, cleared before confinement so they can be created anew.
    public static let resultFiles = ["report.json", "report.md", "junit.xml", stateFileName, ItemTable.fileName, AuditTap.hashesFileName] + FlywheelFiles.names
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

    /// Writes a probe of 64 KiB beneath the directory, makes it reach the disk and removes it:
    /// a read-only or full file system (or one without room for a checkpoint) fails here, before
    /// anything is replayed. Call before the sandbox is applied (it removes the probe).
    public func probeWriting() throws(SystemError) {
        let probe = path + "/.replay-probe-\(getpid())"
        defer { unlink(probe) }
        try ReportFile.create(probe, bytes: [UInt8](repeating: 0, count: 64 << 10), syncing: true)
    }

    // MARK: - Checkpoints

    /// The numbers of the checkpoint files present, in order.
    public func checkpointSequences(suffix: String = OutputDirectory.checkpointSuffix) -> [Int] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.compactMap { name -> Int? in
            guard name.hasPrefix(Self.checkpointPrefix), name.hasSuffix(suffix) else { return nil }
            let digits = name.dropFirst(Self.checkpointPrefix.count).dropLast(suffix.count)
            guard digits.count >= 6, digits.allSatisfy(\.isASCII), let n = Int(digits), n > 0,
                  Self.checkpointName(n).dropLast(Self.checkpointSuffix.count) + suffix == name else { return nil }
            return n
        }.sorted()
    }

    /// The newest checkpoint that reads whole (a crash mid-write leaves one that does not), and
    /// the highest number taken by any checkpoint file, complete or not: the next is one more.
    /// Read with the team's list `labels` (a checkpoint of another list differs in `--labels`).
    /// A segment whose checkpoint was never written (a kill between the two) takes its number too.
    public func newestCompleteCheckpoint(labels: TeamLabels = .none) -> (state: RunState?, highestSequence: Int) {
        let sequences = checkpointSequences()
        let highest = max(sequences.last ?? 0, checkpointSequences(suffix: Self.segmentSuffix).last ?? 0)
        for sequence in sequences.reversed() {
            guard let text = try? String(contentsOfFile: path + "/" + Self.checkpointName(sequence), encoding: .utf8),
                  var state = try? RunState(stateJSON: text, labels: labels), let checkpoint = state.checkpoint,
                  let items = try? items(of: checkpoint) else { continue }
            state.items = items
            return (state, highest)
        }
        return (nil, highest)
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
        let kept = checkpoint.segments.reduce(0) { $0 + $1.count }
        let bytes = ItemTable(Array(state.items.dropFirst(kept))).compressed()
        try create(Self.segmentName(checkpoint.sequence), bytes: bytes)
        checkpoint.segments.append(ItemSegment(sequence: checkpoint.sequence, count: state.items.count - kept, sha256: SHA256.hex(bytes)))
        var written = state
        written.checkpoint = checkpoint
        try create(Self.checkpointName(checkpoint.sequence), written.stateJSON())
        return checkpoint.segments.last
    }

    // MARK: - Results

    /// report.json and report.md.
    public func saveReport(_ report: ReportValue) throws(Failure) {
        try create("report.json", report.json())
        try create("report.md", MarkdownReport.render(report))
    }

    /// state.json.
    public func saveState(_ state: RunState) throws(Failure) {
        try create(Self.stateFileName, state.stateJSON())
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
    public func saveComparison(json: String, markdown: String, html: String, junit: String) throws(Failure) {
        for (name, text) in zip(Self.comparisonFiles + ["junit.xml"], [json, markdown, html, junit]) { try create(name, text) }
    }

    /// Every result of `state` but junit.xml: report.json, report.md, the flywheel's files (when
    /// the run counted them) and state.json, in that order.
    public func saveResults(of state: RunState, report: ReportValue) throws(Failure) {
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
        try create(RunManifest.fileName, manifest.value.json())
    }

    /// What replaying each job gave, to show beside the flywheel's usage metrics.
    static func replayed(_ state: RunState) -> [ReplayedJobSummary] {
        state.options.jobs.map { kind in
            let m = state.ledgers[kind]?.overall ?? JobMetrics()
            return ReplayedJobSummary(job: kind.rawValue, eligible: m.eligible, answered: m.answered,
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
