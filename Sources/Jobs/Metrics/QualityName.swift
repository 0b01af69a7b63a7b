import Privacy

/// A quality measure's name, as the jobs score their answers (`JobItem.quality`): the keys of
/// report.json's `quality` blocks, of the items file's measures and of `replay compare`'s metrics.
public struct QualityName: SortedMapKey, Comparable, Sendable {
    public let name: String

    /// Each job's measures (docs/report-schema.md, "Quality").
    public static let byJob: [JobKind: [String]] = [
        .chips: ["best_f1", "exact_match"],
        .route: ["accuracy", "agreement", "drawer_accuracy", "drawer_shown", "lead_accuracy"],
        .push: ["length_chars", "well_formed"],
        .draft: ["checklist_when_used", "kind_agrees", "used_when_drafted"],
    ]
    public static let all: Set<String> = Set(byJob.values.joined())

    public init(_ name: String) { self.name = name }
    public init(stored name: String) { self.name = name }
    public var stored: String { name }

    public var mapKey: String { name }

    public init(judging text: String, at codingPath: [any CodingKey], decoder: any Decoder) throws(StateFormatError) {
        guard Self.all.contains(text) else { throw StateFormatError(at: codingPath, "a key that is not a quality measure's name") }
        name = text
    }

    public static func < (a: Self, b: Self) -> Bool { a.name < b.name }
}
