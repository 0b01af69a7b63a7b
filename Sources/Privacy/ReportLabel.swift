/// A label taken from a corpus (a build, a model version, a locale, an agent or member name, an
/// unknown node kind, an id), made safe to write into a report.
///
/// The export's metadata fields are free text: a build or an agent name can hold a sentence, and a
/// report must never carry one, in any spelling: with spaces, or joined by `-`, `_`, `.`, `/`,
/// `+`, `:`, or in camelCase. A shape rule that lets letters through cannot tell a name from such
/// a sentence, so letters pass only where they cannot spell three words: builds and model
/// versions in version shapes (digits and dots), kinds and line types from the export format's
/// closed vocabulary, locales as a language and a region, ids as a letter and hex digits. Names
/// (agents, members), and builds, models and kinds that are names, pass only when the team
/// listed them (`TeamLabels`, `replay --labels FILE`). Anything else is replaced by a salted
/// hash shown as such (`#h:` and 8 hex digits). This is the only place the rules are written
/// down; the report (ReplayKit) and the flywheel files use it alike, and docs/report-schema.md
/// describes it.
///
/// The hash is SHA-256 of the salt and the value's UTF-8 bytes, cut to 32 bits: equal values get
/// equal hashes within a run, so counts still group, while nobody can tell what was hashed. The
/// salt (`LabelSalt.run`) is never written, so hashes cannot be looked up in a dictionary of
/// guesses: random per process, or in a `replay` run an HMAC of the corpus's bytes under the run
/// key, so that shards of one run agree while nobody without the key can recompute it from a
/// guessed corpus, and runs over different corpora cannot be linked.
///
/// Every rule is idempotent: a label that is already a hash, `unknown`, or that already passed,
/// passes again (with the same `TeamLabels`).
public struct ReportLabel: Sendable, Hashable, CustomStringConvertible {
    /// The safe text: the value itself, a fixed label, or `#h:` and 8 hex digits.
    public let text: String

    /// What a missing or blank value is shown as.
    public static let unknown = ReportLabel(fixed: "unknown")
    /// What the labels beyond `maximumDistinct` of a dimension are merged into.
    public static let other = ReportLabel(fixed: "(other)")
    /// The prefix of a hashed label.
    public static let hashPrefix = "#h:"
    /// The most distinct labels a dimension shows; the rest are merged into `other`.
    public static let maximumDistinct = 20
    /// The longest token made by code kept, in characters.
    public static let maximumTokenLength = 40
    /// The longest version kept, in characters.
    public static let maximumVersionLength = 40

    public var description: String { text }

    /// Whether the value was replaced by its hash.
    public var isHashed: Bool { Self.isHashed(text) }

    /// An app build (`meta.build`): a version shape (`isVersion`: `2.3.0`, `2.3.0 (512)`), or
    /// one the team listed.
    public init(build: String?, listed: TeamLabels = .none, salt: LabelSalt = .run) {
        self.init(build, salt: salt) { Self.isVersion($0) || listed.builds.contains($0) }
    }

    /// A model version (`meta.model`): a version shape (`26.4`), or one the team listed.
    public init(model: String?, listed: TeamLabels = .none, salt: LabelSalt = .run) {
        self.init(model, salt: salt) { Self.isVersion($0) || listed.models.contains($0) }
    }

    /// A token made by code (a job name, a counter key, a quality name), never by a corpus: the
    /// token pattern `[A-Za-z0-9][A-Za-z0-9._+-/:]{0,39}`.
    public init(token: String?, salt: LabelSalt = .run) {
        self.init(token, salt: salt, passes: Self.isToken)
    }

    /// A locale (`lang`, `locale`): a language of 2 letters (or one of a few 3-letter languages
    /// with no 2-letter code, `fil`, `yue`, …), then optionally a region of 2 letters or 3 digits,
    /// separated by `-` or `_`, written in the canonical case (`en-US`, `es-419`). A script
    /// subtag only in the few language and script pairs locales use (`zh-Hant-TW`, `sr-Latn`).
    /// Anything longer is hashed: its subtags are free words (`en-quick-brown-fox`, `to-Hans-IN`).
    public init(locale: String?, salt: LabelSalt = .run) {
        guard let value = Self.present(locale) else { self = .unknown; return }
        if let canonical = Self.canonicalLocale(value) {
            text = canonical
        } else if Self.isHashed(value) || value == Self.unknown.text {
            text = value
        } else {
            self = ReportLabel(hashing: value, salt: salt)
        }
    }

