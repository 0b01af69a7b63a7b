import Foundation
import Jobs
import Privacy
import Testing
@testable import Compare
@testable import ReplayKit
@testable import Replay
import RunTestSupport
import TestSupport

/// `replay compare` over real dry runs of the bundled sample: a run against itself, against
/// another run with the same options and against its own 3-shard merge differs in nothing; two
/// runs that differ only in a budget differ exactly as their reports' counts imply, with the
/// McNemar p-value of those discordant counts.
@Suite(.serialized, .tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct CompareSampleTests {
    typealias F = CompareFixtures
    static let corpus = BuiltProducts.packageRoot + "/corpora/sample.jsonl.zst"

    /// A dry run of the whole sample into `out`, in process.
    static func dryRun(_ out: String, _ extra: [String] = []) -> ExitCode {
        ReplayTool.main(["--dry-run", "--out", out] + extra + [corpus], diagnostics: { _ in }, sandboxed: false)
    }

    static func json(_ path: String) throws -> ReportValue {
        try ReportValue(parsingExactJSON: String(contentsOfFile: path, encoding: .utf8))
    }

    /// Every metric with pairs differs by exactly 0 with the verdict "no detectable change";
    /// those without pairs are the ones a dry run cannot measure (nothing is asked: no tokens,
    /// latencies or quality), "no pairs".
    static func expectNoDifference(_ comparison: Comparison, _ label: String) {
        #expect(comparison.jobs.map(\.job) == JobKind.allCases, "\(label): every job compared")
        #expect(comparison.join.paired > 1000 && comparison.join.baseOnly == 0 && comparison.join.newOnly == 0 && comparison.join.repeated == 0,
                "\(label): \(comparison.join)")
        for job in comparison.jobs {
            for slice in job.slices {
                #expect(slice.eligible.paired == slice.eligible.base && slice.eligible.paired == slice.eligible.new)
                for m in slice.metrics {
                    if m.metric.kind == .rate {
                        #expect(m.pairs == slice.eligible.paired, "\(label) \(job.job) \(slice.label) \(m.metric.key)")
                        #expect(m.difference == 0 && m.lower == 0 && m.upper == 0 && m.baseOnly == 0 && m.newOnly == 0)
                        #expect(m.adjustedPValue == 1 && m.verdict == .noDetectableChange, "\(label) \(job.job) \(slice.label) \(m.metric.key)")
                    } else {
                        #expect(m.pairs == 0 && m.verdict == .noPairs, "\(label) \(job.job) \(m.metric.key): a dry run asks nothing")
                    }
                }
            }
        }
    }

    @Test func aDryRunOfTheSampleComparedWithItselfAndARepeatDiffersInNothing() throws {
        let work = try TemporaryDirectory(prefix: "compare-sample-self")
        #expect(Self.dryRun(work.path("a")) == .success)
        #expect(Self.dryRun(work.path("b")) == .success)
        let key = try StateFixtures.processKey()
        let a = try RunDirectory.read(work.path("a"), key: key), b = try RunDirectory.read(work.path("b"), key: key)
        #expect(a.items == b.items, "two runs with the same options keep the same items")
        Self.expectNoDifference(Comparison(base: a.items, new: a.items), "itself")
        Self.expectNoDifference(Comparison(base: a.items, new: b.items), "a repeat")
        // The command over the same directory twice: the same, and every gate on a rate with a
        // margin passes. With no margin at all it fails: a bound of exactly 0 is not above 0, and
        // non-inferiority within nothing would need NEW to be shown better.
        let strict = F.compare(["--out", work.path("strict"), "--fail-if-worse", "chips.in_budget.device=0", work.path("a"), work.path("a")])
        #expect(strict.code == .thresholdsNotMet && strict.said.contains("lower 95% bound 0 <= 0"), "\(strict.said)")
        let (code, said) = F.compare(["--out", work.path("cmp"), "--fail-if-worse", "chips.in_budget.device=0.001",
                                      "--fail-if-worse", "route.fallback.time_budget=0.001", work.path("a"), work.path("a")])
        #expect(code == .success, "\(said)")
        let json = try Self.json(work.path("cmp/compare.json"))
        #expect(json.at("jobs.chips.join.paired") == .int(a.items.items.filter { $0.job == .chips }.count))
        #expect(json.at("differences.options") == .array([]) && json.at("differences.model") == .bool(false))
    }

    @Test func aDryRunComparedWithItsOwnThreeShardMergeDiffersInNothing() throws {
        let work = try TemporaryDirectory(prefix: "compare-sample-shards")
        #expect(Self.dryRun(work.path("whole")) == .success)
        for index in 0..<3 { #expect(Self.dryRun(work.path("s\(index)"), ["--shard", "\(index)/3"]) == .success) }
        let merged = ReplayTool.main(["merge", "--out", work.path("merged"), work.path("s0"), work.path("s1"), work.path("s2")],
                                     diagnostics: { _ in }, sandboxed: false)
        #expect(merged == .success)
        let key = try StateFixtures.processKey()
        let whole = try RunDirectory.read(work.path("whole"), key: key), merge = try RunDirectory.read(work.path("merged"), key: key)
        #expect(merge.state.shard.count == 3)
        Self.expectNoDifference(Comparison(base: whole.items, new: merge.items), "the merge")
        let (code, said) = F.compare(["--out", work.path("cmp"), work.path("whole"), work.path("merged")])
        #expect(code == .success, "\(said)")
        let json = try Self.json(work.path("cmp/compare.json"))
        #expect(json.at("new.shards") == .int(3) && json.at("base.shards") == .int(1))
        #expect(json.at("join.base_only") == .int(0) && json.at("join.new_only") == .int(0))
        // A single shard is over the same corpus, so it compares too, its other items on one side.
        let shard = try RunDirectory.read(work.path("s1"), key: key)
        let partial = Comparison(base: whole.items, new: shard.items)
        #expect(partial.join.paired == shard.items.items.count)
        #expect(partial.join.baseOnly == whole.items.items.count - shard.items.items.count && partial.join.newOnly == 0)
    }

    /// A dry run marks `time_budget` where the device's prefill alone overruns the budget: a
    /// tighter chips budget adds exactly the fallbacks its report counts, on screens that had none.
    @Test func runsThatDifferOnlyInABudgetDifferAsTheirReportsImply() throws {
        let work = try TemporaryDirectory(prefix: "compare-sample-budget")
        #expect(Self.dryRun(work.path("base")) == .success)
        #expect(Self.dryRun(work.path("new"), ["--budget", "chips=300"]) == .success)
        let reports = try [work.path("base"), work.path("new")].map { try Self.json($0 + "/report.json") }
        let eligible = try #require(reports[0].at("jobs.chips.eligible")?.doubleValue)
        #expect(reports[1].at("jobs.chips.eligible")?.doubleValue == eligible)
        let before = reports[0].at("jobs.chips.fallbacks.time_budget")?.doubleValue ?? 0
        let after = try #require(reports[1].at("jobs.chips.fallbacks.time_budget")?.doubleValue)
        let added = Int(after - before)
        #expect(added > 0, "the tighter budget falls back somewhere")

        let (code, said) = F.compare(["--out", work.path("cmp"), "--fail-if-worse", "chips.fallback.time_budget=0.5", work.path("base"), work.path("new")])
        #expect(code == .success, "\(said)")
        let key = try StateFixtures.processKey()
        let base = try RunDirectory.read(work.path("base"), key: key), new = try RunDirectory.read(work.path("new"), key: key)
        let comparison = Comparison(base: base.items, new: new.items)
        let chips = try #require(comparison.job(.chips)?.overall)
        let budget = try #require(chips.metric("fallback.time_budget"))
        #expect(budget.pairs == Int(eligible))
        expectClose(budget.base, before / eligible, relative: 1e-12, absolute: 1e-15, "BASE's share: report's count over eligible")
        expectClose(budget.new, after / eligible, relative: 1e-12, "NEW's share")
        expectClose(budget.difference, Double(added) / eligible, relative: 1e-12, "difference")
        // Every added fallback is on a screen that had none (b = 0, c = added).
        #expect(budget.baseOnly == 0 && budget.newOnly == added)
        expectClose(budget.pValue, ComparisonTests.exactBinomialTwoSided(0, added), relative: 1e-12, "McNemar p")
        if added == 15 {
            // scipy 1.17.1: scipy.stats.binomtest(0, 15, 0.5).pvalue = 6.103515625e-05.
            expectClose(budget.pValue, 6.103515625e-05, relative: 1e-12, "McNemar p for the sample's 15")
        }
        #expect(budget.verdict == .worse)
        // Nothing else changed: every other job and every other rate of chips.
        for metric in chips.metrics where metric.metric.kind == .rate && metric.metric.key != "fallback.time_budget" {
            #expect(metric.difference == 0, "\(metric.metric.key)")
        }
        for job in comparison.jobs where job.job != .chips {
            #expect(job.overall.metrics.allSatisfy { $0.difference == nil || $0.difference == 0 }, "\(job.job)")
        }
        let json = try Self.json(work.path("cmp/compare.json"))
        #expect(json.at("differences.options") == .array([.label("--budget")]))
        #expect(json.at("base.budgets_ms.chips") != json.at("new.budgets_ms.chips"))
        // A margin smaller than what the data allow fails.
        let tight = F.compare(["--out", work.path("tight"), "--fail-if-worse", "chips.fallback.time_budget=0.01", work.path("base"), work.path("new")])
        #expect(tight.code == .thresholdsNotMet)
    }
}
