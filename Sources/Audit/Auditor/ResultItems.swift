import Confinement
import Foundation
import Privacy

/// The checks of a run's item outcomes, `items.json.zst` and a checkpoint's segment
/// `checkpoint-NNNNNN.items.json.zst` (docs/items.md), beyond their shape (`ResultSchemas.items`):
/// one zstd frame of compact JSON exactly as `ItemTable.json` writes it, every column one value
/// per item, every index within its list, items in canonical order.
///
/// The shape leaves numbers free; these leave them no room beyond what an item's outcome needs:
/// an index past its list, a column longer than the count, or items out of order could each carry
/// other data. Latencies and token counts remain free numbers, as every result's counts do.
enum ResultItems {
    /// Whether `name` is a checkpoint's items segment: `checkpoint-NNNNNN.items.json.zst`.
    static func isSegmentName(_ name: String) -> Bool {
        let suffix = ".items.json.zst"
        guard name.hasSuffix(suffix) else { return false }
        return ResultSchemaCheck.isCheckpointName(String(name.dropLast(suffix.count)) + ".json")
    }

    /// The value as `ItemTable.json` writes it: no white space, keys in order, one line break at
    /// the end.
    static func compactJSON(_ value: ReportValue) -> String {
        var out = ""
        append(value, to: &out)
        return out + "\n"
    }

    private static func append(_ value: ReportValue, to out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .number(let d): out += "\(d)"
        case .label(let s): out += quoted(s)
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                append(item, to: &out)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            for (index, (key, child)) in fields.enumerated() {
                if index > 0 { out += "," }
                out += quoted(key) + ":"
                append(child, to: &out)
            }
            out += "}"
        }
    }

    /// A string as `ItemTable.quoted` writes it: quotes and backslashes escaped, control
    /// characters as `\u00XX`, nothing else.
    static func quoted(_ s: String) -> String { ReportValue.compactQuoted(s) }

    /// Where a table that has its shape is still not one `ItemTable` writes: `(path, what)`.
    static func problems(_ value: ReportValue) -> [(String, String)] {
        var problems: [(String, String)] = []
        guard case .int(let count)? = value["count"], count >= 0 else { return [("count", "not a count of items")] }
        func list(_ key: String) -> [ReportValue] {
            if case .array(let items)? = value[key] { return items }
            return []
        }
        let lengths = ["jobs", "fallbacks", "threads", "builds", "models"].reduce(into: [String: Int]()) { $0[$1] = list($1).count }
        if Set(list("threads").compactMap { if case .label(let s) = $0 { s } else { nil } }).count != lengths["threads"] {
            problems.append(("threads", "a thread hash listed twice"))
        }
        guard case .object(let columns)? = value["columns"] else { return problems }
        var ints: [String: [Int]] = [:]
        for (name, column) in columns {
            guard case .array(let values) = column else {
                if case .object(let measures) = column {
                    for (_, values) in measures {
                        guard case .array(let items) = values else { continue }
                        if items.count != count { problems.append(("columns.\(name)", "a measure with other than one value per item")) }
                        if items.contains(where: { if case .int(let n) = $0 { n < 0 } else { false } }) {
                            problems.append(("columns.\(name)", "a measure below zero"))
                        }
                    }
                }
                continue
            }
            if values.count != count { problems.append(("columns.\(name)", "\(values.count) values for \(count) items")) }
            ints[name] = values.compactMap { if case .int(let n) = $0 { n } else { nil } }
            if ints[name]!.contains(where: { $0 < 0 }) { problems.append(("columns.\(name)", "a value below zero")) }
        }
        let limits: [String: Int] = [
            "thread": lengths["threads"]!, "job": lengths["jobs"]!, "build": lengths["builds"]!, "model": lengths["models"]!,
            "fallback": lengths["fallbacks"]! + 1, "flags": 32,
        ]
        for (name, limit) in limits.sorted(by: { $0.key < $1.key }) where ints[name]?.contains(where: { $0 >= limit }) == true {
            problems.append(("columns.\(name)", "an index beyond its list"))
        }
        // Canonical order: by thread hash, then key, then job (equal-length lowercase hex sorts as its number).
        let threads = list("threads").map { if case .label(let s) = $0 { s } else { "" } }
        if case .array(let keys)? = columns.first(where: { $0.0 == "key" })?.1, let thread = ints["thread"], let job = ints["job"],
           keys.count == count, thread.count == count, job.count == count,
           thread.allSatisfy({ $0 < threads.count }) {
            let keyTexts = keys.map { if case .label(let s) = $0 { s } else { "" } }
            let order = (0..<count).map { i in (threads[thread[i]], keyTexts[i], job[i]) }
            if zip(order, order.dropFirst()).contains(where: { $0 > $1 }) {
                problems.append(("columns", "items out of canonical order (thread, key, job)"))
            }
        }
        return problems
    }
}
