/// A key of an object whose keys are data (a dictionary: counters by name, slices by build), as
/// `ResultMap` writes and reads one in a chosen order: Swift's `Dictionary` encodes its pairs in
/// no fixed order, and a result file's bytes must not depend on hashing.
public struct ReportKey: CodingKey, Sendable, Hashable {
    public let stringValue: String
    public var intValue: Int? { nil }

    public init(_ key: String) { stringValue = key }
    public init?(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { nil }
}
