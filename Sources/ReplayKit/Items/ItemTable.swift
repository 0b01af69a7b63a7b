import Foundation
import Jobs
import Privacy

/// A run's item outcomes as one file, `items.json.zst` (schema `replay.items/1`, described in
/// docs/items.md): zstd-compressed JSON, one array per field (columns), items in a canonical
/// order, so a run and the merge of its shards write the same bytes.
///
/// Columns of small integers and hashes compress to a few bytes an item, and the file is JSON
/// so the audit checks its shape with the same schema rules as every other result: keys and
/// threads are 16 hex digits, builds, models and locales report labels, everything else a number.
public struct ItemTable: Sendable, Equatable {
    public static let schema = "replay.items/1"
    public static let fileName = "items.json.zst"

    /// The outcomes, ordered by thread hash, then key, then job.
    public private(set) var items: [ItemOutcome]

    /// A table of `items`, put in the canonical order.
    public init(_ items: [ItemOutcome]) {
        // Sorted by their (thread, key, job, place) alone, then moved once: an outcome is large
        // and holds strings, and moving it at every step of the sort was most of the cost.
        let jobs = JobKind.allCases
        // The job and the place in one word: the job's rank above, the index below, so equal
        // (thread, key, job) keep their order as a stable sort would.
        let order = items.indices.map { index in
            SortKey(thread: items[index].thread, key: items[index].key,
                    jobAndIndex: UInt64(jobs.firstIndex(of: items[index].job)!) << 40 | UInt64(index))
        }.sorted()
        self.items = order.map { items[Int($0.jobAndIndex & (1 << 40 - 1))] }
    }

    /// What an outcome is sorted by: its thread, its key, then its job and where it was.
    private struct SortKey: Comparable {
        var thread: UInt64, key: UInt64, jobAndIndex: UInt64

        static func < (a: SortKey, b: SortKey) -> Bool {
            a.thread != b.thread ? a.thread < b.thread : a.key != b.key ? a.key < b.key : a.jobAndIndex < b.jobAndIndex
        }
    }

    /// Items from several tables (a merge's shards, a resumed run's segments), in canonical order.
    public init(merging tables: [ItemTable]) {
        self.init(tables.flatMap(\.items))
    }

    static func precedes(_ a: ItemOutcome, _ b: ItemOutcome) -> Bool {
        if a.thread != b.thread { return a.thread < b.thread }
        if a.key != b.key { return a.key < b.key }
        return a.job < b.job
    }

    /// Keys that more than one item has (a corpus with a repeated message id in a thread).
    public var repeatedKeys: Int {
        var seen = Set<UInt64>()
        return items.reduce(0) { $0 + (seen.insert($1.key).inserted ? 0 : 1) }
    }

    // MARK: - Writing

    /// The JSON text of the table, compact.
    public func json() -> String {
        String(decoding: jsonBytes(), as: UTF8.self)
    }

