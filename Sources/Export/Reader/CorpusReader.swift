/// Reads a corpus of thread exports, one event at a time: records, bad lines and failed files.
///
/// Files are read in order, in fixed-size chunks (zstd through libzstd's streaming API), so memory
/// stays flat whatever the corpus size. Records come whole (`next()`) or, for runs that count
/// metadata, as outlines without words (`nextOutline()`, `forEachOutline`), checked the same way. A bad line never stops a file, and a failed file never stops
/// the corpus. The reader enforces the contract in EXPORT_FORMAT.md: `export` only as a file's first
/// line, messages only after their thread's line, unknown types and node kinds counted rather than
/// fatal. A file is refused whole, counted only in `files`, when its name ends in `.zst` and it is
/// not zstd, or when its `export` line declares a version other than 1; a file with lines and not
/// one record fails at its end. So does a file whose input ends inside a record (a last line
/// without a line end that is not valid JSON: a writer stopped mid-line) and a regular file that
/// changed while it was read (see `InputFile`). Not thread-safe: one reader belongs to one task.
public final class CorpusReader {
    /// The files to read, in order: the paths given, with directories replaced by their shards.
    public let files: [String]

    // Unchecked exclusivity: touched for every line, and never while an access to the same
    // property is under way (each update ends before a sink or callback is called); the dynamic
    // checks were a share of `replay flywheel`'s decoding thread.
    @exclusivity(unchecked) private var nextFileIndex = 0
    @exclusivity(unchecked) private var current: OpenFile?
    /// Counts, plus the byte counts of files already closed.
    @exclusivity(unchecked) private var counts = CorpusStats()
    private let tape = TokenTape()
    private let repeated = RepeatedStrings()

    /// Whether regular files are read, split and parsed on a thread of their own (`ReadAheadLineSource`).
    private let readAhead: Bool
    /// The version each file must be when opened, by its path as resolved (`files`).
    private let expected: [String: FileVersion]
    /// How much of each screen a full read builds.
    private let screens: ScreenDetail

    /// Resolves `paths` (a directory means its `*.jsonl.zst` and `*.jsonl` files in name order, `-`
    /// standard input) and checks they exist; nothing is read until `next()`.
    ///
    /// With `readAhead`, each regular file is read, decompressed, split into lines and parsed on
    /// a second thread, a few batches ahead of the records being decoded (bounded memory); the
    /// events, their order, the failures and `stats` are the same as without (tested). For runs
    /// whose decoding keeps the caller's core busy (`replay flywheel`); a run whose time goes
    /// elsewhere gains nothing.
    ///
    /// `expecting` gives, by path as resolved, the version a file must be when it is opened (the
    /// one a run hashed before reading, `FileVersion`): a file edited or replaced since fails at
    /// its opening (`fileChangedAfterIdentity`, a failed file like any other: the rest of the
    /// corpus is still read). A file without one (standard input) is read as it is.
    ///
    /// `screens` says how much of each message's screen `next()` builds (`ScreenDetail`): the
    /// nodes by default; the checks and counts are the same for each.
    public init(paths: [String], readAhead: Bool = false, expecting: [String: FileVersion] = [:],
                screens: ScreenDetail = .nodes) throws(ExportError) {
        files = try CorpusPaths.resolve(paths)
        self.readAhead = readAhead
        expected = expecting
        self.screens = screens
    }

    /// Files opened so far (`stats.files`), without copying the other counts: asked at every event.
    public var filesOpened: Int { counts.files }

    /// What has been read so far, exact up to the last event handed out.
    public var stats: CorpusStats {
        var stats = counts
        if let current {
            stats.compressedBytes += current.lines.storedBytes
            stats.decompressedBytes += current.lines.producedBytes
        }
        return stats
    }

    /// The next event, or `nil` once every file has been read.
    public func next() -> ReaderEvent? {
        var sink = PulledEvent()
        return advance(words: true, into: &sink) ? sink.event : nil
    }

    /// The next event with messages as outlines (no words: see `MessageOutline`), or `nil` once
    /// every file has been read.
    ///
    /// Every line is checked exactly as `next()` checks it, so the events, bad lines, failures
    /// and `stats` are the same as a full read's; only the words are never built. For runs that
    /// count metadata (`replay flywheel`). Calls may be mixed with `next()`, line by line.
    public func nextOutline() -> OutlineEvent? {
        var sink = PulledOutline()
        return advance(words: false, into: &sink) ? sink.event : nil
    }

