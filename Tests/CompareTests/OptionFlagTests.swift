@testable import Confinement
import Engine
import Jobs
import Privacy
@testable import Compare
@testable import ReplayKit
import Testing

/// Every option two runs can differ in is named in compare.json by a flag its type knows.
@Suite struct OptionFlagTests {
    /// Every option two runs can differ in is named in compare.json by a flag compare.json's type knows:
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
        #expect(names.count == 12 && Set(names).count == 12, "\(names)")
    }
}
