/// Splits text into the pieces BPE merges within, exactly as llama.cpp does for pre-tokenizer "smollm".
///
/// llama.cpp (llama-vocab.cpp, `LLAMA_VOCAB_PRE_TYPE_SMOLLM`) runs two expressions in turn:
/// `\p{N}` through std::regex, which isolates every number code point, then the GPT-2 expression
/// `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)` through its own
/// hand-written splitter (`unicode_regex_split_custom_gpt2`) inside each piece the first left.
/// This follows that splitter line for line, quirks included (only lower-case contractions;
/// a whitespace run keeps its last character for the next piece only when something follows
/// it in the same piece), since any difference changes the token ids.
enum SmolLMPreTokenizer: PreTokenizer {
    /// Calls `piece` with each piece's byte range, in order; the pieces cover `bytes` exactly.
    ///
    /// `bytes` must be valid UTF-8 (every Swift `String` is), so each lead byte tells its length.
    @inline(__always)
    static func split(_ bytes: UnsafeBufferPointer<UInt8>, piece: (Int, Int) -> Void) {
        withUnsafeTemporaryAllocation(byteCount: scratchBytes(for: bytes.count), alignment: 4) { scratch in
            split(bytes, scratch: scratch.baseAddress!, piece: piece)
        }
    }

    /// The scratch `split(_:scratch:piece:)` needs for `count` bytes.
    static func scratchBytes(for count: Int) -> Int { (count + 1) * 5 }

    /// `split`, in `scratch` of `scratchBytes(for: bytes.count)` bytes, 4-aligned, instead of memory of its own.
    @inline(__always)
    static func split(_ bytes: UnsafeBufferPointer<UInt8>, scratch: UnsafeMutableRawPointer, piece: (Int, Int) -> Void) {
        if isASCII(bytes) {
            // Every byte is a code point: no decoding, and each one's flags read straight from
            // the table (most words are ASCII; the scratch is left unused).
            UnicodeFlags.table.withUnsafeBufferPointer { table in
                let points = ASCIICodePoints(bytes: bytes, table: table)
                split(points, count: bytes.count, piece)
            }
            return
        }
        let capacity = bytes.count + 1
        // Per code point: its byte offset (and one past the end), and its `UnicodeFlags`.
        let offsets = scratch.bindMemory(to: Int32.self, capacity: capacity)
        let flags = (scratch + 4 * capacity).bindMemory(to: UInt8.self, capacity: capacity)
        let count = decode(bytes, offsets, flags)
        let points = DecodedCodePoints(bytes: bytes, offsets: offsets, flags: flags)
        split(points, count: count, piece)
    }

