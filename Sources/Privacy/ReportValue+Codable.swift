/// A `ReportValue` inside a `Codable` value (a report's `model` block in a state, the sandbox
/// block): `ReportValueEncoder` and `ReportValueDecoder` hand it over as it is; another coder
/// gets its scalars, arrays and objects (keys in order, where that coder keeps an order).
extension ReportValue: Codable {
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let b):
            var single = encoder.singleValueContainer()
            try single.encode(b)
        case .int(let i):
            var single = encoder.singleValueContainer()
            try single.encode(i)
        case .number(let d):
            var single = encoder.singleValueContainer()
            try single.encode(d)
        case .label(let s):
            var single = encoder.singleValueContainer()
            try single.encode(s)
        case .array(let items):
            var list = encoder.unkeyedContainer()
            for item in items { try list.encode(item) }
        case .object(let fields):
            var object = encoder.container(keyedBy: ReportKey.self)
            for (key, value) in fields { try object.encode(value, forKey: ReportKey(key)) }
        }
    }

    public init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: ReportKey.self) {
            self = .object(try object.allKeys.map { ($0.stringValue, try object.decode(ReportValue.self, forKey: $0)) })
        } else if var list = try? decoder.unkeyedContainer() {
            var items: [ReportValue] = []
            while !list.isAtEnd { items.append(try list.decode(ReportValue.self)) }
            self = .array(items)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() { self = .null }
            else if let b = try? single.decode(Bool.self) { self = .bool(b) }
            else if let i = try? single.decode(Int.self) { self = .int(i) }
            else if let d = try? single.decode(Double.self) { self = .number(d) }
            else { self = .label(try single.decode(String.self)) }
        }
    }
}
