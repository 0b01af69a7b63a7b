import Confinement
import Foundation
import Jobs
import Privacy

/// What a string in a result file may be: a word from a fixed set, a label its `ReportLabel`
/// rule keeps, a time, a digest, a path the run was given, or prose in the writers' words.
///
/// Labels are judged by `ReportLabel`'s own rules (a value is a label of a kind when the rule's
/// initialiser keeps it as written), so a tightened rule tightens this check too.
indirect enum ResultText: Sendable {
    case fixed(Set<String>)
    /// A label of this kind, `unknown`, a salted hash (`#h:` and 8 hex digits), or `(other)`.
    case label(Label)
    /// An ISO 8601 UTC time to the second (`2026-09-01T07:00:00Z`).
    case timestamp
    /// An ISO week (`2026-W36`).
    case isoWeek
    /// Lowercase hex of this many digits (a SHA-256: 64).
    case hex(Int)
    /// A digest named by its algorithm: `prefix` and lowercase hex of this many digits
    /// (a state's `"hmac-sha256:<64 hex>"`). A keyed digest, not corpus text.
    case prefixedHex(String, Int)
    /// A path the run was given (`Context.knownPaths`: its out directory, its corpus, its model),
    /// one beneath a directory it was given, or an absolute path that names an existing file: a
    /// place on this machine, not a text of the corpus.
    case path
    /// The writers' own words (`ResultVocabulary`), numbers, punctuation, paths as `.path`, and
    /// quoted ids (`'t_81f2'`) the id rule keeps.
    case prose
    /// A job's counter name (docs/report-schema.md, "Per job").
    case counter
    /// The name of a file `replay` writes beneath `--out` (`ResultSchemaCheck.fileNames`, a checkpoint).
    case resultFileName
    /// A custom device profile, `custom:MS,TPS` (two decimal numbers).
    case customDevice
    /// A model's name or description from its GGUF file (`general.name`; llama.cpp's
    /// architecture, size and quantisation): at most 10 pieces split by single spaces, at most
    /// 96 characters, each piece `-` or a token its rule keeps whose runs of letters are
    /// quantisation words, words of the model file's own name (`Context.modelWords`), the
    /// writers' (an architecture such as `llama`), or, in a piece with digits, 3 letters at most.
    case modelText
    case either([ResultText])

    /// The `ReportLabel` rules.
    enum Label: String, Sendable {
        case build, model, token, locale, agent, member, kind, id
    }

    /// What the check knows besides the file.
    struct Context: Sendable {
        var knownPaths: Set<String>
        /// The team's list (`replay --labels FILE`): what the run's label rules kept as written.
        var teamLabels: TeamLabels = .none
        /// The words of the model file's name (`SmolLM2-135M-Instruct.Q4_1.gguf`: smollm,
        /// instruct, q, gguf), when the file names a `.gguf` path of the run; lower case.
        var modelWords: Set<String> = []
        /// Where the run's relative paths start (its working directory), when known.
        var workingDirectory: String? = nil
    }

    /// The salt labels are tried with: a value kept as written does not depend on it.
    static let probeSalt = LabelSalt(bytes: Array("replay result schema check".utf8))

    func admits(_ text: String, context: Context) -> Bool {
        switch self {
        case .fixed(let words): return words.contains(text)
        case .label(let kind): return Self.isLabel(text, kind, listed: context.teamLabels)
        case .timestamp: return Self.isTimestamp(text)
        case .isoWeek: return Self.isWeek(text)
        case .hex(let count): return text.utf8.count == count && text.utf8.allSatisfy(Self.isLowerHex)
        case .prefixedHex(let prefix, let count):
            return text.hasPrefix(prefix) && ResultText.hex(count).admits(String(text.dropFirst(prefix.count)), context: context)
        case .path: return Self.isPath(text, context: context)
        case .prose: return ResultProse.firstUnknown(in: text, labels: [], context: context) == nil
        case .counter: return Self.isCounter(text, listed: context.teamLabels)
        case .resultFileName: return ResultSchemaCheck.Checker.isAllowed(text)
        case .customDevice: return Self.isCustomDevice(text)
        case .modelText: return Self.isModelText(text, context: context)
        case .either(let rules): return rules.contains { $0.admits(text, context: context) }
        }
    }

    /// Whether the rule is a fixed set of the checker's own words.
    var isFixed: Bool {
        if case .fixed = self { return true }
        return false
    }

    var summary: String {
        switch self {
        case .fixed: "one of the words replay writes here"
        case .label(let kind): "a \(kind.rawValue) label its rule keeps, or a hashed one"
        case .timestamp: "a UTC time"
        case .isoWeek: "an ISO week"
        case .hex(let count): "\(count) lowercase hex digits"
        case .prefixedHex(let prefix, let count): "\(prefix) and \(count) lowercase hex digits"
        case .path: "a path the run was given"
        case .prose: "made of replay's own words"
        case .counter: "a counter name of a job"
        case .resultFileName: "the name of a file replay writes"
        case .customDevice: "a custom device profile"
        case .modelText: "a model's name from its file"
        case .either(let rules): rules.map(\.summary).joined(separator: ", or ")
        }
    }

    /// Whether `text` is a label of `kind`: kept as written by its `ReportLabel` rule (with the
    /// team's list, `listed`), or one of the forms every rule writes (`unknown`, a salted hash,
    /// the capped remainder `(other)`).
    static func isLabel(_ text: String, _ kind: Label, listed: TeamLabels = .none) -> Bool {
        if text == ReportLabel.unknown.text || text == ReportLabel.other.text || ReportLabel.isHashed(text) { return true }
        let kept: ReportLabel
        switch kind {
        case .build: kept = ReportLabel(build: text, listed: listed, salt: probeSalt)
        case .model: kept = ReportLabel(model: text, listed: listed, salt: probeSalt)
        case .token: kept = ReportLabel(token: text, salt: probeSalt)
        case .locale: kept = ReportLabel(locale: text, salt: probeSalt)
        case .agent: kept = ReportLabel(agent: text, listed: listed, salt: probeSalt)
        case .member: kept = ReportLabel(member: text, listed: listed, salt: probeSalt)
        case .kind: kept = ReportLabel(kind: text, listed: listed, salt: probeSalt)
        case .id: kept = ReportLabel(id: text, salt: probeSalt)
        }
        return kept.text == text
    }

    static func isPath(_ text: String, context: Context) -> Bool {
        if context.knownPaths.contains(text) { return true }
        // A file of a corpus directory the run was given (directories are expanded).
        if !text.contains("/../"), !text.hasSuffix("/.."),
           context.knownPaths.contains(where: { text.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }) {
            var info = stat()
            let resolved = text.hasPrefix("/") ? text : context.workingDirectory.map { $0 + "/" + text }
            if let resolved, lstat(resolved, &info) == 0 { return true }
        }
        guard text.hasPrefix("/"), !text.contains("\0") else { return false }
        var info = stat()
        return lstat(text, &info) == 0
    }

    /// `counters.<name>`: the jobs' fixed names, `never:` and a never rule, `kind:`/`expected:`
    /// and a draft kind, or routing's `confusion:<actual>-><guessed>` with member names under the
    /// name rule.
    static func isCounter(_ text: String, listed: TeamLabels = .none) -> Bool {
        if JobCounter.names.contains(text) { return true }
        if text.hasPrefix("never:") { return NeverRule(rawValue: String(text.dropFirst("never:".count))) != nil }
        if let kind = text.split(separator: ":", maxSplits: 1).last, text.hasPrefix("kind:") || text.hasPrefix("expected:") {
            return Draft.kinds.contains(String(kind))
        }
        let drawer = text.hasPrefix(RouteJob.drawerConfusion)
        guard drawer || text.hasPrefix("confusion:") else { return false }
        let pair = text.dropFirst(drawer ? RouteJob.drawerConfusion.count : "confusion:".count)
        if pair == "(other)" { return true }
        // A name holds `-` but never `>`: try each `->`.
        var search = pair.startIndex
        while let arrow = pair[search...].range(of: "->") {
            let actual = String(pair[..<arrow.lowerBound]), guessed = String(pair[arrow.upperBound...])
            if drawer {
                if isLabel(actual, .agent, listed: listed), guessed == RouteJob.drawerNoPill || isLabel(guessed, .agent, listed: listed) { return true }
            } else if isMember(actual, listed: listed), isMember(guessed, listed: listed) { return true }
            search = arrow.upperBound
        }
        return false
    }

    static func isMember(_ text: String, listed: TeamLabels = .none) -> Bool { text == "lead" || isLabel(text, .member, listed: listed) }


    /// Words of llama.cpp's quantisation names (`Q4_K - Medium`, `IQ2_XXS - 2.0625 bpw`) and
    /// its unknown size (`?B`).
    static let quantisationWords: Set<String> = ["all", "small", "medium", "large", "bpw", "ternary", "mostly", "guessed", "unknown"]

    static func isModelText(_ text: String, context: Context) -> Bool {
        let pieces = text.split(separator: " ", omittingEmptySubsequences: false)
        guard text.utf8.count <= 96, pieces.count <= 10 else { return false }
        return pieces.allSatisfy { piece in
            if piece == "-" { return true }
            let token = String(piece.hasPrefix("?") ? piece.dropFirst() : piece)
            guard !token.isEmpty, isLabel(token, .token) else { return false }
            // Letters beside digits (`Lc100K`, `Mix1`) are short runs; anything longer is a word.
            let short = token.utf8.contains(where: isDigit) ? 3 : 0
            return ResultProse.words(of: token).allSatisfy {
                $0.count <= short || quantisationWords.contains($0) || context.modelWords.contains($0) || ResultProse.isWriters($0)
            }
        }
    }

    /// The words of a model file's path, for `Context.modelWords`: its last name's runs of
    /// letters, lower case; nothing unless it ends in `.gguf`.
    static func modelWords(ofFile path: String) -> Set<String> {
        guard path.hasSuffix(".gguf"), let name = path.split(separator: "/").last else { return [] }
        return Set(ResultProse.words(of: String(name)))
    }

    static func isCustomDevice(_ text: String) -> Bool {
        guard text.hasPrefix("custom:") else { return false }
        let numbers = text.dropFirst("custom:".count).split(separator: ",", omittingEmptySubsequences: false)
        return numbers.count == 2 && numbers.allSatisfy { number in
            !number.isEmpty && number.utf8.count <= 16 && number.utf8.allSatisfy { isDigit($0) || $0 == UInt8(ascii: ".") }
        }
    }

    static func isTimestamp(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let shape = Array("0000-00-00T00:00:00Z".utf8)
        guard bytes.count == shape.count else { return false }
        return zip(bytes, shape).allSatisfy { byte, expected in expected == UInt8(ascii: "0") ? isDigit(byte) : byte == expected }
    }

    static func isWeek(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 8, bytes[4] == UInt8(ascii: "-"), bytes[5] == UInt8(ascii: "W") else { return false }
        return (bytes[0..<4] + bytes[6..<8]).allSatisfy(isDigit)
    }

    static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    static func isLowerHex(_ byte: UInt8) -> Bool { isDigit(byte) || (0x61...0x66).contains(byte) }
}

