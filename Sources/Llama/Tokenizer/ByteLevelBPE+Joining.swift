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
    /// 3. The same S + Y splits as S then Y when Y starts with one whitespace scalar followed by
    ///    a scalar that is neither whitespace nor a number ("\nThe"): S and Y's whitespace make a
    ///    run of two that gives up its last scalar to what follows, so S is a piece alone, and
    ///    the rest is cut as Y alone. A number there would end the run's segment (numbers are
    ///    isolated first), and the run of two would then stay one piece.
    /// So with such a separator, joined = part₀ | sep+part₁ | …; each seam is clean when the part
    /// before it ends in non-whitespace (1), and sep+partᵢ counts as count(sep) + known countᵢ
    /// when partᵢ starts as (2) or (3) allow. Anything else is grouped with its neighbours
    /// across seams that are not clean, and all such groups are tokenized together as one text
    /// (the seams between them are clean by (1)). `knownCounts[i]` must be `tokenCount(of: parts[i])`.
    func tokenCount(joining parts: [SealedText], separator: String, knownCounts: [Int?]) -> Int {
        let separatorScalars = Array(separator.unicodeScalars)
        guard parts.count == knownCounts.count, separatorScalars.count == 1, separatorScalars[0] != " ",
              Self.isWhitespace(separatorScalars[0]) else {
            return SealedText.joined(parts, separator: separator).withUnsealedText { count(of: $0) }
        }
        var separatorCount: Int? = nil
        var total = 0
        // The groups not summed, one after another: every seam between them is clean too (a
        // group ends before a clean seam, the next starts with the separator), so they are
        // counted as one text, in one pass. Gathered as bytes: no string is grown part by part.
        var rest: [UInt8] = []
        let separatorBytes = Array(separator.utf8)
        var groupStart = 0
        for index in parts.indices {
            // The seam after chunk `index` (part, or separator + part) is clean when the chunk ends
            // in non-whitespace; an empty first chunk has no seam at all.
            let ends = parts[index].withUnsealedText(Self.ends)
            let chunkIsEmpty = index == 0 && ends.last == nil
            let seamIsClean = index == parts.count - 1 || chunkIsEmpty || ends.last.map { !Self.isWhitespace($0) } ?? false
            guard seamIsClean else { continue }
            if groupStart == index, let known = knownCounts[index], index == 0 || Self.startsApart(ends) {
                if index == 0 {
                    total += known
                } else {
                    let separatorTokens = separatorCount ?? oneScalarCount(separator)
                    separatorCount = separatorTokens
                    total += separatorTokens + known
                }
            } else {
                for chunk in groupStart...index {
                    if chunk > 0 { rest += separatorBytes }
                    parts[chunk].withUnsealedText { text in rest += text.utf8 }
                }
            }
            groupStart = index + 1
        }
        guard !rest.isEmpty else { return total }
        var counter = TokenCounter()
        rest.withUnsafeBufferPointer { encode(utf8: $0, into: &counter) }
        return total + counter.count
    }

    /// The tokens of a one-scalar text: one piece, so an ASCII scalar is its byte's symbol.
    func oneScalarCount(_ text: String) -> Int {
        guard text.utf8.count == 1, let byte = text.utf8.first else { return count(of: text) }
        let symbol = tables.byteTokens[Int(byte)]
        return symbol < vocabularySize ? 1 : standInTokens[Int(symbol - vocabularySize)].count
    }

    /// A part's first two scalars and its last (nil where it has none).
    struct Ends {
        var first: Unicode.Scalar?
        var second: Unicode.Scalar?
        var last: Unicode.Scalar?
    }

    /// The ends of `text`, read from its UTF-8 (an ASCII end without decoding).
    static func ends(_ text: String) -> Ends {
        let utf8 = text.utf8
        guard let lead = utf8.first, let tail = utf8.last else { return Ends() }
        var scalars = text.unicodeScalars.makeIterator()
        let first = lead < 0x80 ? Unicode.Scalar(lead) : scalars.next()
        if lead < 0x80 { _ = scalars.next() }
        let second = scalars.next()
        let last = tail < 0x80 ? Unicode.Scalar(tail) : text.unicodeScalars.last
        return Ends(first: first, second: second, last: last)
    }

    /// Whether a part with these ends, after a one-scalar whitespace separator other than the
    /// space, is cut as it is alone: it starts with non-whitespace (2), or with one whitespace
    /// scalar and then one that is neither whitespace nor a number (3).
    static func startsApart(_ ends: Ends) -> Bool {
        guard let first = ends.first else { return false }
        guard isWhitespace(first) else { return true }
        guard let second = ends.second else { return false }
        return UnicodeFlags.table[Int(second.value)] & (UnicodeFlags.whitespace | UnicodeFlags.number | UnicodeFlags.isolatedNumber) == 0
    }

    /// Whether llama.cpp's table calls `scalar` whitespace (`\s`).
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        UnicodeFlags.table[Int(scalar.value)] & UnicodeFlags.whitespace != 0
    }
}
