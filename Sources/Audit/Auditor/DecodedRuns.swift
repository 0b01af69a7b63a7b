/// What the runs of hex digits and of base64 in some bytes decode to, so the leak scan can look
/// for the canary and for model outputs in a debugging dump of them too.
///
/// **Hex**: digit pairs, lower or upper case, written together (`xxd -p`, wrapped or not) or
/// apart, joined by up to `hexGapLimit` separators (space, tab, line break, `:`, `-`, `,`),
/// each pair or group of pairs optionally after `0x` or `\x`. A dump's line layout is read too:
/// at a line's start an offset (digits before `:`, as `xxd` prints, or six or more digits before
/// a space and shorter groups, as `hexdump -C` and strace print) is skipped, and a group of an
/// odd count of digits ends the run (the text column of a dump). Groups of two or four digits
/// are read in order; `hexdump`'s default 16-bit words (bytes swapped) are not.
///
/// **Base64**: runs of the standard (`+/`) or URL-safe (`-_`) alphabet, with or without `=`
/// padding, wrapped at any width by line breaks (`\n`, `\r\n`), read from the run's first
/// character. A run that begins mid-stream (a buffer's first byte) is read at all four
/// alignments.
///
/// A run counts from `minimumDecodedBytes` bytes. Bytes that do not form UTF-8 are replaced by
/// one SUB byte each, so the decoded view is valid UTF-8 byte for byte and every decoded byte
/// keeps the source offset it came from. Views are joined by a line break and a run of SUB
/// bytes, which no canary or fingerprint match crosses.
struct DecodedRuns {
    /// The decoded views, joined.
    private(set) var bytes: [UInt8] = []
    /// For each byte of `bytes`, the offset in the source of the encoding it came from (modulo
    /// 2^32: a source past 4 GiB is only ever placed, never indexed, by it).
    private(set) var origins: [UInt32] = []

    static let minimumDecodedBytes = 8
    static let hexGapLimit = 3
    static let joiner: [UInt8] = [0x0a] + [UInt8](repeating: 0x1a, count: LeakScanner.separatorLimit + 1)

    /// The decoded views of the hex and base64 runs in `source`.
    init(_ source: [UInt8]) {
        source.withUnsafeBufferPointer { buffer in
            decodeHex(buffer)
            decodeBase64(buffer)
        }
    }

    var isEmpty: Bool { bytes.isEmpty }

    // MARK: Hex

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    static func isHexSeparator(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0a || byte == 0x0d || byte == 0x3a || byte == 0x2d || byte == 0x2c
    }

    private mutating func decodeHex(_ source: UnsafeBufferPointer<UInt8>) {
        var view: [UInt8] = []
        var origins: [UInt32] = []
        var inRun = false
        var lastEnd = 0        // where the run's last group (or offset) ended
        var dumpLine = false   // the current line began with a dump's offset column
        var lineBytes = 0
        func flush() {
            if view.count >= Self.minimumDecodedBytes { append(view, origins) }
            view.removeAll(keepingCapacity: true)
            origins.removeAll(keepingCapacity: true)
            inRun = false
            dumpLine = false
        }
        /// Ends the run at `at`, unless this is a dump line whose text column follows and the
        /// next line is the dump's too: then the run goes on there. Returns where to go on.
        func breakRun(_ at: Int, skipping end: Int) -> Int {
            if dumpLine {
                var newline = at
                while newline < source.count, source[newline] != 0x0a { newline += 1 }
                if let next = Self.offsetStarting(source, newline + 1) {
                    lastEnd = next
                    return next
                }
            }
            if inRun { flush() }
            return max(end, at + 1)
        }
        var at = 0
        while at < source.count {
            let byte = source[at]
            guard let (start, end) = Self.group(source, at) else {
                if inRun, Self.isHexSeparator(byte) {
                    at += 1
                    if at - lastEnd > Self.hexGapLimit { at = breakRun(at - 1, skipping: at) }
                    continue
                }
                // A word (a run of letters that is no group) is passed whole.
                var wordEnd = at + 1
                while Self.isWordByte(byte), wordEnd < source.count, Self.isWordByte(source[wordEnd]) { wordEnd += 1 }
                at = inRun ? breakRun(at, skipping: wordEnd) : wordEnd
                continue
            }
            if inRun, at - lastEnd > Self.hexGapLimit { flush() }
            if Self.startsLine(source, at) {
                lineBytes = 0
                dumpLine = false
                if Self.isOffset(source, start: start, end: end) {
                    dumpLine = true
                    inRun = true
                    lastEnd = end
                    at = end
                    continue
                }
            }
            let length = end - start
            if dumpLine, lineBytes >= 16 || length % 2 == 1 {
                at = breakRun(at, skipping: end)   // the text column
                continue
            }
            if length % 2 == 1 {
                guard at == 0 else { at = breakRun(at, skipping: end); continue }
                Self.pairs(source, start + 1, end, into: &view, &origins)   // cut at the buffer's start
            } else {
                Self.pairs(source, start, end, into: &view, &origins)
            }
            lineBytes += length / 2
            inRun = true
            lastEnd = end
            at = end
        }
        flush()
    }

