/// Decodes a `Decodable` value from a `ReportValue`, the state files' JSON value.
///
/// The counterpart of `ReportValueEncoder`: `.int` reads as any integer type (in range), `.int`
/// or `.number` as a floating-point number, `.label` as a string, `.null` as `nil`; a
/// `ReportValue` inside a value is handed over as it is. A keyed container's `allKeys` are in the
/// file's order. Every key a type reads must be there: an optional's, too (`null` for none). Every failure is a `StateFormatError` naming where it is, as a coding path
/// ("options.budgets_ms.chips: expected a number"), never the value found there.
public struct ReportValueDecoder {
    /// Passed to every `init(from:)` as `decoder.userInfo` (the team's labels: `.teamLabels`).
    public var userInfo: [CodingUserInfoKey: Any] = [:]
    /// Refuse a key no type read: every key of every object a type opens must be read by it,
    /// and none given twice, so a value holds nothing its type does not declare. (A field typed
    /// `ReportValue` is taken whole, as its type says.) The auditor reads result files so.
    public var strict: Bool

    public init(userInfo: [CodingUserInfoKey: Any] = [:], strict: Bool = false) {
        self.userInfo = userInfo
        self.strict = strict
    }

    /// The value of type `T` that `value` holds. `codingPath` is where `value` sits in a larger
    /// value (for a type that decodes a part of itself with another `userInfo`), for the errors.
    public func decode<T: Decodable>(_ type: T.Type, from value: ReportValue, at codingPath: [any CodingKey] = []) throws(StateFormatError) -> T {
        do {
            let ledger = strict ? KeyLedger() : nil
            let decoded = try ValueDecoder(value: value, codingPath: codingPath, userInfo: userInfo, ledger: ledger).decodeValue(T.self)
            if let problem = ledger?.firstProblem { throw problem }
            return decoded
        } catch let error as StateFormatError {
            throw error
        } catch let error as DecodingError {
            throw StateFormatError(error)
        } catch {
            throw StateFormatError("a value could not be read (\(Swift.type(of: error)))")
        }
    }
}

extension CodingUserInfoKey {
    /// The team's list of labels (`TeamLabels`) a state's labels are read back with.
    public static let teamLabels = CodingUserInfoKey(rawValue: "replay.teamLabels")!
}

extension Decoder {
    /// The team's labels in `userInfo[.teamLabels]`; none when absent.
    public var teamLabels: TeamLabels { userInfo[.teamLabels] as? TeamLabels ?? .none }
}

extension StateFormatError {
    /// "options.budgets_ms.chips: expected a number": what is wrong where; `what` alone at the top.
    public init(at codingPath: [any CodingKey], _ what: String) {
        let path = Self.path(codingPath)
        self.init(path.isEmpty ? what : path + ": " + what)
    }

    /// A decoding error (thrown by Swift's own coding, say for an unknown raw value) as a
    /// sentence naming its path; not its debug description, which may quote the value.
    init(_ error: DecodingError) {
        switch error {
        case .keyNotFound(let key, let context): self.init(at: context.codingPath + [key], "missing")
        case .valueNotFound(_, let context): self.init(at: context.codingPath, "null where a value was expected")
        case .typeMismatch(_, let context): self.init(at: context.codingPath, "not of the expected kind")
        case .dataCorrupted(let context): self.init(at: context.codingPath, "not a value this field can hold")
        @unknown default: self.init("a value could not be read")
        }
    }

    /// Keys joined by dots, array indexes in brackets: "jobs.chips.ledger.overall.host_latency_ms.buckets[2]".
    static func path(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue, key is IndexKey { text += "[\(index)]" }
            else if let place = key as? PlaceKey { text += "{\(place.index)}" }
            else { text += (text.isEmpty ? "" : ".") + key.stringValue }
        }
        return text
    }
}

