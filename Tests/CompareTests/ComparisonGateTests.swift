import Jobs
import Testing
@testable import Compare
@testable import ReplayKit

/// `--fail-if-worse JOB.KEY=MARGIN`: non-inferiority on the 95% interval of NEW − BASE, the lower
/// bound above −MARGIN where higher is better, the upper bound below +MARGIN where lower is.
@Suite struct ComparisonGateTests {
    typealias F = CompareFixtures

    static let known = Comparison(base: ItemTable(F.baseItems()), new: ItemTable(F.newItems()))

    static func gate(_ text: String) throws -> ComparisonGate { try ComparisonGate(parsing: text) }

    /// The one verdict of a gate that names one slice.
    static func verdict(_ text: String, _ comparison: Comparison) throws -> GateVerdict {
        let verdicts = try gate(text).judge(comparison)
        try #require(verdicts.count == 1)
        return verdicts[0]
    }

    @Test func parsesJobKeyAndMargin() throws {
        let gate = try Self.gate("chips.in_budget.device=0.02")
        #expect(gate.job == .chips && gate.metric.key == "in_budget.device" && gate.margin == 0.02)
        #expect(try Self.gate("route.quality_all_answers.accuracy=0").metric.direction == .higherIsBetter)
        #expect(try Self.gate("chips.latency.host.p95=50").metric.direction == .lowerIsBetter)
    }

    @Test(arguments: [
        ("chips.nope=1", ["nope is not a metric of chips", "Valid keys for chips: asked, answered, in_budget.host", "quality.exact_match", "latency.device.p95"]),
        ("chips.accuracy=1", ["accuracy is not a metric of chips"]),
        ("robot.answered=1", ["'robot' is not a job (chips, route, push, draft)"]),
        ("push.quality.length_chars=3", ["quality.length_chars is a size with no better side", "Valid keys for push:", "quality.well_formed"]),
        ("chips.answered=-0.1", ["the margin must be a number of 0 or more", "(fraction)"]),
        ("chips.answered=lots", ["the margin must be a number of 0 or more"]),
        ("chips.answered", ["give JOB.KEY=MARGIN"]),
    ])
    func anUnknownJobOrKeyIsAUsageErrorNamingIt(text: String, said: [String]) {
        do {
            _ = try ComparisonGate(parsing: text)
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.exitCode == .usage)
            for part in said { #expect(error.description.contains(part), "\(error.description)") }
        }
    }

    /// Valid keys list no neutral metric and every fixed one.
    @Test func theValidKeysAreTheDirectedMetrics() {
        let push = MetricDefinition.gateable(.push).map(\.key)
        #expect(!push.contains("quality.length_chars") && push.contains("quality.well_formed"))
        #expect(MetricDefinition.fixed.allSatisfy { push.contains($0.key) })
    }

    @Test func higherIsBetterPassesWhenTheLowerBoundIsAboveMinusTheMargin() throws {
        // answered: +0.15, lower bound 0.15 − 1.96 · 0.0553 ≈ 0.0417.
        let lower = try #require(Self.known.job(.chips)?.overall.metric("answered")?.lower)
        for margin in [0.0, 0.02] {
            let verdict = try Self.verdict("chips.answered=\(margin)", Self.known)
            #expect(verdict.passed && verdict.bound == lower && !verdict.testsUpperBound && verdict.limit == -margin)
            #expect(verdict.line.hasSuffix("(passed)"), "\(verdict.line)")
        }
        // The same runs the other way round: −0.15, lower bound ≈ −0.258: worse by up to 26 pp.
        let reversed = Comparison(base: ItemTable(F.newItems()), new: ItemTable(F.baseItems()))
        #expect(try !Self.verdict("chips.answered=0.2", reversed).passed)
        #expect(try Self.verdict("chips.answered=0.3", reversed).passed)
        #expect(try Self.verdict("chips.answered=0.2", reversed).line.hasSuffix("(failed)"))
    }

