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

    /// The JSON of the table, compact, as UTF-8 (`ItemsDocument`).
    func jsonBytes() -> [UInt8] { ItemsDocument(self).jsonBytes() }

    /// The file's bytes: the JSON, zstd-compressed.
    public func compressed() -> [UInt8] {
        ZstdBytes.compress(jsonBytes())
    }

    /// The bits of `flags`: asked, answered, input cut, in budget on the host, on the device, in
    /// the phone's queue.
    enum Flag: Int, CaseIterable {
        case asked = 1, answered = 2, inputCut = 4, inBudgetHost = 8, inBudgetDevice = 16, inBudgetQueued = 32
    }

    static func flags(of item: ItemOutcome) -> Int {
        var bits = 0
        if item.asked { bits |= Flag.asked.rawValue }
        if item.answered { bits |= Flag.answered.rawValue }
        if item.inputWasCut { bits |= Flag.inputCut.rawValue }
        if item.inBudgetHost == true { bits |= Flag.inBudgetHost.rawValue }
        if item.inBudgetDevice == true { bits |= Flag.inBudgetDevice.rawValue }
        if item.inBudgetQueued == true { bits |= Flag.inBudgetQueued.rawValue }
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

    /// The table in its JSON text, an `ItemsDocument` read strictly.
    public init(json text: String, name: String) throws(StateFormatError) {
        func failure(_ what: String) -> StateFormatError { StateFormatError("\(name): \(what)") }
        let value: ReportValue
        do {
            value = try ReportValue(parsingExactJSON: text)
        } catch {
            throw failure("not JSON: \(error.description)")
        }
        do {
            items = try ReportValueDecoder(strict: true).decode(ItemsDocument.self, from: Self.withLocalesAndNeverRules(value)).items
        } catch {
            throw failure(error.description)
        }
    }

    /// A table written before locales and never rules were kept, given them: every item's locale
    /// unknown, no rule broken (so a comparison with an older baseline still pairs its items).
    static func withLocalesAndNeverRules(_ value: ReportValue) -> ReportValue {
        guard case .object(var fields) = value, let at = fields.firstIndex(where: { $0.0 == "columns" }),
              case .object(var columns) = fields[at].1, case .array(let keys)? = fields[at].1["key"] else { return value }
        let zeros = ReportValue.array(Array(repeating: .int(0), count: keys.count))
        if value["locales"] == nil, fields[at].1["locale"] == nil {
            fields.append(("locales", .array([.label(ReportLabel.unknown)])))
            columns.append(("locale", zeros))
        }
        if value["never_rules"] == nil, fields[at].1["violations"] == nil {
            fields.append(("never_rules", .array([])))
            columns.append(("violations", zeros))
        }
        fields[at].1 = .object(columns)
        return .object(fields)
    }

    static func unhex(_ text: String) -> UInt64? {
        guard text.utf8.count == 16, text.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
        return UInt64(text, radix: 16)
    }
}
