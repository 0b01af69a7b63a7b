/// A key of an object whose keys are data (a dictionary: counters by name, slices by build),
/// with the encoding and decoding of such an object in a chosen order.
///
/// Swift's `Dictionary` encodes its pairs in no fixed order; a state file's bytes must not depend
/// on hashing, so a type writes its dictionaries as pairs it has sorted, and reads them back in
/// the file's order.
public struct ReportKey: CodingKey, Sendable, Hashable {
    public let stringValue: String
    public var intValue: Int? { nil }

    public init(_ key: String) { stringValue = key }
    public init?(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { nil }
}

extension KeyedEncodingContainer {
    /// An object at `key` holding `pairs` in the order given.
    public mutating func encode<Value: Encodable>(pairs: [(String, Value)], forKey key: Key) throws {
        var object = nestedContainer(keyedBy: ReportKey.self, forKey: key)
        for (name, value) in pairs { try object.encode(value, forKey: ReportKey(name)) }
    }
}

extension KeyedDecodingContainer {
    /// The pairs of the object at `key`, in the file's order.
    public func decodePairs<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> [(key: ReportKey, value: Value)] {
        let object = try nestedContainer(keyedBy: ReportKey.self, forKey: key)
        return try object.allKeys.map { ($0, try object.decode(Value.self, forKey: $0)) }
    }
}
