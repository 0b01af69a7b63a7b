#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file's lines read, decompressed, split and parsed on a thread of their own, handed over in
/// order in batches: the second core does that much of the work while this one decodes records.
///
/// The producing thread drives the file's `LineSplitter` exactly as `ParsingLineSource` would
/// and records each step (a line's bytes, number and parse; a line too long; a failure; the end)
/// with the source's byte counts right after it, so the consumer sees the same steps and the
/// same counts at each step as reading on one thread. Memory is bounded: `batchCount` batches of
/// about `batchBytes` of lines and their tokens, reused. The consumer letting go of the source
/// stops the thread and waits for it; only regular files are read ahead (see `OpenFile`), whose
/// reads end.
final class ReadAheadLineSource: LineSource {
    /// Batches produced ahead at most.
    static let batchCount = 4
    /// A batch is handed over once its lines hold this many bytes (or at the file's end).
    static let batchBytes = 256 << 10

    private let queue: LineBatchQueue
    private var thread: pthread_t?
    // Touched for every line, by this class only and never across a call that could touch them
    // again: unchecked, since the dynamic exclusivity checks of class properties were a share of
    // the consuming thread (measured: two checks per line).
    @exclusivity(unchecked) private var batch: LineBatch?
    /// The next step of `batch`, and how many steps it holds (0 without a batch).
    @exclusivity(unchecked) private var next = 0
    @exclusivity(unchecked) private var stepCount = 0
    /// `batch`'s steps, bytes and tokens, while it is held: read for every line through these
    /// rather than through the batch, which cost a retain and release of it per line.
    @exclusivity(unchecked) private var steps = UnsafePointer<LineBatch.Step>(bitPattern: 0)
    @exclusivity(unchecked) private var bytes = UnsafeRawPointer(bitPattern: 0)
    @exclusivity(unchecked) private var tokens = UnsafePointer<JSONToken>(bitPattern: 0)
    @exclusivity(unchecked) private var finished = false
    @exclusivity(unchecked) private(set) var storedBytes = 0
    @exclusivity(unchecked) private(set) var producedBytes = 0
    /// Where this thread parses the lines the producer left to it (`LineBatchQueue.deferred`).
    private let tape = TokenTape()

    /// Starts splitting and parsing `splitter`'s lines; from here on only the producing thread
    /// touches `splitter`. `deferring` fixes how many lines of every 16 the consumer parses
    /// (0...16, for tests); by default the threads share the parsing as they keep up.
    init(_ splitter: LineSplitter, deferring: Int? = nil) {
        queue = LineBatchQueue(splitter: splitter, batchCount: ReadAheadLineSource.batchCount)
        if let deferring { queue.fixDeferral(deferring) }
        let context = Unmanaged.passRetained(queue).toOpaque()
        var handle = pthread_t()
        let started = pthread_create(&handle, nil, { context in
            guard let context else { return nil }
            Unmanaged<LineBatchQueue>.fromOpaque(context).takeRetainedValue().produce()
            return nil
        }, context)
        if started == 0 {
            thread = handle
        } else {
            // No thread (resources exhausted): produce on demand on this one instead.
            Unmanaged<LineBatchQueue>.fromOpaque(context).release()
            queue.produceOnDemand = true
        }
    }

    deinit {
        queue.cancel()
        if let thread { pthread_join(thread, nil) }
    }

