import Jobs
import Privacy

/// The JSON inside `items.json.zst` and a checkpoint's segments (`replay.items/1`,
/// docs/items.md): its one type, which `ItemTable` writes (`jsonBytes()`, the same bytes as
/// encoding it and rendering compactly) and reads back strictly, as the auditor does.
///
/// One array per field (columns), one value an item: the lists name each thread, job, fallback
/// reason, never rule, build, model and locale once, and the columns index them. Decoding
/// checks what the types cannot say: every column one value an item, every index within its
/// list, every number 0 or more, threads listed once, items in canonical order.
public struct ItemsDocument: ResultDocument, Equatable {
    public static let schema = "replay.items/1"

    /// `items.json.zst`, or a checkpoint's segment `checkpoint-NNNNNN.items.json.zst`.
    public static func isFileName(_ name: String) -> Bool {
        name == ItemTable.fileName || OutputDirectory.checkpointSequence(of: name, suffix: OutputDirectory.segmentSuffix) != nil
    }

    public var schema = SchemaName<Self>()
    public var count: Int
    public var jobs: [JobKind]
    public var fallbacks: [FallbackReason]
    public var neverRules: [NeverRule]
    public var threads: [ItemHash]
    public var builds: [BuildLabel]
    public var models: [ModelLabel]
    public var locales: [LocaleLabel]
    public var columns: Columns

    enum CodingKeys: String, CodingKey {
        case schema, count, jobs, fallbacks, neverRules = "never_rules", threads, builds, models, locales, columns
    }

    /// One value an item in each; indexes into the document's lists, `fallback` 0 for none (else
    /// 1 + its index), `flags` `ItemTable.Flag`'s bits, `violations` bit i for never rule i.
    public struct Columns: Codable, Sendable, Equatable {
        public var key: [ItemHash]
        public var thread, job, build, model, locale, flags, fallback: [Int]
        public var hostMicroseconds, deviceMicroseconds, tokensIn, tokensOut, violations: [Int]
        /// Each measure's value in billionths, null where the item has none.
        public var quality, qualityAllAnswers: ResultMap<QualityName, [Int?]>

        enum CodingKeys: String, CodingKey {
            case key, thread, job, build, model, locale, flags, fallback
            case hostMicroseconds = "host_us", deviceMicroseconds = "device_us", tokensIn = "tokens_in", tokensOut = "tokens_out"
            case violations, quality, qualityAllAnswers = "quality_all_answers"
        }
    }

    /// A key or a thread: 64 bits as 16 lowercase hex digits.
    public struct ItemHash: Codable, Sendable, Hashable {
        public var value: UInt64

        public init(_ value: UInt64) { self.value = value }

        public init(from decoder: any Decoder) throws {
            let text = try decoder.singleValueContainer().decode(String.self)
            try decoder.judge(text, as: .hex(16))
            guard let value = ItemTable.unhex(text) else { throw StateFormatError(at: decoder.codingPath, "not 16 hex digits") }
            self.value = value
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(ItemTable.hex(value))
        }
    }

    /// The document of `table`'s items (in its canonical order).
    public init(_ table: ItemTable) {
        let items = table.items
        count = items.count
        jobs = JobKind.allCases
        fallbacks = FallbackReason.allCases.sorted()
        neverRules = NeverRule.allCases
        let jobIndex = Dictionary(uniqueKeysWithValues: jobs.enumerated().map { ($1, $0) })
        let fallbackIndex = Dictionary(uniqueKeysWithValues: fallbacks.enumerated().map { ($1, $0 + 1) })
        var threadIndex: [UInt64: Int] = [:], buildIndex: [String: Int] = [:], modelIndex: [String: Int] = [:], localeIndex: [String: Int] = [:]
        var threads: [ItemHash] = [], builds: [BuildLabel] = [], models: [ModelLabel] = [], locales: [LocaleLabel] = []
        /// The index of `value` in `list`, appended when new.
        func index<Value: Hashable, Element>(_ value: Value, _ map: inout [Value: Int], _ list: inout [Element], _ element: (Value) -> Element) -> Int {
            if let i = map[value] { return i }
            map[value] = list.count
            list.append(element(value))
            return list.count - 1
        }
        // Items are read in place (`items[i].field`): a copy of an outcome retains its strings
        // and measures, once per column.
        let all = items.indices
        columns = Columns(
            key: all.map { ItemHash(items[$0].key) },
            thread: all.map { index(items[$0].thread, &threadIndex, &threads, ItemHash.init) },
            job: all.map { jobIndex[items[$0].job]! },
            build: all.map { index(items[$0].build, &buildIndex, &builds) { BuildLabel($0) } },
            model: all.map { index(items[$0].model, &modelIndex, &models) { ModelLabel($0) } },
            locale: all.map { index(items[$0].locale, &localeIndex, &locales) { LocaleLabel($0) } },
            flags: all.map { ItemTable.flags(of: items[$0]) },
            fallback: all.map { items[$0].fallback.map { fallbackIndex[$0]! } ?? 0 },
            hostMicroseconds: all.map { items[$0].hostMicroseconds ?? 0 },
            deviceMicroseconds: all.map { items[$0].deviceMicroseconds ?? 0 },
            tokensIn: all.map { items[$0].tokensIn }, tokensOut: all.map { items[$0].tokensOut },
            violations: all.map { ItemTable.bits(of: items[$0].violations) },
            quality: Self.measures(items, \.quality), qualityAllAnswers: Self.measures(items, \.qualityAllAnswers))
        (self.threads, self.builds, self.models, self.locales) = (threads, builds, models, locales)
    }

