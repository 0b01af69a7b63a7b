import Foundation

/// Reads the facts a text states: numbers with their units, times of day, weekdays, months,
/// "tomorrow" and "yesterday", and (in a push line) names. What `PushUnfaithfulRule` compares a
/// push line with the replies it sums up by, and how `SourceFacts` keeps a text's words as
/// hashes.
///
/// Written for two sides that read differently (`Side`):
/// - **source** (the replies): generously. Every language's words at once, numbers glued to
///   letters, the words for one, ordinals, every reading of an ambiguous number ("1,200" is
///   twelve hundred or one point two). A fact the source may hold makes a line's fact
///   supported, so reading too much here loses recall, never precision.
/// - **line** (a push line): strictly. Its own language's words, no "one" (an article more than
///   a number), no number glued after letters ("B12"), weekdays and months capitalised in
///   English, kanji numbers only before a counter ("三回", not "一緒").
///
/// Numbers: digits with "." or "," as decimal mark or thousands separator (a lone separator
/// before exactly three digits is both), no-break and thin spaces and apostrophes between
/// thousands; a sign is dropped ("-2.3 lb" and "down 2.3 lb" are one fact). Units written after
/// ("5 km", "5km", "45-minute", "10 000 pas", "3キロ") or as a sign ("$12", "15 %", "1,000円");
/// "3k" is three kilometres or three thousand. Times: "7:30", "7h30", "19h", "19 Uhr", "7pm",
/// "7 a.m.", "7時", "7時半", read modulo twelve hours. Full-width digits and letters read as ASCII.
struct FactReader {
    /// A number and how it was written.
    struct Quantity: Hashable, Sendable {
        /// The number, without its sign.
        var value: Double
        /// Digits after the decimal mark: how far the number was rounded.
        var decimals: Int
        /// Its units; empty when none was written.
        var units: FactUnits
    }

    /// One fact as read.
    enum Fact: Hashable, Sendable {
        case quantity(Quantity)
        /// Minutes past midnight or noon (modulo 12 hours): "7pm" and "19:00" are one.
        case clock(Int)
        /// Monday 1 to Sunday 7.
        case weekday(Int)
        /// January 1 to December 12.
        case month(Int)
        /// 1 tomorrow, -1 yesterday.
        case relativeDay(Int)
        /// A capitalised word of a line, by the hash of its folded form (`SourceFacts.hash`).
        case name(Int)
    }

    /// A fact the text states, with the readings it may have: it is supported when one is.
    struct Mention: Sendable {
        var readings: [Fact]
    }

    /// Which side a text is read as.
    enum Side {
        case source
        case line
    }

    /// A piece of a text: a number (its digits and separators), a word (letters, with inner
    /// apostrophes and hyphens), a run of a script written without spaces, or one other mark.
    struct Token {
        enum Kind { case number, word, unspaced, mark }
        var kind: Kind
        /// As written, full-width forms read as ASCII.
        var text: String
        /// A word folded (`fold`); else `text`.
        var folded: String
        /// `folded`'s hash (`SourceFacts.hash`), for a word; else 0.
        var key: Int
        /// Whether white space comes before it.
        var spaceBefore: Bool
    }

    let side: Side
    let table: FactWords
    /// Whether capitalised words are read as names (a line in a language that capitalises
    /// names and not nouns, in a script that has capitals).
    let readsNames: Bool

    init(side: Side, language: String? = nil) {
        self.side = side
        table = side == .source ? FactWords.every : FactWords.lineTable(for: language)
        let code = language?.lowercased()
        readsNames = side == .line && code != nil && !["de", "ja", "zh", "ko", "lb"].contains(code!)
    }

    // MARK: Tokens

