import Privacy
import Export

/// Counts the flywheel metrics of a corpus from message metadata, streaming, one record at a time.
///
/// Feed it the reader's events in order (a thread line, then its messages: the export keeps a
/// thread's lines together). It keeps integer numerators and denominators per metric and per key
/// of every dimension, plus the little state of the open thread that the rules need (the previous
/// message, the person's last build, the pushes waiting for the person's next message). Message text is read for one thing only, whether it names a
/// group member as `@Name` (`Mention`, the rule the routing job uses); nothing of it is kept.
/// Besides the usage metrics it counts the spec's contract checks (`SpecContract`), from the
/// same facts.
///
/// It counts `MessageOutline`s: a full record is outlined first, so both ways of reading count
/// by one rule. Per message it works on slot numbers, not strings: each distinct raw build,
/// model, locale and agent name is labelled (`ReportLabel`) and looked up once, each day's week once. Counters of disjoint sets of threads merge to
/// exactly the counter of their union, which is how sharded runs combine.
public struct FlywheelCounter: Sendable, Equatable {
    /// Thread lines counted.
    public internal(set) var threads = 0
    /// Message lines counted.
    public internal(set) var messages = 0
    /// Numerators and denominators by dimension and key, of everything settled: all but the open
    /// thread's pushes still waiting for the person's next message (see `settledTable`).
    /// Internal, not private: FlywheelCounter+Codable.swift writes and reads them.
    var table = BucketTable()
    /// The thread whose messages are arriving.
    private var open: OpenThread?
    /// The slots of raw metadata values already labelled (`LabelSlots`): not counts, so `==`
    /// ignores them.
    private var labels = LabelSlots()
    /// The last message's date, read once while it repeats (`ISOWeek.utcDay(bytes:memo:)`): a
    /// cache, not a count, so `==` ignores it.
    private var dateMemo = ISOWeek.PlainDateMemo()
    /// Whether the last model version checked is a version number (`SpecContract`): a cache,
    /// not a count, so `==` ignores it.
    private var modelVerdicts = SpecContract.ModelVerdicts()
    /// The builds, models and agent names the team allows as written (`--labels`); every other
    /// name is hashed. Not a count, so `==` ignores it.
    public let listed: TeamLabels

    /// An empty counter, labelling with the team's list `listed`.
    public init(listed: TeamLabels = .none) { self.listed = listed }

    /// Counts every record a corpus reader hands out (bad lines and failed files are the reader's
    /// to report; they hold nothing to count).
    public mutating func add(_ event: ReaderEvent) {
        if case .record(let record, _) = event { add(record) }
    }

    /// Counts every record of the reader's outline mode (`CorpusReader.nextOutline()`): the
    /// same counts as the full events of the same corpus.
    public mutating func add(_ event: OutlineEvent) {
        if case .record(let record, _) = event { add(record) }
    }

    /// Counts one record as its outline: the flywheel reads no words.
    public mutating func add(_ record: ExportRecord) {
        add(RecordOutline(record))
    }

    /// Counts one outlined record: a thread line opens a thread, a message is counted in the open thread.
    public mutating func add(_ record: RecordOutline) {
        switch record {
        case .header:
            break
        case .thread(let thread):
            add(thread)
        case .message(let message):
            add(message)
        }
    }

    /// Adds everything counted in `other` (of other threads): exact, since everything is an integer.
    /// The open-thread state of `self` is kept, so merge finished counters.
    public mutating func merge(_ other: FlywheelCounter) {
        threads += other.threads
        messages += other.messages
        for (key, bucket) in other.settledTable.entries { table.add(bucket, to: key) }
    }

    /// This counter and `other` combined.
    public func merged(with other: FlywheelCounter) -> FlywheelCounter {
        var copy = self
        copy.merge(other)
        return copy
    }

