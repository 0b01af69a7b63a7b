import Jobs
import ReplayKit

/// Two runs' items joined on their keys, job by job.
///
/// An item's key is a keyed hash of its place (corpus file, thread, message) and job under the
/// run key, so two runs over the same corpus under the same key give one place the same key: an
/// item pairs with the item of the same key and job in the other run. A key that occurs more
/// than once in a run (a corpus that repeats a message id in a thread) cannot be paired
/// faithfully, so its items are left out of both runs and counted as `repeated`.
public struct ItemJoin: Sendable, Equatable {
    /// Every job either run has items of.
    public var jobs: [JobKind: JoinedJob]

    public init(base: ItemTable, new: ItemTable) {
        struct Place: Hashable { var key: UInt64; var job: JobKind }
        func occurrences(_ table: ItemTable) -> [Place: Int] {
            var counts: [Place: Int] = [:]
            for item in table.items { counts[Place(key: item.key, job: item.job), default: 0] += 1 }
            return counts
        }
        let baseCounts = occurrences(base), newCounts = occurrences(new)
        var newByPlace: [Place: ItemOutcome] = [:]
        for item in new.items where newCounts[Place(key: item.key, job: item.job)] == 1 {
            newByPlace[Place(key: item.key, job: item.job)] = item
        }
        var jobs: [JobKind: JoinedJob] = [:]
        for item in base.items {
            let place = Place(key: item.key, job: item.job)
            if baseCounts[place] != 1 || (newCounts[place] ?? 0) > 1 {
                jobs[item.job, default: JoinedJob()].repeatedBase.append(item)
            } else if let other = newByPlace[place] {
                jobs[item.job, default: JoinedJob()].pairs.append(ItemPair(base: item, new: other))
            } else {
                jobs[item.job, default: JoinedJob()].baseOnly.append(item)
            }
        }
        for item in new.items {
            let place = Place(key: item.key, job: item.job)
            if newCounts[place] != 1 || (baseCounts[place] ?? 0) > 1 {
                jobs[item.job, default: JoinedJob()].repeatedNew.append(item)
            } else if baseCounts[place] == nil {
                jobs[item.job, default: JoinedJob()].newOnly.append(item)
            }
        }
        self.jobs = jobs
    }

    /// The jobs in their usual order (chips, route, push, draft).
    public var jobKinds: [JobKind] { jobs.keys.sorted() }

    /// The counts over every job.
    public var total: JoinCounts { jobs.values.reduce(JoinCounts()) { $0 + $1.counts() } }
}