    /// Reads every remaining event as outlines (as `nextOutline()` would hand them out, in
    /// order), handing each to `body` where it is made: nothing is copied on its way.
    /// `stats` seen from `body` counts the event it is given.
    public func forEachOutline(_ body: (OutlineEvent) -> Void) {
        withoutActuallyEscaping(body) { body in
            var sink = OutlineCallback(body: body)
            while advance(words: false, into: &sink) {}
        }
    }

    /// Reads until one event is handed to `sink` (for a sink that `takesEventsInPlace`, on
    /// through the rest of the file's lines); false once every file has been read.
    private func advance<Sink: OutcomeSink>(words: Bool, into sink: inout Sink) -> Bool {
        while true {
            guard let file = current else {
                guard nextFileIndex < files.count else { return false }
                let path = files[nextFileIndex]
                nextFileIndex += 1
                counts.files += 1
                do {
                    current = try OpenFile(path: path, tape: tape, readAhead: readAhead, expected: expected[path])
                } catch {
                    sink.fileFailed(error)
                    return true
                }
                continue
            }
            // Read through a guaranteed reference (`current` holds the file throughout): the
            // closure's capture of the strong `file` cost a retain and a release per line.
            // A sink that takes its events where they are made (`takesEventsInPlace`) has the
            // file's lines read on in this inner loop while the file stays open and current,
            // so `file` is taken once per file, not once per line (a retain and a release).
            var step: LineSplitter.Step<Bool>
            repeat {
                step = Unmanaged.passUnretained(file)._withUnsafeGuaranteedRef { file in
                    file.lines.nextLine { bytes, number, parsed in
                        handleLine(bytes, number: number, parsed: parsed, in: file, words: words, into: &sink)
                    }
                }
            } while Sink.takesEventsInPlace && current === file && CorpusReader.readsOn(after: step, in: file)
            switch step {
            case .line(true):
                // Closed without adding its bytes: nothing of a refused file is counted.
                if file.isRefused { current = nil }
                return true
            case .line(false):
                continue
            case .tooLong(let number):
                counts.lines += 1
                file.nonEmptyLines += 1
                sink.badLine(badLine(file, number, "the line is longer than \(LineSplitter.maximumLineLength >> 20) MiB"))
                return true
            case .failed(let error):
                close(file)
                sink.fileFailed(error)
                return true
            case .end:
                close(file)
                if file.nonEmptyLines > 0 && file.records == 0 {
                    sink.fileFailed(.fileHoldsNoRecord(file: file.name, lines: file.nonEmptyLines))
                    return true
                }
            }
        }
    }

    /// Whether `advance` goes on to the next line of `file` after `step` without returning:
    /// after a line that was handed out or skipped, unless it refused the file (see `advance`).
    private static func readsOn(after step: LineSplitter.Step<Bool>, in file: OpenFile) -> Bool {
        switch step {
        case .line(let handedOut): return !handedOut || !file.isRefused
        case .tooLong, .failed, .end: return false
        }
    }

    /// Reads everything left and returns the events, for small corpora and tests.
    public func readAll() -> [ReaderEvent] {
        var events: [ReaderEvent] = []
        while let event = next() { events.append(event) }
        return events
    }

    // MARK: - Lines

