import Privacy

/// metrics.json: the same cells as metrics.csv, grouped by metric and dimension, with the schema
/// and the definitions a reader needs.
///
/// Shape (keys in this order):
/// ```
/// { "schema": "replay.flywheel/1",
///   "interval": "wilson", "confidence": 0.95, "smallSampleBelow": 30,
///   "totals": { "threads": Int, "messages": Int },
///   "metrics": [ { "metric": "chips.suggested", "feature": "chips", "kind": "share" | "mean",
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
/// are capped (`FlywheelCounter.capped`): at most 20, the rest summed under "(other)".
public enum MetricsJSON {
    /// The schema name and version; bumped when a field changes meaning.
    public static let schema = "replay.flywheel/1"

    /// The report for `counter`, with `replayed` summaries if any.
    public static func report(_ counter: FlywheelCounter, replayed: [ReplayedJobSummary]? = nil) -> ReportValue {
        let counter = counter.capped()
        var fields: [(String, ReportValue)] = [
            ("schema", .label(schema)),
            ("interval", .label("wilson")),
            ("confidence", .number(0.95)),
            ("smallSampleBelow", .int(RateCell.smallSampleThreshold)),
            ("totals", .object([("threads", .int(counter.threads)), ("messages", .int(counter.messages))])),
        ]
        let keys = MetricDimension.allCases.map { counter.keys($0) }
        var metrics: [ReportValue] = []
        for metric in Metric.allCases {
            var dimensions: [(String, ReportValue)] = []
            for dimension in MetricDimension.allCases {
                let cells = keys[dimension.rawValue].map { cellValue(counter.cell(metric, dimension, $0)) }
                dimensions.append((dimension.name, .array(cells)))
            }
            metrics.append(.object([
                ("metric", .label(metric.name)),
                ("feature", .label(metric.feature.rawValue)),
                ("kind", .label(metric.isMean ? "mean" : "share")),
                ("label", .label(metric.label)),
                ("definition", .label(metric.definition)),
                ("cells", .object(dimensions)),
            ]))
        }
        fields.append(("metrics", .array(metrics)))
        if let replayed {
            fields.append(("replayed", .array(replayed.map { summary in
                let coverage = summary.coverage
                let usage = summary.usageMetric.map { metric -> ReportValue in
                    guard case .object(let cellFields) = cellValue(counter.cell(metric)) else { return .null }
                    return .object([("metric", .label(metric.name))] + cellFields)
                }
                return .object([
                    ("job", .label(ReportLabel(token: summary.job))),
                    ("eligible", .int(summary.eligible)),
                    ("answered", .int(summary.answered)),
                    ("coverage", .number(coverage.rate)),
                    ("coverageLow", .number(coverage.interval?.low)),
                    ("coverageHigh", .number(coverage.interval?.high)),
                    ("inBudgetDevice", .number(summary.inBudgetDevice)),
                    ("usage", usage ?? .null),
                ])
            })))
        }
        return .object(fields)
    }

    static func cellValue(_ cell: RateCell) -> ReportValue {
        .object([
            ("key", .label(cell.key)),
            ("numerator", .int(cell.numerator)),
            ("denominator", .int(cell.denominator)),
            ("rate", .number(cell.rate)),
            ("low", .number(cell.low)),
            ("high", .number(cell.high)),
            ("smallSample", .bool(cell.smallSample)),
        ])
    }
}