    /// The group of hex digits at `at` (after an optional `0x` or `\x`), standing on its own:
    /// not inside or before a word such as `deadline` or `cafe_au_lait`.
    static func group(_ source: UnsafeBufferPointer<UInt8>, _ at: Int) -> (start: Int, end: Int)? {
        var start = at
        if source[at] == 0x30 || source[at] == 0x5c, at + 2 < source.count, source[at + 1] == 0x78 || source[at + 1] == 0x58,
           hexValue(source[at + 2]) != nil {
            start = at + 2
        }
        guard hexValue(source[start]) != nil else { return nil }
        if at > 0, isWordByte(source[at - 1]), !(start != at && source[at] == 0x5c) { return nil }
        var end = start
        while end < source.count, hexValue(source[end]) != nil { end += 1 }
        if end < source.count, isWordByte(source[end]), source[end] != 0x5c { return nil }
        return (start, end)
    }

    /// Where the offset column of the line starting at `at` is, when it has one.
    static func offsetStarting(_ source: UnsafeBufferPointer<UInt8>, _ at: Int) -> Int? {
        var index = at
        while index < source.count, source[index] == 0x20 || source[index] == 0x09 || source[index] == 0x7c { index += 1 }
        guard index < source.count, let (start, end) = group(source, index), start == index,
              isOffset(source, start: start, end: end) else { return nil }
        return index
    }

    static func pairs(_ source: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, into view: inout [UInt8], _ origins: inout [UInt32]) {
        var index = start
        while index + 1 < end {
            view.append(hexValue(source[index])! << 4 | hexValue(source[index + 1])!)
            origins.append(UInt32(truncatingIfNeeded: index))
            index += 2
        }
    }

