import Foundation

/// metrics.csv: one tidy row per cell, `metric,dimension,key,numerator,denominator,rate,low,high`.
///
/// RFC 4180 quoting: any field that is not a plain token (letters, digits, `.`, `_`, `-`, `+`) is
/// quoted with inner quotes doubled, so keys such as `2.3.0 (512)` read back as one field. A field
/// a spreadsheet would run as a formula (starting `=`, `+`, `-`, `@`, a tab or a carriage return)
/// gets a leading `'` and is quoted (OWASP's advice for CSV injection). The keys have passed their
/// `ReportLabel` rule, which already starts every one with a letter or digit (or `#h:`, or is
/// "(other)"); the neutralising is the second line of defence. Rates and bounds have six
/// decimals; empty when there is no rate (0 of 0) or no interval (means).
public enum MetricsCSV {
    /// The header line, exactly.
    public static let header = "metric,dimension,key,numerator,denominator,rate,low,high"

    /// The whole file for `counter`, capped (`FlywheelCounter.capped`).
    public static func render(_ counter: FlywheelCounter) -> String {
        render(counter.capped().cells())
    }

    /// The whole file for `cells`, in their order.
    public static func render(_ cells: [RateCell]) -> String {
        var out = header + "\n"
        for cell in cells {
            out += [field(cell.metric.name), field(cell.dimension.name), field(cell.key),
                    String(cell.numerator), String(cell.denominator),
                    decimal(cell.rate), decimal(cell.low), decimal(cell.high)].joined(separator: ",")
            out += "\n"
        }
        return out
    }

    /// A text field: as it is when a plain token that cannot start a formula, else quoted, with a
    /// `'` in front when it starts like a formula.
    static func field(_ text: String) -> String {
        let formula = text.unicodeScalars.first.map { "=+-@\t\r".unicodeScalars.contains($0) } ?? false
        let plain = !text.isEmpty && !formula && text.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", ".", "_", "-", "+": return true
            default: return false
            }
        }
        guard !plain else { return text }
        let neutral = formula ? "'" + text : text
        return "\"" + neutral.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func decimal(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "" }
        return DecimalText.fixed(value, digits: 6)
    }
}
