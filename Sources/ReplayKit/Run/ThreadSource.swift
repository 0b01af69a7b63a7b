import Export
import Flywheel
import Foundation
import Jobs
import Privacy

/// The first stage of a run: the corpus read once, in reading order, as whole threads of this
/// shard, with everything the reader counted.
///
/// It resolves the paths once (a file split opens only its own files), skips what a resumed run
/// already counted, keeps the counts of this shard exactly (lines, records, bad lines, failed
/// files, the flywheel's metadata), applies `--limit` and `--strict`, and hands each completed
/// thread of this shard on with the file it came from. Messages of other shards' threads (and
/// the lines a resumed run skips) are read as outlines: checked and counted, their words never
/// built (`SourceEvent`). It knows nothing of jobs or models: the
/// planner and the model stage come after it, and the runner joins them.
final class ThreadSource {
    let options: ReplayOptions
    /// The corpus files, resolved once (directories expanded), in reading order.
    let allFiles: [String]
    /// Why the corpus cannot be read at all, when it cannot.
    private(set) var failure: String?

    /// What the source counted, in a tally the later stages fill in.
    private(set) var tally = ReplayTally()

    /// The version each file must be when opened (the one the run's identity hashed), by path.
    private let expectedVersions: [String: FileVersion]

    /// How much of each screen the reader builds for the threads handed on.
    let screens: ScreenDetail

    /// A source over `options.corpus` for `options.shard`; with `expected`, over the files the
    /// run's identity was taken over, each of which must still be the version hashed; its
    /// threads' screens read to `screens` (`screenDetail(for:plantsCanary:)`).
    init(options: ReplayOptions, expected: ExpectedCorpus? = nil, screens: ScreenDetail = .nodes) {
        self.options = options
        self.screens = screens
        tally.shard = options.shard
        expectedVersions = expected?.versions ?? [:]
        if let expected {
            allFiles = expected.files
            return
        }
        do {
            allFiles = try CorpusReader(paths: options.corpus).files
        } catch {
            allFiles = []
            failure = error.description
        }
    }