    /// Where lower is better the upper bound is tested, against +MARGIN, strictly.
    @Test func lowerIsBetterTestsTheUpperBoundAgainstPlusTheMargin() throws {
        // tokens.in: +10 exactly (interval [10, 10]).
        #expect(try !Self.verdict("chips.tokens.in=5", Self.known).passed)
        #expect(try !Self.verdict("chips.tokens.in=10", Self.known).passed)
        let passing = try Self.verdict("chips.tokens.in=10.5", Self.known)
        #expect(passing.passed && passing.testsUpperBound && passing.bound == 10 && passing.limit == 10.5)
        // latency.host.p95: +5 ms: a margin of 5 is not enough, 6 is.
        #expect(try !Self.verdict("chips.latency.host.p95=5", Self.known).passed)
        #expect(try Self.verdict("chips.latency.host.p95=6", Self.known).passed)
        // fallback.invalid_output fell by 15 points: it passes with no margin at all.
        #expect(try Self.verdict("chips.fallback.invalid_output=0", Self.known).passed)
        // Swapped, fewer tokens is better: −10 passes with no margin.
        let reversed = Comparison(base: ItemTable(F.newItems()), new: ItemTable(F.baseItems()))
        #expect(try Self.verdict("chips.tokens.in=0", reversed).passed)
    }

    @Test func aGateWhoseMetricHasNoPairsFailsAndSaysWhy() throws {
        let table = ItemTable((0..<4).map { F.item(UInt64($0), thread: 1, asked: false, answered: false, fallback: .timeBudget) })
        let comparison = Comparison(base: table, new: table)
        let latency = try Self.verdict("chips.latency.device.p95=1000", comparison)
        #expect(!latency.passed && latency.bound == nil)
        #expect(latency.line == "chips.latency.device.p95: no item of chips was asked in both runs, so nothing shows it is not worse by 1000 (failed)")
        let route = try Self.verdict("route.answered=1", comparison)
        #expect(!route.passed && route.line.contains("no item of route is in both runs"))
        let quality = try Self.verdict("chips.quality.best_f1=1", comparison)
        #expect(!quality.passed && quality.line.contains("no item of chips has quality.best_f1 in both runs"))
    }

    /// A gate may name a slice; `*` is one gate per label, each judged on its own slice's interval.
    /// Here every chips item went up overall, but build 2.3.0's 20 items (3 lost, 4 gained) do
    /// not show it is not worse, while 2.4.0's (5 gained) do.
    @Test func aSliceGateJudgesItsSliceAndAStarEveryOne() throws {
        let chips = try #require(Self.known.job(.chips))
        #expect(try Self.verdict("chips.answered=0", Self.known).passed)
        let each = try Self.gate("chips[build=*].answered=0").judge(Self.known)
        #expect(each.map(\.gate.name) == ["chips[build=2.3.0].answered", "chips[build=2.4.0].answered"])
        #expect(each.map(\.bound) == chips.byBuild.map { $0.metric("answered")?.lower })
        #expect(each.map(\.passed) == [false, true])
        // The cell of a build with one model version is that build's slice.
        let cell = try Self.verdict("chips[build=2.4.0,model=26.1].answered=0", Self.known)
        #expect(cell.bound == chips.byBuild[1].metric("answered")?.lower && cell.passed)
        #expect(try Self.gate("chips[build=*,model=*].answered=0").judge(Self.known).map(\.gate.name)
                == ["chips[build=2.3.0,model=26.1].answered", "chips[build=2.4.0,model=26.1].answered"])
        // A slice with no items is no pairs: it fails and says so.
        for text in ["chips[build=9.9].answered=0.5", "chips[build=2.3.0,model=27.0].answered=0.5", "route[model=*].answered=0.5"] {
            let missing = try Self.verdict(text, Self.known)
            #expect(!missing.passed && missing.bound == nil)
        }
        #expect(try Self.verdict("chips[build=9.9].answered=0.5", Self.known).line
                == "chips[build=9.9].answered: no item of chips in the slice is in both runs, so nothing shows it is not worse by 0.5 (failed)")
    }

    /// compare.json names each gate's slice; junit.xml names the gate with it, and the audit reads
    /// both as the writer's.
    @Test func theOutputsNameEachGatesSlice() throws {
        let verdicts = try Self.gate("chips[build=*].answered=0").judge(Self.known)
        let xml = CompareJUnit.render(verdicts)
        #expect(xml.contains(#"name="chips[build=2.3.0].answered not worse by 0">"#))
        #expect(xml.contains(#"name="chips[build=2.4.0].answered not worse by 0"/>"#))
        let gates = verdicts.map(CompareDocument.Gate.init)
        #expect(gates.map { $0.build?.text } == ["2.3.0", "2.4.0"] && gates.allSatisfy { $0.model == nil && $0.locale == nil })
    }
}
