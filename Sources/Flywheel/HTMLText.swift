import Foundation

/// Escaping and number formats for the dashboard (and the escaping for `replay compare`'s page).
public enum HTMLText {
    /// `text` safe in HTML and SVG text and in attribute values (quoted with `"`).
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    /// A share as a percentage with one decimal ("42.0%"), or "no data".
    static func percent(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "no data" }
        return DecimalText.fixed(value * 100, digits: 1) + "%"
    }

    /// A mean with two decimals, or "no data".
    static func mean(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "no data" }
        return DecimalText.fixed(value, digits: 2)
    }

    /// An SVG coordinate with one decimal.
    static func coordinate(_ value: Double) -> String {
        DecimalText.fixed(value, digits: 1)
    }

    /// `text` cut to `limit` characters, ending in "…" when cut.
    static func shortened(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }
}
