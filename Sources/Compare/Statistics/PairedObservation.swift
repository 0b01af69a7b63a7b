/// One paired item: its value on each side and the cluster (thread) it belongs to.
///
/// Items of one thread share a conversation, so their differences are correlated; every
/// statistic of `replay compare` treats the thread, not the item, as the independent unit.
public struct PairedObservation: Sendable, Equatable {
    /// The item's value in the base run (a latency in milliseconds, or 0/1 for a yes/no outcome).
    public var base: Double
    /// The same item's value in the new run.
    public var new: Double
    /// The thread the item belongs to; any stable key (a keyed hash of the thread id, say).
    public var cluster: UInt64

    public init(base: Double, new: Double, cluster: UInt64) {
        (self.base, self.new, self.cluster) = (base, new, cluster)
    }
}
