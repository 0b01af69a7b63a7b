import Foundation

/// Escaping, number formats and the page frame for the dashboard (and the escaping and the page
/// frame for `replay compare`'s page).
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

    /// A self-contained page's start, to `<body>`: UTF-8, a Content Security Policy that allows
    /// nothing but inline styles (no script, font, image or link out), light and dark, `title`
    /// and `css` inline.
    public static func pageHead(title: String, css: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
        <meta name="color-scheme" content="light dark">
        <title>\(escape(title))</title>
        <style>
        \(css)
        </style>
        </head>
        <body>

        """
    }

    /// The rules a page's style shares after its colours (`--bg`, `--fg`, `--line`): a column of
    /// at most `maxWidth` pixels in system fonts, and the two heading sizes.
    public static func frameCSS(maxWidth: Int) -> String {
        """
        * { box-sizing: border-box; }
        body { margin: 0 auto; max-width: \(maxWidth)px; padding: 24px; background: var(--bg); color: var(--fg);
          font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; }
        h1 { font-size: 1.6rem; margin: 0 0 .4rem; }
        h2 { font-size: 1.25rem; margin: 2.2rem 0 .4rem; padding-top: .8rem; border-top: 1px solid var(--line); }
        """
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
