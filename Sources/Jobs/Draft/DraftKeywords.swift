import Foundation

/// The kind a message asks a draft for, by keywords in the corpus's languages: one table, read
/// by Foundation's search for any text and by a byte search for all-ASCII texts.
///
/// A rough proxy for the quality report (`DraftJob`'s `expected:<kind>`), never shown to the
/// model: a request phrased without these words, or a question that mentions a list, gets the
/// wrong label.
enum DraftKeywords {
    /// Where a keyword must occur in the lowercased text, its leading white space trimmed.
    enum Place: Sendable {
        case start
        case anywhere
    }

    /// One label's keywords.
    struct Rule: Sendable {
        let kind: String
        let place: Place
        let keywords: [String]
        /// The keywords that are all ASCII, as bytes: the only ones an ASCII text can hold.
        let asciiKeywords: [[UInt8]]

        init(_ kind: String, _ place: Place, _ keywords: [String]) {
            self.kind = kind
            self.place = place
            self.keywords = keywords
            asciiKeywords = keywords.map { Array($0.utf8) }.filter { $0.allSatisfy { $0 < 0x80 } }
        }
    }

    /// The rules in the order they are tried; a text none of them matches asks for none
    /// (questions for the expert). A note starts with its keyword; timers and lists name theirs
    /// anywhere.
    static let rules: [Rule] = [
        Rule("card", .start, ["note", "notiz", "nota", "メモ"]),
        Rule("timer", .anywhere, ["timer", "minuteur", "temporizador", "タイマー"]),
        Rule("checklist", .anywhere, ["list", "lista", "リスト"]),
    ]

    /// The kind `text` asks for.
    static func kind(of text: String) -> String {
        asciiKind(of: text) ?? foundationKind(of: text)
    }

    /// The rules as Foundation states them, for any text.
    static func foundationKind(of text: String) -> String {
        let folded = text.lowercased().trimmingCharacters(in: .whitespacesAndNewlines)
        for rule in rules {
            switch rule.place {
            case .start: if rule.keywords.contains(where: { folded.hasPrefix($0) }) { return rule.kind }
            case .anywhere: if rule.keywords.contains(where: { folded.contains($0) }) { return rule.kind }
            }
        }
        return "none"
    }

    /// `foundationKind(of:)` of an all-ASCII text from its bytes; nil for any other text (every
    /// offline message is labelled, and Foundation's search was most of a draft dry run's own work).
    ///
    /// The same answer: for ASCII, `lowercased()` maps only A-Z, the white space trimmed from the
    /// front is 09-0D and 20, and no ASCII character joins the ASCII letters of a keyword into
    /// another character (CR LF is the only cluster of two, and no keyword holds either), so the
    /// keywords' prefix and substring tests are byte tests. The non-ASCII keywords cannot occur.
    static func asciiKind(of text: String) -> String? {
        text.utf8.withContiguousStorageIfAvailable { bytes -> String? in
            var index = 0
            while index < bytes.count {
                if bytes[index] >= 0x80 { return nil }
                index += 1
            }
            var start = 0
            while start < bytes.count, bytes[start] == 0x20 || (0x09...0x0D).contains(bytes[start]) { start += 1 }
            let folded = UnsafeBufferPointer(rebasing: bytes[start...])
            for rule in rules {
                switch rule.place {
                case .start: if rule.asciiKeywords.contains(where: { foldedMatch(folded, at: 0, $0) }) { return rule.kind }
                case .anywhere: if rule.asciiKeywords.contains(where: { foldedContains(folded, $0) }) { return rule.kind }
                }
            }
            return "none"
        } ?? nil
    }

    /// Whether `bytes`, A-Z read as a-z, hold the lowercase ASCII `keyword` at `offset`.
    private static func foldedMatch(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, _ keyword: [UInt8]) -> Bool {
        guard offset + keyword.count <= bytes.count else { return false }
        for position in keyword.indices {
            var byte = bytes[offset + position]
            if byte >= 0x41 && byte <= 0x5A { byte += 0x20 }
            if byte != keyword[position] { return false }
        }
        return true
    }

    /// Whether `bytes`, A-Z read as a-z, hold the lowercase ASCII `keyword` anywhere.
    private static func foldedContains(_ bytes: UnsafeBufferPointer<UInt8>, _ keyword: [UInt8]) -> Bool {
        guard bytes.count >= keyword.count else { return false }
        for offset in 0...(bytes.count - keyword.count) where foldedMatch(bytes, at: offset, keyword) { return true }
        return false
    }
}