    /// An agent's name (a thread's `agent`, a group's `lead`, an agent message's `from`): kept
    /// only when the team listed it under `agents`, else hashed. No shape tells a name from
    /// `mum_is_at_the_GP_now`.
    public init(agent: String?, listed: TeamLabels = .none, salt: LabelSalt = .run) {
        self.init(agent, salt: salt) { listed.agents.contains($0) }
    }

    /// A group member's name (`group.members[].name`, `meta.group.to`, a routing answer): kept
    /// only when the team listed it under `members`, else hashed.
    public init(member: String?, listed: TeamLabels = .none, salt: LabelSalt = .run) {
        self.init(member, salt: salt) { listed.members.contains($0) }
    }

    /// An unknown screen node kind or line type: `(other)` (the reader's name for kinds that are
    /// not tokens), a word of the export format's closed vocabulary (`ExportVocabulary`), or one
    /// the team listed under `kinds`; anything else is hashed.
    public init(kind: String?, listed: TeamLabels = .none, salt: LabelSalt = .run) {
        self.init(kind, salt: salt) {
            $0 == Self.other.text || ExportVocabulary.kinds.contains($0) || listed.kinds.contains($0)
        }
    }

    /// An id or a field path quoted in a bad line's reason (`t_81f2`, `screen[2].card.title`):
    /// an id shape (`isIDShape`) or a path of the export format's own field names (`isFieldPath`).
    public init(id: String?, salt: LabelSalt = .run) {
        self.init(id, salt: salt) { Self.isIDShape($0) || Self.isFieldPath($0) }
    }

    /// The hash of `value`, whatever it is.
    public init(hashing value: String, salt: LabelSalt = .run) {
        var bytes = salt.bytes
        bytes.append(contentsOf: value.utf8)
        text = Self.hashPrefix + String(SHA256.hex(bytes).prefix(8))
    }

    private init(fixed: String) { text = fixed }

    /// The value trimmed if it passes, else its hash; `unknown` when missing or blank.
    private init(_ value: String?, salt: LabelSalt, passes: (String) -> Bool) {
        guard let value = Self.present(value) else { self = .unknown; return }
        if passes(value) || Self.isHashed(value) || value == Self.unknown.text {
            text = value
        } else {
            self = ReportLabel(hashing: value, salt: salt)
        }
    }

    // MARK: - Capping

    /// The labels a dimension shows when it may show at most `limit`: the `limit` with the largest
    /// weight (ties broken by `order`). `(other)` is never ranked and always kept, so capping an
    /// already capped set changes nothing. The caller merges every label not returned into
    /// `(other)`, adding counts, so totals stay exact.
    public static func shown(_ weights: [String: Int], limit: Int = maximumDistinct,
                             order: (String, String) -> Bool) -> Set<String> {
        let ranked = weights.keys.filter { $0 != other.text }
        guard ranked.count > limit else { return Set(weights.keys) }
        let heaviest = ranked.sorted { a, b in
            let (x, y) = (weights[a]!, weights[b]!)
            return x != y ? x > y : order(a, b)
        }
        var kept = Set(heaviest.prefix(max(limit, 0)))
        if weights[other.text] != nil { kept.insert(other.text) }
        return kept
    }

    // MARK: - Patterns

