/// The head of a call that every lane's first prompt begins with, evaluated once.
///
/// Lanes start side by side, each on the first request of its run, before any of them has kept
/// anything: when those prompts begin alike (a job's framing and instructions, and for routing
/// a member list most groups share), every lane would evaluate the same tokens at the same moment,
/// each on its own thread. Evaluated once on all the lanes' threads before they start, the head
/// costs one lane's time at two threads' speed, and each lane then starts from its cells.
extension LlamaEngine {
    /// Evaluates `head` in a sequence of its own on `threads` threads, stopping once at
    /// `instructionPrefix` to keep the instructions across calls as a lane would, and keeps the
    /// whole head for the call in the prompts the lanes share (which the pool empties when the
    /// call ends), or, when the head is framing and instructions alone, across calls with them.
    /// The cells are the numbers each lane would compute (evaluation depends on
    /// neither the batch nor the thread count), so answers do not change. Does nothing when a
    /// prefix of `head` as long already is kept, or when an evaluation fails (the lanes then
    /// evaluate the head themselves).
    func keepSharedHead(_ head: [Int32], instructionPrefix: Int, threads: Int) {
        lock.lock()
        defer { lock.unlock() }
        guard head.count >= 2, recentPrompts.longestMatch(for: head) < head.count else { return }
        let id = 1
        context.remove(sequence: id)
        defer { context.remove(sequence: id) }
        context.setThreads(threads)
        defer { context.setThreads(threadCount) }
        var position = 0
        if let (length, entry) = instructionPrefixes.longest(for: head), length >= 2, head.count - length >= 2 {
            guard context.restore(entry.state, into: id) else { return }
            context.remove(sequence: id, from: length)
            statistics.promptTokensShared += length
            position = length
        }
        let instructions = Array(head.prefix(instructionPrefix))
        let stopsAtInstructions = instructionPrefix >= position + 2 && head.count - instructionPrefix >= 2
            && !instructionPrefixes.contains(instructions)
        while position < head.count {
            var end = min(head.count, position + options.chunkTokens)
            if stopsAtInstructions && position < instructionPrefix && instructionPrefix < end { end = instructionPrefix }
            // Never a single token alone (llama.cpp would split its attention over threads).
            if head.count - end == 1 { end -= 1 }
            batch.reset()
            for i in position..<end {
                _ = batch.append(head[i], position: i, sequence: id, wantsLogits: false)
            }
            let status = countedDecode().status
            statistics.prefillTokens += batch.count
            guard status == 0 else { return }
            position = end
            if stopsAtInstructions && position == instructionPrefix {
                instructionPrefixes.keep(instructions, state: context.save(sequence: id))
            }
        }
        if head.count == instructionPrefix {
            instructionPrefixes.keep(head, state: context.save(sequence: id))
        } else {
            recentPrompts.keep(head, state: context.save(sequence: id))
        }
    }
}
