import Privacy
import Export

/// Counts the flywheel metrics of a corpus from message metadata, streaming, one record at a time.
///
/// Feed it the reader's events in order (a thread line, then its messages: the export keeps a
/// thread's lines together). It keeps integer numerators and denominators per metric and per key
/// of every dimension, plus the little state of the open thread that the rules need (the previous
/// message, the person's last build, the pushes waiting for the person's next message). Message text is read for one thing only, whether it names a
/// group member as `@Name` (`Mention`, the rule the routing job uses); nothing of it is kept. Counters of disjoint sets of threads merge to
/// exactly the counter of their union, which is how sharded runs combine.
public struct FlywheelCounter: Sendable, Equatable {
    /// Thread lines counted.
    public internal(set) var threads = 0
    /// Message lines counted.
    public internal(set) var messages = 0
    /// Numerators and denominators by dimension and key, of everything settled: all but the open
    /// thread's pushes still waiting for the person's next message (see `settledBuckets`).
    /// Internal, not private: FlywheelCounter+State.swift writes and reads them.
    var buckets: [BucketKey: Bucket] = [:]
    /// The thread whose messages are arriving.
    private var open: OpenThread?

    /// An empty counter.
    public init() {}

    /// Counts every record a corpus reader hands out (bad lines and failed files are the reader's
    /// to report; they hold nothing to count).
    public mutating func add(_ event: ReaderEvent) {
        if case .record(let record, _) = event { add(record) }
    }

    /// Counts one record: a thread line opens a thread, a message is counted in the open thread.
    public mutating func add(_ record: ExportRecord) {
        switch record {
        case .header:
            break
        case .thread(let thread):
            threads += 1
            closeOpenThread()
            open = OpenThread(thread)
        case .message(let message):
            add(message)
        }
    }

    /// Adds everything counted in `other` (of other threads): exact, since everything is an integer.
    /// The open-thread state of `self` is kept, so merge finished counters.
    public mutating func merge(_ other: FlywheelCounter) {
        threads += other.threads
        messages += other.messages
        buckets.merge(other.settledBuckets) { mine, theirs in mine.adding(theirs) }
    }

    /// This counter and `other` combined.
    public func merged(with other: FlywheelCounter) -> FlywheelCounter {
        var copy = self
        copy.merge(other)
        return copy
    }

    /// Counts every event of `reader` into a new counter.
    public static func count(_ reader: CorpusReader) -> FlywheelCounter {
        var counter = FlywheelCounter()
        while let event = reader.next() { counter.add(event) }
        return counter
    }

    /// Equal when the counts are equal (the open thread's state is not a count).
    public static func == (a: FlywheelCounter, b: FlywheelCounter) -> Bool {
        a.threads == b.threads && a.messages == b.messages && a.settledBuckets == b.settledBuckets
    }

    // MARK: - Reading the counts

    /// The keys seen under `dimension`, in display order (numbers by value; hashed, "unknown" and
    /// "(other)" last). The overall dimension always has its one key. Not capped: see `capped`.
    public func keys(_ dimension: MetricDimension) -> [String] {
        if dimension == .overall { return [MetricDimension.overallKey] }
        return settledBuckets.keys.filter { $0.dimension == dimension }.map(\.key).sorted(by: ReportLabel.precedes)
    }

    /// This counter with at most `limit` keys (plus "(other)") in each capped dimension: the keys
    /// with the most counted events stay, the rest are added together under "(other)".
    ///
    /// What is written goes through this, so a corpus with a thousand builds cannot make a
    /// thousand rows (or a thousand hashes). Exact: "(other)" holds the sums of the merged keys'
    /// numerators and denominators, and the overall counts do not change. Cap after merging
    /// shards, never before (the top keys of a shard are not those of the whole). Capping twice
    /// changes nothing more.
    public func capped(to limit: Int = ReportLabel.maximumDistinct) -> FlywheelCounter {
        var copy = self
        copy.closeOpenThread()
        for dimension in MetricDimension.allCases where dimension.isCapped {
            var weights: [String: Int] = [:]
            for (key, bucket) in copy.buckets where key.dimension == dimension { weights[key.key] = bucket.events }
            let shown = ReportLabel.shown(weights, limit: limit, order: ReportLabel.precedes)
            let other = BucketKey(dimension: dimension, key: MetricDimension.otherKey)
            for key in weights.keys where !shown.contains(key) {
                let merged = BucketKey(dimension: dimension, key: key)
                let bucket = copy.buckets.removeValue(forKey: merged)!
                copy.buckets[other] = copy.buckets[other].map { $0.adding(bucket) } ?? bucket
            }
        }
        return copy
    }