    static func isWordByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5a).contains(byte) || (0x61...0x7a).contains(byte) || byte == 0x5f || byte >= 0x80
            || byte == 0x5c
    }

    /// Whether only spaces or tabs (or `|`, strace's dump margin) stand between the line's start and `at`.
    static func startsLine(_ source: UnsafeBufferPointer<UInt8>, _ at: Int) -> Bool {
        var index = at - 1
        while index >= 0, source[index] == 0x20 || source[index] == 0x09 || source[index] == 0x7c { index -= 1 }
        return index < 0 || source[index] == 0x0a || source[index] == 0x0d
    }

    /// Whether the group `start..<end` at a line's start is a dump's offset column: followed by
    /// `:` (xxd), or six digits or more followed by a space and a shorter group (hexdump -C).
    static func isOffset(_ source: UnsafeBufferPointer<UInt8>, start: Int, end: Int) -> Bool {
        if end - start >= 4, end < source.count, source[end] == 0x3a { return true }
        guard end - start >= 5, end < source.count, source[end] == 0x20 else { return false }
        var next = end
        while next < source.count, source[next] == 0x20 { next += 1 }
        var nextEnd = next
        while nextEnd < source.count, hexValue(source[nextEnd]) != nil { nextEnd += 1 }
        return nextEnd > next && nextEnd - next < end - start
    }

    // MARK: Base64

    static let base64Values: [Int8] = {
        var table = [Int8](repeating: -1, count: 256)
        for (index, byte) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8.enumerated() { table[Int(byte)] = Int8(index) }
        table[Int(UInt8(ascii: "+"))] = 62; table[Int(UInt8(ascii: "-"))] = 62
        table[Int(UInt8(ascii: "/"))] = 63; table[Int(UInt8(ascii: "_"))] = 63
        return table
    }()

    private mutating func decodeBase64(_ source: UnsafeBufferPointer<UInt8>) {
        // The minimum run: enough characters for `minimumDecodedBytes`.
        let minimumCharacters = (Self.minimumDecodedBytes * 4 + 2) / 3
        var at = 0
        while at < source.count {
            guard Self.base64Values[Int(source[at])] >= 0 else { at += 1; continue }
            // A run: alphabet characters, line breaks between them.
            var positions: [Int] = []
            var end = at
            while end < source.count {
                let byte = source[end]
                if Self.base64Values[Int(byte)] >= 0 {
                    positions.append(end)
                } else if byte == 0x0a || byte == 0x0d, end + 1 < source.count,
                          Self.base64Values[Int(source[end + 1])] >= 0 || source[end + 1] == 0x0a {
                    // a line break inside the run
                } else {
                    break
                }
                end += 1
            }
            if positions.count >= minimumCharacters {
                for alignment in at == 0 ? 0..<4 : 0..<1 { decodeBase64Run(source, positions.dropFirst(alignment)) }
            }
            at = max(end, at + 1)
        }
    }

    private mutating func decodeBase64Run(_ source: UnsafeBufferPointer<UInt8>, _ positions: ArraySlice<Int>) {
        var view: [UInt8] = []
        var origins: [UInt32] = []
        view.reserveCapacity(positions.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        var first = positions.first ?? 0
        for position in positions {
            if bits == 0 { first = position }
            accumulator = accumulator << 6 | UInt32(UInt8(bitPattern: Self.base64Values[Int(source[position])]))
            bits += 6
            if bits >= 8 {
                bits -= 8
                view.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                origins.append(UInt32(truncatingIfNeeded: first))
                first = position
            }
        }
        if view.count >= Self.minimumDecodedBytes { append(view, origins) }
    }

    // MARK: Joining

    private mutating func append(_ view: [UInt8], _ viewOrigins: [UInt32]) {
        if !bytes.isEmpty {
            bytes += Self.joiner
            origins += [UInt32](repeating: viewOrigins[0], count: Self.joiner.count)
        }
        bytes += Self.validUTF8(view)
        origins += viewOrigins
    }

    /// `bytes` with every byte that is not part of a well-formed UTF-8 sequence replaced by SUB.
    static func validUTF8(_ bytes: [UInt8]) -> [UInt8] {
        var output = bytes
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length: Int
            switch lead {
            case 0x00...0x7f: index += 1; continue
            case 0xc2...0xdf: length = 2
            case 0xe0...0xef: length = 3
            case 0xf0...0xf4: length = 4
            default: output[index] = 0x1a; index += 1; continue
            }
            var valid = index + length <= bytes.count
            if valid {
                for offset in 1..<length where bytes[index + offset] & 0xc0 != 0x80 { valid = false }
            }
            if valid, length == 3 {
                let second = bytes[index + 1]
                if lead == 0xe0 && second < 0xa0 || lead == 0xed && second >= 0xa0 { valid = false }
            }
            if valid, length == 4 {
                let second = bytes[index + 1]
                if lead == 0xf0 && second < 0x90 || lead == 0xf4 && second >= 0x90 { valid = false }
            }
            if valid {
                index += length
            } else {
                output[index] = 0x1a
                index += 1
            }
        }
        return output
    }
}
