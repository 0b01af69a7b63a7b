/// The display order of labels, shared by every report so a dimension reads the same everywhere.
extension ReportLabel {
    /// Whether label `a` sorts before `b`: readable labels, then hashed ones, then "unknown", then
    /// "(other)"; within a group, digit runs compared as numbers ("2.10" after "2.9"), then code points.
    public static func precedes(_ a: String, _ b: String) -> Bool {
        if a == b { return false }
        let (p, q) = (group(a), group(b))
        if p != q { return p < q }
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

    /// 0 readable, 1 hashed, 2 unknown, 3 (other).
    private static func group(_ key: String) -> Int {
        switch key {
        case unknown.text: return 2
        case other.text: return 3
        default: return isHashed(key) ? 1 : 0
        }
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
