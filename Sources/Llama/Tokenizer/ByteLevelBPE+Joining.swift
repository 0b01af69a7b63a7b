import Privacy

extension ByteLevelBPE {
    /// The number of tokens of `parts` joined by `separator`, adding up parts' known counts where
    /// the sum is provably the count of the joined text, and tokenizing the rest.
    ///
    /// Facts of the pre-tokenizer (`PreTokenizer`) make a sum exact, because no piece then
    /// crosses the seam and every piece on either side is cut as it is alone. For a separator
    /// the sum applies to (`joinsBySum`: one whitespace scalar other than the space for smollm,
    /// a line break for qwen2):
    /// 1. X + separator + … splits as X then the rest when X ends as `endsApart` says: each of
    ///    X's runs stops at the separator just as at the end of text, and the splitter never
    ///    looks back (smollm: X ends in a non-whitespace scalar; qwen2: in a letter or a number,
    ///    since a run of symbols there takes the line breaks after it).
    /// 2. separator + Y splits as the separator alone then Y when Y starts as `startsApart` says
    ///    (see each pre-tokenizer's).
    /// So joined = part₀ | sep+part₁ | …; each seam is clean when the part before it ends as (1)
    /// asks, and sep+partᵢ counts as count(sep) + known countᵢ when partᵢ starts as (2) allows.
    /// Anything else is grouped with its neighbours across seams that are not clean, and all
    /// such groups are tokenized together as one text (the seams between them are clean by (1)).
    /// `knownCounts[i]` must be `tokenCount(of: parts[i])`. A part holding a user-defined token
    /// (or a separator inside one) has the joined text counted whole.
    func tokenCount(joining parts: [SealedText], separator: String, knownCounts: [Int?]) -> Int {
        switch preTokenizer {
        case .smollm: tokenCount(joining: parts, separator: separator, knownCounts: knownCounts, SmolLMPreTokenizer.self)
        case .qwen2: tokenCount(joining: parts, separator: separator, knownCounts: knownCounts, Qwen2PreTokenizer.self)
        }
    }

    private func tokenCount<Splitter: PreTokenizer>(joining parts: [SealedText], separator: String, knownCounts: [Int?],
                                                    _ preTokenizer: Splitter.Type) -> Int {
        let separatorScalars = Array(separator.unicodeScalars)
        guard parts.count == knownCounts.count, separatorScalars.count == 1, Splitter.joinsBySum(separator: separatorScalars[0]),
              !mayHoldUserDefinedTokens(parts, separator: separator) else {
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
            // as (1) asks; an empty first chunk has no seam at all.
            let ends = parts[index].withUnsealedText(Self.ends)
            let chunkIsEmpty = index == 0 && ends.last == nil
            let seamIsClean = index == parts.count - 1 || chunkIsEmpty || ends.last.map(Splitter.endsApart) ?? false
            guard seamIsClean else { continue }
            if groupStart == index, let known = knownCounts[index], index == 0 || Splitter.startsApart(ends) {
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

    /// Whether the joined text may hold a user-defined token (never, without any): one of the
    /// parts holds one, or one holds the separator and so might cross a seam.
    private func mayHoldUserDefinedTokens(_ parts: [SealedText], separator: String) -> Bool {
        guard let userDefinedTokens else { return false }
        if userDefinedTokens.tokens.contains(where: { token in
            token.bytes.withUnsafeBufferPointer { bytes in
                separator.utf8.contains { byte in bytes.contains(byte) }
            }
        }) { return true }
        return parts.contains { part in
            part.withUnsealedText { text in
                var text = text
                return text.withUTF8 { userDefinedTokens.occurs(in: $0) }
            }
        }
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

    /// Whether llama.cpp's table calls `scalar` whitespace (`\s`).
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        UnicodeFlags.table[Int(scalar.value)] & UnicodeFlags.whitespace != 0
    }
}
