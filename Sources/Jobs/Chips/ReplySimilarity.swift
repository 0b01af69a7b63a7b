import Privacy

/// How close suggested replies come to what the person really sent: exact match and token F1.
///
/// Both compare folded text: lowercased, punctuation and symbols removed, white space collapsed.
/// Tokens are the folded words; scripts written without spaces compare as one token per run,
/// so the F1 is a rough proxy there (documented in the report schema).
public enum ReplySimilarity {
    /// `text` lowercased, without punctuation or symbols, single-spaced and trimmed.
    public static func fold(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.lowercased().unicodeScalars {
            let properties = scalar.properties
            if properties.isWhitespace {
                pendingSpace = !scalars.isEmpty
                continue
            }
            switch properties.generalCategory {
            case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                 .initialPunctuation, .finalPunctuation, .otherPunctuation,
                 .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
                pendingSpace = pendingSpace || !scalars.isEmpty
                continue
            default:
                if pendingSpace { scalars.append(" ") }
                pendingSpace = false
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// Whether two texts are equal once folded.
    public static func matches(_ a: String, _ b: String) -> Bool {
        fold(a) == fold(b)
    }

    /// Whether a sealed reply and a sealed reference are equal once folded: a yes or no, never the words.
    public static func matches(_ a: SealedText, _ b: SealedText) -> Bool {
        a.withUnsealedText { a in b.withUnsealedText { b in matches(a, b) } }
    }

    /// Token-overlap F1 of two texts (bag of folded words): 1 for the same words, 0 for none shared.
    public static func f1(_ candidate: String, _ reference: String) -> Double {
        let c = fold(candidate).split(separator: " ")
        let r = fold(reference).split(separator: " ")
        guard !c.isEmpty, !r.isEmpty else { return c.isEmpty && r.isEmpty ? 1 : 0 }
        var counts: [Substring: Int] = [:]
        for token in r { counts[token, default: 0] += 1 }
        var overlap = 0
        for token in c where counts[token, default: 0] > 0 {
            counts[token]! -= 1
            overlap += 1
        }
        guard overlap > 0 else { return 0 }
        let precision = Double(overlap) / Double(c.count)
        let recall = Double(overlap) / Double(r.count)
        return 2 * precision * recall / (precision + recall)
    }

    /// Token F1 of a sealed reply against a sealed reference: a number, never the words.
    public static func f1(_ candidate: SealedText, _ reference: SealedText) -> Double {
        candidate.withUnsealedText { candidate in reference.withUnsealedText { reference in f1(candidate, reference) } }
    }
}
