/// Encodes an `Encodable` value as a `ReportValue`, the state files' JSON value.
///
/// Keyed containers keep their keys in the order they were encoded, so a type's `encode(to:)`
/// decides the written layout. Integers become `.int`, floating-point numbers `.number` (written
/// exactly by `exactJSON`), strings `.label`, `nil` `.null`; a `ReportValue` inside a value is
/// kept as it is. Every key is written: an optional without a value is `null`, whether it is
/// encoded with `encode(_:forKey:)` or `encodeIfPresent` (as a synthesized `Codable` does).
public struct ReportValueEncoder {
    /// Passed to every `encode(to:)` as `encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: Any] = [:]

    public init() {}

    /// `value` as a report value.
    public func encode<T: Encodable>(_ value: T) throws(StateFormatError) -> ReportValue {
        do {
            return try EncodingNode.encoding(value, codingPath: [], userInfo: userInfo).value
        } catch let error as StateFormatError {
            throw error
        } catch let EncodingError.invalidValue(_, context) {
            throw StateFormatError(at: context.codingPath, context.debugDescription)
        } catch {
            throw StateFormatError("a value could not be encoded (\(Swift.type(of: error)))")
        }
    }
}

/// What one encoder or container has written so far: nothing, a value, or a container whose
/// children may still be written (nested containers are filled after they are handed out).
private final class EncodingNode {
    enum Content {
        case empty
        case single(ReportValue)
        case object(keys: [String], children: [String: EncodingNode])
        case array([EncodingNode])
    }
    var content: Content = .empty

    init(_ content: Content = .empty) { self.content = content }

    var value: ReportValue {
        switch content {
        case .empty: return .null
        case .single(let value): return value
        case .object(let keys, let children): return .object(keys.map { ($0, children[$0]!.value) })
        case .array(let children): return .array(children.map(\.value))
        }
    }

    /// `value` encoded on its own node.
    static func encoding<T: Encodable>(_ value: T, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any]) throws -> EncodingNode {
        if let report = value as? ReportValue { return EncodingNode(.single(report)) }
        let encoder = NodeEncoder(node: EncodingNode(), codingPath: codingPath, userInfo: userInfo)
        try value.encode(to: encoder)
        return encoder.node
    }

    /// The child at `key` (made, in order, when new), this node becoming an object.
    func child(_ key: String, replacingWith replacement: EncodingNode? = nil) -> EncodingNode {
        var keys: [String] = []
        var children: [String: EncodingNode] = [:]
        if case .object(let k, let c) = content { (keys, children) = (k, c) }
        if let replacement {
            if children[key] == nil { keys.append(key) }
            children[key] = replacement
            content = .object(keys: keys, children: children)
            return replacement
        }
        if let existing = children[key] { return existing }
        let made = EncodingNode()
        keys.append(key)
        children[key] = made
        content = .object(keys: keys, children: children)
        return made
    }

    /// Appends `child`, this node becoming an array.
    func append(_ child: EncodingNode) {
        var children: [EncodingNode] = []
        if case .array(let c) = content { children = c }
        children.append(child)
        content = .array(children)
    }

    var arrayCount: Int {
        if case .array(let c) = content { return c.count }
        return 0
    }

    func becomeObject() { if case .object = content {} else { content = .object(keys: [], children: [:]) } }
    func becomeArray() { if case .array = content {} else { content = .array([]) } }
}

/// An array index as a coding key.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { guard let i = Int(stringValue) else { return nil }; intValue = i }
}

