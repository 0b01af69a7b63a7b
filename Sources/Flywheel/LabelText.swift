/// Keys from the export (builds, model versions, locales, agent names) made safe to count and show,
/// and put in a readable order.
enum LabelText {
    /// The longest key kept, in characters; longer ones are cut and end in "…".
    static let maximumLength = 64

    /// The key for `value`: "unknown" when missing or blank, control characters replaced by
    /// U+FFFD, cut to `maximumLength`. Escaping for HTML and CSV happens where they are written.
    static func key(_ value: String?) -> String {
        guard let value else { return MetricDimension.unknownKey }
        var result = ""
        var count = 0
        for character in value {
            if count == maximumLength {
                result += "…"
                break
            }
            if character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format
                || $0 == "\u{2028}" || $0 == "\u{2029}" }) {
                result += "\u{FFFD}"
            } else {
                result.append(character)
            }
            count += 1
        }
        let trimmed = result.trimmingWhitespace
        return trimmed.isEmpty ? MetricDimension.unknownKey : trimmed
    }

    /// Whether `a` sorts before `b`: digit runs compared as numbers ("2.10" after "2.9"), then
    /// code points; "unknown" last.
    static func precedes(_ a: String, _ b: String) -> Bool {
        if a == b { return false }
        if a == MetricDimension.unknownKey { return false }
        if b == MetricDimension.unknownKey { return true }
        var x = Array(a.unicodeScalars)[...]
        var y = Array(b.unicodeScalars)[...]
        while let p = x.first, let q = y.first {
            if p.properties.numericType == .decimal, q.properties.numericType == .decimal,
               p.isASCII, q.isASCII {
                let m = digitRun(&x), n = digitRun(&y)
                if m != n {
                    let mv = m.drop { $0 == "0" }, nv = n.drop { $0 == "0" }
                    if mv.count != nv.count { return mv.count < nv.count }
                    if mv != nv { return mv.lexicographicallyPrecedes(nv) }
                    return m.count < n.count
                }
                continue
            }
            if p != q { return p.value < q.value }
            x.removeFirst()
            y.removeFirst()
        }
        return x.isEmpty && !y.isEmpty
    }

    private static func digitRun(_ scalars: inout ArraySlice<Unicode.Scalar>) -> [Character] {
        var run: [Character] = []
        while let s = scalars.first, s.isASCII, s.properties.numericType == .decimal {
            run.append(Character(s))
            scalars.removeFirst()
        }
        return run
    }
}

extension String {
    /// The string without leading and trailing white space (no Foundation needed).
    var trimmingWhitespace: String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
