@testable import Audit
@testable import Confinement
import Engine
import Jobs
import Privacy
@testable import Compare
@testable import ReplayKit
import Testing

/// The audit spells out `replay compare`'s and the items file's fixed words (`ResultSchemas`);
/// here both are in reach, so a metric, a verdict or a file name the writers gain
/// fails until the check knows it.
@Suite struct CompareSchemaSyncTests {
    @Test func metricKeysVerdictsAndDirectionsAreTheWriters() {
        var keys = Set(MetricDefinition.fixed.map(\.key))
        for job in JobKind.allCases { keys.formUnion(MetricDefinition.violations(job).map(\.key)) }
        for name in Set(MetricDefinition.qualityNames.values.joined()) {
            for family in MetricDefinition.qualityFamilies { keys.insert(MetricDefinition.quality(name, family: family).key) }
        }
        #expect(keys == ResultSchemas.compareMetricKeys)
        #expect(Set(MetricDefinition.qualityNames.values.joined()) == ResultSchemas.qualityNames)
        #expect(Set(MetricVerdict.allCases.map(\.rawValue)) == ResultSchemas.compareVerdicts)
        let directions: [MetricDefinition.Direction] = [.higherIsBetter, .lowerIsBetter, .neutral]
        #expect(Set(directions.map(\.rawValue)) == ResultSchemas.compareDirections)
    }

    /// Every option two runs can differ in is named in compare.json by a flag the audit knows:
    /// two states that differ in every option give every name.
    @Test func everyOptionDifferenceIsAFlagTheAuditKnows() throws {
        let a = StateOptions(jobs: [.chips], budgets: [.chips: 800], device: .iPhone15Pro, threadLimit: nil, strict: false,
                             dryRun: false, flywheel: false, batchSize: 8)
        let profiles = try ModelProfiles(parsing: Array(ModelProfiles.builtInText.replacingOccurrences(of: "8192", with: "4096").utf8), file: "p")
        let b = StateOptions(jobs: [.route], budgets: [.route: 400], device: try #require(DeviceProfile.named("iphone16pro")), threadLimit: 5,
                             strict: true, dryRun: true, flywheel: true, batchSize: 4, labels: TeamLabels(agents: ["Coach"]),
                             prompts: PromptSetIdentity(name: "team", sha256: String(repeating: "a", count: 64)),
                             profiles: AppliedProfiles(profiles, device: .iPhone15Pro),
                             injection: try FallbackInjection.parse("refusal=0.1"))
        let names = a.differences(from: b).compactMap(OptionFlag.init(difference:)).map(\.rawValue)
        #expect(names.count == 12)
        #expect(Set(names).isSubset(of: ResultSchemas.compareOptionFlags), "\(names)")
    }

    @Test func comparisonAndItemFilesAreAllowed() {
        #expect(Set(OutputDirectory.comparisonFiles + [ItemTable.fileName]).isSubset(of: ResultSchemaCheck.fileNames))
        for sequence in [1, 42, 1_000_000] {
            #expect(ResultItems.isSegmentName(OutputDirectory.segmentName(sequence)))
            #expect(!ResultItems.isSegmentName(OutputDirectory.checkpointName(sequence)))
        }
        #expect(!ResultItems.isSegmentName("checkpoint-1.items.json.zst") && !ResultItems.isSegmentName("items.json.zst"))
    }

    /// The names of differing options compare.json may list are those `StateOptions` gives.
    @Test func optionDifferencesAreTheStatesWords() {
        let a = StateOptions(jobs: [.chips], budgets: [.chips: 800], device: .iPhone15Pro, threadLimit: nil, strict: false,
                             dryRun: false, flywheel: false, batchSize: 8)
        let b = StateOptions(jobs: [.route], budgets: [.route: 1], device: DeviceProfile(name: "custom:1,1", prefillMillisecondsPerToken: 1, decodeTokensPerSecond: 1, source: "test"),
                             threadLimit: 3, strict: true, dryRun: true, flywheel: true, batchSize: 1,
                             labels: TeamLabels(agents: ["Coach"]))
        let words = a.differences(from: b)
        #expect(words.count == 9)
        #expect(ResultShape.array(ResultSchemas.fixed("--job", "--budget", "--device", "--limit", "--strict", "--dry-run", "--flywheel",
                                                      "--batch", "--labels")).problems(.array(words.map { .label($0) }),
                                                                                       context: ResultText.Context(knownPaths: [])).isEmpty)
    }
}
