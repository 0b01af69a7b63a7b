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
    public static let resultFiles = ["report.json", "report.md", "junit.xml", stateFileName, AuditTap.hashesFileName] + FlywheelFiles.names
        + comparisonFiles + [RunManifest.fileName]
    /// What `replay compare` writes besides junit.xml and manifest.json.
    public static let comparisonFiles = ["compare.json", "compare.md", "compare.html"]
    /// The run's state (`replay.state/1`), which `replay merge` reads.
    public static let stateFileName = "state.json"
    static let checkpointPrefix = "checkpoint-", checkpointSuffix = ".json"

    /// A checkpoint's file name: `checkpoint-000042.json`.
    public static func checkpointName(_ sequence: Int) -> String {
        let digits = String(sequence)
        return checkpointPrefix + String(repeating: "0", count: max(0, 6 - digits.count)) + digits + checkpointSuffix
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
        if !keepingCheckpoints { names += checkpointSequences().map(Self.checkpointName) }
        try ReportFile.clearStale(names, in: path)
    }

    // MARK: - Checkpoints

    /// The numbers of the checkpoint files present, in order.
    public func checkpointSequences() -> [Int] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.compactMap { name -> Int? in
            guard name.hasPrefix(Self.checkpointPrefix), name.hasSuffix(Self.checkpointSuffix) else { return nil }
            let digits = name.dropFirst(Self.checkpointPrefix.count).dropLast(Self.checkpointSuffix.count)
            guard digits.count >= 6, digits.allSatisfy(\.isASCII), let n = Int(digits), n > 0, Self.checkpointName(n) == name else { return nil }
            return n
        }.sorted()
    }

    /// The newest checkpoint that reads whole (a crash mid-write leaves one that does not), and
    /// the highest number taken by any checkpoint file, complete or not: the next is one more.
    /// Read with the team's list `labels` (a checkpoint of another list differs in `--labels`).
    public func newestCompleteCheckpoint(labels: TeamLabels = .none) -> (state: RunState?, highestSequence: Int) {
        let sequences = checkpointSequences()
        for sequence in sequences.reversed() {
            guard let text = try? String(contentsOfFile: path + "/" + Self.checkpointName(sequence), encoding: .utf8),
                  let state = try? RunState(stateJSON: text, labels: labels), state.checkpoint != nil else { continue }
            return (state, sequences.last ?? 0)
        }
        return (nil, sequences.last ?? 0)
    }

    /// Writes `state` as its checkpoint file (`state.checkpoint` must be set).
    public func saveCheckpoint(_ state: RunState) throws(Failure) {
        try create(Self.checkpointName(state.checkpoint?.sequence ?? 0), state.stateJSON())
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
        let file = path + "/" + name
        do {
            try ReportFile.create(file, text: text)
        } catch {
            throw Failure(path: file, reason: error.message)
        }
    }
}