    func nextLine(_ body: (UnsafeRawBufferPointer, Int, ParsedLine) -> Bool) -> LineSplitter.Step<Bool> {
        if finished { return .end }
        if next == stepCount {
            if let used = batch { queue.giveBack(used) }
            batch = queue.take()
            next = 0
            stepCount = batch?.stepCount ?? 0
            steps = batch.map { UnsafePointer($0.stepBase) }
            bytes = batch.map { UnsafeRawPointer($0.bytes) }
            tokens = batch.map { UnsafePointer($0.tape.base) }
        }
        // Held by `batch` until the next call; nil only when production ended without an end step.
        guard let steps, let bytes, let tokens else { return .end }
        let index = next
        let step = steps[index]
        next = index &+ 1
        storedBytes = step.storedBytes
        producedBytes = step.producedBytes
        switch step.kind {
        case .line:
            let line = UnsafeRawBufferPointer(start: bytes + step.start, count: step.count)
            let lineTokens = UnsafeBufferPointer(start: tokens + step.tokenStart, count: step.tokenCount)
            return .line(body(line, step.number, .document(lineTokens)))
        case .unparsedLine:
            // Parsed here, exactly as the producer would have: the same tokens or the same error.
            let line = UnsafeRawBufferPointer(start: bytes + step.start, count: step.count)
            do throws(JSONSyntaxError) {
                try JSONParser.parse(line, into: tape)
            } catch {
                return .line(body(line, step.number, .invalid(error)))
            }
            return .line(body(line, step.number, .document(tape.tokens)))
        case .invalidLine:
            let line = UnsafeRawBufferPointer(start: bytes + step.start, count: step.count)
            guard let current = batch else { preconditionFailure("a step comes from the batch held") }
            return .line(body(line, step.number, .invalid(current.syntaxErrors[step.rare])))
        case .tooLong:
            return .tooLong(number: step.number)
        case .failed:
            finished = true
            guard let failure = batch?.failure else { preconditionFailure("a failed step keeps its failure") }
            return .failed(failure)
        case .end:
            finished = true
            return .end
        }
    }
}

/// Lines and their tokens, produced together and handed over together.
final class LineBatch: @unchecked Sendable {
    /// One step of the splitter, with the source's counts after it: plain integers, so handing
    /// one out copies no reference (the rare reasons and failures are kept beside).
    struct Step {
        enum Kind: UInt8 {
            /// A line that parsed: its bytes and tokens.
            case line
            /// A line that is not JSON: its bytes, and its reason in `syntaxErrors[rare]`.
            case invalidLine
            /// A line left for the consumer to parse: its bytes only.
            case unparsedLine
            case tooLong
            /// The file failed: the error is `failure`.
            case failed
            case end
        }
        var kind: Kind
        var number = 0
        /// The line's bytes in `bytes`.
        var start = 0, count = 0
        /// The line's tokens in `tape`.
        var tokenStart = 0, tokenCount = 0
        var rare = 0
        var storedBytes = 0
        var producedBytes = 0
    }

    // Each thread reads and writes these for every line, one thread at a time (the queue's
    // mutex hands the batch over): unchecked, like `ReadAheadLineSource`'s own.
    @exclusivity(unchecked) private(set) var bytes: UnsafeMutableRawPointer
    @exclusivity(unchecked) private(set) var byteCapacity: Int
    @exclusivity(unchecked) private(set) var byteCount = 0
    let tape = TokenTape(capacity: 16 << 10)
    /// The steps, in a buffer of the batch's own rather than an array, so the consumer can
    /// read them through a pointer while it holds the batch.
    @exclusivity(unchecked) private(set) var stepBase: UnsafeMutablePointer<Step>
    @exclusivity(unchecked) private(set) var stepCount = 0
    @exclusivity(unchecked) private var stepCapacity = 1024
    /// Why the batch's invalid lines are not JSON, in order.
    var syntaxErrors: [JSONSyntaxError] = []
    /// The failure that ended the file, if it did in this batch.
    var failure: ExportError?

    init() {
        byteCapacity = ReadAheadLineSource.batchBytes + (64 << 10)
        bytes = .allocate(byteCount: byteCapacity, alignment: 16)
        stepBase = .allocate(capacity: stepCapacity)
    }

    deinit {
        bytes.deallocate()
        stepBase.deallocate()
    }

