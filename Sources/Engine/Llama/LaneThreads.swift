import Synchronization

/// A pool's threads, shared out among the lanes answering now.
///
/// Lanes split a call's requests by estimated work, and one always finishes first; from then on
/// the other would run on one core while the finished lane's core sat idle. Each lane asks before
/// every evaluation how many threads are its share, so the last lane answering takes them all.
/// Thread count does not change a token's numbers with matrix-product attention (each element of
/// a product is summed by one thread, in one order), so answers stay the same.
final class LaneThreads: Sendable {
    /// The threads of the whole pool.
    let total: Int
    private let answering = Atomic<Int>(0)

    init(total: Int) {
        precondition(total >= 1)
        self.total = total
    }

    /// `count` lanes start answering (all of a call's lanes at once, before any evaluates, so the
    /// first to start does not take every thread for its first evaluation).
    func enter(_ count: Int = 1) { answering.add(count, ordering: .relaxed) }

    /// A lane has answered its part.
    func leave() { answering.subtract(1, ordering: .relaxed) }

    /// One answering lane's share: the pool's threads over the lanes answering now, at least one.
    var share: Int { max(1, total / max(1, answering.load(ordering: .relaxed))) }
}