    /// Reads the corpus from `resume` on, calling `thread` with each completed thread of this
    /// shard, and `boundary` at each thread line with the counts of everything before that line
    /// (made only when asked for: a copy of every count, which most boundaries never read) and
    /// how many threads were replayed in all (the place a checkpoint can be taken).
    /// `boundary` returns whether to go on: false stops the read at that line, with the counts
    /// it was given (a run asked to stop, `StopRequest`).
    ///
    /// `thread` returns whether to go on: false stops the read right after that thread, as the
    /// limit does (the record that ended it is read but not counted, and the read does not go
    /// on to another thread), for a consumer that has what it needs before the limit
    /// (`replay-bench model --requests`). A run returns true, and reads to the limit or the end.
    ///
    /// With `pieces`, a thread of this shard longer than `first` messages is also handed to
    /// `piece` in pieces while it is read (`ThreadAssembler.piece()`); `thread` then gets its
    /// places after the last piece. A thread that is not handed to `thread` in the end (a read
    /// stopped inside it) had its pieces handed on all the same: the consumer drops them.
    ///
    /// Returns the counts of the whole read; `fatal` is set when the corpus could not be read, or
    /// (with `--strict`) at a bad line.
    func read(resume: ReplayRunner.ResumePoint?, thread: (PlanningInput) -> Bool,
              boundary: (_ before: () -> ReplayTally, _ threadsReplayed: Int) -> Bool,
              progress: (_ threads: Int, _ fraction: Double?) -> Void,
              pieces: (first: Int, piece: (PlanningInput) -> Void)? = nil) -> ReplayTally {
        if let failure {
            tally.fatal = .input(failure)
            return tally
        }
        let shard = options.shard
        // A file split reads only its own files; each keeps its index in the whole list.
        let fileIndices = shard.by == .file ? allFiles.indices.filter { shard.owner(ofFile: $0) == shard.index } : Array(allFiles.indices)
        let reader: CorpusReader
        do {
            // Read ahead, as the flywheel does: decompressing, splitting and parsing on a thread
            // of their own, so this one only decodes and assembles while planning takes the rest.
            reader = try CorpusReader(paths: fileIndices.isEmpty ? [] : fileIndices.map { allFiles[$0] }, readAhead: true,
                                      expecting: expectedVersions, screens: screens)
        } catch {
            if fileIndices.isEmpty { return tally }   // more shards than files: this one has none
            tally.fatal = .input(error.description)
            return tally
        }
        /// The index in the whole corpus of the file the reader is in.
        func currentFile() -> Int { fileIndices[max(0, min(fileIndices.count - 1, reader.filesOpened - 1))] }

        var accounting = CorpusAccounting(shard: shard)
        var eventsRead = 0
        if let resume {
            while eventsRead < resume.eventsRead, reader.nextOutline() != nil { eventsRead += 1 }
            if eventsRead < resume.eventsRead {
                tally.fatal = .input("the corpus ends before the checkpoint's place (\(resume.eventsRead) events): it is not the corpus the checkpoint was made over")
                return tally
            }
        }
        accounting.begin(at: reader.stats)
        let segmentStart = eventsRead
        let replayedBefore = resume?.threadsReplayed ?? 0
        var assembler = ThreadAssembler(firstPiece: pieces?.first)
        var flywheel = options.flywheel ? FlywheelCounter(listed: options.labels) : nil
        var owned = false
        /// The corpus file the open thread is in (a thread never spans files).
        var threadFile = 0
        var stoppedEarly = false
        /// `thread` said to stop.
        var consumerDone = false
        /// `boundary` said to stop, at the thread line just read.
        var stoppedAtBoundary = false
        let totalBytes = reader.files.reduce(0) { $0 + Self.fileSize($1) }
        // What had been read before the current event: a thread ends only when the next record
        // comes, so at the limit that record is read but not replayed, and not counted.
        var readBefore = reader.stats

        /// Hands on a completed thread; true when it was the last the limit allows, or the last
        /// `thread` wanted.
        func complete(_ done: ThreadAssembler.Assembled) -> Bool {
            let goOn = thread(PlanningInput(thread: done.thread, file: threadFile, places: done.places))
            if let limit = options.threadLimit, replayedBefore + assembler.completed >= limit {
                tally.stoppedAtLimit = true
                return true
            }
            consumerDone = !goOn
            return consumerDone
        }

        /// The counts so far, everything before the current event counted.
        func snapshot(reader stats: CorpusStats) -> ReplayTally {
            var copy = tally
            copy.corpus = accounting.stats(reader: stats)
            copy.threadsReplayed = assembler.completed
            copy.eventsRead = eventsRead - segmentStart
            copy.flywheel = flywheel
            return copy
        }

        /// The next event: in full while a thread of this shard is open, else as an outline (a
        /// thread line comes whole either way, and decides).
        func next() -> SourceEvent? {
            if owned {
                guard let event = reader.next() else { return nil }
                return SourceEvent(event)
            }
            guard let event = reader.nextOutline() else { return nil }
            return SourceEvent(event)
        }

        /// An event counted: what is read so far, and the progress line.
        func noteRead() {
            readBefore = reader.stats
            progress(replayedBefore + assembler.completed,
                     totalBytes > 0 ? Double(readBefore.compressedBytes) / Double(totalBytes) : nil)
        }

        reading: while let event = next() {
            let owner = accounting.owner(of: event, filesOpened: reader.filesOpened)
            if case .message = event {
                // Most events: counted first (nothing below reads the counts), then the message
                // moved into its thread rather than copied out of the event and the event let go.
                accounting.count(event, owner: owner)
                eventsRead += 1
                guard case .message(let message) = consume event else { preconditionFailure("a message event") }
                flywheel?.add(ExportRecord.message(message))
                assembler.append(consume message)
                if let pieces, let next = assembler.piece() {
                    pieces.piece(PlanningInput(thread: next.thread, file: threadFile, places: next.places, piece: true))
                }
                noteRead()
                continue
            }
            switch event {
            case .thread(let line):
                // The open thread ends here, whoever's the next one is.
                if let done = assembler.finish(), complete(done) { break reading }
                guard boundary({ snapshot(reader: readBefore) }, replayedBefore + assembler.completed) else {
                    stoppedAtBoundary = true
                    break reading
                }
                tally.threadsSeen += 1
                owned = owner == shard.index
                if owned {
                    threadFile = currentFile()
                    _ = assembler.take(.thread(line))
                    flywheel?.add(ExportRecord.thread(line))
                }
            case .header(let header):
                if let done = assembler.take(.header(header)), complete(done) { break reading }
                owned = false
            case .message:
                preconditionFailure("messages are handled above")
            case .outline:
                break
            case .badLine(let bad):
                if owner == shard.index, tally.badLineSamples.count < 20 {
                    tally.badLineSamples.append(bad)
                    tally.badLineFiles.append(currentFile())
                }
                if options.strict {
                    // Every shard stops at the same line; the one it belongs to reports it.
                    // The reason may quote a thread id, which is the export's own text: through the id rule.
                    if owner == shard.index {
                        tally.fatal = .input("\(bad.location): \(ReportLabel.reason(bad.reason)) (--strict)")
                        tally.fatalPlace = (currentFile(), bad.location.line)
                    } else {
                        tally.stoppedByAnotherShard = true
                    }
                    accounting.count(event, owner: owner)
                    eventsRead += 1
                    stoppedEarly = true
                    break reading
                }
            case .fileFailed(let error):
                if accounting.countsFiles {
                    tally.fileErrors.append(error)
                    tally.fileErrorFiles.append(currentFile())
                }
            }
            accounting.count(event, owner: owner)
            eventsRead += 1
            noteRead()
        }
        if !tally.stoppedAtLimit, !stoppedEarly, !consumerDone, !stoppedAtBoundary, let done = assembler.finish() {
            _ = thread(PlanningInput(thread: done.thread, file: threadFile, places: done.places))
        }
        tally.stoppedOnRequest = stoppedAtBoundary
        return snapshot(reader: tally.stoppedAtLimit || consumerDone || stoppedAtBoundary ? readBefore : reader.stats)
    }

    /// What of each screen `jobs` need: the nodes when the audit's canary is planted (in each
    /// node's words), the words when a job reads them, else the facts alone.
    static func screenDetail(for jobs: [any Job], plantsCanary: Bool) -> ScreenDetail {
        if plantsCanary { return .nodes }
        return jobs.contains { $0.readsScreenWords } ? .words : .facts
    }

    /// The size of a file in bytes, 0 when it cannot be read.
    ///
    /// With stat(2): Foundation's attributes also look up the owner's name, which asks nscd
    /// over a UNIX socket the sandbox (rightly) refuses.
    static func fileSize(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }
}