    /// Appends a step (trivial values: nothing to deinitialize later).
    func appendStep(_ step: Step) {
        if stepCount == stepCapacity {
            let larger = UnsafeMutablePointer<Step>.allocate(capacity: stepCapacity * 2)
            larger.moveInitialize(from: stepBase, count: stepCount)
            stepBase.deallocate()
            stepBase = larger
            stepCapacity *= 2
        }
        (stepBase + stepCount).initialize(to: step)
        stepCount += 1
    }

    /// Empties the batch for reuse, giving back the room one huge line made.
    func reset() {
        byteCount = 0
        tape.reset()
        stepCount = 0
        syntaxErrors.removeAll(keepingCapacity: true)
        failure = nil
        let usual = ReadAheadLineSource.batchBytes + (64 << 10)
        if byteCapacity > 4 * usual {
            bytes.deallocate()
            byteCapacity = usual
            bytes = .allocate(byteCount: byteCapacity, alignment: 16)
        }
    }

    /// Copies a line in and parses it onto the tape, or leaves it for the consumer to parse
    /// (`parse` false).
    func addLine(_ line: UnsafeRawBufferPointer, number: Int, storedBytes: Int, producedBytes: Int, parse: Bool = true) {
        if byteCount + line.count > byteCapacity {
            let larger = max(byteCapacity * 2, byteCount + line.count)
            let moved = UnsafeMutableRawPointer.allocate(byteCount: larger, alignment: 16)
            moved.copyMemory(from: bytes, byteCount: byteCount)
            bytes.deallocate()
            bytes = moved
            byteCapacity = larger
        }
        let start = byteCount
        if let source = line.baseAddress { (bytes + start).copyMemory(from: source, byteCount: line.count) }
        byteCount += line.count
        let firstToken = tape.count
        var step = Step(kind: .line, number: number, start: start, count: line.count,
                        storedBytes: storedBytes, producedBytes: producedBytes)
        guard parse else {
            step.kind = .unparsedLine
            appendStep(step)
            return
        }
        do throws(JSONSyntaxError) {
            try JSONParser.parse(UnsafeRawBufferPointer(start: bytes + start, count: line.count), appendingTo: tape)
            step.tokenStart = firstToken
            step.tokenCount = tape.count - firstToken
        } catch {
            step.kind = .invalidLine
            step.rare = syntaxErrors.count
            syntaxErrors.append(error)
        }
        appendStep(step)
    }
}

/// The batches the consumer and the producing thread share, behind one mutex.
final class LineBatchQueue: @unchecked Sendable {
    /// Set when no thread could be started: `take()` produces the next batch itself.
    var produceOnDemand = false

    /// Touched only by the producing thread (or by `take()` when producing on demand).
    private let splitter: LineSplitter
    private var producing = true
    /// Of every 16 lines, how many the producer leaves unparsed for the consumer (0...8).
    ///
    /// Parsing is most of the producer's work and the consumer's decoding is about as much, so
    /// which thread is the slower depends on the corpus and the machine; the wall time is the
    /// slower one's. The producer moves a sixteenth of the parsing over each time it hands a
    /// batch to a consumer that had to wait for one (`consumerWaited`), and takes one back
    /// each time it has to wait for a free batch itself. Which thread parses a line changes
    /// nothing of what is handed out (the same parser, the same tokens or error). Only the
    /// producing thread reads and writes it (changed under the mutex, where the queue is seen).
    private var deferred = 0
    private var lineIndex = 0
    /// Whether `deferred` was fixed (`fixDeferral`) rather than adapted.
    private var deferralIsFixed = false
    /// Under `mutex`: the consumer found no batch ready and waited, since the last batch handed over.
    private var consumerWaited = false

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let changed: UnsafeMutablePointer<pthread_cond_t>
    // Under `mutex`:
    private var free: [LineBatch]
    private var ready: [LineBatch] = []
    private var cancelled = false

