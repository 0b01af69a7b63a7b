import Flywheel
import Foundation
import ReplayKit

/// How compare.md, compare.html, junit.xml and the gate lines write numbers: plain decimals,
/// never an exponent, rates as percentages and their differences in percentage points.
/// `replay probe compare`'s compare.md and gate lines write theirs with it too.
public enum CompareText {
    /// `value` to about four significant digits, without an exponent: `0.01235`, `123.5`, `-2`.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "-" }
        if value == 0 { return "0" }
        let magnitude = abs(value)
        let digits = magnitude >= 1000 ? 0 : magnitude >= 100 ? 1 : magnitude >= 10 ? 2 : magnitude >= 1 ? 3
            : min(12, 3 - Int(floor(log10(magnitude))))
        return trimmed(String(format: "%.\(digits)f", value))
    }

    /// `number` with a `+` before a positive value (a difference).
    public static func signed(_ value: Double) -> String {
        value > 0 ? "+" + number(value) : number(value)
    }

    /// A p-value: four decimals, `<0.0001` below that.
    public static func pValue(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "-" }
        if value < 0.0001 { return "<0.0001" }
        return trimmed(String(format: "%.4f", value))
    }

    /// A metric's value in its unit: a rate as a percentage (`42.5%`), anything else as a number.
    public static func value(_ value: Double?, _ metric: MetricDefinition) -> String {
        guard let value else { return "-" }
        return metric.unit == .fraction ? trimmed(String(format: "%.1f", value * 100)) + "%" : number(value)
    }

    /// A difference in the metric's unit: percentage points for a rate (`+2.5 pp`, or `+2.5`
    /// without `withUnit`).
    public static func difference(_ value: Double?, _ metric: MetricDefinition, withUnit: Bool = true) -> String {
        guard let value else { return "-" }
        if metric.unit == .fraction {
            let points = trimmed(String(format: "%.1f", value * 100))
            return (value > 0 && points != "0" ? "+" : "") + points + (withUnit ? " pp" : "")
        }
        return signed(value)
    }

    /// A size of a difference (the minimum detectable one): percentage points for a rate.
    public static func magnitude(_ value: Double?, _ metric: MetricDefinition) -> String {
        guard let value else { return "-" }
        return metric.unit == .fraction ? trimmed(String(format: "%.1f", value * 100)) + " pp" : number(value)
    }

    /// `text` safe in HTML and SVG text and in attribute values quoted with `"`: the dashboard's escaping.
    static func html(_ text: String) -> String { HTMLText.escape(text) }

    /// An SVG coordinate, one decimal.
    static func coordinate(_ value: Double) -> String { trimmed(String(format: "%.1f", value)) }

    /// The 95% interval of a difference: `[-1.2, +3.4] pp`.
    public static func interval(_ lower: Double?, _ upper: Double?, _ metric: MetricDefinition) -> String {
        guard let lower, let upper else { return "-" }
        if metric.unit == .fraction {
            func points(_ v: Double) -> String {
                let text = trimmed(String(format: "%.1f", v * 100))
                return text == "-0" ? "0" : (v > 0 && text != "0" ? "+" : "") + text
            }
            return "[\(points(lower)), \(points(upper))] pp"
        }
        return "[\(signed(lower)), \(signed(upper))]"
    }

    /// A metric's unit as the tables name it.
    static func unit(_ metric: MetricDefinition) -> String {
        metric.unit == .fraction ? "share" : metric.unit.rawValue
    }

    /// Drops trailing zeros after a decimal point, and the point itself when nothing follows.
    static func trimmed(_ text: String) -> String {
        guard text.contains(".") else { return text }
        var out = text
        while out.hasSuffix("0") { out.removeLast() }
        if out.hasSuffix(".") { out.removeLast() }
        return out == "-0" ? "0" : out
    }
}
