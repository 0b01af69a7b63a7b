import Foundation

/// A YAML value, as far as the manifests in deploy/kubernetes need.
enum YAML: Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case int(Int)
    case string(String)
    case list([YAML])
    case map([(key: String, value: YAML)])

    static func == (a: YAML, b: YAML) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case let (.bool(x), .bool(y)): x == y
        case let (.int(x), .int(y)): x == y
        case let (.string(x), .string(y)): x == y
        case let (.list(x), .list(y)): x == y
        case let (.map(x), .map(y)): x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// The value under `key` in a mapping (nil for a missing key or a value that is no mapping).
    subscript(key: String) -> YAML? {
        guard case let .map(pairs) = self else { return nil }
        return pairs.first { $0.key == key }?.value
    }

    /// The value at a dotted path of keys, where a number picks a list item: `spec.template.spec.containers.0`.
    func at(_ path: String) -> YAML? {
        var node: YAML? = self
        for part in path.split(separator: ".") {
            if let index = Int(part), case let .list(items)? = node {
                node = index < items.count ? items[index] : nil
            } else {
                node = node?[String(part)]
            }
        }
        return node
    }

    var string: String? { if case let .string(s) = self { s } else { nil } }
    var int: Int? { if case let .int(i) = self { i } else { nil } }
    var bool: Bool? { if case let .bool(b) = self { b } else { nil } }
    var list: [YAML]? { if case let .list(l) = self { l } else { nil } }
    var keys: [String] { if case let .map(pairs) = self { pairs.map(\.key) } else { [] } }

    /// The same value as JSONSerialization would read it from JSON, to compare with another parser.
    var foundation: Any {
        switch self {
        case .null: NSNull()
        case let .bool(b): b
        case let .int(i): i
        case let .string(s): s
        case let .list(items): items.map(\.foundation)
        case let .map(pairs): Dictionary(pairs.map { ($0.key, $0.value.foundation) }, uniquingKeysWith: { a, _ in a })
        }
    }

    var description: String {
        switch self {
        case .null: "null"
        case let .bool(b): "\(b)"
        case let .int(i): "\(i)"
        case let .string(s): "\"\(s)\""
        case let .list(items): "[" + items.map(\.description).joined(separator: ", ") + "]"
        case let .map(pairs): "{" + pairs.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        }
    }
}

/// A small parser for the YAML that Kubernetes manifests are written in, and nothing more:
/// documents split by `---`; block mappings and block sequences by indentation (a sequence may sit
/// at its key's indentation); `- key: value` items; plain, 'single' and "double" quoted scalars;
/// flow sequences of scalars (`[2, 3]`) and empty flow collections; whole-line and ` #` comments.
/// Plain scalars become null, true/false or integers as YAML 1.2's core schema says; quoted ones
/// stay strings. Anything else (block scalars `|` `>`, anchors, aliases, tags, flow mappings,
/// multi-line scalars, tabs) is an error, so a manifest can never be read differently from what
/// it says without the test failing.
struct MiniYAML {
    struct Failure: Error, CustomStringConvertible {
        var line: Int
        var reason: String
        var description: String { "line \(line): \(reason)" }
    }

    private struct Line {
        var number: Int
        var indent: Int
        var text: String
    }

    private var lines: [Line] = []
    private var position = 0

