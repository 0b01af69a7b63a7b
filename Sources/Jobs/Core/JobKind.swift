import Privacy

/// The four jobs the phone's model has in the spec.
public enum JobKind: String, Sendable, CaseIterable, Codable, Comparable {
    /// Reply chips under a screen that asks in words (spec §2).
    case chips
    /// The member a group message is for (spec §3).
    case route
    /// One plain line for a push (spec §4).
    case push
    /// A draft screen while offline (spec §5).
    case draft

    public static func < (a: JobKind, b: JobKind) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// Why a job gave no answer where it fired: the app falls back to what it does today (spec §6).
public enum FallbackReason: String, Sendable, CaseIterable, Codable, Comparable {
    /// The model file is missing or unreadable.
    case modelUnavailable = "model_unavailable"
    /// The phone cannot run the model (spec §6: not eligible, Apple Intelligence turned off, or the
    /// model not ready; `SystemLanguageModel.availability` is unavailable), so the app never asks.
    /// Apart from `modelUnavailable`, which is the replay's own model failing to load: a replay
    /// knows it only as injected (`--inject-fallbacks unavailable=RATE`), since the export does not
    /// say which phones could run the model.
    case deviceUnavailable = "device_unavailable"
    /// The message's language is not one the model supports.
    case unsupportedLanguage = "unsupported_language"
    /// The prompt and the answer do not fit the session's token ceiling.
    case contextExceeded = "context_exceeded"
    /// The answer came later than the job's time budget.
    case timeBudget = "time_budget"
    /// The output did not fit its schema or failed a check after generation.
    case invalidOutput = "invalid_output"
    /// The engine failed while evaluating.
    case engineFailure = "engine_failure"
    /// The model declined to answer (spec §6: "a refusal").
    case refusal
    /// The framework's guardrails stopped the request (spec §6: "a guardrail").
    case guardrailViolation = "guardrail_violation"
    /// Too many requests at once (spec §6: "a rate limit").
    case rateLimited = "rate_limited"
    /// Push in next-run mode (`PushMode.nextRun`): the person sent nothing after the push, in any
    /// thread, so the app never ran to write its line (spec §4); decided before asking.
    case noNextRun = "no_next_run"

    public static func < (a: FallbackReason, b: FallbackReason) -> Bool { a.rawValue < b.rawValue }
}

/// The app build, model version and locale a result is counted under, and the message it is at.
///
/// The message's id (the export's own text) never leaves memory: it is what a run's item keys
/// are made of (`ItemKey`, keyed hashes), so two runs over one corpus pair their items.
public struct Attribution: Sendable, Hashable {
    /// `meta.build`, or "unknown".
    public var build: String
    /// `meta.model`, or "unknown".
    public var model: String
    /// The language tag the job answers in at this place (the message's `lang`, else its
    /// thread's `locale`, as the job's language check reads it), or "unknown" when neither says.
    /// A raw corpus value: the report shows it as `ReportLabel(locale:)`.
    public var locale: String
    /// The id of the message the job fires at ("" when built without one, in tests).
    public var message: String

    public init(build: String?, model: String?, locale: String? = nil, message: String = "") {
        self.build = build ?? Self.unknown
        self.model = model ?? Self.unknown
        self.locale = locale ?? Self.unknown
        self.message = message
    }

    /// What a build, model or locale the export does not give is counted under.
    public static let unknown = "unknown"
}

// Keys of a result file's objects by job and by fallback reason (`ResultMap`).
extension JobKind: ResultMapKey {}
extension FallbackReason: SortedMapKey { public typealias Stored = FallbackReason }