    /// The JSON of the table, compact, as UTF-8: the columns written straight into bytes.
    func jsonBytes() -> [UInt8] {
        let jobs = JobKind.allCases, fallbacks = FallbackReason.allCases.sorted()
        let jobIndex = Dictionary(uniqueKeysWithValues: jobs.enumerated().map { ($1, $0) })
        let fallbackIndex = Dictionary(uniqueKeysWithValues: fallbacks.enumerated().map { ($1, $0 + 1) })
        var threads: [UInt64] = [], threadIndex: [UInt64: Int] = [:]
        var builds: [String] = [], buildIndex: [String: Int] = [:]
        var models: [String] = [], modelIndex: [String: Int] = [:]
        var locales: [String] = [], localeIndex: [String: Int] = [:]
        func index<T: Hashable>(_ value: T, in list: inout [T], _ map: inout [T: Int]) -> Int {
            if let i = map[value] { return i }
            map[value] = list.count
            list.append(value)
            return list.count - 1
        }
        var qualityNames = Set<String>(), allAnswerNames = Set<String>()
        for i in items.indices {
            qualityNames.formUnion(items[i].quality.keys)
            allAnswerNames.formUnion(items[i].qualityAllAnswers.keys)
        }
        var thread: [Int] = [], build: [Int] = [], model: [Int] = [], locale: [Int] = []
        thread.reserveCapacity(items.count); build.reserveCapacity(items.count); model.reserveCapacity(items.count)
        locale.reserveCapacity(items.count)
        // Items are read in place (`items[i].field`): a copy of an outcome retains its strings
        // and measures, once per column.
        for i in items.indices {
            thread.append(index(items[i].thread, in: &threads, &threadIndex))
            build.append(index(items[i].build, in: &builds, &buildIndex))
            model.append(index(items[i].model, in: &models, &modelIndex))
            locale.append(index(items[i].locale, in: &locales, &localeIndex))
        }
        let all = items.indices
        var out = JSONBytes(capacity: 256 + items.count * 64)
        out.raw("{\"schema\":"); out.string(Self.schema)
        out.raw(",\"count\":"); out.int(items.count)
        out.raw(",\"jobs\":"); out.array(jobs) { $0.string($1.rawValue) }
        out.raw(",\"fallbacks\":"); out.array(fallbacks) { $0.string($1.rawValue) }
        out.raw(",\"never_rules\":"); out.array(NeverRule.allCases) { $0.string($1.rawValue) }
        out.raw(",\"threads\":"); out.array(threads) { $0.hex16($1) }
        out.raw(",\"builds\":"); out.array(builds) { $0.string($1) }
        out.raw(",\"models\":"); out.array(models) { $0.string($1) }
        out.raw(",\"locales\":"); out.array(locales) { $0.string($1) }
        out.raw(",\"columns\":{")
        out.raw("\"key\":"); out.array(all) { $0.hex16(items[$1].key) }
        out.raw(",\"thread\":"); out.array(thread) { $0.int($1) }
        out.raw(",\"job\":"); out.array(all) { $0.int(jobIndex[items[$1].job]!) }
        out.raw(",\"build\":"); out.array(build) { $0.int($1) }
        out.raw(",\"model\":"); out.array(model) { $0.int($1) }
        out.raw(",\"locale\":"); out.array(locale) { $0.int($1) }
        out.raw(",\"flags\":"); out.array(all) { $0.int(Self.flags(of: items[$1])) }
        out.raw(",\"fallback\":"); out.array(all) { $0.int(items[$1].fallback.map { fallbackIndex[$0]! } ?? 0) }
        out.raw(",\"host_us\":"); out.array(all) { $0.int(items[$1].hostMicroseconds ?? 0) }
        out.raw(",\"device_us\":"); out.array(all) { $0.int(items[$1].deviceMicroseconds ?? 0) }
        out.raw(",\"tokens_in\":"); out.array(all) { $0.int(items[$1].tokensIn) }
        out.raw(",\"tokens_out\":"); out.array(all) { $0.int(items[$1].tokensOut) }
        out.raw(",\"violations\":"); out.array(all) { $0.int(Self.bits(of: items[$1].violations)) }
        out.raw(",\"quality\":"); Self.measures(qualityNames.sorted(), items, \.quality, into: &out)
        out.raw(",\"quality_all_answers\":"); Self.measures(allAnswerNames.sorted(), items, \.qualityAllAnswers, into: &out)
        out.raw("}}\n")
        return out.bytes
    }

    /// The file's bytes: the JSON, zstd-compressed.
    public func compressed() -> [UInt8] {
        ZstdBytes.compress(jsonBytes())
    }

    /// The bits of `flags`: asked, answered, input cut, in budget on the host, on the device.
    enum Flag: Int, CaseIterable {
        case asked = 1, answered = 2, inputCut = 4, inBudgetHost = 8, inBudgetDevice = 16
    }

    static func flags(of item: ItemOutcome) -> Int {
        var bits = 0
        if item.asked { bits |= Flag.asked.rawValue }
        if item.answered { bits |= Flag.answered.rawValue }
        if item.inputWasCut { bits |= Flag.inputCut.rawValue }
        if item.inBudgetHost == true { bits |= Flag.inBudgetHost.rawValue }
        if item.inBudgetDevice == true { bits |= Flag.inBudgetDevice.rawValue }
        return bits
    }

