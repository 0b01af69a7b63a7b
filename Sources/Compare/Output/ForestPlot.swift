import Foundation
import ReplayKit

/// A forest plot of one job's slice as inline SVG: a row per metric with NEW − BASE as a point
/// and its 95% interval as a line, a zero line to read it against, coloured by the verdict.
///
/// Metrics of different units cannot share an axis, so rows are grouped by unit (rates in
/// percentage points, quality scores, tokens, ms, characters), each group with its own axis,
/// symmetric about zero and wide enough for every interval in it. A group none of whose metrics
/// has pairs is one line saying so. Colours come from CSS classes the page defines for light
/// and dark; every point has a `<title>` with its numbers, and the SVG a `<title>` and `<desc>`.
struct ForestPlot: Sendable {
    let id: String
    let title: String
    let metrics: [MetricComparison]

    static let width = 760.0
    static let labelRight = 206.0, plotLeft = 216.0, plotRight = 520.0, textLeft = 532.0
    static let rowHeight = 22.0, titleHeight = 24.0, axisHeight = 28.0, groupGap = 12.0

    /// A unit's rows (a quality family's, for quality keys), its axis half-width and how its
    /// numbers are shown.
    struct Group {
        var title: String
        var rows: [MetricComparison]
        /// What the rows' labels leave out of their keys (`quality.`), said by the title.
        var prefix: String
        /// The axis runs from −extent to +extent.
        var extent: Double
        /// Axis numbers are multiplied by this (100 for rates: percentage points).
        var scale: Double
    }

    /// A group's title: its unit, which way is better, and for quality keys which answers.
    static func groupTitle(_ unit: MetricDefinition.Unit, family: String?) -> String {
        let answers = family == "quality_all_answers" ? ", every valid answer as if shown" : family == "quality" ? ", what the person saw" : ""
        switch unit {
        case .fraction: return "Rates, percentage points (asked, answered, in budget: higher is better; fallbacks: lower is better)"
        case .score: return "Quality scores from 0 to 1\(answers) (higher is better)"
        case .tokens: return "Tokens per asked item (lower is better)"
        case .ms: return "Latency percentiles, ms (lower is better)"
        case .characters: return "Sizes in characters\(answers) (neither side is better)"
        }
    }

    /// The quality family of a key (`quality`, `quality_all_answers`), nil for any other.
    static func family(_ key: String) -> String? {
        MetricDefinition.qualityFamilies.first { key.hasPrefix($0 + ".") }
    }

    var groups: [Group] {
        var groups: [Group] = []
        for unit in MetricDefinition.Unit.allCases {
            for family in [nil] + MetricDefinition.qualityFamilies.map(Optional.some) {
                let rows = metrics.filter { $0.metric.unit == unit && Self.family($0.metric.key) == family }
                guard !rows.isEmpty else { continue }
                // 5% beyond the widest bound, so no point sits on the axis's end.
                let widest = rows.flatMap { [$0.lower, $0.upper, $0.difference].compactMap { $0 }.map(abs) }.max() ?? 0
                let scale = unit == .fraction ? 100.0 : 1
                groups.append(Group(title: Self.groupTitle(unit, family: family), rows: rows, prefix: family.map { $0 + "." } ?? "",
                                    extent: Self.niceExtent(widest * scale * 1.05) / scale, scale: scale))
            }
        }
        return groups
    }

    /// The smallest of 1, 2, 2.5 or 5 times a power of ten that is at least `value` (1 for 0).
    static func niceExtent(_ value: Double) -> Double {
        guard value > 0, value.isFinite else { return 1 }
        let power = pow(10, floor(log10(value)))
        for step in [1.0, 2, 2.5, 5, 10] where step * power >= value * (1 - 1e-12) { return step * power }
        return 10 * power
    }

    static func hasPairs(_ group: Group) -> Bool { group.rows.contains { $0.pairs > 0 } }

    func height(_ groups: [Group]) -> Double {
        groups.reduce(8.0) { total, group in
            total + Self.titleHeight + (Self.hasPairs(group) ? Double(group.rows.count) * Self.rowHeight + Self.axisHeight : Self.rowHeight)
                + Self.groupGap
        }
    }

    /// What the plot shows, in words.
    var summary: String {
        let counted = MetricVerdict.allCases.map { verdict in (verdict, metrics.filter { $0.verdict == verdict }.count) }.filter { $0.1 > 0 }
        return "Forest plot of \(metrics.count) metrics: NEW − BASE with 95% intervals, grouped by unit, each group on its own axis "
            + "centred on zero. " + counted.map { "\($0.1) \($0.0.rawValue)" }.joined(separator: ", ") + ". The table lists every value."
    }

