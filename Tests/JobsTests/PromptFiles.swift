import Privacy
@testable import Jobs

/// Prompt set files made from the built-in one with a change: a key set, replaced or removed.
enum PromptFiles {
    /// A step of a key path: an object's key or an array's index.
    enum Step {
        case key(String)
        case index(Int)
    }

    /// `value` with the value at `path` replaced by `new` (added when the key is not there),
    /// or removed when `new` is nil.
    static func setting(_ value: ReportValue, _ path: [Step], to new: ReportValue?) -> ReportValue {
        guard let step = path.first else { return new ?? .null }
        let rest = Array(path.dropFirst())
        switch (step, value) {
        case (.key(let key), .object(var fields)):
            if let index = fields.firstIndex(where: { $0.0 == key }) {
                if rest.isEmpty, new == nil {
                    fields.remove(at: index)
                } else {
                    fields[index].1 = setting(fields[index].1, rest, to: new)
                }
            } else if let new {
                fields.append((key, rest.isEmpty ? new : setting(.object([]), rest, to: new)))
            }
            return .object(fields)
        case (.index(let index), .array(var items)):
            if rest.isEmpty, new == nil {
                items.remove(at: index)
            } else {
                items[index] = setting(items[index], rest, to: new)
            }
            return .array(items)
        default:
            return value
        }
    }

    /// `path` written as dotted keys with `[N]` for indexes: "jobs.chips.prompt[2]".
    static func path(_ text: String) -> [Step] {
        var steps: [Step] = []
        for piece in text.split(separator: ".") {
            var name = Substring(piece)
            var indexes: [Int] = []
            while let open = name.lastIndex(of: "["), name.hasSuffix("]") {
                indexes.insert(Int(name[name.index(after: open)..<name.index(before: name.endIndex)])!, at: 0)
                name = name[..<open]
            }
            steps.append(.key(String(name)))
            steps += indexes.map { .index($0) }
        }
        return steps
    }

    /// The built-in file's bytes with `changes` made, in order (path, new value or nil to remove).
    static func builtIn(_ changes: [(String, ReportValue?)] = []) -> [UInt8] {
        var value = PromptSet.builtInValue
        for (path, new) in changes { value = setting(value, Self.path(path), to: new) }
        return Array(value.exactJSON().utf8)
    }

    /// A prompt set read from the built-in file with `changes`, named "prompts.json".
    static func read(_ changes: [(String, ReportValue?)]) throws(JobsError) -> PromptSet {
        try PromptSet(parsing: builtIn(changes), file: "prompts.json")
    }
}