    /// One column per measure any item has, by name: its value, or nil where the item has none.
    static func measures(_ items: [ItemOutcome], _ measures: KeyPath<ItemOutcome, [String: Int]>) -> ResultMap<QualityName, [Int?]> {
        var names = Set<String>()
        for i in items.indices { names.formUnion(items[i][keyPath: measures].keys) }
        // Measures are kept under their names; the auditor refuses one no job scores (`QualityName.all`).
        return ResultMap(names.sorted().map { name in (QualityName(name), items.indices.map { items[$0][keyPath: measures][name] }) })
    }

    /// The items the columns describe, in the document's order.
    public var items: [ItemOutcome] {
        (0..<count).map { i in
            let bits = columns.flags[i]
            let asked = bits & ItemTable.Flag.asked.rawValue != 0
            return ItemOutcome(
                key: columns.key[i].value, thread: threads[columns.thread[i]].value, job: jobs[columns.job[i]],
                build: builds[columns.build[i]].text, model: models[columns.model[i]].text, locale: locales[columns.locale[i]].text,
                asked: asked, answered: bits & ItemTable.Flag.answered.rawValue != 0,
                fallback: columns.fallback[i] == 0 ? nil : fallbacks[columns.fallback[i] - 1],
                inputWasCut: bits & ItemTable.Flag.inputCut.rawValue != 0,
                inBudgetHost: asked ? bits & ItemTable.Flag.inBudgetHost.rawValue != 0 : nil,
                inBudgetDevice: asked ? bits & ItemTable.Flag.inBudgetDevice.rawValue != 0 : nil,
                inBudgetQueued: asked ? bits & ItemTable.Flag.inBudgetQueued.rawValue != 0 : nil,
                hostMicroseconds: asked ? columns.hostMicroseconds[i] : nil, deviceMicroseconds: asked ? columns.deviceMicroseconds[i] : nil,
                tokensIn: columns.tokensIn[i], tokensOut: columns.tokensOut[i],
                quality: Self.values(columns.quality, at: i), qualityAllAnswers: Self.values(columns.qualityAllAnswers, at: i),
                violations: Set(neverRules.indices.filter { columns.violations[i] & 1 << $0 != 0 }.map { neverRules[$0] }))
        }
    }

    static func values(_ measures: ResultMap<QualityName, [Int?]>, at i: Int) -> [String: Int] {
        var out: [String: Int] = [:]
        for (name, column) in measures.pairs { if let value = column[i] { out[name.name] = value } }
        return out
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schema = try container.decode(SchemaName<Self>.self, forKey: .schema)
        count = try container.decode(Int.self, forKey: .count)
        jobs = try container.decode([JobKind].self, forKey: .jobs)
        fallbacks = try container.decode([FallbackReason].self, forKey: .fallbacks)
        neverRules = try container.decode([NeverRule].self, forKey: .neverRules)
        threads = try container.decode([ItemHash].self, forKey: .threads)
        builds = try container.decode([BuildLabel].self, forKey: .builds)
        models = try container.decode([ModelLabel].self, forKey: .models)
        locales = try container.decode([LocaleLabel].self, forKey: .locales)
        columns = try container.decode(Columns.self, forKey: .columns)
        if let problem = problem { throw StateFormatError(at: decoder.codingPath, problem) }
    }

    /// What the types leave unchecked and is wrong, in a few words naming the column, or nil.
    var problem: String? {
        guard count >= 0 else { return "count is not a whole number of 0 or more" }
        guard Set(threads).count == threads.count else { return "threads: a thread hash listed twice" }
        let limits: [(String, [Int], Int?)] = [
            ("thread", columns.thread, threads.count), ("job", columns.job, jobs.count), ("build", columns.build, builds.count),
            ("model", columns.model, models.count), ("locale", columns.locale, locales.count), ("flags", columns.flags, 1 << ItemTable.Flag.allCases.count),
            ("fallback", columns.fallback, fallbacks.count + 1), ("host_us", columns.hostMicroseconds, nil),
            ("device_us", columns.deviceMicroseconds, nil), ("tokens_in", columns.tokensIn, nil), ("tokens_out", columns.tokensOut, nil),
            ("violations", columns.violations, 1 << min(neverRules.count, 62)),
        ]
        if columns.key.count != count { return "columns.key has \(columns.key.count) values for \(count) items" }
        for (name, values, limit) in limits {
            guard values.count == count else { return "columns.\(name) has \(values.count) values for \(count) items" }
            if let index = values.firstIndex(where: { value in value < 0 || limit.map { value >= $0 } ?? false }) {
                return "columns.\(name)[\(index)] is not " + (limit.map { "an index below \($0)" } ?? "a whole number of 0 or more")
            }
        }
        for (family, measures) in [("quality", columns.quality), ("quality_all_answers", columns.qualityAllAnswers)] {
            for (name, values) in measures.pairs where values.count != count || values.contains(where: { ($0 ?? 0) < 0 }) {
                return "columns.\(family).\(name.name) is not an array of \(count) whole numbers of 0 or more (or null)"
            }
        }
        // By thread hash, then key, then job.
        let order = { (i: Int) in (self.threads[self.columns.thread[i]].value, self.columns.key[i].value, self.jobs[self.columns.job[i]]) }
        if let i = (1..<max(count, 1)).first(where: { order($0) < order($0 - 1) }) {
            return "its items are not in canonical order (thread, key, job) at item \(i)"
        }
        return nil
    }
}
