/// Splits text into the pieces BPE merges within, exactly as llama.cpp does for pre-tokenizer "qwen2".
///
/// llama.cpp (llama-vocab.cpp, `LLAMA_VOCAB_PRE_TYPE_QWEN2`) has one expression,
/// `(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
/// which unicode.cpp never hands to std::regex: `unicode_regex_split_custom` recognises it and
/// runs its own splitter, `unicode_regex_split_custom_qwen2`. This follows that splitter line for
/// line, quirks included, since any difference changes the token ids:
/// - a contraction's letters are lower-cased by llama.cpp's own table before they are compared,
///   which maps only ASCII capitals onto the letters asked for, so 'S and 'LL count too;
/// - anything but a line break or a number, whitespace included, joins the letters after it;
/// - every number code point is a piece alone (unlike Llama 3's runs of up to three);
/// - a run of symbols takes the line breaks right after it;
/// - a whitespace run holding a line break ends after its last line break; one without keeps
///   its last character for the next piece only when something follows it in the text.
enum Qwen2PreTokenizer: PreTokenizer {
    static func scratchBytes(for count: Int) -> Int { SmolLMPreTokenizer.scratchBytes(for: count) }

    /// Calls `piece` with each piece's byte range, in order; the pieces cover `bytes` (valid
    /// UTF-8) exactly.
    @inline(__always)
    static func split(_ bytes: UnsafeBufferPointer<UInt8>, piece: (Int, Int) -> Void) {
        withUnsafeTemporaryAllocation(byteCount: scratchBytes(for: bytes.count), alignment: 4) { scratch in
            split(bytes, scratch: scratch.baseAddress!, piece: piece)
        }
    }

    /// `split`, in `scratch` of `scratchBytes(for: bytes.count)` bytes, 4-aligned, instead of memory of its own.
    @inline(__always)
    static func split(_ bytes: UnsafeBufferPointer<UInt8>, scratch: UnsafeMutableRawPointer, piece: (Int, Int) -> Void) {
        if SmolLMPreTokenizer.isASCII(bytes) {
            UnicodeFlags.table.withUnsafeBufferPointer { table in
                splitQwen2(SmolLMPreTokenizer.ASCIICodePoints(bytes: bytes, table: table), bytes.count, piece)
            }
            return
        }
        let capacity = bytes.count + 1
        let offsets = scratch.bindMemory(to: Int32.self, capacity: capacity)
        let flags = (scratch + 4 * capacity).bindMemory(to: UInt8.self, capacity: capacity)
        let count = SmolLMPreTokenizer.decode(bytes, offsets, flags)
        splitQwen2(SmolLMPreTokenizer.DecodedCodePoints(bytes: bytes, offsets: offsets, flags: flags), count, piece)
    }

    /// llama.cpp's `unicode_regex_split_custom_qwen2` over code points `0..<end`.
    @inline(__always)
    private static func splitQwen2<Points: SmolLMPreTokenizer.CodePoints>(_ points: Points, _ end: Int,
                                                                          _ piece: (Int, Int) -> Void) {
        let letter = UnicodeFlags.letter, number = UnicodeFlags.number, whitespace = UnicodeFlags.whitespace
        /// Flags inside the text; 0 (no category at all) past it, as llama.cpp's `_get_flags`.
        func flagsAt(_ index: Int) -> UInt8 { index < end ? points.flags(index) : 0 }
        /// Whether the code point at `index` is a carriage return or a line feed.
        func isLineBreak(_ index: Int) -> Bool {
            let lead = points.lead(index)
            return lead == 0x0A || lead == 0x0D
        }
        var previousEnd = 0
        func add(_ stop: Int) {
            if stop > previousEnd { piece(points.offset(previousEnd), points.offset(stop)) }
            previousEnd = stop
        }

        var position = 0
        while position < end {
            let lead = points.lead(position), flags = points.flags(position)
            // (?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD]): `| 0x20` lower-cases an
            // ASCII capital and leaves every other byte unequal to the letters asked for.
            if lead == 0x27, position + 1 < end {
                let next = points.lead(position + 1) | 0x20
                if next == 0x73 || next == 0x74 || next == 0x6D || next == 0x64 {   // s t m d
                    position += 2
                    add(position)
                    continue
                }
                if position + 2 < end {
                    let after = points.lead(position + 2) | 0x20
                    if (next == 0x72 && after == 0x65) || (next == 0x76 && after == 0x65) || (next == 0x6C && after == 0x6C) {   // re ve ll
                        position += 3
                        add(position)
                        continue
                    }
                }
            }
            // [^\r\n\p{L}\p{N}]?\p{L}+
            if lead != 0x0A, lead != 0x0D, flags & number == 0, flags & letter != 0 || flagsAt(position + 1) & letter != 0 {
                position += 1
                while flagsAt(position) & letter != 0 { position += 1 }
                add(position)
                continue
            }
            // \p{N}
            if flags & number != 0 {
                position += 1
                add(position)
                continue
            }
            // ' ?[^\s\p{L}\p{N}]+[\r\n]*': a space alone at the end comes here too (what follows
            // it has no flags), and is a piece alone, as the whitespace rules would make it.
            let isSpace = lead == 0x20
            if (isSpace ? flagsAt(position + 1) : flags) & (whitespace | letter | number) == 0 {
                if isSpace { position += 1 }
                while position < end, points.flags(position) & (whitespace | letter | number) == 0 { position += 1 }
                while position < end, isLineBreak(position) { position += 1 }
                add(position)
                continue
            }
            var spaces = 0
            var lineBreakEnd = -1
            while flagsAt(position + spaces) & whitespace != 0 {
                if isLineBreak(position + spaces) { lineBreakEnd = position + spaces + 1 }
                spaces += 1
            }
            if lineBreakEnd >= 0 {   // '\s*[\r\n]+'
                position = lineBreakEnd
                add(position)
                continue
            }
            if spaces > 1, position + spaces < end {   // '\s+(?!\S)': the last one goes with what follows
                position += spaces - 1
                add(position)
                continue
            }
            if spaces > 0 {   // '\s+'
                position += spaces
                add(position)
                continue
            }
            position += 1   // no expression matched
            add(position)
        }
    }

