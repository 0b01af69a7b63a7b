/// What a string of a result file may be, when it is not one of a writer's fixed words (those
/// are enums, which check themselves as they decode): a label under its `ReportLabel` rule, a
/// time, a digest, a path the run was given, prose in the writers' words.
///
/// A field of a result file's type names its rule with `Judged` (`ResultPath`, `BuildLabel`,
/// …). The writer encodes the text as it is; the auditor decodes the file with a
/// `ResultStringJudge` in the decoder's `userInfo`, which rules on every such string, so the
/// check of a file is its type: nothing restates it.
public enum ResultStringRule: Sendable, Hashable {
    /// A label its `ReportLabel` rule keeps as written, `unknown`, `(other)` or a salted hash.
    case label(LabelKind)
    /// An ISO 8601 UTC time to the second (`2026-09-01T07:00:00Z`).
    case timestamp
    /// Lowercase hex of this many digits (a SHA-256: 64; an item's key: 16).
    case hex(Int)
    /// A state's digest: `hmac-sha256:` and 64 lowercase hex digits.
    case stateDigest
    /// A path the run was given, one beneath a directory it was given, or an absolute path that
    /// names an existing file: a place on this machine, not a text of the corpus.
    case path
    /// The writers' own words, numbers, punctuation, known paths and quoted ids.
    case prose
    /// A job's counter name (docs/report-schema.md, "Per job").
    case counter
    /// A model's name or description from its GGUF file.
    case modelText
    /// A device profile's name: a built-in one, `custom:MS,TPS`, or a token of a team's profiles.
    case device
    /// The name of a file `replay` writes beneath `--out`.
    case resultFileName
    /// A flywheel key under its dimension (`all`, an ISO week, or a label of the dimension's kind).
    case flywheelKey(dimension: String)

    /// The `ReportLabel` rules.
    public enum LabelKind: String, Sendable, Hashable {
        case build, model, token, locale, agent, member, kind, id
    }
}

/// Rules on the strings of a result file as the auditor decodes it.
public protocol ResultStringJudge: Sendable {
    /// Nil when `text` may stand where `rule` says; else what belongs there, in a few words
    /// ("a path the run was given"), never quoting `text`.
    func problem(with text: String, as rule: ResultStringRule) -> String?
}

extension CodingUserInfoKey {
    /// The auditor's `ResultStringJudge`, absent when a writer reads its own files back.
    public static let resultStringJudge = CodingUserInfoKey(rawValue: "replay.resultStringJudge")!
}

extension Decoder {
    /// Throws when the auditor's judge (if one decodes) refuses `text` under `rule`: the error
    /// names the coding path and what belongs there, never the text.
    /// `codingPath` and `what` place and name it otherwise (a map's key, by its place).
    public func judge(_ text: String, as rule: ResultStringRule, at codingPath: [any CodingKey]? = nil,
                      what: String = "a string") throws(StateFormatError) {
        guard let judge = userInfo[.resultStringJudge] as? any ResultStringJudge,
              let problem = judge.problem(with: text, as: rule) else { return }
        throw StateFormatError(at: codingPath ?? self.codingPath, what + " that is not " + problem)
    }
}