    /// `text` cut into tokens.
    ///
    /// Read as UTF-8 bytes, ASCII without Unicode property lookups: planning reads every reply
    /// a push sums up, and building each token scalar by scalar cost most of it.
    static func tokens(_ text: String) -> [Token] {
        var bytes = Array(text.utf8)
        if needsPlain(bytes) { bytes = Array(String(String.UnicodeScalarView(text.unicodeScalars.map(plain))).utf8) }
        var tokens: [Token] = []
        tokens.reserveCapacity(bytes.count / 5)
        var index = 0
        var space = false
        func add(_ kind: Token.Kind, _ range: Range<Int>) {
            let text = String(decoding: bytes[range], as: UTF8.self)
            let folded = kind == .word ? fold(text) : text
            tokens.append(Token(kind: kind, text: text, folded: folded, key: kind == .word ? SourceFacts.hash(folded) : 0, spaceBefore: space))
            space = false
        }
        while index < bytes.count {
            let start = index
            let (scalar, length) = scalar(at: index, of: bytes)
            if isDigit(scalar) {
                index = numberEnd(bytes, from: index)
                add(.number, start..<index)
            } else if scalar.value >= 0x3000 && isUnspaced(scalar) {
                index += length
                while index < bytes.count {
                    let (next, size) = Self.scalar(at: index, of: bytes)
                    guard isUnspaced(next) else { break }
                    index += size
                }
                add(.unspaced, start..<index)
            } else if isSpace(scalar) {
                space = true
                index += length
            } else if isLetter(scalar) {
                index += length
                while index < bytes.count {
                    let (next, size) = Self.scalar(at: index, of: bytes)
                    if isLetter(next) || next.value >= 0x80 && isMark(next) {
                        index += size
                    } else if next == "'" || next == "-", index + 1 < bytes.count, isLetter(Self.scalar(at: index + 1, of: bytes).0) {
                        index += 1
                    } else {
                        break
                    }
                }
                add(.word, start..<index)
            } else {
                index += length
                add(.mark, start..<index)
            }
        }
        return tokens
    }

    /// The scalar starting at byte `offset` of valid UTF-8 `bytes`, and its length in bytes.
    static func scalar(at offset: Int, of bytes: [UInt8]) -> (Unicode.Scalar, Int) {
        let lead = bytes[offset]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for position in 1..<length where offset + position < bytes.count { value = value << 6 | UInt32(bytes[offset + position] & 0x3F) }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
    }

    /// Whether `bytes` hold a full-width form or a typographic apostrophe (`plain`).
    static func needsPlain(_ bytes: [UInt8]) -> Bool {
        for index in bytes.indices.dropLast() {
            switch (bytes[index], bytes[index + 1]) {
            case (0xEF, 0xBC), (0xEF, 0xBD), (0xCA, 0xBC): return true
            case (0xE2, 0x80) where index + 2 < bytes.count && bytes[index + 2] == 0x99: return true
            default: continue
            }
        }
        return false
    }

    /// Where the number starting at byte `start` ends: digits, and separators between digit
    /// groups (a no-break or thin space or an apostrophe only before exactly three digits), and
    /// ":" with two digits.
    static func numberEnd(_ bytes: [UInt8], from start: Int) -> Int {
        func isDigitByte(_ offset: Int) -> Bool { offset < bytes.count && bytes[offset] >= 0x30 && bytes[offset] <= 0x39 }
        var index = start
        while isDigitByte(index) { index += 1 }
        while index < bytes.count {
            let (separator, length) = scalar(at: index, of: bytes)
            var digits = index + length
            while isDigitByte(digits) { digits += 1 }
            let count = digits - index - length
            guard count > 0 else { break }
            let thousands = separator == "\u{00A0}" || separator == "\u{202F}" || separator == "\u{2009}" || separator == "'"
            guard separator == "." || separator == "," || separator == ":" && count == 2 || thousands && count == 3 else { break }
            index = digits
        }
        return index
    }