    /// The cell of `metric` under `key` of `dimension`; 0 of 0 for a key never seen.
    public func cell(_ metric: Metric, _ dimension: MetricDimension = .overall, _ key: String = MetricDimension.overallKey) -> RateCell {
        let bucket = settledBuckets[BucketKey(dimension: dimension, key: key)]
        return RateCell(metric: metric, dimension: dimension, key: key,
                        numerator: bucket?.numerators[metric.rawValue] ?? 0,
                        denominator: bucket?.denominators[metric.rawValue] ?? 0)
    }

    /// Every cell: each metric (in order) under each dimension (in order) and each of its keys.
    ///
    /// A key seen by any metric of a dimension is listed for every metric, so a week with chips
    /// but no drafts shows drafts as 0 of 0 (rate empty) rather than leaving the row out.
    public func cells() -> [RateCell] {
        var settled = self
        settled.closeOpenThread()
        return settled.settledCells()
    }

    private func settledCells() -> [RateCell] {
        let keysByDimension = MetricDimension.allCases.map { keys($0) }
        var result: [RateCell] = []
        for metric in Metric.allCases {
            for dimension in MetricDimension.allCases {
                for key in keysByDimension[dimension.rawValue] {
                    result.append(cell(metric, dimension, key))
                }
            }
        }
        return result
    }

    // MARK: - Counting

    private mutating func add(_ message: MessageRecord) {
        messages += 1
        if open?.id != message.thread {
            closeOpenThread()
            open = OpenThread(orphan: message.thread)
        }
        var thread = open!
        defer { open = thread }
        let locale = message.lang.map { ReportLabel(locale: $0).text } ?? thread.locale
        let week = ISOWeek.label(forTimestamp: message.at) ?? MetricDimension.unknownKey
        switch message.from {
        case .person:
            let meta = message.meta
            let build = ReportLabel(build: meta.build).text, model = ReportLabel(model: meta.model).text
            if let chipAgent = thread.chipAgent {
                var delta = Delta()
                delta.count(.chipsSuggested, hit: meta.via == "suggested")
                record(delta, build: build, model: model, locale: locale, agent: chipAgent, week: week)
            }
            var delta = Delta()
            if thread.isGroup {
                let route = routing(message, in: thread)
                delta.count(.routeNamed, hit: route == .routeNamed)
                delta.count(.routeGuessedKept, hit: route == .routeGuessedKept)
                delta.count(.routeChose, hit: route == .routeChose)
                delta.count(.routeLead, hit: route == .routeLead)
            }
            if meta.offline {
                let ticks = meta.draftTicks?.count ?? 0
                delta.count(.draftUsed, hit: ticks > 0)
                if ticks > 0 { delta.add(.draftTicksMean, numerator: ticks, denominator: 1) }
            }
            record(delta, build: build, model: model, locale: locale, agent: thread.personAgent, week: week)
            thread.chipAgent = nil
            // The pushes since the person's last message reached the app this message came from.
            for push in thread.waitingPushes {
                record(push.delta, build: build, model: model, locale: push.locale, agent: push.agent, week: push.week)
            }
            thread.waitingPushes.removeAll()
            thread.lastBuild = build
            thread.lastModel = model
        case .agent(let name):
            let agent = ReportLabel(name: name).text
            if let push = message.push {
                var delta = Delta()
                let kind = Metric.pushKind(push.kind), bucket = Metric.batchBucket(push.batch)
                for metric in [Metric.pushReply, .pushHandoff, .pushQuote, .pushOther] {
                    delta.count(metric, hit: metric == kind)
                }
                for metric in [Metric.pushBatch1, .pushBatch2, .pushBatch3, .pushBatch4, .pushBatch5to9, .pushBatch10Plus] {
                    delta.count(metric, hit: metric == bucket)
                }
                delta.add(.pushBatchMean, numerator: push.batch, denominator: 1)
                // Counted under the build and model of the person's next message in the thread,
                // else their previous one, as the replay's push job attributes it: the export
                // writes `build` and `model` on person messages only. So it waits.
                thread.waitingPushes.append(WaitingPush(delta: delta, locale: locale, agent: agent, week: week))
            }
            thread.chipAgent = message.screen?.isChipEligible == true ? agent : nil
        }
    }

    /// Which routing share a group person message counts in (`nil`: none of the four, e.g. a
    /// `routed` value other than "on-device").
    private func routing(_ message: MessageRecord, in thread: OpenThread) -> Metric? {
        if let text = message.text, Mention.namesMember(text, members: thread.memberNames) { return .routeNamed }
        if message.meta.groupRouted == "on-device" { return .routeGuessedKept }
        if message.meta.groupRouted == nil {
            return message.meta.groupTo == nil ? .routeLead : .routeChose
        }
        return nil
    }

