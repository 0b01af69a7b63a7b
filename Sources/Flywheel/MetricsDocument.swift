import Privacy

/// metrics.json: the same cells as metrics.csv, grouped by metric and dimension, with the schema
/// and the definitions a reader needs. The writer encodes it (`json()`), the auditor decodes it.
///
/// Shape (keys in this order):
/// ```
/// { "schema": "replay.flywheel/1",
///   "interval": "wilson", "confidence": 0.95, "smallSampleBelow": 30,
///   "totals": { "threads": Int, "messages": Int },
///   "metrics": [ { "metric": "chips.suggested", "feature": "chips" | "route" | "draft" | "push" | "contract",
///                  "kind": "share" | "mean",
///                  "label": String, "definition": String,
///                  "cells": { "all" | "build" | "model" | "locale" | "agent" | "week":
///                     [ { "key": String, "numerator": Int, "denominator": Int,
///                         "rate": Double|null, "low": Double|null, "high": Double|null,
///                         "smallSample": Bool } ] } } ],
///   "replayed": [ { "job": String, "eligible": Int, "answered": Int, "coverage": Double|null,
///                   "coverageLow": Double|null, "coverageHigh": Double|null,
///                   "inBudgetDevice": Double|null, "usage": <cell with "metric"> | null } ] }
/// ```
/// `replayed` is present only when summaries were given. For a mean, `numerator` is the sum,
/// `denominator` the count, `rate` the mean, and `low`/`high` are null. Keys under each dimension
/// come in display order (numbers by value; hashed labels, "unknown" and "(other)" last); every
/// metric lists every key its dimension has, 0 of 0 included. Build, model, locale and agent keys
/// are capped (`FlywheelCounter.capped`): at most 20, the rest summed under "(other)". The
/// `contract.*` metrics (feature "contract") are the spec's contract checks (`SpecContract`):
/// shares whose numerator counts the places where the export shows the app broke the spec.
public struct MetricsDocument: ResultDocument, Equatable {
    /// The schema name and version; bumped when a field changes meaning.
    public static let schema = "replay.flywheel/1"
    public static func isFileName(_ name: String) -> Bool { name == "metrics.json" }

    public var schema = SchemaName<Self>()
    public var interval = Interval.wilson
    public var confidence = 0.95
    public var smallSampleBelow = RateCell.smallSampleThreshold
    public var totals: Totals
    public var metrics: [MetricCells]
    /// Nil, and then no key at all, when no summaries were given.
    @OmittedWhenNil public var replayed: [Replayed]?

    /// How the intervals are taken.
    public enum Interval: String, Codable, Sendable { case wilson }

    public struct Totals: Codable, Sendable, Equatable {
        public var threads: Int
        public var messages: Int
    }

    /// One metric under every dimension.
    public struct MetricCells: Codable, Sendable, Equatable {
        public var metric: Metric
        public var feature: Feature
        public var kind: Kind
        public var label: Prose
        public var definition: Prose
        public var cells: ResultMap<MetricDimension, [Cell]>

        public enum Kind: String, Codable, Sendable { case share, mean }
    }

    /// What replaying one job gave, beside the usage metric it predicts (`ReplayedJobSummary`).
    public struct Replayed: Codable, Sendable, Equatable {
        public var job: Feature
        public var eligible: Int
        public var answered: Int
        public var coverage: Double?
        public var coverageLow: Double?
        public var coverageHigh: Double?
        public var inBudgetDevice: Double?
        public var usage: Usage?
    }

    /// A usage metric's overall cell: `metric` first, then the cell's own keys.
    public struct Usage: Codable, Sendable, Equatable {
        public var metric: Metric
        public var cell: Cell

        enum CodingKeys: String, CodingKey { case metric }

        public init(metric: Metric, cell: Cell) {
            self.metric = metric
            self.cell = cell
        }

        public init(from decoder: any Decoder) throws {
            metric = try decoder.container(keyedBy: CodingKeys.self).decode(Metric.self, forKey: .metric)
            cell = try Cell(from: decoder, dimension: .overall)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(metric, forKey: .metric)
            try cell.encode(to: encoder)
        }
    }

    /// One cell (`RateCell`) as written: its key judged under its dimension as it decodes.
    public struct Cell: Codable, Sendable, Equatable {
        public var key: String
        public var numerator: Int
        public var denominator: Int
        public var rate: Double?
        public var low: Double?
        public var high: Double?
        public var smallSample: Bool

        enum CodingKeys: String, CodingKey { case key, numerator, denominator, rate, low, high, smallSample }

        public init(_ cell: RateCell) {
            (key, numerator, denominator, rate, low, high, smallSample)
                = (cell.key, cell.numerator, cell.denominator, cell.rate, cell.low, cell.high, cell.smallSample)
        }

        /// A cell of a list under `cells.<dimension>`: the dimension is the key before its index.
        public init(from decoder: any Decoder) throws {
            let name = decoder.codingPath.dropLast().last?.stringValue ?? ""
            try self.init(from: decoder, dimension: MetricDimension(name: name) ?? .overall)
        }

        init(from decoder: any Decoder, dimension: MetricDimension) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            key = try container.decode(String.self, forKey: .key)
            try container.superDecoder(forKey: .key).judge(key, as: .flywheelKey(dimension: dimension.name))
            numerator = try container.decode(Int.self, forKey: .numerator)
            denominator = try container.decode(Int.self, forKey: .denominator)
            rate = try container.decodeIfPresent(Double.self, forKey: .rate)
            low = try container.decodeIfPresent(Double.self, forKey: .low)
            high = try container.decodeIfPresent(Double.self, forKey: .high)
            smallSample = try container.decode(Bool.self, forKey: .smallSample)
        }
    }

    /// The document for `counter` (capped), with `replayed` summaries if any.
    public init(_ counter: FlywheelCounter, replayed: [ReplayedJobSummary]? = nil) {
        let counter = counter.capped()
        totals = Totals(threads: counter.threads, messages: counter.messages)
        let keys = MetricDimension.allCases.map { counter.keys($0) }
        metrics = Metric.allCases.map { metric in
            MetricCells(metric: metric, feature: metric.feature, kind: metric.isMean ? .mean : .share,
                        label: Prose(metric.label), definition: Prose(metric.definition),
                        cells: ResultMap(MetricDimension.allCases.map { dimension in
                            (dimension, keys[dimension.rawValue].map { Cell(counter.cell(metric, dimension, $0)) })
                        }))
        }
        self.replayed = replayed?.map { summary in
            let coverage = summary.coverage
            return Replayed(job: summary.job, eligible: summary.eligible, answered: summary.answered,
                            coverage: coverage.rate, coverageLow: coverage.interval?.low, coverageHigh: coverage.interval?.high,
                            inBudgetDevice: summary.inBudgetDevice,
                            usage: summary.usageMetric.map { Usage(metric: $0, cell: Cell(counter.cell($0))) })
        }
    }
}
