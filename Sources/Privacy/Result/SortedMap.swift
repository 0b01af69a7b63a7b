/// A dictionary field of a result file, written as an object (`ResultMap`) in its keys' order and
/// read back with each key judged. With it a type keeps Swift's synthesized coding, which would
/// encode a `Dictionary` in hashing order.
@propertyWrapper
public struct SortedMap<Key: SortedMapKey, Value: Codable & Sendable>: Codable, Sendable {
    public var wrappedValue: [Key.Stored: Value]

    public init(wrappedValue: [Key.Stored: Value] = [:]) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        let map = try ResultMap<Key, Value>(from: decoder)
        wrappedValue = Dictionary(map.pairs.map { ($0.key.stored, $0.value) }, uniquingKeysWith: { $1 })
    }

    public func encode(to encoder: any Encoder) throws {
        try ResultMap(wrappedValue.map { (Key(stored: $0.key), $0.value) }.sorted { Key.precedes($0.0, $1.0) }).encode(to: encoder)
    }
}

extension SortedMap: Equatable where Value: Equatable {}

/// A key of a `SortedMap`: what its dictionary holds (a judged string's text, an enum's case)
/// and the order the file lists keys in.
public protocol SortedMapKey: ResultMapKey {
    associatedtype Stored: Hashable & Sendable
    init(stored: Stored)
    var stored: Stored { get }
    static func precedes(_ a: Self, _ b: Self) -> Bool
}

extension SortedMapKey {
    /// By the key as written.
    public static func precedes(_ a: Self, _ b: Self) -> Bool { a.mapKey < b.mapKey }
}

extension SortedMapKey where Self: RawRepresentable, RawValue == String {
    public init(stored: Self) { self = stored }
    public var stored: Self { self }
}

extension Judged: SortedMapKey {
    public init(stored: String) { self.init(stored) }
    public var stored: String { text }

    /// Labels in display order (`ReportLabel.precedes`), other strings as written.
    public static func precedes(_ a: Self, _ b: Self) -> Bool {
        if case .label = Rule.rule { return ReportLabel.precedes(a.text, b.text) }
        return a.text < b.text
    }
}
