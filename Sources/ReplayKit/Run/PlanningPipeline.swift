import Foundation
import Jobs

/// Plans a dry run's threads on background workers while the reader goes on, and hands the
/// results back in reading order.
///
/// Planning a batch used to stop the reader until every worker was done, so the reader and the
/// tokenizer took turns; here they overlap. At most `maxInFlight` batches are out at once, so
/// memory stays flat however far the reader could run ahead.
final class PlanningPipeline: @unchecked Sendable {
    private let condition = NSCondition()
    /// Finished batches not yet taken, by sequence number.
    private var finished: [Int: [PlannedThread]] = [:]
    private var submitted = 0
    private var taken = 0
    private let maxInFlight: Int
    private let queue = DispatchQueue(label: "replay.planning", qos: .userInitiated, attributes: .concurrent)
    /// Where pieces of a thread still being read are planned, one at a time: the reader keeps a
    /// core to itself, and the rest of the machine plans.
    private let piecesQueue = DispatchQueue(label: "replay.planning.pieces", qos: .userInitiated)

    /// A pipeline allowing `maxInFlight` batches out at once.
    init(maxInFlight: Int) {
        self.maxInFlight = max(1, maxInFlight)
    }

    /// Starts planning `threads` with `plan` on a worker (pieces of a thread being read on the one
    /// worker that plans pieces); call `take` to collect, in order.
    func submit(_ threads: [PlanningInput], plan: @escaping @Sendable (PlanningInput) -> PlannedThread) {
        let sequence = submitted
        submitted += 1
        (threads.contains(where: \.piece) ? piecesQueue : queue).async { [self] in
            let planned = threads.map(plan)
            condition.lock()
            finished[sequence] = planned
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Hands each finished batch to `body` in submission order: those already done, then waits
    /// while too many are out (or, with `all`, until every batch is taken).
    func take(all: Bool = false, _ body: ([PlannedThread]) -> Void) {
        while taken < submitted {
            condition.lock()
            let mustWait = all || submitted - taken > maxInFlight
            while finished[taken] == nil && mustWait { condition.wait() }
            let batch = finished.removeValue(forKey: taken)
            condition.unlock()
            guard let batch else { return }
            taken += 1
            body(batch)
        }
    }
}
