/// Made-up free text for a corpus's labelled fields (builds, locales, names, kinds), and the
/// check that none of it reached a file: what the flywheel's and a run's label tests both put in
/// and look for.
///
/// A sentence is named in test output by its index only, and `leaked` answers with a Bool, so a
/// failing test can show neither a sentence nor where it leaked.
public enum LabelFreeText {
    /// Made-up sentences and, for each, a word that only it holds.
    public static let sentences: [(text: String, word: String)] = [
        ("the quick brown fox jumps over", "quick"),
        ("pipework | splits\nthe table", "pipework"),
        (#"=HYPERLINK("cmd") formula"#, "hyperlink"),
        ("[clickbait](http://lure.invalid/x)", "clickbait"),
        ("<script>exfiltrate()</script>", "exfiltrate"),
        ("`backtick` and ! bang", "backtick"),
    ]

    /// Pieces of markup and formulas that must not appear either.
    public static let fragments = ["<script", "=HYPERLINK", "](http", "lure.invalid"]

    /// Whether `text` holds a sentence's `word` or any of the fragments, in any case.
    public static func leaked(_ word: String, into text: String) -> Bool {
        text.localizedCaseInsensitiveContains(word) || fragments.contains { text.localizedCaseInsensitiveContains($0) }
    }

    /// `text` as a JSON string literal.
    public static func json(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