private final class NodeEncoder: Encoder {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]

    init(node: EncodingNode, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any]) {
        self.node = node
        self.codingPath = codingPath
        self.userInfo = userInfo
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.becomeObject()
        return KeyedEncodingContainer(KeyedNodeContainer<Key>(encoder: self, node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.becomeArray()
        return UnkeyedNodeContainer(encoder: self, node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleNodeContainer(encoder: self, codingPath: codingPath) }

    func encoding<T: Encodable>(_ value: T, at path: [any CodingKey]) throws -> EncodingNode {
        try EncodingNode.encoding(value, codingPath: path, userInfo: userInfo)
    }
}

private struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: NodeEncoder
    let node: EncodingNode
    let codingPath: [any CodingKey]

    private func put(_ value: ReportValue, _ key: Key) { _ = node.child(key.stringValue, replacingWith: EncodingNode(.single(value))) }

    mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(.label(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { put(.number(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { put(.number(Double(value)), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(.int(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(.int(Int(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(.int(Int(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(.int(Int(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(.int(Int(value)), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { put(try unsignedValue(value, at: codingPath + [key]), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(.int(Int(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(.int(Int(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(.int(Int(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { put(try unsignedValue(value, at: codingPath + [key]), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        _ = node.child(key.stringValue, replacingWith: try encoder.encoding(value, at: codingPath + [key]))
    }

    // Every key is written: an absent value as null (the result files' rule), so a synthesized
    // `Codable`, which writes an optional with `encodeIfPresent`, gives the documented layout.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { put(.null, key) } }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { put(.null, key) } }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { put(.null, key) } }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { put(.null, key) } }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { put(.null, key) } }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { put(.null, key) } }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { put(.null, key) } }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { put(.null, key) } }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { put(.null, key) } }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { put(.null, key) } }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { put(.null, key) } }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { put(.null, key) } }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { put(.null, key) } }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { put(.null, key) } }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { put(.null, key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = node.child(key.stringValue, replacingWith: EncodingNode(.object(keys: [], children: [:])))
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(encoder: encoder, node: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = node.child(key.stringValue, replacingWith: EncodingNode(.array([])))
        return UnkeyedNodeContainer(encoder: encoder, node: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { superEncoder(forKey: Key(stringValue: "super")!) }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        NodeEncoder(node: node.child(key.stringValue, replacingWith: EncodingNode()), codingPath: codingPath + [key], userInfo: encoder.userInfo)
    }
}

private struct UnkeyedNodeContainer: UnkeyedEncodingContainer, ScalarPutting {
    let encoder: NodeEncoder
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var count: Int { node.arrayCount }

    private var nextPath: [any CodingKey] { codingPath + [IndexKey(count)] }
    var scalarPath: [any CodingKey] { nextPath }
    func put(_ value: ReportValue) { node.append(EncodingNode(.single(value))) }

    mutating func encode<T: Encodable>(_ value: T) throws { node.append(try encoder.encoding(value, at: nextPath)) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = nextPath
        let child = EncodingNode(.object(keys: [], children: [:]))
        node.append(child)
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(encoder: encoder, node: child, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = nextPath
        let child = EncodingNode(.array([]))
        node.append(child)
        return UnkeyedNodeContainer(encoder: encoder, node: child, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let path = nextPath
        let child = EncodingNode()
        node.append(child)
        return NodeEncoder(node: child, codingPath: path, userInfo: encoder.userInfo)
    }
}

private struct SingleNodeContainer: SingleValueEncodingContainer, ScalarPutting {
    let encoder: NodeEncoder
    let codingPath: [any CodingKey]

    var scalarPath: [any CodingKey] { codingPath }
    func put(_ value: ReportValue) { encoder.node.content = .single(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        encoder.node.content = try encoder.encoding(value, at: codingPath).content
    }
}

/// A container that takes each scalar as one `ReportValue` where it stands: the unkeyed and the
/// single-value containers alike (the keyed one puts each under its key).
private protocol ScalarPutting {
    /// Where the next scalar goes, for an error about it.
    var scalarPath: [any CodingKey] { get }
    /// Puts `value` where the next scalar goes.
    func put(_ value: ReportValue)
}

extension ScalarPutting {
    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ value: Bool) throws { put(.bool(value)) }
    mutating func encode(_ value: String) throws { put(.label(value)) }
    mutating func encode(_ value: Double) throws { put(.number(value)) }
    mutating func encode(_ value: Float) throws { put(.number(Double(value))) }
    mutating func encode(_ value: Int) throws { put(.int(value)) }
    mutating func encode(_ value: Int8) throws { put(.int(Int(value))) }
    mutating func encode(_ value: Int16) throws { put(.int(Int(value))) }
    mutating func encode(_ value: Int32) throws { put(.int(Int(value))) }
    mutating func encode(_ value: Int64) throws { put(.int(Int(value))) }
    mutating func encode(_ value: UInt) throws { put(try unsignedValue(value, at: scalarPath)) }
    mutating func encode(_ value: UInt8) throws { put(.int(Int(value))) }
    mutating func encode(_ value: UInt16) throws { put(.int(Int(value))) }
    mutating func encode(_ value: UInt32) throws { put(.int(Int(value))) }
    mutating func encode(_ value: UInt64) throws { put(try unsignedValue(value, at: scalarPath)) }
}

/// An unsigned integer as `.int`, an error at `path` past `Int.max`.
private func unsignedValue<U: UnsignedInteger>(_ value: U, at path: [any CodingKey]) throws -> ReportValue {
    guard let i = Int(exactly: value) else {
        throw EncodingError.invalidValue(value, .init(codingPath: path, debugDescription: "an integer too large to write"))
    }
    return .int(i)
}