    /// Every document in `text`, in order (empty documents are skipped).
    static func documents(_ text: String) throws -> [YAML] {
        var documents: [YAML] = []
        var chunk: [Line] = []
        func flush() throws {
            if !chunk.isEmpty {
                var parser = MiniYAML(lines: chunk)
                documents.append(try parser.document())
            }
            chunk = []
        }
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let line = String(raw)
            if line.hasPrefix("---") && line.dropFirst(3).allSatisfy({ $0 == " " }) { try flush(); continue }
            if line.contains("\t") { throw Failure(line: number, reason: "a tab (YAML indents with spaces)") }
            let stripped = try stripComment(line, number: number)
            let text = stripped.drop { $0 == " " }
            if text.isEmpty { continue }
            chunk.append(Line(number: number, indent: stripped.count - text.count, text: String(text)))
        }
        try flush()
        return documents
    }

    private init(lines: [Line]) { self.lines = lines }

    private mutating func document() throws -> YAML {
        let value = try node(indent: lines[0].indent)
        if position < lines.count { throw Failure(line: lines[position].number, reason: "unexpected indentation") }
        return value
    }

    /// The node that starts at the current line, which is indented by `indent`.
    private mutating func node(indent: Int) throws -> YAML {
        let line = lines[position]
        if isSequenceItem(line.text) { return try sequence(indent: indent) }
        if try splitKey(line.text, line: line.number) != nil { return try mapping(indent: indent) }
        position += 1
        return try scalar(line.text, line: line.number)
    }

    private func isSequenceItem(_ text: String) -> Bool { text == "-" || text.hasPrefix("- ") }

    private mutating func sequence(indent: Int) throws -> YAML {
        var items: [YAML] = []
        while position < lines.count, lines[position].indent == indent, isSequenceItem(lines[position].text) {
            let line = lines[position]
            let rest = line.text.dropFirst(1).drop { $0 == " " }
            if rest.isEmpty {
                position += 1
                guard position < lines.count, lines[position].indent > indent else { items.append(.null); continue }
                items.append(try node(indent: lines[position].indent))
            } else {
                // `- key: value` or `- - x`: the rest of the line is a node at the column it starts in.
                let column = indent + (line.text.count - rest.count)
                lines[position] = Line(number: line.number, indent: column, text: String(rest))
                items.append(try node(indent: column))
            }
        }
        return .list(items)
    }

    private mutating func mapping(indent: Int) throws -> YAML {
        var pairs: [(key: String, value: YAML)] = []
        while position < lines.count, lines[position].indent == indent, !isSequenceItem(lines[position].text) {
            let line = lines[position]
            guard let (key, value) = try splitKey(line.text, line: line.number) else {
                throw Failure(line: line.number, reason: "expected `key: value` in a mapping")
            }
            if pairs.contains(where: { $0.key == key }) { throw Failure(line: line.number, reason: "duplicate key \(key)") }
            position += 1
            if !value.isEmpty {
                pairs.append((key, try scalar(value, line: line.number)))
            } else if position < lines.count, lines[position].indent > indent {
                pairs.append((key, try node(indent: lines[position].indent)))
            } else if position < lines.count, lines[position].indent == indent, isSequenceItem(lines[position].text) {
                pairs.append((key, try sequence(indent: indent)))
            } else {
                pairs.append((key, .null))
            }
        }
        if position < lines.count, lines[position].indent > indent {
            throw Failure(line: lines[position].number, reason: "unexpected indentation")
        }
        return .map(pairs)
    }

    /// `key: value` or `key:` → (key, value); nil when the text is not a mapping entry.
    private func splitKey(_ text: String, line: Int) throws -> (String, String)? {
        let characters = Array(text)
        if let first = characters.first, first == "\"" || first == "'" {
            // A quoted key: its closing quote, then a colon.
            guard let close = characters.dropFirst().firstIndex(of: first), close + 1 < characters.count,
                  characters[close + 1] == ":", close + 2 == characters.count || characters[close + 2] == " " else { return nil }
            let key = String(characters[1..<close])
            return (key, String(characters[(close + 2)...]).trimmingCharacters(in: .whitespaces))
        }
        if let first = characters.first, "[{".contains(first) { return nil }
        for index in characters.indices where characters[index] == ":" {
            if index + 1 == characters.count || characters[index + 1] == " " {
                let key = String(characters[..<index]).trimmingCharacters(in: .whitespaces)
                if key.isEmpty { throw Failure(line: line, reason: "empty key") }
                return (key, String(characters[(index + 1)...]).trimmingCharacters(in: .whitespaces))
            }
        }
        return nil
    }

    private func scalar(_ text: String, line: Int) throws -> YAML {
        guard let first = text.first else { return .null }
        switch first {
        case "\"", "'":
            let (value, end) = try quoted(Array(text), from: 0, line: line)
            if end != text.count { throw Failure(line: line, reason: "text after a quoted scalar") }
            return .string(value)
        case "[":
            return try flowSequence(text, line: line)
        case "{":
            if text == "{}" { return .map([]) }
            throw Failure(line: line, reason: "flow mappings are outside this parser's subset")
        case "|", ">", "&", "*", "!", "%", "@", "`":
            throw Failure(line: line, reason: "`\(first)` (block scalars, anchors, aliases, tags) is outside this parser's subset")
        default:
            return plain(text)
        }
    }

    /// A plain scalar, typed by YAML 1.2's core schema (as far as integers).
    private func plain(_ text: String) -> YAML {
        switch text {
        case "null", "Null", "NULL", "~": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        default:
            if let number = Int(text), text.allSatisfy({ $0.isNumber || $0 == "-" || $0 == "+" }) { return .int(number) }
            return .string(text)
        }
    }

    /// A quoted scalar starting at `start`: its value and the index just past its closing quote.
    private func quoted(_ characters: [Character], from start: Int, line: Int) throws -> (String, Int) {
        let quote = characters[start]
        var value = ""
        var index = start + 1
        while index < characters.count {
            let c = characters[index]
            if quote == "'" && c == "'" {
                if index + 1 < characters.count, characters[index + 1] == "'" { value.append("'"); index += 2; continue }
                return (value, index + 1)
            }
            if quote == "\"" && c == "\"" { return (value, index + 1) }
            if quote == "\"" && c == "\\" {
                guard index + 1 < characters.count else { break }
                let escaped = characters[index + 1]
                switch escaped {
                case "\"", "\\", "/": value.append(escaped)
                case "n": value.append("\n")
                case "t": value.append("\t")
                default: throw Failure(line: line, reason: "escape \\\(escaped) is outside this parser's subset")
                }
                index += 2
                continue
            }
            value.append(c)
            index += 1
        }
        throw Failure(line: line, reason: "unterminated quoted scalar")
    }

    private func flowSequence(_ text: String, line: Int) throws -> YAML {
        let characters = Array(text)
        guard characters.last == "]" else { throw Failure(line: line, reason: "a flow sequence must end its line") }
        var items: [YAML] = []
        var index = 1
        func skipSpaces() { while index < characters.count - 1, characters[index] == " " { index += 1 } }
        skipSpaces()
        if index == characters.count - 1 { return .list([]) }
        while true {
            skipSpaces()
            guard index < characters.count - 1 else { throw Failure(line: line, reason: "empty item in a flow sequence") }
            if characters[index] == "\"" || characters[index] == "'" {
                let (value, end) = try quoted(characters, from: index, line: line)
                items.append(.string(value))
                index = end
            } else {
                var end = index
                while end < characters.count - 1, characters[end] != "," { end += 1 }
                let item = String(characters[index..<end]).trimmingCharacters(in: .whitespaces)
                if item.isEmpty || "[]{}".contains(where: { item.contains($0) }) {
                    throw Failure(line: line, reason: "flow sequences hold scalars only here")
                }
                items.append(try scalar(item, line: line))
                index = end
            }
            skipSpaces()
            if index == characters.count - 1 { return .list(items) }
            guard characters[index] == "," else { throw Failure(line: line, reason: "expected `,` in a flow sequence") }
            index += 1
        }
    }

    /// The line without a comment: `#` at the start of the text or after a space, outside quotes.
    private static func stripComment(_ line: String, number: Int) throws -> String {
        var quote: Character?
        var previous: Character = " "
        var result = ""
        for c in line {
            if let open = quote {
                if c == open { quote = nil }
            } else if c == "#" && previous == " " {
                break
            } else if (c == "\"" || c == "'") && (previous == " " || previous == "[" || previous == ",") {
                quote = c   // a quote opens only where a scalar can start
            }
            result.append(c)
            previous = c
        }
        while result.hasSuffix(" ") { result.removeLast() }
        return result
    }
}
