import ReplayKit

/// How two runs' items of one job (or slice, or all jobs) joined on their keys.
///
/// `base` + `new` = 2 · `paired` + `baseOnly` + `newOnly` + `repeated`.
public struct JoinCounts: Sendable, Equatable, Codable {
    /// Items in each run.
    public var base = 0
    public var new = 0
    /// Items in both (the same key and job).
    public var paired = 0
    /// Items in one run only: a place the other did not reach (another `--limit`, a job it did not run).
    public var baseOnly = 0
    public var newOnly = 0
    /// Items of either run left out because their key is not unique in a run (a corpus that
    /// repeats a message id within a thread): which of them pairs with which cannot be told.
    public var repeated = 0

    enum CodingKeys: String, CodingKey {
        case base, new, paired
        case baseOnly = "base_only", newOnly = "new_only"
        case repeated
    }

    public init(base: Int = 0, new: Int = 0, paired: Int = 0, baseOnly: Int = 0, newOnly: Int = 0, repeated: Int = 0) {
        self.base = base
        self.new = new
        self.paired = paired
        self.baseOnly = baseOnly
        self.newOnly = newOnly
        self.repeated = repeated
    }

    /// The sum of two counts (jobs into the total).
    public static func + (a: JoinCounts, b: JoinCounts) -> JoinCounts {
        JoinCounts(base: a.base + b.base, new: a.new + b.new, paired: a.paired + b.paired, baseOnly: a.baseOnly + b.baseOnly,
                   newOnly: a.newOnly + b.newOnly, repeated: a.repeated + b.repeated)
    }
}