    /// The value without surrounding white space; nil when that leaves nothing. The value itself,
    /// not a copy, when there is none to drop (the common case: this runs for every message).
    private static func present(_ value: String?) -> String? {
        guard let value, let first = value.utf8.first, let last = value.utf8.last else { return nil }
        if isVisibleASCII(first) && isVisibleASCII(last) { return value }
        let scalars = value.unicodeScalars
        guard let from = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let to = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return nil }
        return String(scalars[from...to])
    }

    /// Whether `value` has the shape of a hashed label: `#h:` and exactly 8 lowercase hex digits.
    public static func isHashed(_ value: String) -> Bool {
        guard value.utf8.count == hashPrefix.utf8.count + 8, value.hasPrefix(hashPrefix) else { return false }
        return value.utf8.dropFirst(hashPrefix.utf8.count).allSatisfy { isDigit($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }

    /// Whether `value` is 1 to `limit` bytes, the first `first`, every other `rest`.
    private static func matches(_ value: String, limit: Int, first: (UInt8) -> Bool, rest: (UInt8) -> Bool) -> Bool {
        let bytes = value.utf8
        guard (1...limit).contains(bytes.count) else { return false }
        var isFirst = true
        for byte in bytes {
            guard isFirst ? first(byte) : rest(byte) else { return false }
            isFirst = false
        }
        return true
    }

    /// `[A-Za-z0-9][A-Za-z0-9._+-/:]{0,39}`.
    static func isToken(_ value: String) -> Bool {
        matches(value, limit: maximumTokenLength, first: isAlphanumeric) { byte in
            isAlphanumeric(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ":")
        }
    }

    /// A version: 1 to 4 numbers of 1 to 9 digits joined by dots, then optionally one space and a
    /// build number in parentheses, at most 40 characters: `26.4`, `2.3.0`, `2.3.0 (512)`. Digits
    /// and dots only, so it can spell no word.
    static func isVersion(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        guard (1...maximumVersionLength).contains(bytes.count) else { return false }
        var index = 0
        func number() -> Bool {
            let start = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            return (1...9).contains(index - start)
        }
        guard number() else { return false }
        var dots = 0
        while index < bytes.count, bytes[index] == UInt8(ascii: "."), dots < 3 {
            index += 1
            dots += 1
            guard number() else { return false }
        }
        if index == bytes.count { return true }
        guard bytes.count - index >= 4, bytes[index] == UInt8(ascii: " "), bytes[index + 1] == UInt8(ascii: "(") else { return false }
        index += 2
        guard number(), index == bytes.count - 1, bytes[index] == UInt8(ascii: ")") else { return false }
        return true
    }

    /// An id as exports write them: an optional letter, an optional `_` or `-`, then 1 to 32 hex
    /// digits with at least one decimal digit and no more than two letters in a row (`t_81f2`,
    /// `m_19`, `g_0c1a`, `s1`, `1234`). Too few letters together to spell words.
    static func isIDShape(_ value: String) -> Bool {
        var bytes = value.utf8[...]
        if let first = bytes.first, isLetter(first), bytes.count > 1 { bytes = bytes.dropFirst() }
        if let first = bytes.first, first == UInt8(ascii: "_") || first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        guard (1...32).contains(bytes.count) else { return false }
        var lettersInARow = 0, digits = 0
        for byte in bytes {
            if isDigit(byte) {
                digits += 1
                lettersInARow = 0
            } else if (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte) {
                lettersInARow += 1
                guard lettersInARow <= 2 else { return false }
            } else {
                return false
            }
        }
        return digits > 0
    }

    /// A field path the reader quotes (`group.members`, `meta.draft_ticks[2]`,
    /// `screen[2].card.title`, `screen[0].(other)`): dot-separated names of the export format's
    /// own fields and kinds (`ExportVocabulary.fields`, `.kinds`) or `(other)`, each optionally
    /// followed by indexes `[N]`; at most 64 characters.
    static func isFieldPath(_ value: String) -> Bool {
        guard (1...64).contains(value.utf8.count) else { return false }
        for segment in value.split(separator: ".", omittingEmptySubsequences: false) {
            var name = Substring(segment)
            while name.hasSuffix("]") {
                guard let open = name.lastIndex(of: "[") else { return false }
                let digits = name[name.index(after: open)..<name.index(before: name.endIndex)]
                guard !digits.isEmpty, digits.utf8.count <= 9, digits.utf8.allSatisfy(isDigit) else { return false }
                name = name[..<open]
            }
            let word = String(name)
            guard word == other.text || ExportVocabulary.fields.contains(word) || ExportVocabulary.kinds.contains(word) else { return false }
        }
        return true
    }

    /// `en-US` for "en_us", "EN-us"…; nil unless the tag is a language (2 letters, or 3 from
    /// `ExportVocabulary.threeLetterLanguages`), optionally a script only where the language and
    /// script are one of `ExportVocabulary.scriptedLanguages`, and optionally a region (2 letters
    /// or 3 digits). Two free subtags of 2 or 3 letters spell at most two words; a free script of
    /// 4 letters between them would make three (`to-Hans-IN`), so scripts are a closed list.
    static func canonicalLocale(_ value: String) -> String? {
        let bytes = value.utf8
        guard bytes.count <= 16 else { return nil }
        // Already canonical "en" or "en-US", as nearly every export writes it: no copy.
        if bytes.count == 2 || bytes.count == 5, bytes.enumerated().allSatisfy({ index, byte in
            switch index {
            case 0, 1: return (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            case 2: return byte == UInt8(ascii: "-")
            default: return (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            }
        }) {
            return value
        }
        let subtags = value.utf8.split(omittingEmptySubsequences: false) { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
        guard let language = subtags.first, (2...3).contains(language.count), language.allSatisfy(isLetter) else { return nil }
        var result: [UInt8] = []
        result.reserveCapacity(value.utf8.count)
        result += language.map(lowercased)
        if language.count == 3, !ExportVocabulary.threeLetterLanguages.contains(String(decoding: result, as: UTF8.self)) { return nil }
        var rest = subtags.dropFirst()
        if let script = rest.first, script.count == 4, script.allSatisfy(isLetter) {
            var tag = result
            tag.append(UInt8(ascii: "-"))
            for (index, byte) in script.enumerated() { tag.append(index == 0 ? uppercased(byte) : lowercased(byte)) }
            guard ExportVocabulary.scriptedLanguages.contains(String(decoding: tag, as: UTF8.self)) else { return nil }
            result = tag
            rest = rest.dropFirst()
        }
        if let region = rest.first,
           (region.count == 2 && region.allSatisfy(isLetter)) || (region.count == 3 && region.allSatisfy(isDigit)) {
            result.append(UInt8(ascii: "-"))
            result += region.map(uppercased)
            rest = rest.dropFirst()
        }
        guard rest.isEmpty else { return nil }
        return result.elementsEqual(value.utf8) ? value : String(decoding: result, as: UTF8.self)
    }

    /// A printable ASCII character other than the space: no white space to trim.
    private static func isVisibleASCII(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
    private static func uppercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) ? byte - 32 : byte
    }
    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }
    private static func isAlphanumeric(_ byte: UInt8) -> Bool { isDigit(byte) || isLetter(byte) }
}

/// The secret mixed into hashed labels: one per process, never written anywhere.
///
/// One salt per process keeps one run's files consistent (a build hashed in report.json has the
/// same hash in metrics.csv) while hashes cannot be reversed by hashing guesses. It is random
/// unless a `replay` run chose, before the first label, one drawn from its corpus's bytes
/// (`LabelSalt.useForThisProcess`, see LabelSalt+Process.swift), so shards and resumed runs of one
/// corpus agree. Tests pass a fixed salt to get known hashes.
public struct LabelSalt: Sendable, Hashable {
    /// The salt's bytes.
    public let bytes: [UInt8]

    /// A given salt (tests).
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// The process's salt: 16 random bytes unless a run chose its corpus's first (`useForThisProcess`).
    public static var run: LabelSalt { useProcessSalt() }
}

extension ReportLabel {
    /// A bad line's reason with each quoted part (`'…'`) through the id rule: the reader quotes
    /// field paths and thread ids there, and a thread id is whatever the export wrote. The rest
    /// of a reason is the reader's own words. A backslash escapes the next character, as the
    /// reader writes quotes inside ids; a quote left open runs to the end.
    public static func reason(_ reason: String) -> String {
        var out = ""
        var quoted: String? = nil
        var escaping = false
        for character in reason {
            guard var part = quoted else {
                if character == "'" { quoted = "" } else { out.append(character) }
                continue
            }
            if escaping {
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == "'" {
                out += "'" + ReportLabel(id: part).text + "'"
                quoted = nil
                continue
            }
            part.append(character)
            quoted = part
        }
        if let part = quoted { out += "'" + ReportLabel(id: part).text }
        return out
    }
}