    /// The never rules an item broke as bits: rule i of `NeverRule.allCases` is bit i.
    static func bits(of violations: Set<NeverRule>) -> Int {
        NeverRule.allCases.enumerated().reduce(0) { bits, rule in violations.contains(rule.element) ? bits | 1 << rule.offset : bits }
    }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// One column per measure: its value in billionths, or null where the item has none.
    static func measures(_ names: [String], _ items: [ItemOutcome], _ measures: KeyPath<ItemOutcome, [String: Int]>,
                         into out: inout JSONBytes) {
        out.raw("{")
        for (position, name) in names.enumerated() {
            if position > 0 { out.raw(",") }
            out.string(name)
            out.raw(":")
            out.array(items.indices) { out, i in
                if let value = items[i][keyPath: measures][name] { out.int(value) } else { out.raw("null") }
            }
        }
        out.raw("}")
    }

    // MARK: - Reading

    /// The table in a file's bytes (zstd-compressed JSON); `name` is how errors name the file.
    public init(compressed bytes: [UInt8], name: String) throws(StateFormatError) {
        let json: [UInt8]
        do {
            json = try ZstdBytes.decompress(bytes)
        } catch {
            throw StateFormatError("\(name): \(error.description)")
        }
        try self.init(json: String(decoding: json, as: UTF8.self), name: name)
    }

    /// The table in its JSON text.
    public init(json text: String, name: String) throws(StateFormatError) {
        func failure(_ what: String) -> StateFormatError { StateFormatError("\(name): \(what)") }
        let value: ReportValue
        do {
            value = try ReportValue(parsingExactJSON: text)
        } catch {
            throw failure("not JSON: \(error.description)")
        }
        guard value["schema"] == .label(Self.schema) else { throw failure("its schema is not \(Self.schema)") }
        let count: Int
        do { count = try value.int("count") } catch { throw failure(error.description) }
        let jobs = try Self.names(value, "jobs", name).map { (text: String) throws(StateFormatError) -> JobKind in
            guard let kind = JobKind(rawValue: text) else { throw failure("jobs: \(ReportLabel(token: text).text) is not a job") }
            return kind
        }
        let fallbacks = try Self.names(value, "fallbacks", name).map { (text: String) throws(StateFormatError) -> FallbackReason in
            guard let reason = FallbackReason(rawValue: text) else { throw failure("fallbacks: \(ReportLabel(token: text).text) is not a fallback reason") }
            return reason
        }
        let threads = try Self.names(value, "threads", name).map { (text: String) throws(StateFormatError) -> UInt64 in
            guard let hash = Self.unhex(text) else { throw failure("threads: a thread hash is not 16 hex digits") }
            return hash
        }
        let builds = try Self.names(value, "builds", name), models = try Self.names(value, "models", name)
        // A table written before locales were kept has none: every item's is unknown.
        let hasLocales = value["locales"] != nil
        let locales = hasLocales ? try Self.names(value, "locales", name) : [ReportLabel.unknown.text]
        guard let columns = value["columns"] else { throw failure("it has no columns") }
        func column(_ key: String) throws(StateFormatError) -> [ReportValue] {
            guard case .array(let values)? = columns[key] else { throw failure("columns.\(key) is missing or not an array") }
            guard values.count == count else { throw failure("columns.\(key) has \(values.count) values for \(count) items") }
            return values
        }
        func ints(_ key: String, below limit: Int? = nil) throws(StateFormatError) -> [Int] {
            var out: [Int] = []
            for (index, element) in try column(key).enumerated() {
                guard case .int(let n) = element, n >= 0, limit.map({ n < $0 }) ?? true else {
                    throw failure("columns.\(key)[\(index)] is not " + (limit.map { "an index below \($0)" } ?? "a whole number of 0 or more"))
                }
                out.append(n)
            }
            return out
        }
        let keys = try column("key")
        let thread = try ints("thread", below: threads.count), job = try ints("job", below: jobs.count)
        let build = try ints("build", below: builds.count), model = try ints("model", below: models.count)
        let locale = hasLocales ? try ints("locale", below: locales.count) : [Int](repeating: 0, count: count)
        let flags = try ints("flags", below: 32), fallback = try ints("fallback", below: fallbacks.count + 1)
        let host = try ints("host_us"), device = try ints("device_us")
        let tokensIn = try ints("tokens_in"), tokensOut = try ints("tokens_out")
        // The never rules the `violations` column's bits name, in the file's order; a table
        // written before they were kept has neither, and no item broke one.
        var rules: [NeverRule] = []
        var violations = [Int](repeating: 0, count: count)
        if value["never_rules"] != nil {
            rules = try Self.names(value, "never_rules", name).map { (text: String) throws(StateFormatError) -> NeverRule in
                guard let rule = NeverRule(rawValue: text) else { throw failure("never_rules: \(ReportLabel(token: text).text) is not a never rule") }
                return rule
            }
            violations = try ints("violations", below: 1 << rules.count)
        }
        let quality = try Self.measures(columns, "quality", count: count, name: name)
        let allAnswers = try Self.measures(columns, "quality_all_answers", count: count, name: name)
        var items: [ItemOutcome] = []
        items.reserveCapacity(count)
        for i in 0..<count {
            guard case .label(let text) = keys[i], let key = Self.unhex(text) else { throw failure("columns.key[\(i)] is not 16 hex digits") }
            let bits = flags[i]
            let asked = bits & Flag.asked.rawValue != 0
            items.append(ItemOutcome(
                key: key, thread: threads[thread[i]], job: jobs[job[i]], build: builds[build[i]], model: models[model[i]],
                locale: locales[locale[i]],
                asked: asked, answered: bits & Flag.answered.rawValue != 0,
                fallback: fallback[i] == 0 ? nil : fallbacks[fallback[i] - 1], inputWasCut: bits & Flag.inputCut.rawValue != 0,
                inBudgetHost: asked ? bits & Flag.inBudgetHost.rawValue != 0 : nil,
                inBudgetDevice: asked ? bits & Flag.inBudgetDevice.rawValue != 0 : nil,
                hostMicroseconds: asked ? host[i] : nil, deviceMicroseconds: asked ? device[i] : nil,
                tokensIn: tokensIn[i], tokensOut: tokensOut[i],
                quality: quality.compactMapValues { $0[i] }, qualityAllAnswers: allAnswers.compactMapValues { $0[i] },
                violations: Set(rules.indices.filter { violations[i] & 1 << $0 != 0 }.map { rules[$0] })))
        }
        self.items = items
        guard zip(items, items.dropFirst()).allSatisfy({ !Self.precedes($1, $0) }) else { throw failure("its items are not in canonical order (thread, key, job)") }
    }