    func svg() -> String {
        let groups = self.groups
        let height = height(groups)
        func c(_ value: Double) -> String { CompareText.coordinate(value) }
        var out = "<svg class=\"forest\" role=\"img\" aria-labelledby=\"\(id)-title\" aria-describedby=\"\(id)-desc\" "
        out += "viewBox=\"0 0 \(Int(Self.width)) \(Int(height.rounded(.up)))\" width=\"100%\" preserveAspectRatio=\"xMinYMin meet\">\n"
        out += "<title id=\"\(id)-title\">\(CompareText.html(title))</title>\n<desc id=\"\(id)-desc\">\(CompareText.html(summary))</desc>\n"
        var y = 8.0
        for group in groups {
            out += "<text class=\"group\" x=\"8\" y=\"\(c(y + 15))\">\(CompareText.html(group.title))</text>\n"
            y += Self.titleHeight
            guard Self.hasPairs(group) else {
                let keys = group.rows.map { String($0.metric.key.dropFirst(group.prefix.count)) }.joined(separator: ", ")
                out += "<text class=\"nodata\" x=\"\(c(Self.plotLeft))\" y=\"\(c(y + 15))\">no pairs: \(CompareText.html(keys))</text>\n"
                y += Self.rowHeight + Self.groupGap
                continue
            }
            let top = y
            func x(_ value: Double) -> Double {
                let fraction = (value / group.extent + 1) / 2
                return Self.plotLeft + min(max(fraction, 0), 1) * (Self.plotRight - Self.plotLeft)
            }
            for (index, row) in group.rows.enumerated() {
                let rowTop = y, middle = y + Self.rowHeight / 2
                if index % 2 == 1 {
                    out += "<rect class=\"stripe\" x=\"0\" y=\"\(c(rowTop))\" width=\"\(Int(Self.width))\" height=\"\(c(Self.rowHeight))\"/>"
                }
                let label = String(row.metric.key.dropFirst(group.prefix.count))
                out += "<text class=\"label\" x=\"\(c(Self.labelRight))\" y=\"\(c(middle + 4))\" text-anchor=\"end\">\(CompareText.html(label))</text>"
                let verdict = Self.verdictClass(row.verdict)
                if let difference = row.difference, let lower = row.lower, let upper = row.upper {
                    out += "<path class=\"whisker \(verdict)\" d=\"M\(c(x(lower))) \(c(middle))H\(c(x(upper)))M\(c(x(lower))) \(c(middle - 4))v8M\(c(x(upper))) \(c(middle - 4))v8\"/>"
                    out += "<circle class=\"point \(verdict)\" cx=\"\(c(x(difference)))\" cy=\"\(c(middle))\" r=\"4\"><title>\(CompareText.html(Self.tooltip(row)))</title></circle>"
                    let numbers = CompareText.difference(difference, row.metric, withUnit: false) + " " + CompareText.interval(lower, upper, row.metric)
                    out += "<text class=\"value\" x=\"\(c(Self.textLeft))\" y=\"\(c(middle + 4))\">\(CompareText.html(numbers))"
                    if row.verdict != .noDetectableChange {
                        out += " <tspan class=\"verdict \(verdict)\">\(CompareText.html(row.verdict.rawValue))</tspan>"
                    }
                    out += "</text>\n"
                } else {
                    out += "<text class=\"nodata\" x=\"\(c(Self.plotLeft + 4))\" y=\"\(c(middle + 4))\">no pairs</text>\n"
                }
                y += Self.rowHeight
            }
            // Ticks and gridlines at −extent, −extent/2, 0, +extent/2, +extent; the zero line strong.
            for step in -2...2 {
                let value = Double(step) / 2 * group.extent
                let px = x(value)
                out += "<line class=\"\(step == 0 ? "zero" : "grid")\" x1=\"\(c(px))\" x2=\"\(c(px))\" y1=\"\(c(top))\" y2=\"\(c(y + 4))\"/>"
                out += "<text class=\"axis\" x=\"\(c(px))\" y=\"\(c(y + 17))\" text-anchor=\"middle\">\(CompareText.html(CompareText.signed(value * group.scale)))</text>\n"
            }
            y += Self.axisHeight + Self.groupGap
        }
        return out + "</svg>\n"
    }

    static func verdictClass(_ verdict: MetricVerdict) -> String {
        switch verdict {
        case .better: "v-better"
        case .worse: "v-worse"
        case .changed: "v-changed"
        case .noDetectableChange, .noPairs: "v-none"
        }
    }

    static func tooltip(_ row: MetricComparison) -> String {
        let metric = row.metric
        return "\(metric.key): NEW − BASE \(CompareText.difference(row.difference, metric)), 95% interval "
            + "\(CompareText.interval(row.lower, row.upper, metric)), Holm p \(CompareText.pValue(row.adjustedPValue)), "
            + "\(row.pairs) pairs: \(row.verdict.rawValue)"
    }
}
