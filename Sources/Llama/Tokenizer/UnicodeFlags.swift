/// What llama.cpp's pre-tokenizer asks of a code point, one byte per code point, from llama.cpp's own table.
///
/// The table is llama.cpp's (`unicode-data.cpp`, generated into `UnicodeFlags+Data.swift`), not
/// Swift's `Unicode.Scalar.Properties`, whose Unicode version may differ: a letter one side calls
/// a symbol would split a word differently and change the token ids.
enum UnicodeFlags {
    /// `\p{L}` (llama.cpp's LETTER category).
    static let letter: UInt8 = 1
    /// `\p{N}` as llama.cpp's hand-written GPT-2 splitter tests it (the NUMBER bit).
    static let number: UInt8 = 2
    /// `\s` (llama.cpp's whitespace set).
    static let whitespace: UInt8 = 4
    /// `\p{N}` as the std::regex pass sees it: ASCII 0-9, or a non-ASCII code point that is not
    /// whitespace and whose category is exactly NUMBER (llama.cpp collapses it to byte 0xD1).
    static let isolatedNumber: UInt8 = 8

    /// llama.cpp's category bit for numbers (`unicode_cpt_flags::NUMBER`).
    private static let numberCategory: UInt32 = 0x0002
    /// llama.cpp's category bit for letters (`unicode_cpt_flags::LETTER`).
    private static let letterCategory: UInt32 = 0x0004

    /// The flags of every code point below 0x110000, built once from the ranges (1.1 MB).
    static let table: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 0x110000)
        let ranges = packedRanges
        for index in 0..<(ranges.count - 1) {
            let start = Int(ranges[index] >> 8)
            let end = Int(ranges[index + 1] >> 8)
            let category = ranges[index] & 0xFF
            var flags: UInt8 = 0
            if category & letterCategory != 0 { flags |= letter }
            if category & numberCategory != 0 { flags |= number }
            if category == numberCategory { flags |= isolatedNumber }
            guard flags != 0, start < end else { continue }
            for codePoint in start..<min(end, table.count) { table[codePoint] = flags }
        }
        for codePoint in whitespaceCodePoints {
            table[Int(codePoint)] |= Self.whitespace
            // The regex pass turns non-ASCII whitespace into a vertical tab before it looks for numbers.
            if codePoint >= 0x80 { table[Int(codePoint)] &= ~isolatedNumber }
        }
        // ASCII is matched as itself by the regex pass: only 0-9 are numbers there.
        for codePoint in 0..<0x80 {
            let isDigit = codePoint >= 0x30 && codePoint <= 0x39
            table[codePoint] = isDigit ? table[codePoint] | isolatedNumber : table[codePoint] & ~isolatedNumber
        }
        return table
    }()
}