    /// Whether every byte is ASCII, 16 at a time.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var lanes = SIMD16<UInt8>()
        var index = 0
        while index + 16 <= bytes.count {
            lanes |= raw.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
            index += 16
        }
        var rest: UInt8 = 0
        while index < bytes.count {
            rest |= base[index]
            index += 1
        }
        return (lanes.max() | rest) < 0x80
    }

    /// The code points of a text as the splitter reads them: where each starts, its first byte
    /// and its flags. Two kinds, each specialized into the splitter: decoded (any UTF-8) and
    /// ASCII, where code point `i` is byte `i`.
    protocol CodePoints {
        /// The byte offset of code point `index` (`count` gives the end).
        func offset(_ index: Int) -> Int
        /// The first byte of code point `index` (ASCII for an ASCII code point).
        func lead(_ index: Int) -> UInt8
        /// Its `UnicodeFlags`.
        func flags(_ index: Int) -> UInt8
    }

    struct DecodedCodePoints: CodePoints {
        let bytes: UnsafeBufferPointer<UInt8>
        let offsets: UnsafeMutablePointer<Int32>
        let flagBytes: UnsafeMutablePointer<UInt8>
        init(bytes: UnsafeBufferPointer<UInt8>, offsets: UnsafeMutablePointer<Int32>, flags: UnsafeMutablePointer<UInt8>) {
            self.bytes = bytes
            self.offsets = offsets
            self.flagBytes = flags
        }
        @inline(__always) func offset(_ index: Int) -> Int { Int(offsets[index]) }
        @inline(__always) func lead(_ index: Int) -> UInt8 { bytes[Int(offsets[index])] }
        @inline(__always) func flags(_ index: Int) -> UInt8 { flagBytes[index] }
    }

    struct ASCIICodePoints: CodePoints {
        let bytes: UnsafeBufferPointer<UInt8>
        let table: UnsafeBufferPointer<UInt8>
        @inline(__always) func offset(_ index: Int) -> Int { index }
        @inline(__always) func lead(_ index: Int) -> UInt8 { bytes[index] }
        @inline(__always) func flags(_ index: Int) -> UInt8 { table[Int(bytes[index])] }
    }

    /// The std::regex pass (every isolated number its own piece), then the GPT-2 splitter
    /// between them, over code points `0..<count`.
    @inline(__always)
    private static func split<Points: CodePoints>(_ points: Points, count: Int, _ piece: (Int, Int) -> Void) {
        var segment = 0
        for index in 0..<count where points.flags(index) & UnicodeFlags.isolatedNumber != 0 {
            if segment < index { splitGPT2(points, segment, index, piece) }
            piece(points.offset(index), points.offset(index + 1))
            segment = index + 1
        }
        if segment < count { splitGPT2(points, segment, count, piece) }
    }

    /// Fills `offsets` and `flags` for `bytes`; returns the number of code points.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ offsets: UnsafeMutablePointer<Int32>,
                               _ flags: UnsafeMutablePointer<UInt8>) -> Int {
        UnicodeFlags.table.withUnsafeBufferPointer { table in
            var at = 0
            var count = 0
            let end = bytes.count
            while at < end {
                offsets[count] = Int32(truncatingIfNeeded: at)
                let (pointFlags, length) = codePointFlags(bytes, at: at, table)
                flags[count] = pointFlags
                at += length
                count += 1
            }
            offsets[count] = Int32(truncatingIfNeeded: end)
            return count
        }
    }

    // MARK: Where a piece always starts

    /// The first byte offset in `max(from, 1)..<end` where the split starts a piece of every
    /// text that ends with `bytes[offset...]` and of every text that starts with `bytes[..<offset]`,
    /// whatever the rest; nil when there is none.
    ///
    /// Such an offset lies between two code points where either is an isolated number, or the
    /// first is a letter and the second is not:
    /// - The first pass cuts around every isolated number, and no expression of the second
    ///   pass crosses the segment's ends.
    /// - A letter's piece ends at the first code point after it that is not a letter: the
    ///   letter run stops there, a contraction ends in its letters (and the two- and three-
    ///   letter ones hold only letters after the quote), and the other expressions match no
    ///   letter at all.
    ///
    /// The splitter reads only ahead of where it stands, and nothing before such an offset reads
    /// past it: a run of numbers, symbols or whitespace stops at the letter, a space before a
    /// word or a contraction's quote is no letter itself, and a three-letter contraction would
    /// need a letter at the offset. So the pieces after the offset are those `bytes[offset...]`
    /// splits into alone, and the pieces before it those `bytes[..<offset]` does: between two
    /// such offsets a text's tokens can be taken without the rest.
    static func pieceStart(in bytes: UnsafeBufferPointer<UInt8>, from: Int, before end: Int) -> Int? {
        let letter = UnicodeFlags.letter, number = UnicodeFlags.number, whitespace = UnicodeFlags.whitespace
        let isolated = UnicodeFlags.isolatedNumber
        return UnicodeFlags.table.withUnsafeBufferPointer { table -> Int? in
            var offset = max(from, 1)
            while offset < end, bytes[offset] & 0xC0 == 0x80 { offset += 1 }
            guard offset < end else { return nil }
            var lead = offset - 1
            while lead > 0, bytes[lead] & 0xC0 == 0x80 { lead -= 1 }
            var before = codePointFlags(bytes, at: lead, table).flags
            while offset < end {
                let (after, length) = codePointFlags(bytes, at: offset, table)
                if (before | after) & isolated != 0
                    || (before & letter != 0 && before & (number | whitespace) == 0 && after & letter == 0) {
                    return offset
                }
                before = after
                offset += length
            }
            return nil
        }
    }

    /// The flags and byte length of the code point whose lead byte is at `offset` (a code point
    /// cut short by the end is as long as what is left).
    @inline(__always)
    static func codePointFlags(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int,
                                       _ table: UnsafeBufferPointer<UInt8>) -> (flags: UInt8, length: Int) {
        let lead = bytes[offset]
        if lead < 0x80 { return (table[Int(lead)], 1) }
        var codePoint: UInt32
        var length: Int
        if lead < 0xE0 {
            codePoint = UInt32(lead & 0x1F)
            length = 2
        } else if lead < 0xF0 {
            codePoint = UInt32(lead & 0x0F)
            length = 3
        } else {
            codePoint = UInt32(lead & 0x07)
            length = 4
        }
        length = min(length, bytes.count - offset)
        for next in (offset + 1)..<(offset + length) { codePoint = codePoint << 6 | UInt32(bytes[next] & 0x3F) }
        return (codePoint < 0x110000 ? table[Int(codePoint)] : 0, length)
    }

    // MARK: Joining

    /// Parts joined by one whitespace scalar other than the space (which would join the word after it).
    static func joinsBySum(separator: Unicode.Scalar) -> Bool {
        separator != " " && ByteLevelBPE.isWhitespace(separator)
    }

    /// X + Y splits as X then Y when X ends in a non-whitespace scalar and Y starts with a
    /// whitespace one: each of X's runs stops at Y's whitespace just as at the end of text, a
    /// contraction needs a letter after the quote, and the splitter never looks back.
    static func endsApart(_ last: Unicode.Scalar) -> Bool { !ByteLevelBPE.isWhitespace(last) }

    /// Whether a part with these ends, after such a separator S, is cut as it is alone:
    /// - S + Y splits as S then Y when Y starts with a non-whitespace scalar: a single
    ///   whitespace is a piece of its own either way (only a space joins the word after it).
    /// - The same S + Y splits as S then Y when Y starts with one whitespace scalar followed by
    ///   a scalar that is neither whitespace nor a number ("\nThe"): S and Y's whitespace make a
    ///   run of two that gives up its last scalar to what follows, so S is a piece alone, and
    ///   the rest is cut as Y alone. A number there would end the run's segment (numbers are
    ///   isolated first), and the run of two would then stay one piece.
    static func startsApart(_ ends: ByteLevelBPE.Ends) -> Bool {
        guard let first = ends.first else { return false }
        guard ByteLevelBPE.isWhitespace(first) else { return true }
        guard let second = ends.second else { return false }
        return UnicodeFlags.table[Int(second.value)] & (UnicodeFlags.whitespace | UnicodeFlags.number | UnicodeFlags.isolatedNumber) == 0
    }

    /// llama.cpp's `unicode_regex_split_custom_gpt2` over code points `start..<end`.
    @inline(__always)
    private static func splitGPT2<Points: CodePoints>(_ points: Points, _ start: Int, _ end: Int,
                                                      _ piece: (Int, Int) -> Void) {
        let letter = UnicodeFlags.letter, number = UnicodeFlags.number, whitespace = UnicodeFlags.whitespace
        /// The code point at `index` when it is the ASCII `byte` (a UTF-8 lead byte is never ASCII).
        func isASCII(_ index: Int, _ byte: UInt8) -> Bool { index < end && points.lead(index) == byte }
        /// Flags inside the piece; 0 (no category at all) outside it, as llama.cpp's `_get_flags`.
        func flagsAt(_ index: Int) -> UInt8 { index < end ? points.flags(index) : 0 }
        var previousEnd = start
        func add(_ stop: Int) {
            if stop > previousEnd { piece(points.offset(previousEnd), points.offset(stop)) }
            previousEnd = stop
        }

        var position = start
        while position < end {
            // 's|'t|'re|'ve|'m|'ll|'d
            if isASCII(position, 0x27), position + 1 < end {
                let next = points.lead(position + 1)
                if next == 0x73 || next == 0x74 || next == 0x6D || next == 0x64 {   // s t m d
                    position += 2
                    add(position)
                    continue
                }
                if position + 2 < end {
                    let after = points.lead(position + 2)
                    if (next == 0x72 && after == 0x65) || (next == 0x76 && after == 0x65) || (next == 0x6C && after == 0x6C) {   // re ve ll
                        position += 3
                        add(position)
                        continue
                    }
                }
            }
            let isSpace = isASCII(position, 0x20)
            // The flags of what follows an optional leading space; "defined" is llama.cpp's
            // `as_uint() != 0`, true for every code point inside the piece.
            let next = isSpace ? flagsAt(position + 1) : points.flags(position)
            let nextDefined = isSpace ? position + 1 < end : true
            if next & letter != 0 {   // ' ?\p{L}+'
                if isSpace { position += 1 }
                while flagsAt(position) & letter != 0 { position += 1 }
                add(position)
                continue
            }
            if next & number != 0 {   // ' ?\p{N}+'
                if isSpace { position += 1 }
                while flagsAt(position) & number != 0 { position += 1 }
                add(position)
                continue
            }
            if next & (whitespace | letter | number) == 0, nextDefined {   // ' ?[^\s\p{L}\p{N}]+'
                if isSpace { position += 1 }
                while position < end, points.flags(position) & (whitespace | letter | number) == 0 { position += 1 }
                add(position)
                continue
            }
            var spaces = 0
            while flagsAt(position + spaces) & whitespace != 0 { spaces += 1 }
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
}
