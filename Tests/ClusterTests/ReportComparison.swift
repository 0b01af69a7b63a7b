import Foundation

/// Compares a merged report (report.json or the flywheel's metrics.json) with one process's.
///
/// Every value of the one-process file must be in the merged one and equal to it: integers (every
/// count) exactly, other numbers (rates, means, percentiles) to 1e-9 relative, strings, labels and
/// lists as they are. Not compared: when and how long the run took (`started`, `seconds`,
/// `latency_ms`, which a dry run leaves empty anyway), the `sandbox` block (it describes the process
/// that wrote the file: its directories and descriptors), and keys about sharding itself (any key
/// naming a shard or resume), which one process does not have. The merged file may hold more keys.
enum ReportComparison {
    static let ignoredKeys: Set<String> = ["started", "seconds", "latency_ms", "sandbox"]
    static let ignoredKeyParts = ["shard", "resume"]

    static func ignored(_ key: String) -> Bool {
        ignoredKeys.contains(key) || ignoredKeyParts.contains { key.lowercased().contains($0) }
    }

    /// The paths where the two files differ, each with both values (reports hold counts, rates and
    /// labels, never a corpus's words).
    static func differences(_ onePath: String, _ mergedPath: String) throws -> [String] {
        let one = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: onePath)), options: [.fragmentsAllowed])
        let merged = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: mergedPath)), options: [.fragmentsAllowed])
        var found: [String] = []
        compare(one, merged, path: "", into: &found)
        return found
    }

    static func compare(_ one: Any, _ merged: Any?, path: String, into found: inout [String]) {
        guard let merged else { found.append("\(path): missing from the merge (one process: \(short(one)))"); return }
        switch one {
        case let object as [String: Any]:
            guard let other = merged as? [String: Any] else { found.append("\(path): an object, merged \(short(merged))"); return }
            for key in object.keys.sorted() where !ignored(key) {
                compare(object[key]!, other[key], path: path.isEmpty ? key : path + "." + key, into: &found)
            }
        case let list as [Any]:
            guard let other = merged as? [Any] else { found.append("\(path): a list, merged \(short(merged))"); return }
            guard list.count == other.count else { found.append("\(path): \(list.count) items, merged \(other.count)"); return }
            for (index, item) in list.enumerated() { compare(item, other[index], path: path + "[\(index)]", into: &found) }
        case let text as String:
            if merged as? String != text { found.append("\(path): \(short(text)), merged \(short(merged))") }
        case is NSNull:
            if !(merged is NSNull) { found.append("\(path): null, merged \(short(merged))") }
        case let number as NSNumber:
            guard let other = merged as? NSNumber else { found.append("\(path): \(number), merged \(short(merged))"); return }
            let a = number.doubleValue, b = other.doubleValue
            let equal = (a.rounded() == a && b.rounded() == b) ? a == b : abs(a - b) <= 1e-9 * max(1, abs(a), abs(b))
            if !equal { found.append("\(path): \(number), merged \(other)") }
        default:
            found.append("\(path): an unexpected JSON value")
        }
    }

    private static func short(_ value: Any?) -> String {
        switch value {
        case nil: "nothing"
        case is [String: Any]: "an object"
        case let list as [Any]: "a list of \(list.count)"
        case is NSNull: "null"
        case let text as String: "\"\(text)\""
        case let number as NSNumber: "\(number)"
        default: "a value"
        }
    }
}