    // MARK: Where a piece always starts

    /// The first byte offset in `max(from, 1)..<end` where the split starts a piece of every
    /// text that ends with `bytes[offset...]` and of every text that starts with `bytes[..<offset]`,
    /// whatever the rest; nil when there is none.
    ///
    /// Such an offset lies between two code points where the first is a letter and the second
    /// is not, or the first is a number, or the first is not whitespace and the second is a number:
    /// - A letter's piece (a letter run, or a contraction, which ends in letters) ends at the
    ///   first code point after it that is not a letter; a number is a piece alone; and before a
    ///   number, a run of symbols stops, as does a letter run.
    /// - The splitter reads only ahead of where it stands, and nothing before such an offset
    ///   reads past it in a way the text after it can change: a run stops at the code point
    ///   there or at the end alike, and a contraction's third letter is never a non-letter.
    ///   Not after whitespace before a number: a run of two spaces keeps its last for what
    ///   follows only when something follows.
    /// So between two such offsets a text's tokens can be taken without the rest.
    static func pieceStart(in bytes: UnsafeBufferPointer<UInt8>, from: Int, before end: Int) -> Int? {
        let letter = UnicodeFlags.letter, number = UnicodeFlags.number, whitespace = UnicodeFlags.whitespace
        return UnicodeFlags.table.withUnsafeBufferPointer { table -> Int? in
            var offset = max(from, 1)
            while offset < end, bytes[offset] & 0xC0 == 0x80 { offset += 1 }
            guard offset < end else { return nil }
            var lead = offset - 1
            while lead > 0, bytes[lead] & 0xC0 == 0x80 { lead -= 1 }
            var before = SmolLMPreTokenizer.codePointFlags(bytes, at: lead, table).flags
            while offset < end {
                let (after, length) = SmolLMPreTokenizer.codePointFlags(bytes, at: offset, table)
                if before & whitespace == 0,
                   (before & letter != 0 && after & letter == 0) || before & number != 0 || after & number != 0 {
                    return offset
                }
                before = after
                offset += length
            }
            return nil
        }
    }

    // MARK: Joining

    /// Parts joined by a line break: the break starts no letters and takes no whitespace before
    /// it, so it is a piece alone before the part's own pieces when the part starts as `startsApart` says.
    static func joinsBySum(separator: Unicode.Scalar) -> Bool { separator == "\n" || separator == "\r" }

    /// A letter's or a number's piece stops at the line break after it; a run of symbols would take it.
    static func endsApart(_ last: Unicode.Scalar) -> Bool {
        UnicodeFlags.table[Int(last.value)] & (UnicodeFlags.letter | UnicodeFlags.number) != 0
            && UnicodeFlags.table[Int(last.value)] & UnicodeFlags.whitespace == 0
    }

    /// After the line break: non-whitespace first, or one whitespace character that is not a
    /// line break and then non-whitespace (the break and it make a run that ends after the break).
    static func startsApart(_ ends: ByteLevelBPE.Ends) -> Bool {
        guard let first = ends.first else { return false }
        guard ByteLevelBPE.isWhitespace(first) else { return true }
        guard first != "\n", first != "\r", let second = ends.second else { return false }
        return !ByteLevelBPE.isWhitespace(second)
    }
}