    /// Full-width forms as ASCII (Japanese writes "３ｋｍ"), typographic apostrophes as '.
    static func plain(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        switch scalar.value {
        case 0xFF01...0xFF5E: Unicode.Scalar(scalar.value - 0xFEE0)!
        case 0x2019, 0x02BC: "'"
        default: scalar
        }
    }

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 0x30 && scalar.value <= 0x39 }

    /// A letter of a script written with spaces.
    static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 { return (0x41...0x5A).contains(scalar.value) || (0x61...0x7A).contains(scalar.value) }
        return scalar.properties.isAlphabetic && !isUnspaced(scalar)
    }

    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 { return scalar == " " || (0x09...0x0D).contains(scalar.value) }
        return scalar.properties.isWhitespace
    }

    /// A combining mark, part of the letter before it.
    static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        let category = scalar.properties.generalCategory
        return category == .nonspacingMark || category == .spacingMark
    }

    /// Han, kana and the kana length mark: scripts written without spaces between words.
    static func isUnspaced(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return (0x3040...0x30FF).contains(value) || (0x3400...0x4DBF).contains(value) || (0x4E00...0x9FFF).contains(value)
            || (0xF900...0xFAFF).contains(value) || (0x20000...0x3134F).contains(value) || scalar == "々" || scalar == "〇"
    }

    /// A word as tables hold it: lower case, no accents (combining marks dropped), ' for
    /// typographic apostrophes.
    static func fold(_ word: String) -> String {
        if word.utf8.allSatisfy({ $0 < 0x80 && !($0 >= 0x41 && $0 <= 0x5A) }) { return word }
        let lower = word.lowercased()
        guard !lower.utf8.allSatisfy({ $0 < 0x80 }) else { return lower }
        var out = String.UnicodeScalarView()
        for scalar in lower.unicodeScalars {
            if scalar == "ß" {
                out.append(contentsOf: ["s", "s"])
            } else if scalar.value >= 0x80 && scalar.value < 0x2000 {
                // Accents off Latin, Greek and Cyrillic letters; kana keep their voicing marks.
                let decomposed = String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars
                out.append(contentsOf: decomposed.filter { $0.properties.generalCategory != .nonspacingMark })
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    // MARK: Facts

    /// The facts `tokens` state.
    func mentions(in tokens: [Token]) -> [Mention] {
        var mentions: [Mention] = []
        var index = 0
        var joined: Quantity? = nil
        let names = readsNames && !Self.isTitleCase(tokens)
        while index < tokens.count {
            switch tokens[index].kind {
            case .number: index = number(at: index, tokens, joined: &joined, into: &mentions)
            case .word: index = word(at: index, tokens, names: names, into: &mentions)
            case .unspaced:
                unspaced(tokens[index], into: &mentions)
                index += 1
            case .mark: index += 1
            }
        }
        return mentions
    }

    /// Reads the number at `index` and what belongs to it; returns the next index to read.
    ///
    /// `joined` carries thousands written with a plain space ("10 000 pas") from the first
    /// group to the second: each group's mention may be read as the whole number, or as itself
    /// ("3 400m" may be three 400 m).
    private func number(at index: Int, _ tokens: [Token], joined: inout Quantity?, into mentions: inout [Mention]) -> Int {
        let token = tokens[index]
        let previous = index > 0 ? tokens[index - 1] : nil
        var carried = joined
        joined = nil
        if side == .line, let previous, !token.spaceBefore {
            // Glued after letters ("B12", "COVID-19"): part of a name, not a number of its own.
            if previous.kind == .word && previous.folded != "x" { return index + 1 }
            if previous.kind == .mark && previous.text == "-" && !previous.spaceBefore && index > 1 && tokens[index - 2].kind == .word {
                return index + 1
            }
        }
        var units: FactUnits = []
        if let previous, previous.kind == .mark, let sign = previous.text.unicodeScalars.first.flatMap({ FactUnits.signs[$0] }) {
            units.formUnion(sign)
        }
        let parsed = Self.parse(token.text)
        let whole = parsed.values.first?.value ?? 0
        let isInteger = parsed.clock == nil && parsed.values.count == 1 && parsed.values[0].decimals == 0
        var readings: [Fact] = []
        var next = index + 1
        if isInteger, token.text.count <= 3, next < tokens.count, tokens[next].kind == .number, tokens[next].spaceBefore,
           tokens[next].text.count == 3, tokens[next].text.allSatisfy(\.isNumber) {
            joined = Quantity(value: whole * 1000 + (Double(tokens[next].text) ?? 0), decimals: 0, units: [])
            carried = joined
        }
        var thousands = false
        var scale = 1.0
        var clockHour: Int? = parsed.clock?.hour
        var clockMinute = parsed.clock?.minute ?? 0
        var clockOnly = parsed.clock != nil
        // What follows: a unit, a time's "pm" or "Uhr", an ordinal's ending.
        var after = next < tokens.count ? tokens[next] : nil
        if let mark = after, mark.kind == .mark, mark.text == "-", !mark.spaceBefore, next + 1 < tokens.count,
           tokens[next + 1].kind == .word, !tokens[next + 1].spaceBefore, FactUnits.words[tokens[next + 1].folded] != nil {
            next += 1   // "45-minute run"
            after = tokens[next]
        }
        if let after, joined == nil {
            switch after.kind {
            case .mark:
                if let sign = after.text.unicodeScalars.first.flatMap({ FactUnits.signs[$0] }) {
                    units.formUnion(sign)
                    next += 1
                }
            case .word:
                let word = after.folded
                // A dotted time before a clock word is hours and minutes: "19.30 Uhr", "7.30 pm".
                let dotted = clockHour == nil && ["am", "pm", "uhr"].contains(word) ? parsed.dottedTime : nil
                if let dotted {
                    clockHour = dotted.hour
                    clockMinute = dotted.minute
                }
                if (word == "am" || word == "pm") && (isInteger || parsed.clock != nil || dotted != nil) {
                    clockHour = clockHour ?? Self.whole(whole)
                    clockOnly = true
                    next += 1
                } else if (word == "a" || word == "p"), isInteger || parsed.clock != nil, next + 2 < tokens.count,
                          tokens[next + 1].text == ".", tokens[next + 2].folded == "m" {
                    clockHour = clockHour ?? Self.whole(whole)
                    clockOnly = true
                    next += 3
                } else if word == "uhr" {
                    clockHour = clockHour ?? Self.whole(whole)
                    clockOnly = true
                    next += 1
                } else if word == "h" && isInteger {
                    // "19h", "7h30": a time; "2h": also two hours.
                    clockHour = Self.whole(whole)
                    units.formUnion(.hour)
                    next += 1
                    if next < tokens.count, tokens[next].kind == .number, tokens[next].text.count == 2, let minute = Int(tokens[next].text) {
                        // "7h30" is a time alone; "6 h 40 min" is hours, and its minutes are read on their own.
                        clockMinute = minute
                        if !tokens[next].spaceBefore {
                            clockOnly = true
                            next += 1
                        }
                    }
                } else if let multiplier = Self.multipliers[word] {
                    scale = multiplier   // "8 mil passos", "2 thousand"
                    next += 1
                    let following = unit(after: next - 1, tokens)
                    if !following.isEmpty {
                        units.formUnion(following)
                        next += 1
                    }
                } else if word == "k" {
                    thousands = true
                    units.formUnion(.km)
                    next += 1
                } else if let pair = FactUnits.pairs[word], next + 1 < tokens.count, let unit = pair[tokens[next + 1].folded] {
                    units.formUnion(unit)
                    next += 2
                } else if let unit = FactUnits.words[word] {
                    units.formUnion(unit)
                    next += 1
                }
            case .unspaced:
                let run = Substring(after.text)
                if Self.starts(run, "時") && !Self.starts(run, "時間") && isInteger {
                    clockHour = Self.whole(whole)
                    clockOnly = true
                    if Self.starts(run, "時半") {
                        clockMinute = 30
                    } else if run == "時", next + 2 < tokens.count, tokens[next + 1].kind == .number, tokens[next + 2].text.hasPrefix("分"),
                              let minute = Int(tokens[next + 1].text) {
                        clockMinute = minute
                        next += 2
                    }
                } else if Self.starts(run, "月") && !Self.starts(run, "月曜"), isInteger, (1...12).contains(whole) {
                    readings.append(.month(Int(whole)))
                } else if let unit = FactUnits.unspacedUnit(run) {
                    units.formUnion(unit)
                }
                next += 1
            case .number:
                break
            }
        }
        if !clockOnly {
            for value in parsed.values {
                if scale != 1 {
                    readings.append(.quantity(Quantity(value: value.value * scale, decimals: 0, units: units)))
                    if side == .line { continue }
                }
                readings.append(.quantity(Quantity(value: value.value, decimals: value.decimals, units: units)))
                if thousands {
                    readings.append(.quantity(Quantity(value: value.value * 1000, decimals: max(value.decimals - 3, 0), units: [])))
                }
            }
        }
        if var carried {
            carried.units = units
            readings.append(.quantity(carried))
        }
        if let hour = clockHour, (0..<60).contains(clockMinute) {
            readings.append(.clock(Self.clock(hour: hour, minute: clockMinute)))
        } else if let time = parsed.dottedTime {
            readings.append(.clock((time.hour % 12) * 60 + time.minute))   // "7.30" may be half past seven
        }
        if !readings.isEmpty { mentions.append(Mention(readings: readings)) }
        return max(next, index + 1)
    }

    /// A number as an integer, or a billion when it is larger (or not finite): an hour or a
    /// month never is.
    static func whole(_ value: Double) -> Int {
        value.isFinite && value >= 0 && value < 1e9 ? Int(value) : 1_000_000_000
    }

    /// A time of day as minutes modulo twelve hours; a duration past 24 hours ("52:14", a race
    /// time) as itself, apart.
    static func clock(hour: Int, minute: Int) -> Int {
        hour <= 24 ? (hour % 12) * 60 + minute : 1_000_000 + hour * 60 + minute
    }

    /// Words after a number that multiply it: "8 mil", "2 thousand", "1.5 million".
    static let multipliers: [String: Double] = ["hundred": 100, "thousand": 1000, "mil": 1000, "mille": 1000, "tausend": 1000,
                                                "million": 1_000_000, "millions": 1_000_000, "millionen": 1_000_000, "millones": 1_000_000,
                                                "milioni": 1_000_000, "milhoes": 1_000_000, "mio": 1_000_000]

    /// What a number's text may mean.
    struct Parsed {
        /// Each reading of the digits: "1,200" is 1200 or 1.2.
        var values: [(value: Double, decimals: Int)] = []
        /// "7:30".
        var clock: (hour: Int, minute: Int)?
        /// "7.30" or "7,30", which may be a time.
        var dottedTime: (hour: Int, minute: Int)?
    }

    /// Reads a number token's digits and separators (read as bytes: a reply holds many).
    static func parse(_ text: String) -> Parsed {
        let bytes = Array(text.utf8)
        // Digit groups, and the separator before each group after the first: "." ",", ":" or a
        // space or apostrophe between thousands (any other byte).
        var groups: [Range<Int>] = []
        var separators: [UInt8] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            if bytes[index] >= 0x30 && bytes[index] <= 0x39 { index += 1; continue }
            groups.append(start..<index)
            separators.append(bytes[index] == 0x2E || bytes[index] == 0x2C || bytes[index] == 0x3A ? bytes[index] : 0x20)
            index += 1
            while index < bytes.count, bytes[index] >= 0x80 && bytes[index] < 0xC0 { index += 1 }   // the rest of a no-break space
            start = index
        }
        groups.append(start..<bytes.count)
        func value(_ ranges: [Range<Int>]) -> Double {
            var total = 0.0
            for range in ranges { for position in range { total = total * 10 + Double(bytes[position] - 0x30) } }
            return total
        }
        func decimal(_ whole: [Range<Int>], _ fraction: Range<Int>) -> (value: Double, decimals: Int) {
            var scale = 1.0
            for _ in fraction { scale *= 10 }
            return (value(whole) + value([fraction]) / scale, fraction.count)
        }
        var parsed = Parsed()
        guard !separators.isEmpty else {
            parsed.values = [(value(groups), 0)]
            return parsed
        }
        if separators[0] == 0x3A {
            // "7:30", "1:45:00": a time, or a duration read as one.
            let hour = whole(value([groups[0]])), minute = Int(value([groups[1]]))
            parsed.clock = (hour, minute)
            parsed.values = [(Double(hour), 0)]
            return parsed
        }
        let marks = separators.filter { $0 != 0x20 }
        if marks.isEmpty || marks.count > 1 && Set(marks).count == 1 && separators.allSatisfy({ $0 != 0x20 }) {
            // Thousands only: "1 200", "1'000", "1,234,567".
            parsed.values = [(value(groups), 0)]
        } else if separators.count > 1 {
            // Thousands and a decimal mark, the last: "1.234,5", "1,234.5", "1 234,5".
            parsed.values = [decimal(Array(groups.dropLast()), groups.last!)]
        } else {
            let whole = groups[0], fraction = groups[1]
            parsed.values = [decimal([whole], fraction)]
            if fraction.count == 3 { parsed.values.append((value(groups), 0)) }
            if fraction.count == 2, whole.count <= 2 {
                let hour = Int(value([whole])), minute = Int(value([fraction]))
                if hour <= 24 && minute < 60 { parsed.dottedTime = (hour, minute) }
            }
        }
        return parsed
    }

    /// Reads number words, dates or a name at `index`; returns the next index to read.
    private func word(at index: Int, _ tokens: [Token], names: Bool, into mentions: inout [Mention]) -> Int {
        let token = tokens[index]
        let word = token.folded
        let entry = table.entries[token.key]
        if let value = entry?.number ?? (side == .source && FactWords.oneKeys.contains(token.key) ? 1 : nil) {
            // A reply's word that is a number in one language and a date in another (French
            // "sept" and English "Sept") holds both: a line may read it either way.
            if side == .source, let entry {
                if let day = entry.weekday { mentions.append(Mention(readings: [.weekday(day)])) }
                if let month = entry.month { mentions.append(Mention(readings: [.month(month)])) }
            }
            return numberWords(from: index, first: value, tokens, into: &mentions)
        }
        if let value = compoundValue(word) {
            mentions.append(Mention(readings: [.quantity(Quantity(value: value, decimals: 0, units: unit(after: index, tokens)))]))
            return index + 1
        }
        let capitalised = token.text.unicodeScalars.first.map { $0.value < 0x80 ? $0.value >= 0x41 && $0.value <= 0x5A : $0.properties.isUppercase } ?? false
        if let entry {
            let dated = side == .source || !table.datesCapitalised || capitalised
            if dated, let day = entry.weekday {
                mentions.append(Mention(readings: [.weekday(day)]))
            } else if dated, let month = entry.month {
                let besideNumber = index > 0 && tokens[index - 1].kind == .number || index + 1 < tokens.count && tokens[index + 1].kind == .number
                if side == .source || word != "may" || besideNumber { mentions.append(Mention(readings: [.month(month)])) }
            } else if let day = entry.relativeDay {
                let before = index > 0 && tokens[index - 1].kind == .word ? tokens[index - 1].folded : ""
                if side == .source || !(table.notRelativeAfter[word]?.contains(before) ?? false) {
                    mentions.append(Mention(readings: [.relativeDay(day)]))
                }
            }
            return index + 1
        }
        if names, capitalised, isName(token), !isSentenceStart(index, tokens) {
            let name = Self.withoutPossessive(word)
            var readings: [Fact] = [.name(SourceFacts.hash(name))]
            if name.hasSuffix("s") { readings.append(.name(SourceFacts.hash(String(name.dropLast())))) }
            mentions.append(Mention(readings: readings))
        }
        return index + 1
    }

    /// The value of a number word, if it is one on this side. The words for one only in the
    /// source, or inside a compound ("twenty-one").
    private func numberValue(_ word: String, inCompound: Bool) -> Double? {
        if let value = table.entries[SourceFacts.hash(word)]?.number { return value }
        if FactWords.ones.contains(word), side == .source || inCompound && word != "once" { return 1 }   // English "once" is no digit of a compound
        return nil
    }

    /// A word made of number words: "twenty-five", "dix-sept", "quatre-vingt-dix", "fünfundzwanzig".
    private func compoundValue(_ word: String) -> Double? {
        let hyphenated = word.utf8.contains(0x2D)
        guard hyphenated || word.utf8.count > 6 else { return nil }
        var parts = hyphenated ? word.split(separator: "-").map(String.init) : [word]
        if parts.count == 1 {
            // German writes units before tens in one word: "fünfundzwanzig".
            guard word.utf8.contains(0x75) else { return nil }
            let bytes = Array(word.utf8)
            guard let und = (1..<(bytes.count - 4)).first(where: { bytes[$0] == 0x75 && bytes[$0 + 1] == 0x6E && bytes[$0 + 2] == 0x64 })
            else { return nil }
            parts = [String(decoding: bytes[(und + 3)...], as: UTF8.self), String(decoding: bytes[..<und], as: UTF8.self)]
        }
        guard parts.count > 1 else { return nil }
        var values: [Double] = []
        for part in parts {
            guard let value = numberValue(part, inCompound: true) ?? (part == "et" ? -1 : nil) else { return nil }
            if value >= 0 { values.append(value) }
        }
        return Self.combined(values)
    }

    /// Reads consecutive number words ("twenty five", "trente et un") as one number, from the
    /// word at `index` worth `first`; in the source, each word's own value too.
    private func numberWords(from index: Int, first: Double, _ tokens: [Token], into mentions: inout [Mention]) -> Int {
        var values = [first]
        var next = index + 1
        while next < tokens.count, tokens[next].kind == .word {
            var candidate = next
            if FactWords.numberJoiners.contains(tokens[candidate].folded) { candidate += 1 }
            guard candidate < tokens.count, tokens[candidate].kind == .word,
                  let value = numberValue(tokens[candidate].folded, inCompound: true) ?? compoundValue(tokens[candidate].folded),
                  Self.combined(values + [value]) != nil else { break }
            values.append(value)
            next = candidate + 1
        }
        let units = unit(after: next - 1, tokens)
        var readings: [Fact] = [.quantity(Quantity(value: Self.combined(values) ?? first, decimals: 0, units: units))]
        if side == .source {
            readings += values.map { .quantity(Quantity(value: $0, decimals: 0, units: units)) }
        }
        mentions.append(Mention(readings: readings))
        return next
    }

    /// The units written right after the token at `index`, if any.
    private func unit(after index: Int, _ tokens: [Token]) -> FactUnits {
        guard index + 1 < tokens.count else { return [] }
        let next = tokens[index + 1]
        switch next.kind {
        case .word: return FactUnits.words[next.folded] ?? []
        case .mark: return next.text.unicodeScalars.first.flatMap { FactUnits.signs[$0] } ?? []
        default: return []
        }
    }

    /// Number words' values as one number, or nil when they do not make one: tens then units
    /// ("twenty five"), a multiplier ("two hundred"), French teens and scores ("dix-sept",
    /// "soixante-quinze", "quatre-vingt-dix").
    static func combined(_ values: [Double]) -> Double? {
        guard var total = values.first else { return nil }
        var last = total
        for value in values.dropFirst() {
            if value == 100 || value == 1000 {
                guard total < value else { return nil }
                total *= value
            } else if last >= 20 && last < 100 && last.truncatingRemainder(dividingBy: 10) == 0 && value < 10 {
                total += value
            } else if (last == 60 || last == 80) && value >= 1 && value < 20 {
                total += value
            } else if last == 10 && value >= 7 && value <= 9 {
                total += value
            } else if last == 4 && value == 20 && values.count > 1 {
                total = 80
            } else if last >= 100 && value < last {
                total += value
            } else {
                return nil
            }
            last = value
        }
        return total
    }

    /// Reads numbers written in kanji, weekdays and relative days in a run without spaces.
    private func unspaced(_ token: Token, into mentions: inout [Mention]) {
        let scalars = Array(token.text.unicodeScalars)
        // Only a run holding a character of those words is searched for them.
        if scalars.contains(where: { $0 == "曜" || $0 == "期" }) {
            for (word, day) in FactWords.unspacedWeekdays where Self.holds(scalars, word) { mentions.append(Mention(readings: [.weekday(day)])) }
        }
        if scalars.contains(where: { $0 == "日" || $0 == "天" || $0 == "し" || $0 == "の" }) {
            for (word, day) in FactWords.unspacedRelativeDays where Self.holds(scalars, word) { mentions.append(Mention(readings: [.relativeDay(day)])) }
        }
        var index = 0
        while index < scalars.count {
            guard Self.isKanjiNumeral(scalars[index]) else { index += 1; continue }
            let start = index
            while index < scalars.count, Self.isKanjiNumeral(scalars[index]) { index += 1 }
            let numeral = Array(scalars[start..<index])
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[index..<min(index + 8, scalars.count)])
            let rest = Substring(String(view))
            guard let value = Self.kanjiValue(numeral) else { continue }
            if side == .line {
                // Only before a counter; never one alone (一緒, 一人), nor 十分 ("enough").
                guard FactUnits.isCounter(rest), value != 1 || numeral.count > 1, !(numeral == ["十"] && Self.starts(rest, "分") && !Self.starts(rest, "分間")) else { continue }
            }
            var readings: [Fact] = []
            if Self.starts(rest, "時") && !Self.starts(rest, "時間"), value <= 24 {
                readings.append(.clock(Self.clock(hour: Int(value), minute: Self.starts(rest, "時半") ? 30 : 0)))
            } else if Self.starts(rest, "月") && !Self.starts(rest, "月曜"), (1...12).contains(value) {
                readings.append(.month(Int(value)))
            }
            let units = FactUnits.unspacedUnit(rest) ?? []
            readings.append(.quantity(Quantity(value: value, decimals: 0, units: units)))
            mentions.append(Mention(readings: readings))
        }
    }

    /// Whether `text` starts with `prefix`, scalar by scalar (no grapheme breaking).
    static func starts(_ text: Substring, _ prefix: String) -> Bool {
        text.unicodeScalars.starts(with: prefix.unicodeScalars)
    }

    /// Whether `scalars` hold `word`'s scalars in a row.
    static func holds(_ scalars: [Unicode.Scalar], _ word: String) -> Bool {
        let needle = Array(word.unicodeScalars)
        guard let first = needle.first, scalars.count >= needle.count else { return false }
        for start in 0...(scalars.count - needle.count) where scalars[start] == first {
            if scalars[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }

    static let kanjiDigits: [Unicode.Scalar: Double] = ["〇": 0, "零": 0, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
                                                        "八": 8, "九": 9, "两": 2, "兩": 2]
    static let kanjiMultipliers: [Unicode.Scalar: Double] = ["十": 10, "百": 100, "千": 1000, "万": 10_000, "萬": 10_000]

    /// Whether `scalar` is one of `kanjiDigits` or `kanjiMultipliers`, without hashing it.
    static func isKanjiNumeral(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "〇", "零", "一", "二", "三", "四", "五", "六", "七", "八", "九", "两", "兩", "十", "百", "千", "万", "萬": true
        default: false
        }
    }

    /// The value of a kanji numeral: "二十五" 25, "三千" 3000, "二〇二六" 2026.
    static func kanjiValue(_ numeral: [Unicode.Scalar]) -> Double? {
        if numeral.allSatisfy({ kanjiDigits[$0] != nil }) {
            return numeral.reduce(0) { $0 * 10 + kanjiDigits[$1]! }
        }
        var total = 0.0, section = 0.0, digit = 0.0
        for scalar in numeral {
            if let value = kanjiDigits[scalar] {
                digit = value
            } else if let multiplier = kanjiMultipliers[scalar] {
                if multiplier == 10_000 {
                    total += (section + digit) * multiplier
                    section = 0
                } else {
                    section += max(digit, 1) * multiplier
                }
                digit = 0
            }
        }
        return total + section + digit
    }

    // MARK: Names

    /// Words written with a capital that are not names: the pronoun, titles, "OK", the app.
    static let notNames: Set<String> = ["i", "i'm", "i've", "i'll", "i'd", "ok", "okay", "mr", "mrs", "ms", "dr", "st", "mt", "jr", "yui",
                                        "tv", "pb", "pr"]

    /// Titles before a name, folded, whose full stop ends no sentence.
    static let titles: Set<String> = ["dr", "mr", "mrs", "ms", "prof", "st", "mt", "sr", "sra", "mme", "mlle", "m", "herr", "frau"]

    /// Whether a capitalised word may be a name: two letters or more, not all capitals (an
    /// acronym, a shout), not a unit or a word of the tables.
    private func isName(_ token: Token) -> Bool {
        let letters = token.text.unicodeScalars.filter { $0.properties.isAlphabetic }
        guard letters.count >= 2, letters.contains(where: { $0.properties.isLowercase }),
              letters.allSatisfy({ $0.value < 0x0250 }) else { return false }   // Latin script only
        let word = token.folded
        return !Self.notNames.contains(word) && !FactWords.ones.contains(word) && FactUnits.words[word] == nil && FactWords.every.numbers[word] == nil
            && FactWords.every.weekdays[word] == nil && FactWords.every.months[word] == nil && FactWords.every.relativeDays[word] == nil
    }

    /// Whether the word at `index` starts the text or a sentence, a clause after a colon or a
    /// dash, a quote or a bracket: where any word is capitalised.
    private func isSentenceStart(_ index: Int, _ tokens: [Token]) -> Bool {
        guard index > 0 else { return true }
        let previous = tokens[index - 1]
        guard previous.kind == .mark else { return false }
        // The full stop of a title ("Dr. Shah") ends no sentence.
        if previous.text == ".", index > 1, Self.titles.contains(tokens[index - 2].folded) { return false }
        return ![",", "&", "+", "/"].contains(previous.text)
    }

    /// Whether a line is written in title case ("Weekly Plan: Three Easy Runs"), where capitals
    /// say nothing of names: three words of four letters or more, every one capitalised.
    static func isTitleCase(_ tokens: [Token]) -> Bool {
        let long = tokens.filter { $0.kind == .word && $0.text.unicodeScalars.count >= 4 }
        return long.count >= 3 && long.allSatisfy { $0.text.unicodeScalars.first?.properties.isUppercase == true }
    }

    /// A folded word without an English possessive ("Anna's").
    static func withoutPossessive(_ word: String) -> String {
        let bytes = word.utf8
        guard bytes.count > 2, bytes.last == 0x73, bytes[bytes.index(bytes.endIndex, offsetBy: -2)] == 0x27 else { return word }
        return String(word.dropLast(2))
    }
}
