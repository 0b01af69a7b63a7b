import Privacy

/// A metric's key in compare.json (`asked`, `fallback.refusal`, `quality.best_f1`): a slice's
/// `metrics` key and a gate's `metric`, read back only when `MetricDefinition` knows it.
public struct MetricKey: ResultMapKey, Codable {
    public var mapKey: String

    public init(_ metric: MetricDefinition) { mapKey = metric.key }

    public init(judging text: String, at codingPath: [any CodingKey], decoder: any Decoder) throws(StateFormatError) {
        guard MetricDefinition.knownKeys.contains(text) else { throw StateFormatError(at: codingPath, "not a metric replay compares") }
        mapKey = text
    }

    public init(from decoder: any Decoder) throws {
        try self.init(judging: decoder.singleValueContainer().decode(String.self), at: decoder.codingPath, decoder: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(mapKey)
    }
}
