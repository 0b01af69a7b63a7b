import Jobs
import ReplayKit

/// One case of a suite: a job's input in the export's own vocabulary, what the app must do with
/// it, and what the model should.
///
/// A case runs once, in its input's language, or once per tag of `languages` (the input then
/// names none). Cases with `modelVersions` run only when the run names one of them
/// (`--model-version`). A case with `given` feeds that output to the job's checks instead of
/// asking the model, so all its expectations are decided without a model.
public struct SuiteCase: Sendable {
    /// Where the case is in the file's `cases`.
    public var index: Int
    /// A short slug (`route-tie-means-lead`): what the results show of the case.
    public var id: String
    public var job: JobKind
    /// A failed must case fails the run (exit 1).
    public var must: Bool
    /// The on-device model versions the case is for (`26.4`); nil for every version.
    public var modelVersions: [String]?
    /// The languages the case runs in, once each (BCP 47); nil: the input's own.
    public var languages: [String]?
    public var input: SuiteInput
    /// A fixed output to judge instead of asking the model.
    public var given: SuiteGivenOutput?
    /// What must hold, in the file's order.
    public var expectations: [SuiteExpectation]

    /// The languages the case runs in: `languages`, else the input's own (nil: none given).
    public var runLanguages: [String?] {
        languages.map { $0.map { Optional($0) } } ?? [input.language]
    }
}
