/// Text made inert in report.md: it cannot break a table, open a link or an image, or start
/// code or HTML.
///
/// Labels that reach the report have passed their `ReportLabel` rule, so they hold none of this;
/// escaping every label anyway means a rule that lets too much through still cannot change the
/// page. CommonMark lets any ASCII punctuation be escaped with a backslash, which renders as the
/// character itself; line breaks would end a table row, so they become spaces.
package enum MarkdownText {
    /// The characters escaped with a backslash: table cells (`|`), code (`` ` ``), links and
    /// images (`[ ] ( ) !`), autolinks and HTML (`< >`), entities (`&`) and the backslash itself
    /// (so an escape in the text cannot undo one of ours).
    package static let escaped: Set<Unicode.Scalar> = ["\\", "|", "`", "[", "]", "(", ")", "<", ">", "!", "&"]

    /// `text` safe in a table cell or a line of report.md.
    package static func escape(_ text: String) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if escaped.contains(scalar) {
                out.unicodeScalars.append("\\")
                out.unicodeScalars.append(scalar)
            } else if scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}"
                        || scalar == "\u{85}" {
                out.unicodeScalars.append(" ")
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
