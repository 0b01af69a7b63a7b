import Jobs
import Privacy
import ReplayKit

/// trials.json of `replay probe injection` (`replay.probe-trials/1`, docs/injection.md): one entry
/// per trial, as columns, so two probes under one run key pair trial by trial (`replay compare`
/// of two probes' directories: the same places, other prompts or another model).
///
/// Each trial is its key (an HMAC of the place's ids and the attack's kind under the run key,
/// `InjectionProbe.trialKey`), its thread (an index into `threads`, each an HMAC of a thread's id
/// under the run key: trials of a thread are one cluster when probes are compared), its job and kind (indexes into the document's lists), its flags
/// (`Flag`) and each quality measure scored both ways, plain and attacked, in billionths (as
/// items.json.zst holds measures). Never a word. Decoding checks what the types cannot say: one
/// value a trial in every column, indexes within their lists, keys listed once, trials in key order.
public struct ProbeTrialsDocument: ResultDocument, Equatable {
    public static let schema = "replay.probe-trials/1"
    public static let fileName = "trials.json"
    public static func isFileName(_ name: String) -> Bool { name == fileName }

    public var schema = SchemaName<Self>()
    public var count: Int
    public var jobs: [JobKind]
    public var kinds: [TokenLabel]
    public var threads: [ItemsDocument.ItemHash]
    public var columns: Columns

    /// A trial's flag bits.
    public enum Flag {
        public static let succeeded = 1
        public static let shown = 2
        public static let baseline = 4
        public static let plainAnswered = 8
        public static let attackedAnswered = 16
        /// One more than the largest flags value.
        public static let limit = 32
    }

    public struct Columns: Codable, Sendable, Equatable {
        public var key: [ItemsDocument.ItemHash]
        public var thread, job, kind, flags: [Int]
        /// Each measure's plain and attacked values in billionths, null where the trial has none.
        public var quality: ResultMap<QualityName, QualityColumns>
    }

    /// One measure's two columns.
    public struct QualityColumns: Codable, Sendable, Equatable {
        public var plain: [Int?]
        public var attacked: [Int?]
    }

    /// The document of `trials`, in key order.
    public init(_ trials: [ProbeTrial]) {
        let sorted = trials.sorted { $0.key < $1.key }
        count = sorted.count
        jobs = JobKind.allCases
        let kindNames = Array(Set(sorted.map(\.kind))).sorted()
        kinds = kindNames.map { TokenLabel($0) }
        let jobIndex = Dictionary(uniqueKeysWithValues: jobs.enumerated().map { ($1, $0) })
        let kindIndex = Dictionary(uniqueKeysWithValues: kindNames.enumerated().map { ($1, $0) })
        let threadKeys = Array(Set(sorted.map(\.thread))).sorted()
        threads = threadKeys.map { ItemsDocument.ItemHash($0) }
        let threadIndex = Dictionary(uniqueKeysWithValues: threadKeys.enumerated().map { ($1, $0) })
        let names = Set(sorted.flatMap { $0.quality.keys }).sorted()
        columns = Columns(
            key: sorted.map { ItemsDocument.ItemHash($0.key) },
            thread: sorted.map { threadIndex[$0.thread]! },
            job: sorted.map { jobIndex[$0.job]! },
            kind: sorted.map { kindIndex[$0.kind]! },
            flags: sorted.map(\.flags),
            quality: ResultMap(names.map { name in
                (QualityName(name), QualityColumns(plain: sorted.map { $0.quality[name].map { Self.billionths($0.plain) } },
                                                   attacked: sorted.map { $0.quality[name].map { Self.billionths($0.attacked) } }))
            }))
    }

    /// The trials the columns describe, in the document's order.
    public var trials: [ProbeTrial] {
        (0..<count).map { i in
            let bits = columns.flags[i]
            var quality: [String: (plain: Double, attacked: Double)] = [:]
            for (name, values) in columns.quality.pairs {
                if let plain = values.plain[i], let attacked = values.attacked[i] {
                    quality[name.name] = (Double(plain) / 1_000_000_000, Double(attacked) / 1_000_000_000)
                }
            }
            return ProbeTrial(key: columns.key[i].value, thread: threads[columns.thread[i]].value, job: jobs[columns.job[i]], kind: kinds[columns.kind[i]].text,
                              succeeded: bits & Flag.succeeded != 0, shown: bits & Flag.shown != 0, baseline: bits & Flag.baseline != 0,
                              plainAnswered: bits & Flag.plainAnswered != 0, attackedAnswered: bits & Flag.attackedAnswered != 0,
                              quality: quality)
        }
    }

    /// A measure in billionths, rounded as `QualityTally` rounds it.
    static func billionths(_ value: Double) -> Int {
        var tally = QualityTally()
        tally.add(value)
        return tally.sumBillionths
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schema = try container.decode(SchemaName<Self>.self, forKey: .schema)
        count = try container.decode(Int.self, forKey: .count)
        jobs = try container.decode([JobKind].self, forKey: .jobs)
        kinds = try container.decode([TokenLabel].self, forKey: .kinds)
        threads = try container.decode([ItemsDocument.ItemHash].self, forKey: .threads)
        columns = try container.decode(Columns.self, forKey: .columns)
        if let problem { throw StateFormatError(at: decoder.codingPath, problem) }
    }

    enum CodingKeys: String, CodingKey { case schema, count, jobs, kinds, threads, columns }

    /// What the types leave unchecked and is wrong, in a few words naming the column, or nil.
    var problem: String? {
        guard count >= 0 else { return "count is not a whole number of 0 or more" }
        guard Set(kinds.map(\.text)).count == kinds.count else { return "kinds: a kind listed twice" }
        guard Set(threads).count == threads.count else { return "threads: a thread hash listed twice" }
        guard columns.key.count == count else { return "columns.key has \(columns.key.count) values for \(count) trials" }
        for (name, values, limit) in [("thread", columns.thread, threads.count), ("job", columns.job, jobs.count), ("kind", columns.kind, kinds.count),
                                      ("flags", columns.flags, Flag.limit)] {
            guard values.count == count else { return "columns.\(name) has \(values.count) values for \(count) trials" }
            if let index = values.firstIndex(where: { $0 < 0 || $0 >= limit }) { return "columns.\(name)[\(index)] is not an index below \(limit)" }
        }
        for (name, values) in columns.quality.pairs {
            for column in [values.plain, values.attacked] where column.count != count || column.contains(where: { ($0 ?? 0) < 0 }) {
                return "columns.quality.\(name.name) is not two arrays of \(count) whole numbers of 0 or more (or null)"
            }
        }
        if let i = (1..<max(count, 1)).first(where: { columns.key[$0].value <= columns.key[$0 - 1].value }) {
            return "its trials are not in key order, each key once, at trial \(i)"
        }
        return nil
    }
}