    init(splitter: LineSplitter, batchCount: Int) {
        self.splitter = splitter
        free = (0..<batchCount).map { _ in LineBatch() }
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        changed = .allocate(capacity: 1)
        changed.initialize(to: pthread_cond_t())
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        changed.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Leaves `count` lines of every 16 (0...16) to the consumer, whatever the threads' pace;
    /// before the producer starts.
    func fixDeferral(_ count: Int) {
        pthread_mutex_lock(mutex)
        deferred = min(max(count, 0), 16)
        deferralIsFixed = true
        pthread_mutex_unlock(mutex)
    }

    /// The producing thread: batches of steps, in order, until the file's end, a failure, or
    /// `cancel()`.
    func produce() {
        while producing, let batch = waitForFreeBatch() {
            fill(batch)
            pthread_mutex_lock(mutex)
            if consumerWaited && deferred < 8 && !deferralIsFixed { deferred += 1 }
            consumerWaited = false
            ready.append(batch)
            pthread_cond_broadcast(changed)
            pthread_mutex_unlock(mutex)
        }
    }

    /// The next batch, waiting for it; nil once production has ended and all were taken.
    func take() -> LineBatch? {
        if produceOnDemand {
            guard producing, let batch = free.popLast() else { return nil }
            fill(batch)
            return batch
        }
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if ready.isEmpty { consumerWaited = true }
        while ready.isEmpty { pthread_cond_wait(changed, mutex) }
        return ready.removeFirst()
    }

    /// Returns a consumed batch to the producer.
    func giveBack(_ batch: LineBatch) {
        if produceOnDemand {
            free.append(batch)
            return
        }
        pthread_mutex_lock(mutex)
        free.append(batch)
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }

    /// Tells the producer to stop at its next batch.
    func cancel() {
        pthread_mutex_lock(mutex)
        cancelled = true
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }

    private func waitForFreeBatch() -> LineBatch? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if free.isEmpty && deferred > 0 && !deferralIsFixed { deferred -= 1 }
        while !cancelled && free.isEmpty { pthread_cond_wait(changed, mutex) }
        return cancelled ? nil : free.removeLast()
    }

    /// Splits and parses lines into `batch` until it holds `batchBytes`, or the file ends or fails.
    private func fill(_ batch: LineBatch) {
        let source = splitter.source
        batch.reset()
        // The source's counts change only when the splitter reads a chunk, which
        // `nextLineInChunk` never does: read once here and after each `nextLine`, not per line.
        var storedBytes = source.storedBytes, producedBytes = source.producedBytes
        while batch.byteCount < ReadAheadLineSource.batchBytes {
            // Most lines lie in one chunk: taken without a closure, whose captures cost a
            // retain and release of the batch and the source per line (atomic, on objects the
            // other thread touches too). The source's counts are those right after the line.
            if let (line, number) = splitter.nextLineInChunk() {
                lineIndex &+= 1
                batch.addLine(line, number: number, storedBytes: storedBytes, producedBytes: producedBytes,
                              parse: lineIndex & 15 >= deferred)
                continue
            }
            defer { (storedBytes, producedBytes) = (source.storedBytes, source.producedBytes) }
            var added = false
            let step = splitter.nextLine { bytes, number in
                batch.addLine(bytes, number: number, storedBytes: source.storedBytes, producedBytes: source.producedBytes)
                added = true
                return true
            }
            var record = LineBatch.Step(kind: .end, storedBytes: source.storedBytes, producedBytes: source.producedBytes)
            switch step {
            case .line:
                // The line and its counts were added as it was handed out.
                assert(added, "the splitter hands out no line without calling back")
                continue
            case .tooLong(let number):
                record.kind = .tooLong
                record.number = number
                batch.appendStep(record)
            case .failed(let error):
                record.kind = .failed
                batch.failure = error
                batch.appendStep(record)
                producing = false
                return
            case .end:
                batch.appendStep(record)
                producing = false
                return
            }
        }
    }
}