/// In a strict decoding, the keys of each object a type opened and the ones it read.
private final class KeyLedger {
    /// By the object's path: its keys in the file's order, and those read.
    private var objects: [String: (path: [any CodingKey], keys: [String], read: Set<String>)] = [:]
    /// The order objects were opened in, for the first problem in document order.
    private var order: [String] = []

    func opened(_ path: [any CodingKey], keys: [String]) {
        let name = StateFormatError.path(path)
        guard objects[name] == nil else { return }
        objects[name] = (path, keys, [])
        order.append(name)
    }

    func read(_ key: String, in path: [any CodingKey]) { objects[StateFormatError.path(path)]?.read.insert(key) }

    /// The first key given twice or read by no type, as an error naming its path.
    var firstProblem: StateFormatError? {
        for name in order {
            guard let object = objects[name] else { continue }
            var seen: Set<String> = []
            // A key no type reads could be any text: named by its place, never spelled.
            for (index, key) in object.keys.enumerated() {
                let at = object.path + [PlaceKey(index)]
                if !seen.insert(key).inserted { return StateFormatError(at: at, "a key given twice") }
                if !object.read.contains(key) { return StateFormatError(at: at, "a key this file's type does not have") }
            }
        }
        return nil
    }
}

/// One value being decoded, at its path.
private struct ValueDecoder: Decoder {
    let value: ReportValue
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]
    /// Set in a strict decoding.
    var ledger: KeyLedger? = nil

    func failure(_ what: String, at path: [any CodingKey]? = nil) -> StateFormatError {
        StateFormatError(at: path ?? codingPath, what)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let fields) = value else { throw failure("expected an object") }
        ledger?.opened(codingPath, keys: fields.map(\.0))
        return KeyedDecodingContainer(KeyedValueContainer<Key>(decoder: self, fields: fields))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw failure("expected an array") }
        return UnkeyedValueContainer(decoder: self, items: items)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValueContainer(decoder: self) }

    /// The decoder of `value` at `key` below this one.
    func child(_ value: ReportValue, _ key: any CodingKey) -> ValueDecoder {
        ValueDecoder(value: value, codingPath: codingPath + [key], userInfo: userInfo, ledger: ledger)
    }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == ReportValue.self { return value as! T }
        return try T(from: self)
    }

    // Scalars.

    func decodeNil() -> Bool { value == .null }

    func bool() throws -> Bool {
        guard case .bool(let b) = value else { throw failure("expected true or false") }
        return b
    }

    func string() throws -> String {
        guard case .label(let s) = value else { throw failure("expected a string") }
        return s
    }

    func double() throws -> Double {
        guard let d = value.doubleValue else { throw failure("expected a number") }
        return d
    }

    func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        guard case .int(let i) = value else { throw failure("expected an integer") }
        guard let n = I(exactly: i) else { throw failure("an integer out of range") }
        return n
    }
}