    static func names(_ value: ReportValue, _ key: String, _ name: String) throws(StateFormatError) -> [String] {
        guard case .array(let values)? = value[key] else { throw StateFormatError("\(name): \(key) is missing or not an array") }
        var out: [String] = []
        for element in values {
            guard case .label(let text) = element else { throw StateFormatError("\(name): \(key) holds something other than text") }
            out.append(text)
        }
        return out
    }

    static func measures(_ columns: ReportValue, _ key: String, count: Int, name: String) throws(StateFormatError) -> [String: [Int?]] {
        guard case .object(let fields)? = columns[key] else { throw StateFormatError("\(name): columns.\(key) is missing or not an object") }
        var out: [String: [Int?]] = [:]
        for (measure, values) in fields {
            guard case .array(let elements) = values, elements.count == count else {
                throw StateFormatError("\(name): columns.\(key).\(ReportLabel(token: measure).text) is not an array of \(count) values")
            }
            var column: [Int?] = []
            column.reserveCapacity(count)
            for element in elements {
                switch element {
                case .int(let n): column.append(n)
                case .null: column.append(nil)
                default: throw StateFormatError("\(name): columns.\(key).\(ReportLabel(token: measure).text) holds something other than whole numbers")
                }
            }
            out[measure] = column
        }
        return out
    }

    static func unhex(_ text: String) -> UInt64? {
        guard text.utf8.count == 16, text.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
        return UInt64(text, radix: 16)
    }
}
