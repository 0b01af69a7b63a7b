import Synchronization

/// The lanes of a pool still answering a call, and the threads they have between them: a lane
/// left alone with work may take its finished neighbours' cores (`CoreLending`). Thread-safe.
final class LaneRoster: Sendable {
    private let answering: Mutex<Int>
    /// Every lane's threads together: what a lane alone may use.
    let threads: Int

    init(lanes: Int, threads: Int) {
        answering = Mutex(lanes)
        self.threads = threads
    }

    /// Records that a lane's part of the call is over.
    func finished() {
        answering.withLock { $0 -= 1 }
    }

    /// Whether only one lane, the asking one, is still answering.
    var isAlone: Bool { answering.withLock { $0 == 1 } }
}

/// Whether a lane alone at a call's end gains by running on every lane's threads, judged on its
/// own evaluations in the call.
///
/// Lanes keep a thread each because threads of one context meet at a barrier after every
/// operation: when the machine is shared, one descheduled thread stalls them all. At a call's end
/// a lane can be left answering its last sequences while the other cores idle (a prompt of
/// thousands of tokens, or outputs running to their allowance). There more threads are worth it
/// on a quiet machine, and cost more than they gain on a loaded one (docs/performance.md). So the
/// lane lends itself the cores only while evaluations on them take at most `threshold` of the
/// time per token its own thread took for evaluations of that size in the same call; two in a
/// row that do not end the lending for the call (one alone may be a moment's noise).
struct CoreLending {
    /// The largest share of its own thread's time per token a lent evaluation may take: a gain
    /// of 5% at least. Two threads on a step of a few tokens gain 15 to 40% on a quiet machine.
    static let threshold = 0.95

    /// Per size class: the nanoseconds and tokens of the lane's own evaluations.
    private var own: [Int: (nanoseconds: Double, tokens: Int)] = [:]
    /// Lent evaluations in a row that were not fast enough.
    private var strikes = 0
    /// Whether lending ended for this call.
    private(set) var withdrawn = false

    /// Evaluations of about the same cost per token: a generating step of each number of tokens
    /// up to 8 (its own class, as the work per token still falls with each), then prompt chunks
    /// of up to 32, up to 128, and more.
    static func sizeClass(_ tokens: Int) -> Int {
        tokens <= 8 ? max(tokens, 1) : tokens <= 32 ? 9 : tokens <= 128 ? 10 : 11
    }

    /// Whether lending can be judged: the lane has evaluated on its own threads in this call.
    var canJudge: Bool { !own.isEmpty && !withdrawn }

    /// Records an evaluation of `tokens` on the lane's own threads.
    mutating func recordOwn(tokens: Int, nanoseconds: Double) {
        let size = Self.sizeClass(tokens)
        let known = own[size] ?? (0, 0)
        own[size] = (known.nanoseconds + nanoseconds, known.tokens + max(tokens, 1))
    }

    /// Judges an evaluation of `tokens` on lent cores against the lane's own time per token at
    /// that size (the nearest size it evaluated when not that one); returns whether lending goes on.
    mutating func judgeLent(tokens: Int, nanoseconds: Double) -> Bool {
        let size = Self.sizeClass(tokens)
        guard !withdrawn, let nearest = own.keys.min(by: { (abs($0 - size), $0) < (abs($1 - size), $1) }),
              let known = own[nearest] else { return !withdrawn }
        let ownPerToken = known.nanoseconds / Double(known.tokens)
        strikes = nanoseconds / Double(max(tokens, 1)) > Self.threshold * ownPerToken ? strikes + 1 : 0
        if strikes >= 2 { withdrawn = true }
        return !withdrawn
    }
}
