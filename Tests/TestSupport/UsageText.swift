/// A command's usage text as the tests read it.
public enum UsageText {
    /// The exit-status lines of a usage text, continuation lines joined: code and meaning.
    public static func exitEntries(_ usage: String) -> [(Int32, String)] {
        guard let start = usage.range(of: "\nExit status:\n") else { return [] }
        var entries: [(Int32, String)] = []
        for line in usage[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            let text = line.drop { $0 == " " }
            let indent = line.count - text.count
            if indent == 2, let space = text.firstIndex(of: " "), let code = Int32(text[..<space]) {
                entries.append((code, String(text[space...].drop { $0 == " " })))
            } else if indent > 2, !entries.isEmpty {
                entries[entries.count - 1].1 += " " + text
            } else {
                break
            }
        }
        return entries
    }
}
