/// Why the jobs cannot be set up as asked: a prompt set file (`replay.prompts/1`,
/// docs/prompts.md) that cannot be used, or fallbacks to inject that cannot be read.
///
/// Each case about a file names it and the key path of the problem (`jobs.chips.prompt[2]`), and
/// says what is allowed there. A template's text is never quoted: only the placeholder at fault.
public enum JobsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file is not JSON; `problem` says where the parser stopped (a byte offset) and what it expected.
    case promptSetIsNotJSON(file: String, problem: String)
    /// The file's `schema` is missing or is not `replay.prompts/1`.
    case promptSetHasAnotherSchema(file: String)
    /// A key the schema requires is not there.
    case promptSetLacksAKey(file: String, path: String)
    /// A key the schema does not know; `allowed` are the keys that may be there.
    case promptSetHasAnUnknownKey(file: String, path: String, allowed: [String])
    /// A key of `jobs` that is not a job.
    case promptSetNamesAnUnknownJob(file: String, path: String)
    /// A key of `instructions.languages` that is not a language code.
    case promptSetNamesAnUnknownLanguage(file: String, path: String)
    /// A key given twice in one object.
    case promptSetHasAKeyTwice(file: String, path: String)
    /// A value of the wrong kind; `expected` says what belongs there.
    case promptSetHasAWrongValue(file: String, path: String, expected: String)
    /// A template whose braces do not parse; `problem` says which and where.
    case promptTemplateIsMalformed(file: String, path: String, problem: String)
    /// A placeholder names something the job may not see (spec §2–5); `seen` is what it sees.
    case promptNamesAnInputTheJobMayNotSee(file: String, path: String, placeholder: String, job: JobKind, seen: [String])
    /// A placeholder in instructions names one of the words the job sees, which go in its prompt.
    case instructionsNameAnInputOfThePrompt(file: String, path: String, placeholder: String, job: JobKind, allowed: [String])
    /// A placeholder in one of a job's line templates (routing's member line) names something the line does not have.
    case lineTemplateNamesAnotherInput(file: String, path: String, placeholder: String, allowed: [String])
    /// A part's `when` or `unless` names no condition of the job.
    case promptNamesAnUnknownCondition(file: String, path: String, condition: String, job: JobKind, conditions: [String])
    /// An input that may be absent is used in a part that is not only there when it is.
    case promptUsesAnInputThatMayBeAbsent(file: String, path: String, placeholder: String, condition: String)
    /// A list input (routing's members) shares its part with other words.
    case promptListIsNotAPartOfItsOwn(file: String, path: String, placeholder: String)
    /// An `--inject-fallbacks` value that cannot be read: what is wrong with it.
    case injectionIsNotValid(String)

    public var description: String {
        switch self {
        case let .promptSetIsNotJSON(file, problem):
            "\(file): \(problem)"
        case let .promptSetHasAnotherSchema(file):
            "\(file): schema: must be \"\(PromptSet.schema)\" (a prompt set file, docs/prompts.md)"
        case let .promptSetLacksAKey(file, path):
            "\(file): \(path) is missing"
        case let .promptSetHasAnUnknownKey(file, path, allowed):
            "\(file): \(path): an unknown key (\(allowed.joined(separator: ", ")) \(allowed.count == 1 ? "is" : "are") allowed)"
        case let .promptSetNamesAnUnknownJob(file, path):
            "\(file): \(path): not a job (\(JobKind.allCases.map(\.rawValue).joined(separator: ", ")) are the jobs)"
        case let .promptSetNamesAnUnknownLanguage(file, path):
            "\(file): \(path): not a language code (2 or 3 lowercase letters, the language of the export's tags: fr for fr-CA)"
        case let .promptSetHasAKeyTwice(file, path):
            "\(file): \(path) is given twice"
        case let .promptSetHasAWrongValue(file, path, expected):
            "\(file): \(path): must be \(expected)"
        case let .promptTemplateIsMalformed(file, path, problem):
            "\(file): \(path): \(problem)"
        case let .promptNamesAnInputTheJobMayNotSee(file, path, placeholder, job, seen):
            "\(file): \(path): {\(placeholder)} is not an input \(job.rawValue) may see (it sees \(seen.joined(separator: ", ")))"
        case let .instructionsNameAnInputOfThePrompt(file, path, placeholder, job, allowed):
            "\(file): \(path): {\(placeholder)} cannot be in \(job.rawValue)'s instructions, which may use \(Self.list(allowed)) "
                + "(the words the job sees go in its prompt)"
        case let .lineTemplateNamesAnotherInput(file, path, placeholder, allowed):
            "\(file): \(path): {\(placeholder)} is not in this line, which has \(Self.list(allowed))"
        case let .promptNamesAnUnknownCondition(file, path, condition, job, conditions):
            "\(file): \(path): \(condition) is not a condition of \(job.rawValue) (it has \(Self.list(conditions)))"
        case let .promptUsesAnInputThatMayBeAbsent(file, path, placeholder, condition):
            "\(file): \(path): {\(placeholder)} may be absent: use it only in a part with \"when\": \"\(condition)\""
        case let .promptListIsNotAPartOfItsOwn(file, path, placeholder):
            "\(file): \(path): {\(placeholder)} must be a part by itself (it becomes one line each)"
        case let .injectionIsNotValid(problem):
            "--inject-fallbacks: \(problem)"
        }
    }

    /// Names joined by commas, or "none".
    private static func list(_ names: [String]) -> String { names.isEmpty ? "none" : names.joined(separator: ", ") }
}
