import Synchronization

/// Evaluated prompt prefixes with their cells, kept to put into new sequences; the least
/// recently used goes first.
///
/// An engine keeps two: framing and instructions across calls, shared by every lane of a pool
/// (each lane evaluating every agent's and language's instructions itself was a third of the
/// prompt tokens over 50 drafts; the cells are the same numbers in every lane, as evaluation
/// depends on neither the batch nor the thread count), and the prompts of one call that a later
/// request of it shares more than instructions with, emptied when the call ends so that no
/// thread's words stay. Under a lock, for the shared one.
final class KeptPrefixes: Sendable {
    /// One kept prefix: its tokens and the cells `LlamaContext.save` gave for them.
    struct Entry {
        let tokens: [Int32]
        let state: [UInt8]
        var lastUse: Int
    }

    private struct Entries: ~Copyable {
        var list: [Entry] = []
        var uses = 0
    }

    let limit: Int
    private let entries = Mutex(Entries())

    init(limit: Int) {
        precondition(limit >= 1)
        self.limit = limit
    }

    /// The kept prefix sharing the most leading tokens with `tokens`, and how many; marked used.
    func longest(for tokens: [Int32]) -> (length: Int, entry: Entry)? {
        entries.withLock { entries in
            var best: (length: Int, index: Int)? = nil
            for (index, entry) in entries.list.enumerated() {
                let length = commonPrefix(entry.tokens, tokens)
                if length > (best?.length ?? 0) { best = (length, index) }
            }
            guard let best else { return nil }
            entries.uses += 1
            entries.list[best.index].lastUse = entries.uses
            return (best.length, entries.list[best.index])
        }
    }

    /// The most leading tokens any kept prefix shares with `tokens` (not marked used).
    func longestMatch(for tokens: [Int32]) -> Int {
        entries.withLock { $0.list.map { commonPrefix($0.tokens, tokens) }.max() ?? 0 }
    }

    /// Whether `tokens` are kept already (another lane may have kept them first): saving a
    /// sequence's cells costs a copy of them, which `keep` would then drop.
    func contains(_ tokens: [Int32]) -> Bool {
        entries.withLock { $0.list.contains { $0.tokens == tokens } }
    }

    /// Keeps evaluated `tokens` with their cells, evicting the least recently used beyond `limit`.
    func keep(_ tokens: [Int32], state: [UInt8]) {
        guard !state.isEmpty else { return }
        entries.withLock { entries in
            guard !entries.list.contains(where: { $0.tokens == tokens }) else { return }
            if entries.list.count >= limit,
               let oldest = entries.list.indices.min(by: { entries.list[$0].lastUse < entries.list[$1].lastUse }) {
                entries.list.remove(at: oldest)
            }
            entries.uses += 1
            entries.list.append(Entry(tokens: tokens, state: state, lastUse: entries.uses))
        }
    }

    /// The number of prefixes kept.
    var count: Int { entries.withLock { $0.list.count } }

    /// Forgets every kept prefix.
    func removeAll() {
        entries.withLock { $0.list.removeAll() }
    }
}