    /// The buckets with the open thread's waiting pushes counted as if the thread ended now:
    /// under the person's previous message, or "unknown" when there was none.
    var settledBuckets: [BucketKey: Bucket] {
        guard open?.waitingPushes.isEmpty == false else { return buckets }
        var copy = self
        copy.closeOpenThread()
        return copy.buckets
    }

    /// Counts the open thread's waiting pushes under the person's previous message (no next one
    /// will come), and forgets them.
    private mutating func closeOpenThread() {
        guard var thread = open, !thread.waitingPushes.isEmpty else { return }
        for push in thread.waitingPushes {
            record(push.delta, build: thread.lastBuild ?? MetricDimension.unknownKey,
                   model: thread.lastModel ?? MetricDimension.unknownKey, locale: push.locale, agent: push.agent, week: push.week)
        }
        thread.waitingPushes.removeAll()
        open = thread
    }

    private mutating func record(_ delta: Delta, build: String, model: String, locale: String, agent: String, week: String) {
        guard !delta.entries.isEmpty else { return }
        let keys = [BucketKey(dimension: .overall, key: MetricDimension.overallKey),
                    BucketKey(dimension: .build, key: build),
                    BucketKey(dimension: .model, key: model),
                    BucketKey(dimension: .locale, key: locale),
                    BucketKey(dimension: .agent, key: agent),
                    BucketKey(dimension: .week, key: week)]
        for key in keys {
            buckets[key, default: Bucket()].apply(delta)
        }
    }
}

/// A dimension and one of its keys.
struct BucketKey: Hashable, Sendable {
    let dimension: MetricDimension
    let key: String
}

/// The numerators and denominators of every metric under one key.
struct Bucket: Equatable, Sendable {
    var numerators = [Int](repeating: 0, count: Metric.allCases.count)
    var denominators = [Int](repeating: 0, count: Metric.allCases.count)
    /// Events counted under the key (a message adds one, or two when it answers a chip screen):
    /// its weight when a dimension is capped.
    var events = 0

    mutating func apply(_ delta: Delta) {
        events += 1
        for (metric, numerator, denominator) in delta.entries {
            numerators[metric.rawValue] += numerator
            denominators[metric.rawValue] += denominator
        }
    }

    func adding(_ other: Bucket) -> Bucket {
        var sum = self
        sum.events += other.events
        for index in sum.numerators.indices {
            sum.numerators[index] += other.numerators[index]
            sum.denominators[index] += other.denominators[index]
        }
        return sum
    }
}

/// What one message adds, applied to each of its dimension keys.
struct Delta: Sendable {
    var entries: [(Metric, Int, Int)] = []

    mutating func count(_ metric: Metric, hit: Bool) { entries.append((metric, hit ? 1 : 0, 1)) }
    mutating func add(_ metric: Metric, numerator: Int, denominator: Int) { entries.append((metric, numerator, denominator)) }
}

/// A push counted once the person's next message (or the thread's end) says which build and
/// model it reached.
struct WaitingPush: Sendable {
    let delta: Delta
    let locale: String
    let agent: String
    let week: String
}

/// What the counter remembers of the thread whose messages are arriving.
struct OpenThread: Sendable {
    let id: String
    /// The thread's locale as a label (`ReportLabel(locale:)`).
    let locale: String
    let isGroup: Bool
    /// The agent a person message is counted under: the thread's agent, or the group's lead.
    let personAgent: String
    /// The members' names as the export writes them, for `@Name` (`Mention`).
    let memberNames: [String]
    /// The agent whose chip-eligible screen was the last message, if it was one.
    var chipAgent: String?
    /// The build and model version (labels) of the person's last message in this thread, for
    /// pushes that no person message follows; nil before the first.
    var lastBuild: String?
    var lastModel: String?
    /// Pushes waiting for the person's next message, whose build and model they are counted under.
    var waitingPushes: [WaitingPush] = []

    init(_ thread: ThreadRecord) {
        id = thread.id
        locale = ReportLabel(locale: thread.locale).text
        isGroup = thread.isGroup
        personAgent = ReportLabel(name: thread.group?.lead ?? thread.agent).text
        memberNames = thread.group?.members.map(\.name) ?? []
    }

    /// A thread whose line was never seen (a caller feeding messages alone): no locale, no group.
    init(orphan id: String) {
        self.id = id
        locale = MetricDimension.unknownKey
        isGroup = false
        personAgent = MetricDimension.unknownKey
        memberNames = []
    }
}
