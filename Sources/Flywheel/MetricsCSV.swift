import Foundation

/// metrics.csv: one tidy row per cell, `metric,dimension,key,numerator,denominator,rate,low,high`.
///
/// RFC 4180 quoting: any field that is not a plain token (letters, digits, `.`, `_`, `-`, `+`) is
/// quoted with inner quotes doubled, so keys such as `2.3.0 (512)` or a name with a comma read back
/// as one field. A field that a spreadsheet would take for a formula (starting `=`, `+`, `-`, `@`)
/// is quoted too, though that alone does not stop spreadsheets; the values are the export's labels,
/// kept as they are. Rates and bounds have six decimals; empty when there is no rate (0 of 0) or
/// no interval (means).
public enum MetricsCSV {
    /// The header line, exactly.
    public static let header = "metric,dimension,key,numerator,denominator,rate,low,high"

    /// The whole file for `counter`.
    public static func render(_ counter: FlywheelCounter) -> String {
        render(counter.cells())
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

    /// A text field, quoted unless it is a plain token.
    static func field(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", ".", "_": return true
            case "-", "+": return true
            default: return false
            }
        } && !(text.hasPrefix("-") || text.hasPrefix("+"))
        guard !plain else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func decimal(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "" }
        return String(format: "%.6f", value)
    }
}
