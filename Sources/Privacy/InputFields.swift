/// The keys of one object of an input file (a prompt set, a profiles file, a suite, a config or
/// a labels file), checked the same way for every one: each key one the object may have, none
/// given twice, every key it must have there. The first problem is thrown as an
/// `InputFieldProblem`, which names key paths only, so each reader says it in its own errors
/// without a value of the file reaching them.
///
/// The files are parsed with `ReportValue(parsingExactJSON:)`, which keeps an object's keys in
/// order and every one given, so a key given twice is seen here (a dictionary would keep one).
public struct InputFields: Sendable, Equatable {
    /// The keys the object may have, in the order an error lists them; nil when the file names
    /// them itself (devices, jobs, gates), and any key may be there, once.
    public let allowed: [String]?
    /// The keys of `allowed` the object may leave out.
    public let optional: Set<String>

    /// An object with some of `allowed`: all of them but `optional`.
    public init(allowed: [String], optional: Set<String> = []) {
        self.allowed = allowed
        self.optional = optional
    }

    /// An object keyed by names the file chooses: any key, each given once.
    public static let anyKeys = InputFields(allowed: nil)

    private init(allowed: [String]?) {
        self.allowed = allowed
        self.optional = []
    }

    /// The checked fields of the object at `path`, in the file's order.
    public func pairs(of value: ReportValue, at path: String) throws(InputFieldProblem) -> [(key: String, value: ReportValue)] {
        guard case .object(let pairs) = value else { throw .notAnObject(path: path) }
        var seen: Set<String> = []
        for (key, _) in pairs {
            if let allowed, !allowed.contains(key) { throw .unknownKey(path: path, key: key, allowed: allowed) }
            guard seen.insert(key).inserted else { throw .keyGivenTwice(path: path, key: key) }
        }
        for key in allowed ?? [] where !seen.contains(key) && !optional.contains(key) {
            throw .missingKey(path: path, key: key)
        }
        return pairs.map { (key: $0.0, value: $0.1) }
    }

    /// The checked fields of the object at `path`, by key.
    public func read(_ value: ReportValue, at path: String) throws(InputFieldProblem) -> [String: ReportValue] {
        Dictionary(uniqueKeysWithValues: try pairs(of: value, at: path).map { ($0.key, $0.value) })
    }

    /// `path` joined with `key`: `a.b`, or `key` alone at the top level (the empty path).
    public static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

    /// `path` as an error shows it: the top level (the empty path) by name.
    public static func shown(_ path: String) -> String { path.isEmpty ? "the top level" : path }
}
