import Privacy

extension ByteLevelBPE {
    /// The number of tokens of `parts` joined by `separator`, adding up parts' known counts where
    /// the sum is provably the count of the joined text, and tokenizing the rest.
    ///
    /// Two facts of the smollm pre-tokenizer (`SmolLMPreTokenizer`) make a sum exact, because
    /// no piece then crosses the seam and every piece on either side is cut as it is alone:
    /// 1. X + Y splits as X then Y when X ends in a non-whitespace scalar and Y starts with a
    ///    whitespace one: each of X's runs stops at Y's whitespace just as at the end of text, a
    ///    contraction needs a letter after the quote, and the splitter never looks back.
    /// 2. S + Y splits as S then Y when S is one whitespace scalar other than the space and Y
    ///    starts with a non-whitespace one: a single whitespace is a piece of its own either way
    ///    (only a space joins the word after it).
    /// So with such a separator, joined = part₀ | sep+part₁ | …; each seam is clean when the part
    /// before it ends in non-whitespace (1), and sep+partᵢ counts as count(sep) + known countᵢ
    /// when partᵢ starts with non-whitespace (2). Anything else is grouped with its neighbours
    /// across seams that are not clean, and all such groups are tokenized together as one text
    /// (the seams between them are clean by (1)). `knownCounts[i]` must be `tokenCount(of: parts[i])`.
    func tokenCount(joining parts: [SealedText], separator: String, knownCounts: [Int?]) -> Int {
        let separatorScalars = Array(separator.unicodeScalars)
        guard parts.count == knownCounts.count, separatorScalars.count == 1, separatorScalars[0] != " ",
              Self.isWhitespace(separatorScalars[0]) else {
            return SealedText.joined(parts, separator: separator).withUnsealedText { count(of: $0) }
        }
        let separatorCount = count(of: separator)
        var total = 0
        // The groups not summed, one after another: every seam between them is clean too (a
        // group ends before a clean seam, the next starts with the separator), so they are
        // counted as one text, in one pass.
        var rest = ""
        var groupStart = 0
        for index in parts.indices {
            // The seam after chunk `index` (part, or separator + part) is clean when the chunk ends
            // in non-whitespace; an empty first chunk has no seam at all.
            let (first, last) = parts[index].withUnsealedText { ($0.unicodeScalars.first, $0.unicodeScalars.last) }
            let chunkIsEmpty = index == 0 && last == nil
            let seamIsClean = index == parts.count - 1 || chunkIsEmpty || last.map { !Self.isWhitespace($0) } ?? false
            guard seamIsClean else { continue }
            if groupStart == index, let known = knownCounts[index], index == 0 || first.map({ !Self.isWhitespace($0) }) ?? false {
                total += index == 0 ? known : separatorCount + known
            } else {
                for chunk in groupStart...index {
                    if chunk > 0 { rest += separator }
                    parts[chunk].withUnsealedText { rest += $0 }
                }
            }
            groupStart = index + 1
        }
        return total + count(of: rest)
    }

    /// Whether llama.cpp's table calls `scalar` whitespace (`\s`).
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        UnicodeFlags.table[Int(scalar.value)] & UnicodeFlags.whitespace != 0
    }
}