    /// Parses, checks and counts one line, and hands what it came to to `sink`; false for a
    /// line that is skipped and only counted (unknown type).
    ///
    /// Every count is updated before `sink` is called, so `stats` is exact there.
    private func handleLine<Sink: OutcomeSink>(_ bytes: UnsafeRawBufferPointer, number: Int, parsed: ParsedLine,
                                               in file: OpenFile, words: Bool, into sink: inout Sink) -> Bool {
        let isFirstLine = file.nonEmptyLines == 0
        file.nonEmptyLines += 1
        counts.lines += 1
        let tokens: UnsafeBufferPointer<JSONToken>
        switch parsed {
        case .invalid(let error):
            sink.badLine(badLine(file, number, error.description))
            return true
        case .document(let document):
            tokens = document
        }
        var decoder = RecordDecoder(document: JSONDocument(bytes: bytes, tokens: tokens))
        decoder.words = words
        decoder.screens = screens
        decoder.repeated = repeated
        if !words {
            // Message lines, nearly all of an outline read, straight to the sink: through
            // `Decoded` the outline was copied, retained and released on the way.
            // Bound straight from the call: kept in a variable first, the outline was copied out
            // of it (a retain) and the variable destroyed (a release).
            do throws(LineProblem) {
                if let outline = try decoder.messageOutlineIfMessage() {
                    return outlineDecoded(outline, number: number, in: file, into: &sink)
                }
            } catch {
                // A message line: not a thread line, so the open thread stays open.
                sink.badLine(badLine(file, number, error.reason))
                return true
            }
        }
        let decoded: RecordDecoder.Decoded
        do throws(LineProblem) {
            decoded = try decoder.decode()
        } catch {
            // A thread line that is bad closes the open thread, so its messages are not
            // delivered as if they belonged to the thread before it.
            if decoder.isThreadLine { file.openThread = nil }
            sink.badLine(badLine(file, number, error.reason))
            return true
        }
        let location = SourceLocation(file: file.name, line: number)
        // Consumed: each record is moved on to the sink, never copied.
        switch consume decoded {
        case .unknownType(let name):
            counts.unknownTypes[name, default: 0] += 1
            return false
        case .header(let header):
            guard isFirstLine else {
                sink.badLine(badLine(file, number, "an export line must be the first line of its file"))
                return true
            }
            guard header.version == 1 else {
                // Its lines may mean something else: the file is refused whole, before any is
                // delivered, and this line is not counted either.
                file.isRefused = true
                counts.lines -= 1
                sink.fileFailed(.exportVersionIsNotSupported(file: file.name, version: header.version))
                return true
            }
            counts.records += 1
            file.records += 1
            sink.header(header, at: location)
        case .thread(let thread):
            file.openThread = thread.id
            counts.records += 1
            file.records += 1
            counts.threads += 1
            sink.thread(thread, at: location)
        case .message(let message):
            guard countsMessage(of: message.thread, number: number, in: file, into: &sink) else { return true }
            if let screen = message.screen {
                for kind in screen.unknownKinds { counts.unknownNodes[kind, default: 0] += 1 }
            }
            sink.message(message, at: location)
        case .outline(let outline):
            return outlineDecoded(outline, number: number, in: file, into: &sink)
        }
        return true
    }

    /// Checks, counts and hands to `sink` a message line decoded as an outline.
    private func outlineDecoded<Sink: OutcomeSink>(_ outline: consuming MessageOutline, number: Int,
                                                   in file: OpenFile, into sink: inout Sink) -> Bool {
        guard countsMessage(of: outline.thread, number: number, in: file, into: &sink) else { return true }
        for kind in outline.unknownKinds { counts.unknownNodes[kind, default: 0] += 1 }
        sink.outline(outline, at: SourceLocation(file: file.name, line: number))
        return true
    }

    /// Counts a message line of the open thread; one of another thread is reported as a bad line
    /// instead (false), whether it was decoded in full or as an outline.
    private func countsMessage<Sink: OutcomeSink>(of thread: String, number: Int, in file: OpenFile,
                                                  into sink: inout Sink) -> Bool {
        guard thread == file.openThread else {
            sink.badLine(badLine(file, number, "message for thread \(CorpusReader.quoted(thread)) comes before its thread line"))
            return false
        }
        counts.records += 1
        file.records += 1
        counts.messages += 1
        return true
    }

    private func badLine(_ file: OpenFile, _ number: Int, _ reason: String) -> BadLine {
        counts.badLines += 1
        return BadLine(location: SourceLocation(file: file.name, line: number), reason: reason)
    }

    private func close(_ file: OpenFile) {
        counts.compressedBytes += file.lines.storedBytes
        counts.decompressedBytes += file.lines.producedBytes
        current = nil
    }

    /// An id in single quotes, control characters escaped and cut to 64 characters: ids are not
    /// words, but they come from the file and must not break a terminal line.
    static func quoted(_ id: String) -> String {
        var result = "'"
        for (index, scalar) in id.unicodeScalars.enumerated() {
            if index == 64 {
                result += "…"
                break
            }
            if scalar.value < 0x20 || scalar.value == 0x7F || scalar == "'" || scalar == "\\" {
                result += scalar.escaped(asASCII: true)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result + "'"
    }
}

/// `for event in reader { … }` reads every remaining event, the same as calling `next()` until `nil`.
extension CorpusReader: IteratorProtocol, Sequence {}
