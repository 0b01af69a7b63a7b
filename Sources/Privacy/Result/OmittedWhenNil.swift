/// An optional field of a result file whose key is left out, not written `null`, when it has no
/// value: a key a job does not have, a block only some runs carry. With it a type keeps Swift's
/// synthesized coding; Swift's own `encodeIfPresent` would write `null` with this module's encoder.
///
/// Reading takes an absent key for nil and a present one for a value (`null` is refused, as the
/// writer never writes it).
@propertyWrapper
public struct OmittedWhenNil<Value: Codable & Sendable>: Codable, Sendable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }
}

extension OmittedWhenNil: Equatable where Value: Equatable {}

extension KeyedEncodingContainer {
    /// Picked over the generic `encode` by the synthesized coding of an `@OmittedWhenNil` field.
    public mutating func encode<Value>(_ field: OmittedWhenNil<Value>, forKey key: Key) throws {
        if let value = field.wrappedValue { try encode(value, forKey: key) }
    }
}

extension KeyedDecodingContainer {
    /// Picked over the generic `decode` by the synthesized coding of an `@OmittedWhenNil` field.
    public func decode<Value>(_ type: OmittedWhenNil<Value>.Type, forKey key: Key) throws -> OmittedWhenNil<Value> {
        OmittedWhenNil(wrappedValue: contains(key) ? try decode(Value.self, forKey: key) : nil)
    }
}
