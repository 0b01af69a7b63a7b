import Jobs
import Privacy
import ReplayKit

/// What one run of a case came to: its id, language and job, and each expectation's verdict.
/// Ids, fixed words and numbers only: never an input's words, a given output or the model's.
public struct SuiteCaseResult: Sendable {
    public var id: String
    /// The language the case ran in (a tag the locale rule keeps), nil when it named none.
    public var language: String?
    public var job: JobKind
    public var must: Bool
    /// The case gave its output (`given`): every expectation was decided without a model.
    public var givenOutput: Bool
    /// The case is for other model versions than the run's (`model_versions`): not run.
    public var skipped: Bool
    public var expectations: [SuiteExpectationResult]

    /// Every expectation held (a skipped case neither passes nor fails).
    public var passed: Bool { !skipped && expectations.allSatisfy(\.passed) }
    public var failed: Bool { !skipped && !passed }

    /// How the results name the outcome of a run of a case.
    public enum Status: String, Codable, Sendable { case pass, fail, skipped }

    public var status: Status { skipped ? .skipped : passed ? .pass : .fail }

    /// How the results name this run: the id, with `:LANGUAGE` when the case runs once per
    /// language of its `languages` (`route-named-wins:fr`).
    public var name: String { perLanguage ? id + ":" + (language ?? "unknown") : id }
    /// The case gave `languages`: it ran once in each.
    public var perLanguage: Bool = false
}

/// One expectation's verdict at a run of a case.
public struct SuiteExpectationResult: Sendable {
    /// The expectation's key (`route_to`).
    public var name: SuiteExpectation.Name
    /// Decided without regard to the model's words (docs/suite.md).
    public var deterministic: Bool
    public var passed: Bool
    /// What was found, when it is a count, a flag or one of the app's fixed words (a fallback
    /// reason, a draft kind); nil otherwise (routing's member is the model's choice).
    public var observed: Observed?
    /// Why it failed; nil when it passed.
    public var reason: Reason?

    public init(name: SuiteExpectation.Name, deterministic: Bool, passed: Bool, observed: Observed? = nil, reason: Reason? = nil) {
        self.name = name
        self.deterministic = deterministic
        self.passed = passed
        self.observed = observed
        self.reason = passed ? nil : (reason ?? .differs)
    }

    /// Why an expectation fails: what was found differs; the job is not eligible at the case's
    /// place; it fell back before it measured an input (an unsupported language); the model was
    /// not asked (a fallback before asking); or the output was rejected, so there is no answer to judge.
    public enum Reason: String, Codable, Sendable, CaseIterable, CustomStringConvertible {
        case differs
        case notEligible = "not_eligible", noInput = "no_input", notAsked = "not_asked", noAnswer = "no_answer"

        public var description: String { rawValue }
    }

    /// Every reason's word.
    public static let reasons = Reason.allCases.map(\.rawValue)

    /// What an expectation observed, as report.json writes it: a flag, a count, or one of
    /// `SuiteExpectation.observedWords` (read back only when it is one).
    public enum Observed: Codable, Sendable, Equatable {
        case bool(Bool)
        case int(Int)
        case word(String)

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let flag = try? container.decode(Bool.self) { self = .bool(flag); return }
            if let count = try? container.decode(Int.self) { self = .int(count); return }
            let word = try container.decode(String.self)
            guard SuiteExpectation.observedWords.contains(word) else {
                throw StateFormatError(at: decoder.codingPath, "not a word an expectation observes")
            }
            self = .word(word)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .bool(let flag): try container.encode(flag)
            case .int(let count): try container.encode(count)
            case .word(let word): try container.encode(word)
            }
        }
    }
}
