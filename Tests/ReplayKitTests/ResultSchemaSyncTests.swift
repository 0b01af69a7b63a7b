@testable import Audit
import Flywheel
import Jobs
@testable import ReplayKit
import Testing

/// The audit's schema check (`ResultSchemas`, `ResultSchemaCheck`) cannot import the writers
/// (they import Audit), so it spells their fixed words out; here, where both are in reach, the
/// two are compared, so a writer that gains a job, a fallback reason, a metric, a dimension, a
/// setting source or a result file fails this test until the check knows it too.
@Suite struct ResultSchemaSyncTests {
    @Test func fixedWordsAreTheWriters() {
        #expect(Set(JobKind.allCases.map(\.rawValue)) == ResultSchemas.jobNames)
        #expect(Set(FallbackReason.allCases.map(\.rawValue)) == ResultSchemas.fallbackReasons)
        #expect(Set(SettingSource.allCases.map(\.rawValue)) == ResultSchemas.settingSources)
        #expect(Set(Metric.allCases.map(\.name)) == ResultSchemas.flywheelMetrics)
        #expect(Set(MetricDimension.allCases.map(\.name)) == ResultSchemas.dimensions)
        // Not CaseIterable: each spelled, and every one the check knows reads back as a case.
        let hashed: [CorpusIdentity.Hashed] = [.whole, .firstAndLastMiB, .notHashed]
        #expect(Set(hashed.map(\.rawValue)) == ResultSchemas.hashedKinds)
        #expect(ResultSchemas.hashedKinds.allSatisfy { CorpusIdentity.Hashed(rawValue: $0) != nil })
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
