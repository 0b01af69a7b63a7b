import Confinement
import Privacy

/// The shape a JSON result file of `replay` must have: which keys, which value at each, which
/// strings. `ResultSchemas` holds the shapes; `ResultShape.problems` walks a parsed file against
/// one and says where it differs, never quoting what it found there.
///
/// Every object is closed: a key the shape does not name (or, in a map, a key its rule refuses)
/// is a problem. Keys a shape names may be absent: an absent key carries nothing.
indirect enum ResultShape: Sendable {
    /// An object with these keys only.
    case object([String: ResultShape])
    /// An object whose keys each pass `key`, every value of one shape (`by_build.<label>`).
    case map(key: ResultText, value: ResultShape)
    /// An array of values of one shape.
    case array(ResultShape)
    /// An array of exactly these values (`[numerator, denominator]`).
    case tuple([ResultShape])
    /// A JSON integer.
    case integer
    /// A JSON number, integer or not.
    case number
    case boolean
    /// A string passing its rule.
    case text(ResultText)
    /// Null, or the shape.
    case nullable(ResultShape)
    /// Any one of the shapes (the first that fits).
    case either([ResultShape])

    /// One place where a value is not what the shape says.
    struct Problem: Sendable, Equatable {
        /// Where: object keys the shape names, `{N}` for the N-th key of an object (0-based) when
        /// the key itself is not the shape's word, `[N]` for an array's N-th value.
        var path: String
        /// What is wrong, in the checker's words.
        var what: String
    }

    /// Where `value` differs from the shape, in document order.
    func problems(_ value: ReportValue, context: ResultText.Context) -> [Problem] {
        var found: [Problem] = []
        check(value, path: "", context: context, into: &found)
        return found
    }

    private func check(_ value: ReportValue, path: String, context: ResultText.Context, into found: inout [Problem]) {
        func add(_ what: String) { found.append(Problem(path: path.isEmpty ? "(the top level)" : path, what: what)) }
        switch (self, value) {
        case (.nullable, .null):
            return
        case (.nullable(let inner), _):
            inner.check(value, path: path, context: context, into: &found)
        case (.either(let shapes), _):
            for shape in shapes {
                var trial: [Problem] = []
                shape.check(value, path: path, context: context, into: &trial)
                if trial.isEmpty { return }
            }
            add("a value of none of the shapes allowed here (\(value.kindName))")
        case (.object(let keys), .object(let fields)):
            var seen: Set<String> = []
            for (index, (key, child)) in fields.enumerated() {
                guard let shape = keys[key] else { add("an unknown key (key {\(index)})"); continue }
                guard seen.insert(key).inserted else { add("a key given twice (key {\(index)})"); continue }
                shape.check(child, path: Self.join(path, key), context: context, into: &found)
            }
        case (.map(let keyRule, let shape), .object(let fields)):
            var seen: Set<String> = []
            for (index, (key, child)) in fields.enumerated() {
                // A key from a fixed set is the checker's own word: shown; any other, by position.
                let place = keyRule.isFixed && keyRule.admits(key, context: context) ? Self.join(path, key) : path + "{\(index)}"
                guard keyRule.admits(key, context: context) else {
                    found.append(Problem(path: place, what: "a key that is not \(keyRule.summary)"))
                    continue
                }
                guard seen.insert(key).inserted else { found.append(Problem(path: place, what: "a key given twice")); continue }
                shape.check(child, path: place, context: context, into: &found)
            }
        case (.array(let shape), .array(let items)):
            for (index, item) in items.enumerated() {
                shape.check(item, path: path + "[\(index)]", context: context, into: &found)
            }
        case (.tuple(let shapes), .array(let items)):
            guard shapes.count == items.count else { add("an array of \(items.count) values where \(shapes.count) belong"); return }
            for (index, (shape, item)) in zip(shapes, items).enumerated() {
                shape.check(item, path: path + "[\(index)]", context: context, into: &found)
            }
        case (.integer, .int), (.number, .int), (.number, .number), (.boolean, .bool):
            return
        case (.text(let rule), .label(let text)):
            if !rule.admits(text, context: context) { add("a string that is not \(rule.summary)") }
        default:
            add("\(value.kindName) where \(summary) belongs")
        }
    }

    /// What the shape is, in a few words.
    var summary: String {
        switch self {
        case .object: "an object"
        case .map: "an object"
        case .array: "an array"
        case .tuple(let shapes): "an array of \(shapes.count)"
        case .integer: "an integer"
        case .number: "a number"
        case .boolean: "true or false"
        case .text(let rule): rule.summary
        case .nullable(let inner): inner.summary + " or null"
        case .either: "one of several shapes"
        }
    }

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }
}

extension ReportValue {
    /// The JSON kind of the value, for a problem's description (never its content).
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int: "an integer"
        case .number: "a number"
        case .label: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
