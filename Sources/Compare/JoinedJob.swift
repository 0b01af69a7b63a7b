import ReplayKit

/// One job's items of two runs, joined on their keys: the pairs, the items of one run only, and
/// those left out because their key repeats.
public struct JoinedJob: Sendable, Equatable {
    /// In BASE's canonical order (thread, key), so everything computed from them is reproducible.
    public var pairs: [ItemPair] = []
    public var baseOnly: [ItemOutcome] = []
    public var newOnly: [ItemOutcome] = []
    /// Items whose key is not unique in BASE or in NEW, from each run.
    public var repeatedBase: [ItemOutcome] = []
    public var repeatedNew: [ItemOutcome] = []

    public init() {}

    /// The counts of the items in a slice: pairs by BASE's item, every other item by its own.
    public func counts(in slice: (ItemOutcome) -> Bool = { _ in true }) -> JoinCounts {
        let paired = pairs.filter { slice($0.base) }.count
        let baseOnly = self.baseOnly.filter(slice).count, newOnly = self.newOnly.filter(slice).count
        let repeatedBase = self.repeatedBase.filter(slice).count, repeatedNew = self.repeatedNew.filter(slice).count
        return JoinCounts(base: paired + baseOnly + repeatedBase, new: paired + newOnly + repeatedNew, paired: paired,
                          baseOnly: baseOnly, newOnly: newOnly, repeated: repeatedBase + repeatedNew)
    }
}
