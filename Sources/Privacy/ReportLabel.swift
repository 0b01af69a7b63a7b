/// A label taken from a corpus (a build, a model version, a locale, an agent or member name, an
/// unknown node kind, an id), made safe to write into a report.
///
/// The export's metadata fields are free text: a build or an agent name can hold a sentence, and a
/// report must never carry one. So every such value is either kept as it is, because it matches a
/// strict pattern for its kind (short, one token, no spaces), or replaced by a salted hash shown
/// as such (`#h:` and 8 hex digits). This is the only place the patterns are written down; the
/// report (ReplayKit) and the flywheel files use it alike, and docs/report-schema.md describes it.
///
/// The hash is SHA-256 of the salt and the value's UTF-8 bytes, cut to 32 bits: equal values get
/// equal hashes within a run, so counts still group, while nobody can tell what was hashed. The
/// salt (`LabelSalt.run`) is never written, so hashes cannot be looked up in a dictionary of
/// guesses: random per process, or in a `replay` run drawn from the corpus's own bytes, so that
/// shards of one corpus agree while runs over different corpora cannot be linked.
///
/// Every rule is idempotent: a label that is already a hash, or that already passed, passes again.
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
    /// The longest build, model version or other token kept, in characters.
    public static let maximumTokenLength = 40
    /// The longest name kept, in Unicode scalars.
    public static let maximumNameLength = 24

    public var description: String { text }

    /// Whether the value was replaced by its hash.
    public var isHashed: Bool { Self.isHashed(text) }

    /// An app build (`meta.build`): a token (`[A-Za-z0-9][A-Za-z0-9._+-/:]{0,39}`, no spaces), or
    /// the export's own shape `2.3.0 (512)` (a dotted version, one space, digits in parentheses).
    public init(build: String?, salt: LabelSalt = .run) {
        self.init(build, salt: salt) { Self.isToken($0) || Self.isVersionWithBuildNumber($0) }
    }

    /// A model version (`meta.model`): a token, as for builds.
    public init(model: String?, salt: LabelSalt = .run) {
        self.init(model, salt: salt, passes: Self.isToken)
    }

    /// A token made by code or a closed vocabulary (a job name, a counter key): the token pattern.
    public init(token: String?, salt: LabelSalt = .run) {
        self.init(token, salt: salt, passes: Self.isToken)
    }

    /// A locale (`lang`, `locale`): a language of 2 or 3 letters, then optionally a script of 4
    /// letters and a region of 2 letters or 3 digits, separated by `-` or `_`, written in the
    /// canonical case (`en-US`, `zh-Hant-TW`, `es-419`). Longer BCP 47 tags (variants,
    /// extensions, private use) are hashed: their subtags are free words (`en-quick-brown-fox`).
    public init(locale: String?, salt: LabelSalt = .run) {
        guard let value = Self.present(locale) else { self = .unknown; return }
        if let canonical = Self.canonicalLocale(value) {
            text = canonical
        } else if Self.isHashed(value) {
            text = value
        } else {
            self = ReportLabel(hashing: value, salt: salt)
        }
    }

    /// An agent's or a group member's name: one word of at most 24 Unicode scalars, a letter then
    /// letters, combining marks, digits, `_` or `-` ("Sage", "Coach", "Zoé", "ミナ").
    public init(name: String?, salt: LabelSalt = .run) {
        self.init(name, salt: salt, passes: Self.isName)
    }

    /// An unknown screen node kind or line type: `(other)` (the reader's name for kinds that are
    /// not tokens) or `[A-Za-z0-9_][A-Za-z0-9_.-]{0,31}`.
    public init(kind: String?, salt: LabelSalt = .run) {
        self.init(kind, salt: salt) { $0 == Self.other.text || Self.isKind($0) }
    }

    /// An id or a field path quoted in a bad line's reason (`t_81f2`, `screen[2].card.title`):
    /// `[A-Za-z0-9_][A-Za-z0-9_.:()\[\]-]{0,63}`.
    public init(id: String?, salt: LabelSalt = .run) {
        self.init(id, salt: salt, passes: Self.isID)
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
        if passes(value) || Self.isHashed(value) {
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

    /// `[0-9]+(\.[0-9]+){0,3} \([0-9]+\)`, at most 40 characters: "2.3.0 (512)".
    static func isVersionWithBuildNumber(_ value: String) -> Bool {
        guard value.utf8.count <= maximumTokenLength else { return false }
        // 0: in a version number (after a digit), 1: after a dot or at the start, 2: after "(",
        // 3: in the build number, 4: after ")", 5: after the space.
        var state = 1, dots = 0
        for byte in value.utf8 {
            switch (state, byte) {
            case (0, UInt8(ascii: "0")...UInt8(ascii: "9")), (1, UInt8(ascii: "0")...UInt8(ascii: "9")): state = 0
            case (0, UInt8(ascii: ".")) where dots < 3: dots += 1; state = 1
            case (0, UInt8(ascii: " ")): state = 5
            case (5, UInt8(ascii: "(")): state = 2
            case (2, UInt8(ascii: "0")...UInt8(ascii: "9")), (3, UInt8(ascii: "0")...UInt8(ascii: "9")): state = 3
            case (3, UInt8(ascii: ")")): state = 4
            default: return false
            }
        }
        return state == 4
    }

    /// `[A-Za-z0-9_][A-Za-z0-9_.-]{0,31}`: the reader's token for names of kinds.
    static func isKind(_ value: String) -> Bool {
        matches(value, limit: 32, first: { isAlphanumeric($0) || $0 == UInt8(ascii: "_") }) { byte in
            isAlphanumeric(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
        }
    }

    /// `[A-Za-z0-9_][A-Za-z0-9_.:()\[\]-]{0,63}`.
    static func isID(_ value: String) -> Bool {
        matches(value, limit: 64, first: { isAlphanumeric($0) || $0 == UInt8(ascii: "_") }) { byte in
            isAlphanumeric(byte) || "_.:()[]-".utf8.contains(byte)
        }
    }

    /// `\p{L}[\p{L}\p{M}\p{N}_-]{0,23}`.
    static func isName(_ value: String) -> Bool {
        var count = 0
        for scalar in value.unicodeScalars {
            count += 1
            guard count <= maximumNameLength else { return false }
            if scalar.isASCII {
                let byte = UInt8(scalar.value)
                guard isLetter(byte) || (count > 1 && (isDigit(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-"))) else {
                    return false
                }
                continue
            }
            if count == 1 {
                guard isLetter(scalar) else { return false }
                continue
            }
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
                continue
            default:
                return false
            }
        }
        return count > 0
    }

    /// `en-US` for "en_us", "EN-us"…; nil unless the tag is a language (2 or 3 letters) with an
    /// optional script (4 letters) and an optional region (2 letters or 3 digits).
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
        var rest = subtags.dropFirst()
        if let script = rest.first, script.count == 4, script.allSatisfy(isLetter) {
            result.append(UInt8(ascii: "-"))
            for (index, byte) in script.enumerated() { result.append(index == 0 ? uppercased(byte) : lowercased(byte)) }
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
    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return true
        default: return false
        }
    }
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
