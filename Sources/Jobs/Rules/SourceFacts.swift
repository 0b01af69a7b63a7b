import Privacy

/// The facts of the words an answer is judged against, kept from planning to the check: for a
/// push line, the replies it sums up (`PushUnfaithfulRule`); for a draft, the person's message
/// (`DraftAdviceRule`, `DraftAgentVoiceRule`, which ask whether the draft only repeats it).
///
/// Read once, in-process, when the item is planned (`FactReader`, source side), so the check
/// compares a short output with a few sets instead of reading the thread again. Held on the
/// `JobItem` in memory only, as `reference` is, and never in `labels`: it is not encoded, has no
/// description and an empty mirror, and gives nothing out but yes or no. The words themselves
/// are not kept, only hashes of their folded forms (`hash`: this process's hasher), the numbers
/// with their units, and the times and days the text names.
public struct SourceFacts: Sendable {
    /// Numbers with their units and how they were written.
    private var quantities: [FactReader.Quantity] = []
    private var clocks: Set<Int> = []
    private var weekdays: Set<Int> = []
    private var months: Set<Int> = []
    private var relativeDays: Set<Int> = []
    /// Numbers the text implies without writing them (how many replies a push sums up): they
    /// support a bare number only, never one with a unit, a time or a month.
    private var counts: Set<Int> = []
    /// Hashes of the folded words, each also without an English possessive or a final "s".
    private var words: Set<Int> = []
    /// Hashes of the first four letters of each word of four letters or more: "calling" and "call".
    private var stems: Set<Int> = []
    /// Hashes of each two neighbouring characters of the runs written without spaces (kanji, kana).
    private var bigrams: Set<Int> = []
    /// Hashes of the group's members' names, the agent's own left out.
    private var members: Set<Int> = []

    /// The facts of `text`. `agent`'s name is held as a word (a line may name the agent whose
    /// reply it sums up); `members`, the group's members, are names a line may not bring in
    /// unless the text holds them; `counts` are numbers the text implies (how many replies a
    /// push sums up). `keepsParts`: also the words' stems and the pairs of characters of runs
    /// without spaces, which `holds(word:)`, `mayContain(phrase:)` and `shares(pairsOf:)` need
    /// (a draft's message, short); a push's replies keep whole words only.
    public init(_ text: SealedText, agent: String? = nil, members: [String] = [], counts: [Int] = [], keepsParts: Bool = false) {
        self = text.withUnsealedText { Self(reading: $0, agent: agent, members: members, counts: counts, keepsParts: keepsParts) }
    }

    /// The facts of `text` (`init(_:agent:members:counts:keepsParts:)`).
    init(reading text: String, agent: String? = nil, members: [String] = [], counts: [Int] = [], keepsParts: Bool = false) {
        let tokens = FactReader.tokens(text)
        words.reserveCapacity(tokens.count * 2)
        self.counts = Set(counts)
        var quantities = Set<FactReader.Quantity>()
        // Each mention's first reading with a unit: what a line may add up or subtract (never
        // two readings of one number, "1 250 €" read as 1250 and 250).
        var measured: [FactReader.Quantity] = []
        for mention in FactReader(side: .source).mentions(in: tokens) {
            if measured.count < 40, let first = mention.readings.lazy.compactMap({ reading -> FactReader.Quantity? in
                if case .quantity(let quantity) = reading, !quantity.units.isEmpty { quantity } else { nil }
            }).first {
                measured.append(first)
            }
            for reading in mention.readings {
                switch reading {
                case .quantity(let quantity): quantities.insert(quantity)
                case .clock(let minutes): clocks.insert(minutes)
                case .weekday(let day): weekdays.insert(day)
                case .month(let month): months.insert(month)
                case .relativeDay(let day): relativeDays.insert(day)
                case .name: break
                }
            }
        }
        // What a line may work out from the text: the difference of two numbers in one unit
        // ("down 2.3 lb" from 184.6 and 182.3 lb), the total of a unit's numbers.
        var totals: [FactUnits: FactReader.Quantity] = [:]
        for (index, first) in measured.enumerated() {
            totals[first.units, default: FactReader.Quantity(value: 0, decimals: 0, units: first.units)].value += first.value
            totals[first.units]!.decimals = max(totals[first.units]!.decimals, first.decimals)
            for second in measured[(index + 1)...] where first.units.agrees(with: second.units) && first.value != second.value {
                quantities.insert(FactReader.Quantity(value: abs(first.value - second.value), decimals: max(first.decimals, second.decimals),
                                                      units: first.units.intersection(second.units)))
            }
        }
        quantities.formUnion(totals.values)
        self.quantities = Array(quantities)
        for token in tokens {
            switch token.kind {
            case .word: addWord(token, keepsStem: keepsParts)
            case .unspaced where keepsParts: addBigrams(token.text)
            default: break
            }
        }
        if let agent {
            for token in FactReader.tokens(agent) where token.kind == .word { addWord(token, keepsStem: keepsParts) }
        }
        let agentName = agent.map(FactReader.fold)
        for member in members where FactReader.fold(member) != agentName {
            for token in FactReader.tokens(member) where token.kind == .word { self.members.insert(Self.hash(token.folded)) }
        }
    }

