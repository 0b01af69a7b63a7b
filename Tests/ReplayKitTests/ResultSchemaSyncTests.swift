@testable import Audit
@testable import Confinement
import Engine
import Flywheel
import Jobs
import Privacy
@testable import ReplayKit
import Testing
import RunTestSupport
import TestSupport

/// The audit's schema check (`ResultSchemas`, `ResultSchemaCheck`) spells the writers' fixed
/// words out (it was written when it could not import them); here, where both are in reach, the
/// two are compared, so a writer that gains a job, a fallback reason, a metric, a dimension, a
/// setting source or a result file fails this test until the check knows it too.
@Suite struct ResultSchemaSyncTests {
    @Test func fixedWordsAreTheWriters() {
        #expect(Set(JobKind.allCases.map(\.rawValue)) == ResultSchemas.jobNames)
        #expect(Set(FallbackReason.allCases.map(\.rawValue)) == ResultSchemas.fallbackReasons)
        #expect(Set(SettingSource.allCases.map(\.rawValue)) == ResultSchemas.settingSources)
        #expect(Set(NeverRule.allCases.map(\.rawValue)) == ResultSchemas.neverRules)
        // A run whose answers broke a rule carries its counter: the audit must take it as the job's own.
        #expect(NeverRule.allCases.allSatisfy { ResultText.isCounter($0.counter) })
        #expect(!ResultText.isCounter("never:made_up") && !ResultText.isCounter("never:"))
        #expect(Set(ModelProfiles.builtIn.devices.map(\.name)).isSubset(of: ["iphone15pro", "iphone16pro", "iphone17pro"]))
        #expect(Set(FallbackInjection.Reason.allCases.map(\.rawValue)) == ["refusal", "guardrail", "rate_limit"])
        #expect(Set(Metric.allCases.map(\.name)) == ResultSchemas.flywheelMetrics)
        #expect(Set(MetricDimension.allCases.map(\.name)) == ResultSchemas.dimensions)
        // Not CaseIterable: each spelled, and every one the check knows reads back as a case.
        let hashed: [CorpusIdentity.Hashed] = [.whole, .firstAndLastMiB, .notHashed]
        #expect(Set(hashed.map(\.rawValue)) == ResultSchemas.hashedKinds)
        #expect(ResultSchemas.hashedKinds.allSatisfy { CorpusIdentity.Hashed(rawValue: $0) != nil })
        #expect(ResultSchemas.stateDigestPrefix == StateDigest.prefix)
    }

    /// A sealed state (state.json and a checkpoint) passes the state's schema, its digest
    /// included; one whose digest is not the writer's form does not.
    @Test func aSealedStateMatchesTheStateSchema() throws {
        let directory = try TemporaryDirectory(prefix: "schema-state")
        let paths = try StateFixtures.corpus(in: directory)
        var state = StateFixtures.state(paths, dryRun: true)
        let context = ResultText.Context(knownPaths: Set(paths))
        for checkpoint in [nil, Checkpoint(sequence: 3, eventsRead: 40)] {
            state.checkpoint = checkpoint
            let text = state.stateJSON(key: StateFixtures.key)
            let problems = ResultSchemas.state.problems(try ReportValue(parsingExactJSON: text), context: context)
            #expect(problems.isEmpty, "\(problems.map { "\($0.path): \($0.what)" })")
            let digest = try #require(ReportValue(parsingExactJSON: text)["digest"])
            guard case .label(let sealed) = digest else { Issue.record("the digest is not a string"); return }
            let bare = text.replacingOccurrences(of: sealed, with: String(sealed.dropFirst(StateDigest.prefix.count)))
            #expect(!ResultSchemas.state.problems(try ReportValue(parsingExactJSON: bare), context: context).isEmpty)
        }
    }

    @Test func everyResultFileIsAllowedAndCheckpointsAreRecognised() {
        let allowed = ResultSchemaCheck.fileNames
        #expect(Set(OutputDirectory.resultFiles + FlywheelFiles.names).isSubset(of: allowed))
        for sequence in [1, 2, 42, 999_999, 1_000_000, 12_345_678] {
            #expect(ResultSchemaCheck.isCheckpointName(OutputDirectory.checkpointName(sequence)))
        }
        for name in ["checkpoint-0.json", "checkpoint-000000.json", "checkpoint-0000001.json", "checkpoint-00001.json",
                     "checkpoint-000001.json.bak", "checkpoint-00000a.json"] {
            #expect(!ResultSchemaCheck.isCheckpointName(name), "\(name)")
        }
    }
}
