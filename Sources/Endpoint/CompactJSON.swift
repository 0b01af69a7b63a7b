/// A model's JSON answer in the compact form the jobs' decoder reads (`ContentDecoder`): no
/// white space between tokens, and every `\uXXXX` (and `\/`) escape of a character a string may
/// hold written as that character.
///
/// The llama.cpp engine's grammar makes the model write compact JSON; a Chat Completions server
/// generating under a JSON Schema may put spaces or new lines between tokens, and may escape
/// non-ASCII letters. Neither changes the value, so both are undone here. An escape of a
/// character no schema string may hold (a quote, a backslash, a control character) is left as
/// it is, and the decoder rejects it as the grammar would have kept it out. Property order is
/// not changed: a server that writes properties in another order gives an invalid output.
enum CompactJSON {
    static func compact(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        var inString = false
        while index < scalars.count {
            let scalar = scalars[index]
            if !inString {
                if scalar == " " || scalar == "\n" || scalar == "\r" || scalar == "\t" { index += 1; continue }
                if scalar == "\"" { inString = true }
                result.append(scalar)
                index += 1
                continue
            }
            if scalar == "\"" {
                inString = false
                result.append(scalar)
                index += 1
                continue
            }
            guard scalar == "\\", index + 1 < scalars.count else {
                result.append(scalar)
                index += 1
                continue
            }
            let next = scalars[index + 1]
            if next == "/" {
                result.append("/")
                index += 2
                continue
            }
            if next == "u", let (decoded, length) = unicodeEscape(scalars, at: index), allowedInString(decoded) {
                result.append(decoded)
                index += length
                continue
            }
            // Kept whole: the escape and the character it escapes.
            result.append(scalar)
            result.append(next)
            index += 2
        }
        return String(result)
    }

    /// The character a `\uXXXX` escape (or a surrogate pair of two) at `index` stands for, and
    /// the escape's length in scalars.
    private static func unicodeEscape(_ scalars: [Unicode.Scalar], at index: Int) -> (Unicode.Scalar, Int)? {
        func hex(at start: Int) -> UInt32? {
            guard start + 6 <= scalars.count, scalars[start] == "\\", scalars[start + 1] == "u" else { return nil }
            var value: UInt32 = 0
            for scalar in scalars[(start + 2)..<(start + 6)] {
                guard let digit = Int(String(scalar), radix: 16) else { return nil }
                value = value * 16 + UInt32(digit)
            }
            return value
        }
        guard let first = hex(at: index) else { return nil }
        if (0xD800..<0xDC00).contains(first) {
            guard let second = hex(at: index + 6), (0xDC00..<0xE000).contains(second) else { return nil }
            return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)).map { ($0, 12) }
        }
        return Unicode.Scalar(first).map { ($0, 6) }
    }

    /// Whether a schema string may hold `scalar` as it is (the grammar's `char`).
    private static func allowedInString(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "\"" && scalar != "\\" && scalar.value >= 0x20 && scalar.value != 0x7F
    }
}
