import ReplayKit

/// One item both runs have (the same key and job): its outcome in each.
public struct ItemPair: Sendable, Equatable {
    public var base: ItemOutcome
    public var new: ItemOutcome

    /// The thread the item is in, by which errors are clustered (the same in both runs, whose
    /// keys agree only under one run key).
    public var cluster: UInt64 { base.thread }
}
