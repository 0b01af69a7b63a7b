import Foundation
import Privacy

/// The team's labels file (`--labels FILE`, or `"labels"` in `--config`): the names and versions
/// reports may show as written.
///
/// ```json
/// {
///   "agents":  ["Coach", "Sage", "Penny"],
///   "members": ["Coach", "Sage", "Penny"],
///   "builds":  ["2.5.0-beta"],
///   "models":  ["smollm2-135m"],
///   "kinds":   ["chart", "reaction"]
/// }
/// ```
/// Every key is optional; each is an array of strings that `TeamLabels.problem(with:)` accepts.
/// Read by the argument parser, so before the run confines itself (the sandbox allows reading
/// anywhere, but a file that cannot be read is a usage error before anything ran). Read as every
/// input file is, with `ReportValue(parsingExactJSON:)` and `InputFields`: a key given twice is
/// an error rather than one of the two silently kept.
enum LabelsFile {
    /// The largest labels file read: a list of names, not a corpus.
    static let maximumBytes = 1 << 20

    /// Reads and checks the file; the error names the file and what is wrong (a key, an entry by
    /// its index), never an entry's text.
    static func load(_ path: String) throws(ArgumentParser.UsageError) -> TeamLabels {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ArgumentParser.UsageError("cannot read the labels file \(path)")
        }
        guard data.count <= maximumBytes else {
            throw ArgumentParser.UsageError("the labels file \(path) is larger than \(maximumBytes / 1024) KiB: it should list names, not hold a corpus")
        }
        // Text that is not UTF-8 JSON reads as null: like any value but an object, "not a JSON object".
        let document = String(validating: Array(data), as: UTF8.self).flatMap { try? ReportValue(parsingExactJSON: $0) } ?? .null
        let object: [String: ReportValue]
        do {
            object = try InputFields(allowed: TeamLabels.keys, optional: Set(TeamLabels.keys)).read(document, at: "")
        } catch {
            switch error {
            case .notAnObject:
                throw ArgumentParser.UsageError("the labels file \(path) is not a JSON object (see --help: {\"agents\": [...], \"members\": [...], ...})")
            case .unknownKey(_, let key, let allowed):
                throw ArgumentParser.UsageError("the labels file \(path) has an unknown key '\(key)' (\(allowed.joined(separator: ", ")) are allowed)")
            case .keyGivenTwice(_, let key): throw ArgumentParser.UsageError("the labels file \(path): '\(key)' is given twice")
            case .missingKey(_, let key): throw ArgumentParser.UsageError("the labels file \(path): '\(key)' is missing")
            }
        }
        var lists: [String: Set<String>] = [:]
        for key in TeamLabels.keys {
            guard let value = object[key] else { continue }
            guard case .array(let entries) = value else {
                throw ArgumentParser.UsageError("the labels file \(path): '\(key)' must be an array of strings")
            }
            var list = Set<String>()
            for (index, entry) in entries.enumerated() {
                guard case .label(let text) = entry else {
                    throw ArgumentParser.UsageError("the labels file \(path): \(key)[\(index)] is not a string")
                }
                if let problem = TeamLabels.problem(with: text) {
                    throw ArgumentParser.UsageError("the labels file \(path): \(key)[\(index)] cannot be listed: \(problem)")
                }
                list.insert(text)
            }
            lists[key] = list
        }
        return TeamLabels(agents: lists["agents"] ?? [], members: lists["members"] ?? [], builds: lists["builds"] ?? [],
                          models: lists["models"] ?? [], kinds: lists["kinds"] ?? [])
    }
}
