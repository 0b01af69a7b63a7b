/// A string of a result file with its rule as its type: encoded as the bare string, judged by
/// the auditor's `ResultStringJudge` when one decodes it (`ResultStringRule`).
///
/// It also wraps a `String` field (`@Prose var message: String`), so a type that keeps plain
/// strings is still judged by its synthesized coding.
@propertyWrapper
public struct Judged<Rule: ResultStringRuleName>: Codable, Sendable, Hashable, Comparable, CustomStringConvertible,
    ExpressibleByStringLiteral {
    public var text: String

    public init(_ text: String) { self.text = text }
    public init(wrappedValue: String) { text = wrappedValue }
    public var wrappedValue: String {
        get { text }
        set { text = newValue }
    }
    public init(stringLiteral text: String) { self.text = text }

    public var description: String { text }

    public static func < (a: Self, b: Self) -> Bool { a.text < b.text }

    public init(from decoder: any Decoder) throws {
        text = try decoder.singleValueContainer().decode(String.self)
        try decoder.judge(text, as: Rule.rule)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

/// A rule as a type, for `Judged`.
public protocol ResultStringRuleName: Sendable {
    static var rule: ResultStringRule { get }
}

/// The rules as types: a field says `ResultPath`, `BuildLabel`, `SHA256Hex`.
public enum ResultStringRules {
    public enum Path: ResultStringRuleName { public static var rule: ResultStringRule { .path } }
    public enum Prose: ResultStringRuleName { public static var rule: ResultStringRule { .prose } }
    public enum Timestamp: ResultStringRuleName { public static var rule: ResultStringRule { .timestamp } }
    public enum SHA256: ResultStringRuleName { public static var rule: ResultStringRule { .hex(64) } }
    public enum Hex16: ResultStringRuleName { public static var rule: ResultStringRule { .hex(16) } }
    public enum StateDigest: ResultStringRuleName { public static var rule: ResultStringRule { .stateDigest } }
    public enum Counter: ResultStringRuleName { public static var rule: ResultStringRule { .counter } }
    public enum ModelText: ResultStringRuleName { public static var rule: ResultStringRule { .modelText } }
    public enum Device: ResultStringRuleName { public static var rule: ResultStringRule { .device } }
    public enum ResultFileName: ResultStringRuleName { public static var rule: ResultStringRule { .resultFileName } }
    public enum Build: ResultStringRuleName { public static var rule: ResultStringRule { .label(.build) } }
    public enum Model: ResultStringRuleName { public static var rule: ResultStringRule { .label(.model) } }
    public enum Token: ResultStringRuleName { public static var rule: ResultStringRule { .label(.token) } }
    public enum Locale: ResultStringRuleName { public static var rule: ResultStringRule { .label(.locale) } }
    public enum Kind: ResultStringRuleName { public static var rule: ResultStringRule { .label(.kind) } }
}

public typealias ResultPath = Judged<ResultStringRules.Path>
public typealias Prose = Judged<ResultStringRules.Prose>
public typealias UTCTimestamp = Judged<ResultStringRules.Timestamp>
public typealias SHA256Hex = Judged<ResultStringRules.SHA256>
public typealias Hex16 = Judged<ResultStringRules.Hex16>
public typealias StateDigestText = Judged<ResultStringRules.StateDigest>
public typealias CounterName = Judged<ResultStringRules.Counter>
public typealias ModelText = Judged<ResultStringRules.ModelText>
public typealias DeviceName = Judged<ResultStringRules.Device>
public typealias ResultFileName = Judged<ResultStringRules.ResultFileName>
public typealias BuildLabel = Judged<ResultStringRules.Build>
public typealias ModelLabel = Judged<ResultStringRules.Model>
public typealias TokenLabel = Judged<ResultStringRules.Token>
public typealias LocaleLabel = Judged<ResultStringRules.Locale>
public typealias KindLabel = Judged<ResultStringRules.Kind>

extension Judged where Rule == ResultStringRules.SHA256 {
    /// Whether `text` is 64 lowercase hex digits.
    public static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64
            && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }
}
