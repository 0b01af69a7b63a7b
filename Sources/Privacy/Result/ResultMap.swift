/// An object of a result file whose keys are data (slices by build, counts by fallback reason,
/// counters by name): its pairs in the writer's order, each key judged as it decodes.
///
/// Swift's `Dictionary` encodes in no fixed order and a result file's bytes must not depend on
/// hashing: the writer puts the pairs in its order, and the file is read back in the file's.
public struct ResultMap<Key: ResultMapKey, Value: Codable & Sendable>: Codable, Sendable {
    public var pairs: [(key: Key, value: Value)]

    public init(_ pairs: [(key: Key, value: Value)] = []) { self.pairs = pairs }

    /// The value at `key`, the first if it were given twice; set, it replaces that value, or
    /// comes last when the key is new (nil removes it).
    public subscript(key: Key) -> Value? {
        get { pairs.first { $0.key == key }?.value }
        set {
            let index = pairs.firstIndex { $0.key == key }
            switch (index, newValue) {
            case (let i?, let value?): pairs[i].value = value
            case (let i?, nil): pairs.remove(at: i)
            case (nil, let value?): pairs.append((key, value))
            case (nil, nil): break
            }
        }
    }

    public var keys: [Key] { pairs.map(\.key) }
    public var values: [Value] { pairs.map(\.value) }
    public var isEmpty: Bool { pairs.isEmpty }

    public init(from decoder: any Decoder) throws {
        // Every key is judged before any value is read, and a refused one is named by its place:
        // a path below it would spell it.
        let object = try decoder.container(keyedBy: ReportKey.self)
        let names = object.allKeys
        let keys = try names.enumerated().map { index, name in
            try Key(judging: name.stringValue, at: object.codingPath + [PlaceKey(index)], decoder: decoder)
        }
        pairs = try zip(keys, names).map { key, name in (key, try object.decode(Value.self, forKey: name)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: ReportKey.self)
        for (key, value) in pairs { try object.encode(value, forKey: ReportKey(key.mapKey)) }
    }
}

extension ResultMap: Equatable where Value: Equatable {
    public static func == (a: Self, b: Self) -> Bool {
        a.pairs.count == b.pairs.count && zip(a.pairs, b.pairs).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

/// A key of a `ResultMap`: a writer's fixed word (an enum with a string raw value) or a judged string.
public protocol ResultMapKey: Sendable, Hashable {
    var mapKey: String { get }
    /// The key `text` names, or an error naming `codingPath` when it may not be a key here.
    init(judging text: String, at codingPath: [any CodingKey], decoder: any Decoder) throws(StateFormatError)
}

extension ResultMapKey where Self: RawRepresentable, RawValue == String {
    public var mapKey: String { rawValue }
    public init(judging text: String, at codingPath: [any CodingKey], decoder: any Decoder) throws(StateFormatError) {
        guard let key = Self(rawValue: text) else { throw StateFormatError(at: codingPath, "a key that is not one of the words replay writes here") }
        self = key
    }
}

extension Judged: ResultMapKey {
    public var mapKey: String { text }
    public init(judging text: String, at codingPath: [any CodingKey], decoder: any Decoder) throws(StateFormatError) {
        try decoder.judge(text, as: Rule.rule, at: codingPath, what: "a key")
        self.init(text)
    }
}
