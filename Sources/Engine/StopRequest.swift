import Synchronization

/// A request to stop, raised from outside a long piece of work and read between its steps.
///
/// A run raises it when the scheduler asks it to stop (SIGTERM on preemption or eviction,
/// SIGINT at a terminal: `StopSignals`); an engine reads it between evaluations, so a call of
/// many requests ends within one step instead of after its last answer. Raising it is one
/// atomic store, safe from a signal handler; it is never lowered.
public final class StopRequest: Sendable {
    private let raised = Atomic<Bool>(false)

    /// A request not raised yet.
    public init() {}

    /// Whether the work should stop.
    public var isRaised: Bool { raised.load(ordering: .relaxed) }

    /// Asks the work to stop at its next step.
    public func raise() { raised.store(true, ordering: .relaxed) }
}