private struct KeyedValueContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ValueDecoder
    let fields: [(String, ReportValue)]
    /// The first field of each name.
    let index: [String: Int]

    init(decoder: ValueDecoder, fields: [(String, ReportValue)]) {
        self.decoder = decoder
        self.fields = fields
        var index: [String: Int] = [:]
        for (i, field) in fields.enumerated() where index[field.0] == nil { index[field.0] = i }
        self.index = index
    }

    var codingPath: [any CodingKey] { decoder.codingPath }

    /// The keys in the file's order, each once (a type that takes them all has read them all).
    var allKeys: [Key] {
        for field in fields { decoder.ledger?.read(field.0, in: codingPath) }
        return fields.enumerated().compactMap { i, field in index[field.0] == i ? Key(stringValue: field.0) : nil }
    }

    func contains(_ key: Key) -> Bool { index[key.stringValue] != nil }

    func child(_ key: Key) throws -> ValueDecoder {
        guard let i = index[key.stringValue] else { throw decoder.failure("missing", at: codingPath + [key]) }
        decoder.ledger?.read(key.stringValue, in: codingPath)
        return decoder.child(fields[i].1, key)
    }

    func decodeNil(forKey key: Key) throws -> Bool { try child(key).decodeNil() }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try child(key).bool() }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try child(key).string() }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try child(key).double() }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try child(key).double()) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try child(key).integer(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try child(key).integer(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try child(key).integer(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try child(key).integer(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try child(key).integer(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try child(key).integer(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try child(key).integer(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try child(key).integer(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try child(key).integer(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try child(key).integer(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).decodeValue(type) }

    // Every key is read: an optional's key must be there, its value or null (the result files'
    // rule), so a synthesized `Codable`, which reads an optional with `decodeIfPresent`, is strict.
    /// Whether the key holds a value: false for null, an error when the key is missing.
    private func present(_ key: Key) throws -> Bool { try !child(key).decodeNil() }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(key) ? decode(type, forKey: key) : nil }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(key) ? decode(type, forKey: key) : nil }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try present(key) ? decode(type, forKey: key) : nil }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try present(key) ? decode(type, forKey: key) : nil }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(key) ? decode(type, forKey: key) : nil }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try present(key) ? decode(type, forKey: key) : nil }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try present(key) ? decode(type, forKey: key) : nil }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try present(key) ? decode(type, forKey: key) : nil }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try present(key) ? decode(type, forKey: key) : nil }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try present(key) ? decode(type, forKey: key) : nil }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try present(key) ? decode(type, forKey: key) : nil }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try present(key) ? decode(type, forKey: key) : nil }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try present(key) ? decode(type, forKey: key) : nil }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try present(key) ? decode(type, forKey: key) : nil }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try present(key) ? decode(type, forKey: key) : nil
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try child(key).unkeyedContainer() }

    func superDecoder() throws -> any Decoder { try child(Key(stringValue: "super")!) }
    func superDecoder(forKey key: Key) throws -> any Decoder { try child(key) }
}

private struct UnkeyedValueContainer: UnkeyedDecodingContainer {
    let decoder: ValueDecoder
    let items: [ReportValue]
    var currentIndex = 0

    init(decoder: ValueDecoder, items: [ReportValue]) {
        self.decoder = decoder
        self.items = items
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    /// The next item's decoder, moving past it.
    mutating func next() throws -> ValueDecoder {
        guard !isAtEnd else { throw decoder.failure("fewer items than expected") }
        defer { currentIndex += 1 }
        return decoder.child(items[currentIndex], IndexKey(currentIndex))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { throw decoder.failure("fewer items than expected") }
        if items[currentIndex] == .null { currentIndex += 1; return true }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next().bool() }
    mutating func decode(_ type: String.Type) throws -> String { try next().string() }
    mutating func decode(_ type: Double.Type) throws -> Double { try next().double() }
    mutating func decode(_ type: Float.Type) throws -> Float { Float(try next().double()) }
    mutating func decode(_ type: Int.Type) throws -> Int { try next().integer(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next().integer(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next().integer(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next().integer(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next().integer(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next().integer(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next().integer(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next().integer(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next().integer(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next().integer(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // An array of integers (`[Int]` decodes its items through here) without a decoder for
        // each: a column of hundreds of thousands.
        if T.self == Int.self, currentIndex < items.count, case .int(let i) = items[currentIndex] {
            currentIndex += 1
            return i as! T
        }
        return try next().decodeValue(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }

    mutating func superDecoder() throws -> any Decoder { try next() }
}

private struct SingleValueContainer: SingleValueDecodingContainer {
    let decoder: ValueDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.decodeNil() }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.bool() }
    func decode(_ type: String.Type) throws -> String { try decoder.string() }
    func decode(_ type: Double.Type) throws -> Double { try decoder.double() }
    func decode(_ type: Float.Type) throws -> Float { Float(try decoder.double()) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type) }
}

/// The N-th key of an object (0-based), for a key an error must not spell: `{N}` in a path.
struct PlaceKey: CodingKey {
    let index: Int
    var stringValue: String { "{\(index)}" }
    var intValue: Int? { nil }
    init(_ index: Int) { self.index = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { nil }
}
