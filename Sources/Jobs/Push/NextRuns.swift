import Export

/// When the app ran, for the push line's next-run path (spec §4: when the extension cannot call
/// the model, "the summed-up line is written the next time the app runs"): the instant of every
/// message the person sent, in any thread of the corpus.
///
/// A person's message is the one sign in an export that the app was running. The export has no
/// person id, so the corpus is taken as one person's: the next run after a push is the person's
/// next message after it, by time, in any thread. Over a corpus pooling many people's threads
/// that is a lower bound on the delay (another person's message counts), and a higher share of
/// pushes followed than the truth.
///
/// Threads come in file order, not time order, so the instants are gathered before the run by a
/// pass over every message (`Collector`), sorted once and kept: 8 bytes per person message with
/// a readable `at` (a corpus of a million person messages holds 8 MB), equal instants once. A
/// lookup is a binary search.
public struct NextRuns: Sendable, Equatable {
    /// Milliseconds since 1970 UTC of the person's messages, ascending, each once.
    private let instants: [Int64]

    /// Runs at these instants (milliseconds since 1970 UTC), in any order.
    public init(milliseconds: [Int64]) {
        var sorted = milliseconds.sorted()
        var kept = 0
        for index in sorted.indices where index == 0 || sorted[index] != sorted[kept - 1] {
            sorted[kept] = sorted[index]
            kept += 1
        }
        sorted.removeLast(sorted.count - kept)
        instants = sorted
    }

    /// No run known: every push in next-run mode is never written.
    public static let none = NextRuns(milliseconds: [])

    /// How many distinct instants the person sent messages at.
    public var count: Int { instants.count }

    /// The first run strictly after `milliseconds`, or nil when the person sent nothing later.
    public func run(after milliseconds: Int64) -> Int64? {
        var low = 0, high = instants.count
        while low < high {
            let middle = (low + high) / 2
            if instants[middle] <= milliseconds { low = middle + 1 } else { high = middle }
        }
        return low < instants.count ? instants[low] : nil
    }

    /// Seconds from a push sent at `at` (as the export writes it) to the next run; nil when the
    /// time cannot be read (`UTCInstant`) or no run follows it.
    public func delaySeconds(after at: String) -> Double? {
        guard let sent = UTCInstant.milliseconds(at), let next = run(after: sent) else { return nil }
        return Double(next - sent) / 1000
    }

    /// Gathers the instants of the person's messages as a corpus is read.
    public struct Collector: Sendable {
        private var instants: [Int64] = []
        /// Person messages whose `at` could not be read: not counted as runs.
        public private(set) var unreadable = 0

        public init() {}

        /// Counts a message sent at `at` by `from`: a run when it is the person's.
        public mutating func add(at: String, from: Sender) {
            guard from == .person else { return }
            add(milliseconds: UTCInstant.milliseconds(at))
        }

        /// Counts a person's message sent at `milliseconds` (`UTCInstant`), nil when its time
        /// could not be read.
        public mutating func add(milliseconds: Int64?) {
            guard let milliseconds else {
                unreadable += 1
                return
            }
            instants.append(milliseconds)
        }

        /// The runs gathered.
        public var runs: NextRuns { NextRuns(milliseconds: instants) }
    }
}

extension NextRuns: CustomReflectable {
    /// Empty: when the person wrote is the corpus's, kept for the delays alone.
    public var customMirror: Mirror { Mirror(self, children: [:], displayStyle: .struct) }
}
