#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A chunk source whose chunks are produced ahead on a thread of their own: the file's reading
/// and decompression run on one core while lines are split and parsed on the other.
///
/// The inner source is driven exactly as the reader would drive it, one `nextChunk()` after the
/// other, and each of its chunks is copied into one of a few fixed buffers and handed over in
/// order, with the inner source's byte counts as they were after that chunk. So the consumer
/// sees the same chunks, the same counts at each chunk, and the same failure after the same
/// bytes as reading the inner source directly; memory stays bounded (`slotCount` buffers of a
/// chunk each). A failure ends the production; so does the consumer letting go of the source,
/// which stops the thread and waits for it (only regular files are read ahead, whose reads do
/// not block indefinitely; see `OpenFile`).
final class ReadAheadChunkSource: ChunkSource {
    /// Chunks produced ahead at most: enough to ride out a slow line or a slow frame.
    static let slotCount = 8

    private let queue: ChunkQueue
    private var thread: pthread_t?
    /// The slot handed out by the last `nextChunk()`, given back at the next call.
    private var lent: Int?
    private var finished = false
    private(set) var storedBytes = 0
    private(set) var producedBytes = 0

    /// Starts producing `inner`'s chunks; from here on only the producing thread touches `inner`.
    init(_ inner: ChunkSource) {
        queue = ChunkQueue(inner: inner, slotCount: ReadAheadChunkSource.slotCount)
        let context = Unmanaged.passRetained(queue).toOpaque()
        var handle = pthread_t()
        let started = pthread_create(&handle, nil, { context in
            guard let context else { return nil }
            Unmanaged<ChunkQueue>.fromOpaque(context).takeRetainedValue().produce()
            return nil
        }, context)
        if started == 0 {
            thread = handle
        } else {
            // No thread (resources exhausted): produce on demand on this one instead.
            Unmanaged<ChunkQueue>.fromOpaque(context).release()
            queue.produceOnDemand = true
        }
    }

    deinit {
        queue.cancel()
        if let thread { pthread_join(thread, nil) }
    }

    func nextChunk() throws(ExportError) -> UnsafeRawBufferPointer? {
        if let lent {
            queue.giveBack(lent)
            self.lent = nil
        }
        if finished { return nil }
        let item = queue.take()
        storedBytes = item.storedBytes
        producedBytes = item.producedBytes
        switch item.content {
        case .chunk(let slot, let bytes):
            lent = slot
            return bytes
        case .end:
            finished = true
            return nil
        case .failed(let error):
            finished = true
            throw error
        }
    }
}

/// The state the consumer and the producing thread share, behind one mutex: free buffers, the
/// produced items in order, and whether the consumer has gone.
final class ChunkQueue: @unchecked Sendable {
    /// One produced step of the inner source, with its counts after it.
    struct Item {
        enum Content {
            /// A chunk in buffer `slot`, lent to the consumer until it gives the slot back.
            case chunk(slot: Int, bytes: UnsafeRawBufferPointer)
            case end
            case failed(ExportError)
        }
        var content: Content
        var storedBytes: Int
        var producedBytes: Int
    }

    /// Set when no thread could be started: `take()` produces the next item itself.
    var produceOnDemand = false

    // Touched only by the producing thread (or by `take()` when producing on demand), and by
    // `deinit` once that thread has ended. A slot's buffer is written only while the slot is free.
    private let inner: ChunkSource
    private let buffers: UnsafeMutableBufferPointer<UnsafeMutableRawBufferPointer>

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let changed: UnsafeMutablePointer<pthread_cond_t>
    // Under `mutex`:
    private var free: [Int]
    private var ready: [Item] = []
    private var readyStart = 0
    private var cancelled = false

    init(inner: ChunkSource, slotCount: Int) {
        self.inner = inner
        buffers = .allocate(capacity: slotCount)
        buffers.initialize(repeating: UnsafeMutableRawBufferPointer(start: nil, count: 0))
        free = Array((0..<slotCount).reversed())
        ready.reserveCapacity(slotCount + 1)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        changed = .allocate(capacity: 1)
        changed.initialize(to: pthread_cond_t())
        pthread_cond_init(changed, nil)
    }

    deinit {
        for buffer in buffers where buffer.baseAddress != nil { buffer.deallocate() }
        buffers.deallocate()
        pthread_cond_destroy(changed)
        changed.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// The producing thread: every step of the inner source, in order, until its end, a
    /// failure, or `cancel()`.
    func produce() {
        while let slot = waitForFreeSlot() {
            let item = step(into: slot)
            var isChunk = false
            if case .chunk = item.content { isChunk = true }
            pthread_mutex_lock(mutex)
            if !isChunk { free.append(slot) }
            ready.append(item)
            pthread_cond_broadcast(changed)
            pthread_mutex_unlock(mutex)
            if !isChunk { return }
        }
    }

    /// The next item, waiting for it.
    func take() -> Item {
        if produceOnDemand {
            let slot = free.removeLast()
            let item = step(into: slot)
            if case .chunk = item.content {} else { free.append(slot) }
            return item
        }
        pthread_mutex_lock(mutex)
        while readyStart == ready.count { pthread_cond_wait(changed, mutex) }
        let item = ready[readyStart]
        readyStart += 1
        if readyStart == ready.count {
            ready.removeAll(keepingCapacity: true)
            readyStart = 0
        }
        pthread_mutex_unlock(mutex)
        return item
    }

    /// Returns a lent slot to the producer.
    func giveBack(_ slot: Int) {
        if produceOnDemand {
            free.append(slot)
            return
        }
        pthread_mutex_lock(mutex)
        free.append(slot)
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }

    /// Tells the producer to stop at its next step.
    func cancel() {
        pthread_mutex_lock(mutex)
        cancelled = true
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }

    /// A free slot, or nil once cancelled.
    private func waitForFreeSlot() -> Int? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !cancelled && free.isEmpty { pthread_cond_wait(changed, mutex) }
        return cancelled ? nil : free.removeLast()
    }

    /// One step of the inner source, its chunk copied into `slot`'s buffer (grown to fit).
    private func step(into slot: Int) -> Item {
        let content: Item.Content
        do throws(ExportError) {
            if let chunk = try inner.nextChunk() {
                if buffers[slot].count < chunk.count {
                    if buffers[slot].baseAddress != nil { buffers[slot].deallocate() }
                    buffers[slot] = .allocate(byteCount: chunk.count, alignment: 16)
                }
                let buffer = buffers[slot]
                if let source = chunk.baseAddress, let target = buffer.baseAddress {
                    target.copyMemory(from: source, byteCount: chunk.count)
                }
                content = .chunk(slot: slot, bytes: UnsafeRawBufferPointer(rebasing: buffer[..<chunk.count]))
            } else {
                content = .end
            }
        } catch {
            content = .failed(error)
        }
        return Item(content: content, storedBytes: inner.storedBytes, producedBytes: inner.producedBytes)
    }
}