    /// Counts every event of `reader` into a new counter (reading outlines: no words are built).
    public static func count(_ reader: CorpusReader, listed: TeamLabels = .none) -> FlywheelCounter {
        var counter = FlywheelCounter(listed: listed)
        while let event = reader.nextOutline() { counter.add(event) }
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
        return settledTable.entries.filter { $0.key.dimension == dimension }.map(\.key.key).sorted(by: ReportLabel.precedes)
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
            for (key, bucket) in copy.table.entries where key.dimension == dimension { weights[key.key] = bucket.events }
            let shown = ReportLabel.shown(weights, limit: limit, order: ReportLabel.precedes)
            let other = BucketKey(dimension: dimension, key: MetricDimension.otherKey)
            for key in weights.keys where !shown.contains(key) {
                guard let bucket = copy.table.remove(BucketKey(dimension: dimension, key: key)) else { continue }
                copy.table.add(bucket, to: other)
            }
        }
        return copy
    }

    /// The cell of `metric` under `key` of `dimension`; 0 of 0 for a key never seen.
    public func cell(_ metric: Metric, _ dimension: MetricDimension = .overall, _ key: String = MetricDimension.overallKey) -> RateCell {
        settledTable.cell(metric, dimension, key)
    }

    /// Every cell: each metric (in order) under each dimension (in order) and each of its keys.
    ///
    /// A key seen by any metric of a dimension is listed for every metric, so a week with chips
    /// but no drafts shows drafts as 0 of 0 (rate empty) rather than leaving the row out.
    public func cells() -> [RateCell] {
        var settled = self
        settled.closeOpenThread()
        let keysByDimension = MetricDimension.allCases.map { settled.keys($0) }
        var result: [RateCell] = []
        for metric in Metric.allCases {
            for dimension in MetricDimension.allCases {
                for key in keysByDimension[dimension.rawValue] {
                    result.append(settled.table.cell(metric, dimension, key))
                }
            }
        }
        return result
    }

    // MARK: - Counting

    private mutating func add(_ thread: ThreadRecord) {
        threads += 1
        closeOpenThread()
        open = OpenThread(id: thread.id, localeSlot: slot(.locale, thread.locale), isGroup: thread.isGroup,
                          personAgentSlot: slot(.agent, thread.group?.lead ?? thread.agent),
                          memberNames: thread.group?.members.map(\.name) ?? [])
    }

    private mutating func add(_ message: MessageOutline) {
        messages += 1
        // Taken out of `open` while it changes, so its arrays stay uniquely referenced (a copy
        // left behind in `open` would make every append copy them).
        var taken = open.take()
        if taken?.id != message.thread {
            open = taken
            closeOpenThread()
            taken = OpenThread(id: message.thread, localeSlot: slot(.locale, nil), isGroup: false,
                               personAgentSlot: slot(.agent, nil), memberNames: [])
            open = nil
        }
        guard var thread = taken.take() else { return }
        count(message, in: &thread)
        // Put back by a move: a `defer` here kept the variable alive and copied it whole.
        open = consume thread
    }

    private mutating func count(_ message: MessageOutline, in thread: inout OpenThread) {
        let locale = message.lang.map { slot(.locale, $0) } ?? thread.localeSlot
        let week = message.withAtBytes { weekSlot($0) }
        switch message.from {
        case .person:
            // Read through `message`, not copied out: a copy of `meta` retained its six fields.
            let build = slot(.build, message.meta.build), model = slot(.model, message.meta.model)
            if let chipAgent = thread.chipAgentSlot {
                var delta = Delta()
                delta.count(.chipsSuggested, hit: message.meta.via == "suggested")
                record(delta, build: build, model: model, locale: locale, agent: chipAgent, week: week)
            }
            var delta = Delta()
            var named = false
            if thread.isGroup {
                let route = routing(message, in: thread)
                named = route == .routeNamed
                delta.count(.routeNamed, hit: named)
                delta.count(.routeGuessedKept, hit: route == .routeGuessedKept)
                delta.count(.routeChose, hit: route == .routeChose)
                delta.count(.routeLead, hit: route == .routeLead)
            }
            if message.meta.offline {
                let ticks = message.meta.draftTicks?.count ?? 0
                delta.count(.draftUsed, hit: ticks > 0)
                if ticks > 0 { delta.add(.draftTicksMean, sum: ticks) }
            }
            checkContract(message, chipOffered: thread.chipAgentSlot != nil, named: named, in: thread, into: &delta)
            record(delta, build: build, model: model, locale: locale, agent: thread.personAgentSlot, week: week)
            thread.chipAgentSlot = nil
            // The pushes since the person's last message reached the app this message came from.
            for push in thread.waitingPushes {
                record(push.delta, build: build, model: model, locale: push.localeSlot, agent: push.agentSlot, week: push.weekSlot)
            }
            thread.waitingPushes.removeAll(keepingCapacity: true)
            thread.lastBuildSlot = build
            thread.lastModelSlot = model
        case .agent(let name):
            let agent = slot(.agent, name)
            if let push = message.push {
                var delta = Delta()
                let kind = Metric.pushKind(push.kind), bucket = Metric.batchBucket(push.batch)
                for metric in FlywheelCounter.pushKinds {
                    delta.count(metric, hit: metric == kind)
                }
                for metric in FlywheelCounter.pushBatches {
                    delta.count(metric, hit: metric == bucket)
                }
                delta.add(.pushBatchMean, sum: push.batch)
                // Counted under the build and model of the person's next message in the thread,
                // else their previous one, as the replay's push job attributes it: the export
                // writes `build` and `model` on person messages only. So it waits.
                thread.waitingPushes.append(WaitingPush(delta: delta, localeSlot: locale, agentSlot: agent, weekSlot: week))
            }
            thread.chipAgentSlot = message.isChipEligible ? agent : nil
        }
    }

    /// Counts the spec's contract checks (`SpecContract`) of a person message into `delta`:
    /// each over the messages carrying what it checks, a hit where the message breaks the rule.
    /// `chipOffered`: the message directly follows a chip-eligible agent screen; `named`: it is a
    /// group message that names a member.
    private mutating func checkContract(_ message: MessageOutline, chipOffered: Bool, named: Bool, in thread: OpenThread, into delta: inout Delta) {
        if message.meta.sentFromChip { delta.count(.contractChipNotOffered, hit: !chipOffered) }
        if thread.isGroup && message.meta.groupRouted != nil { delta.count(.contractRoutedNamed, hit: named) }
        if message.meta.draftTicks != nil { delta.count(.contractTicksNotOffline, hit: !message.meta.offline) }
        delta.count(.contractMetaExtraKey, hit: message.meta.hasUndefinedKey)
        delta.count(.contractMetaOffSpec, hit: SpecContract.holdsValueOffSpec(message, members: thread.memberNames, models: &modelVerdicts))
    }

    private static let pushKinds: [Metric] = [.pushReply, .pushHandoff, .pushQuote, .pushOther]
    private static let pushBatches: [Metric] = [.pushBatch1, .pushBatch2, .pushBatch3, .pushBatch4, .pushBatch5to9, .pushBatch10Plus]

    /// Which routing share a group person message counts in (`nil`: none of the four, e.g. a
    /// `routed` value other than "on-device").
    private func routing(_ message: MessageOutline, in thread: OpenThread) -> Metric? {
        if let text = message.mentionText, Mention.namesMember(text, members: thread.memberNames) { return .routeNamed }
        if message.meta.groupRouted == "on-device" { return .routeGuessedKept }
        if message.meta.groupRouted == nil {
            return message.meta.groupTo == nil ? .routeLead : .routeChose
        }
        return nil
    }

    /// The slot of the label of `raw` under `dimension` (build, model, locale or agent), through
    /// the dimension's `ReportLabel` rule; labelled once per distinct raw value.
    private mutating func slot(_ dimension: MetricDimension, _ raw: String?) -> Int {
        if let slot = labels.slot(dimension, raw) { return slot }
        let label: String
        switch dimension {
        case .build: label = ReportLabel(build: raw, listed: listed).text
        case .model: label = ReportLabel(model: raw, listed: listed).text
        case .locale: label = ReportLabel(locale: raw).text
        case .agent: label = ReportLabel(agent: raw, listed: listed).text
        case .overall, .week: label = MetricDimension.unknownKey
        }
        let slot = table.slot(BucketKey(dimension: dimension, key: label))
        labels.remember(dimension, raw, slot)
        return slot
    }

    /// The slot of the ISO week of timestamp `at` ("unknown" when it cannot be read).
    private mutating func weekSlot(_ at: UnsafeRawBufferPointer) -> Int {
        let day = ISOWeek.utcDay(bytes: at.assumingMemoryBound(to: UInt8.self), memo: &dateMemo)
        if let slot = labels.weekSlot(day) { return slot }
        let slot = table.slot(BucketKey(dimension: .week, key: day.map(ISOWeek.label(forDay:)) ?? MetricDimension.unknownKey))
        labels.rememberWeek(day, slot)
        return slot
    }

    /// The buckets with the open thread's waiting pushes counted as if the thread ended now:
    /// under the person's previous message, or "unknown" when there was none.
    var settledBuckets: [BucketKey: Bucket] { settledTable.dictionary }

    /// The table as `settledBuckets` describes it.
    var settledTable: BucketTable {
        guard open?.waitingPushes.isEmpty == false else { return table }
        var copy = self
        copy.closeOpenThread()
        return copy.table
    }

    /// Counts the open thread's waiting pushes under the person's previous message (no next one
    /// will come), and forgets them.
    private mutating func closeOpenThread() {
        guard open?.waitingPushes.isEmpty == false, var thread = open.take() else { return }
        let build = thread.lastBuildSlot ?? slot(.build, nil)
        let model = thread.lastModelSlot ?? slot(.model, nil)
        for push in thread.waitingPushes {
            record(push.delta, build: build, model: model, locale: push.localeSlot, agent: push.agentSlot, week: push.weekSlot)
        }
        thread.waitingPushes.removeAll()
        open = thread
    }

    private mutating func record(_ delta: Delta, build: Int, model: Int, locale: Int, agent: Int, week: Int) {
        guard !delta.isEmpty else { return }
        table.apply(delta, to: (BucketTable.overallSlot, build, model, locale, agent, week))
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
    /// Events counted under the key (a person message adds one, or two when it answers a chip
    /// screen; an agent message one when it carried a push): its weight when a dimension is capped.
    var events = 0

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

/// What one message adds, applied to each of its dimension keys: per metric, one to the
/// denominator, and to the numerator one (a hit) or a sum (a mean's).
///
/// Bit masks and two inline sums rather than an array: one is made for every message.
struct Delta: Sendable {
    /// Metrics whose denominator grows by one (bit `rawValue`).
    private(set) var counted: UInt32 = 0
    /// Of those, the ones whose numerator grows by one.
    private(set) var hits: UInt32 = 0
    /// Numerators that grow by a sum (the means), by metric `rawValue`; at most two per message.
    private(set) var firstSum: (Int, Int)?
    private(set) var secondSum: (Int, Int)?

    /// Whether it adds nothing.
    var isEmpty: Bool { counted == 0 }

    /// One more of `metric`'s population, and one more of its numerator when `hit`.
    mutating func count(_ metric: Metric, hit: Bool) {
        precondition(metric.rawValue < UInt32.bitWidth, "a metric beyond the delta's mask")
        let bit: UInt32 = 1 << UInt32(metric.rawValue)
        precondition(counted & bit == 0, "a metric is counted once per message")
        counted |= bit
        if hit { hits |= bit }
    }

    /// One more of `metric`'s population, and `sum` more of its numerator (a mean's sum).
    mutating func add(_ metric: Metric, sum: Int) {
        count(metric, hit: false)
        if firstSum == nil {
            firstSum = (metric.rawValue, sum)
        } else {
            precondition(secondSum == nil, "at most two sums per message")
            secondSum = (metric.rawValue, sum)
        }
    }
}

/// A push counted once the person's next message (or the thread's end) says which build and
/// model it reached.
struct WaitingPush: Sendable {
    let delta: Delta
    let localeSlot: Int
    let agentSlot: Int
    let weekSlot: Int
}

/// What the counter remembers of the thread whose messages are arriving, as bucket slots.
struct OpenThread: Sendable {
    let id: String
    /// The slot of the thread's locale label (`ReportLabel(locale:)`).
    let localeSlot: Int
    let isGroup: Bool
    /// The slot of the agent a person message is counted under: the thread's agent, or the group's lead.
    let personAgentSlot: Int
    /// The members' names as the export writes them, for `@Name` (`Mention`).
    let memberNames: [String]
    /// The slot of the agent whose chip-eligible screen was the last message, if it was one.
    var chipAgentSlot: Int?
    /// The build and model version slots of the person's last message in this thread, for
    /// pushes that no person message follows; nil before the first.
    var lastBuildSlot: Int?
    var lastModelSlot: Int?
    /// Pushes waiting for the person's next message, whose build and model they are counted under.
    var waitingPushes: [WaitingPush] = []

    init(id: String, localeSlot: Int, isGroup: Bool, personAgentSlot: Int, memberNames: [String]) {
        self.id = id
        self.localeSlot = localeSlot
        self.isGroup = isGroup
        self.personAgentSlot = personAgentSlot
        self.memberNames = memberNames
    }
}