    private mutating func addWord(_ token: FactReader.Token, keepsStem: Bool) {
        let word = FactReader.withoutPossessive(token.folded)
        words.insert(word.utf8.count == token.folded.utf8.count ? token.key : Self.hash(word))
        if word.utf8.last == 0x73 { words.insert(Self.hash(String(word.dropLast()))) }
        if keepsStem, let stem = Self.stemHash(word) { stems.insert(stem) }
    }

    private mutating func addBigrams(_ run: String) {
        let scalars = Array(run.unicodeScalars)
        for index in scalars.indices.dropLast() { bigrams.insert(Self.pairHash(scalars[index], scalars[index + 1])) }
    }

    /// The hash of a folded word, the form facts keep words in: 64-bit FNV-1a of its UTF-8,
    /// cheaper than `Hasher` over the many words of a reply, and kept in memory only.
    static func hash(_ folded: String) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in folded.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return Int(bitPattern: UInt(hash))
    }

    static func pairHash(_ first: Unicode.Scalar, _ second: Unicode.Scalar) -> Int {
        var hasher = Hasher()
        hasher.combine(first)
        hasher.combine(second)
        return hasher.finalize()
    }

    /// The hash of a word's first four characters (`hash` of that prefix), or nil when it has
    /// fewer: read from its UTF-8 without making the prefix.
    static func stemHash(_ word: String) -> Int? {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var characters = 0
        for byte in word.utf8 {
            if byte & 0xC0 != 0x80 {
                if characters == 4 { break }
                characters += 1
            }
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return characters == 4 ? Int(bitPattern: UInt(hash)) : nil
    }

    // MARK: Questions

    /// Whether the text supports `fact`: holds it, or (for a number) one it rounds.
    func supports(_ fact: FactReader.Fact) -> Bool {
        switch fact {
        case .quantity(let quantity):
            if quantities.contains(where: { quantity.units.agrees(with: $0.units) && Self.rounds($0, to: quantity) }) { return true }
            if quantity.units.isEmpty, quantity.decimals == 0, quantity.value.isFinite, abs(quantity.value) < 1e6,
               quantity.value == quantity.value.rounded(), counts.contains(Int(quantity.value)) { return true }
            // An hour the text gives as a time: "7" or "7 hours"? Only "at 7" for "7:00".
            return quantity.decimals == 0 && (quantity.units.isEmpty || quantity.units == .hour) && quantity.value <= 24
                && quantity.value == quantity.value.rounded() && clocks.contains((Int(quantity.value) % 12) * 60)
        case .clock(let minutes):
            if clocks.contains(minutes) { return true }
            // "at ten" for "10pm".
            return minutes % 60 == 0 && quantities.contains {
                $0.decimals == 0 && ($0.units.isEmpty || $0.units.contains(.hour)) && $0.value <= 24 && $0.value == $0.value.rounded()
                    && (Int($0.value) % 12) * 60 == minutes
            }
        case .weekday(let day): return weekdays.contains(day)
        case .month(let month):
            // Also a month written as a number: "14/3" for "March 14".
            return months.contains(month) || quantities.contains { $0.units.isEmpty && $0.decimals == 0 && $0.value == Double(month) }
        case .relativeDay(let day): return relativeDays.contains(day)
        case .name(let hash): return words.contains(hash)
        }
    }

    /// Whether `line` rounds `source` ("2 lb" or "about 2 lb" for 2.3; "20 km" for 18.7) or
    /// writes it again: rounded or cut to the line's decimals, or an integer rounded to tens,
    /// hundreds… within a fifth of the source and keeping two figures of a whole number ("1,200"
    /// for 1,234, never "10" for 9 or 12). Never more precise than the source.
    static func rounds(_ source: FactReader.Quantity, to line: FactReader.Quantity) -> Bool {
        let value = line.value, exact = source.value
        if abs(value - exact) <= 1e-9 * max(1, exact) { return true }
        let step = pow10(-line.decimals)
        let scaled = exact / step
        if abs(scaled.rounded() * step - value) < step / 1000 || abs(scaled.rounded(.towardZero) * step - value) < step / 1000 {
            return true
        }
        guard line.decimals == 0, value >= 10, value.isFinite, abs(value - exact) <= 0.2 * exact else { return false }
        var unit = 10.0
        while unit <= value, value.truncatingRemainder(dividingBy: unit) == 0 {
            let keepsFigures = exact != exact.rounded() || unit * 10 <= exact
            if keepsFigures && abs((exact / unit).rounded() * unit - value) < 0.5 { return true }
            unit *= 10
        }
        return false
    }

    private static func pow10(_ exponent: Int) -> Double {
        var result = 1.0
        for _ in 0..<abs(exponent) { result *= 10 }
        return exponent < 0 ? 1 / result : result
    }

    /// Whether the text holds `folded` (a folded word) as a word, or its stem.
    func holds(word folded: String) -> Bool {
        let word = FactReader.withoutPossessive(folded)
        if words.contains(Self.hash(word)) { return true }
        return Self.stemHash(word).map(stems.contains) ?? false
    }

    /// Whether the text may hold `phrase` (folded): each of its words, or each two neighbouring
    /// characters of a phrase written without spaces. Order is not checked.
    func mayContain(phrase: String) -> Bool {
        let tokens = FactReader.tokens(phrase)
        guard !tokens.isEmpty else { return false }
        for token in tokens {
            switch token.kind {
            case .word, .number:
                guard words.contains(Self.hash(FactReader.withoutPossessive(token.folded))) else { return false }
            case .unspaced:
                let scalars = Array(token.text.unicodeScalars)
                guard scalars.count > 1 else { return false }
                for index in scalars.indices.dropLast() where !bigrams.contains(Self.pairHash(scalars[index], scalars[index + 1])) {
                    return false
                }
            case .mark: continue
            }
        }
        return true
    }

    /// Whether the characters just before a phrase written without spaces (`before`, a run of
    /// kanji or kana) share two neighbouring characters with the text: a Japanese draft that ends
    /// the person's own note with "忘れずに".
    func shares(pairsOf before: String) -> Bool {
        let scalars = Array(before.unicodeScalars)
        guard scalars.count > 1 else { return false }
        return scalars.indices.dropLast().contains { index in
            // Kana on both sides is grammar ("のを"), not the note's content.
            !(Self.isKana(scalars[index]) && Self.isKana(scalars[index + 1]))
                && bigrams.contains(Self.pairHash(scalars[index], scalars[index + 1]))
        }
    }

    private static func isKana(_ scalar: Unicode.Scalar) -> Bool { (0x3040...0x309F).contains(scalar.value) }

    /// Whether `folded`, a word of a line, names a member of the group the text does not hold.
    func namesMemberNotHeld(_ folded: String) -> Bool {
        let hash = Self.hash(FactReader.withoutPossessive(folded))
        return members.contains(hash) && !words.contains(hash)
    }
}

extension SourceFacts: CustomReflectable {
    /// An empty mirror: the facts are the thread's, never shown.
    public var customMirror: Mirror { Mirror(self, children: [:], displayStyle: .struct) }
}
