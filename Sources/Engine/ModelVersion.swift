/// An on-device model version as the export writes it (`meta.model`: "26.0", "26.4", "27.0"),
/// read as numbers so that "26.10" comes after "26.4" and "27" equals "27.0".
public struct ModelVersion: Sendable, Comparable, CustomStringConvertible {
    /// The dotted numbers, trailing zeros dropped.
    public let parts: [Int]

    /// A version of one to four dot-separated whole numbers of at most four digits each; nil for
    /// anything else ("unknown", "27.0-beta", a name).
    public init?(_ text: String) {
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(pieces.count) else { return nil }
        var parts: [Int] = []
        for piece in pieces {
            guard (1...4).contains(piece.count), piece.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(piece) else { return nil }
            parts.append(number)
        }
        while parts.count > 1, parts.last == 0 { parts.removeLast() }
        self.parts = parts
    }

    public static func < (a: ModelVersion, b: ModelVersion) -> Bool {
        for index in 0..<max(a.parts.count, b.parts.count) {
            let x = index < a.parts.count ? a.parts[index] : 0
            let y = index < b.parts.count ? b.parts[index] : 0
            if x != y { return x < y }
        }
        return false
    }

    public static func == (a: ModelVersion, b: ModelVersion) -> Bool { !(a < b) && !(b < a) }

    /// The version with at least a major and a minor number ("27" as "27.0").
    public var description: String {
        (parts.count == 1 ? parts + [0] : parts).map(String.init).joined(separator: ".")
    }
}
