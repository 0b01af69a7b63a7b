import Foundation
import Jobs
import Testing
@testable import Compare
@testable import ReplayKit

/// `Comparison` on item tables made here, so every expected number is known: a table against
/// itself differs in nothing; two tables differing in known ways give exactly those differences,
/// the McNemar p-value of their discordant counts and Holm's adjustment of the job's p-values.
@Suite struct ComparisonTests {
    typealias F = CompareFixtures

    @Test func aTableComparedWithItselfDiffersInNothing() throws {
        let table = ItemTable(F.baseItems())
        let comparison = Comparison(base: table, new: table)
        let chips = try #require(comparison.job(.chips))
        #expect(chips.join == JoinCounts(base: 40, new: 40, paired: 40))
        #expect(chips.byBuild.map(\.label) == ["2.3.0", "2.4.0"])
        for slice in chips.slices {
            for m in slice.metrics {
                #expect(m.pairs > 0, "\(m.metric.key) has pairs")
                #expect(m.difference == 0 && m.lower == 0 && m.upper == 0, "\(slice.label) \(m.metric.key): \(String(describing: m.difference))")
                #expect(m.base == m.new)
                #expect(m.pValue == 1 && m.adjustedPValue == 1, "\(m.metric.key)")
                #expect(m.verdict == .noDetectableChange, "\(slice.label) \(m.metric.key)")
            }
        }
        // A rate's discordant counts are zero; every quality key the table has is compared.
        #expect(chips.overall.metric("answered")?.baseOnly == 0 && chips.overall.metric("answered")?.newOnly == 0)
        #expect(chips.overall.metric("quality.exact_match") != nil)
    }

    /// The reference statistics of the known tables, computed here from the API's documented
    /// formulas (not through it) and checked against statsmodels and scipy where noted.
    @Test func knownDifferencesGiveExactlyTheirStatistics() throws {
        let comparison = Comparison(base: ItemTable(F.baseItems()), new: ItemTable(F.newItems()))
        let overall = try #require(comparison.job(.chips)?.overall)

        // answered: b = 3, c = 9 of 40 pairs in 10 threads.
        let answered = try #require(overall.metric("answered"))
        #expect(answered.pairs == 40 && answered.clusters == 10)
        #expect(answered.baseOnly == 3 && answered.newOnly == 9)
        expectClose(answered.base, 20.0 / 40, "base")
        expectClose(answered.new, 26.0 / 40, "new")
        expectClose(answered.difference, (9.0 - 3.0) / 40, relative: 1e-12, "difference")
        // statsmodels 0.15.0: sm.OLS(d, np.ones(40)).fit(cov_type="cluster", cov_kwds={"groups": threads}).bse[0]
        // = 0.05527707983925668, d the per-item differences of F.newItems() − F.baseItems().
        let se = Self.clusteredStandardError(overall: comparison, key: "answered")
        expectClose(se, 0.05527707983925668, relative: 1e-12, "the test's own CR1")
        expectClose(answered.standardError, se, relative: 1e-12, "standard error")
        expectClose(answered.lower, 0.15 - 1.959963984540054 * se, relative: 1e-12, "lower")
        expectClose(answered.upper, 0.15 + 1.959963984540054 * se, relative: 1e-12, "upper")
        // (z.975 + z.80) · SE; z.80 = scipy.stats.norm.ppf(0.8) = 0.8416212335729143.
        expectClose(answered.minimumDetectable, (1.959963984540054 + 0.8416212335729143) * se, relative: 1e-12, "MDD")
        // scipy 1.17.1: scipy.stats.binomtest(3, 12, 0.5).pvalue = 0.14599609375.
        expectClose(answered.pValue, 0.14599609375, relative: 1e-13, "McNemar p")
        expectClose(answered.pValue, Self.exactBinomialTwoSided(3, 9), relative: 1e-13, "binomial sum")

        // fallback.invalid_output is answered's complement: the same discordant counts, the other way.
        let invalid = try #require(overall.metric("fallback.invalid_output"))
        #expect(invalid.baseOnly == 9 && invalid.newOnly == 3)
        expectClose(invalid.difference, -0.15, relative: 1e-12, "fallback difference")
        expectClose(invalid.pValue, 0.14599609375, relative: 1e-13, "fallback McNemar p")

        // tokens.in: 110 − 100 on every asked item: SE 0, so p = 0, worse (lower is better).
        let tokens = try #require(overall.metric("tokens.in"))
        #expect(tokens.difference == 10 && tokens.lower == 10 && tokens.upper == 10 && tokens.pValue == 0)
        #expect(tokens.verdict == .worse)
        let tokensOut = try #require(overall.metric("tokens.out"))
        #expect(tokensOut.difference == 0 && tokensOut.verdict == .noDetectableChange)

        // latency.host: every item 5 ms slower, so every resampled percentile is 5 ms more: the
        // interval is [5, 5] and no replicate is at or below 0 (p = 0).
        for key in ["latency.host.p50", "latency.host.p95"] {
            let latency = try #require(overall.metric(key))
            expectClose(latency.difference, 5, relative: 1e-9, key)
            expectClose(latency.lower, 5, relative: 1e-9, key)
            expectClose(latency.upper, 5, relative: 1e-9, key)
            #expect(latency.pValue == 0 && latency.verdict == .worse, "\(key)")
            #expect(latency.clusters == 10 && latency.pairs == 40)
        }
        // numpy's type 7 percentile of the base latencies 10·t + j (t 1…10, j 0…3): p50 = 56.5.
        expectClose(overall.metric("latency.host.p50")?.base, 56.5, relative: 1e-12, "base p50")
        let device = try #require(overall.metric("latency.device.p95"))
        #expect(device.difference == 0 && device.verdict == .noDetectableChange)

        // quality.exact_match follows answered exactly (1 where answered): the same difference,
        // tested as a mean (normal p with the same clustered SE).
        let exact = try #require(overall.metric("quality.exact_match"))
        expectClose(exact.difference, 0.15, relative: 1e-12, "exact_match")
        expectClose(exact.standardError, se, relative: 1e-12, "exact_match SE")
        // statsmodels (same fit): pvalues[0] = 0.006655605482949394.
        expectClose(exact.pValue, 0.006655605482949394, relative: 1e-9, "exact_match p")
        #expect(exact.baseOnly == nil)

        // Holm across the slice's tested metrics, computed here.
        let tested = overall.metrics.filter { $0.pValue != nil }
        let adjusted = Self.holm(tested.map { $0.pValue! })
        for (m, expected) in zip(tested, adjusted) { expectClose(m.adjustedPValue, expected, relative: 1e-12, m.metric.key) }
        // answered's p 0.146 stays above 0.05 after adjustment: no detectable change; exact_match's
        // 0.0067 times the tested count (it is among the smallest) is above 0.05 too.
        #expect(answered.verdict == .noDetectableChange)
        #expect(tested.count == overall.metrics.count)
    }

    /// A neutral metric (a size) changed beyond chance is "changed", never better or worse; a
    /// rate that improves is "better".
    @Test func verdictsFollowTheMetricsDirection() throws {
        let base = ItemTable((0..<60).map { F.item(UInt64($0), thread: UInt64($0), job: .push, answered: $0 < 10,
                                                   quality: ["length_chars": 40_000_000_000]) })
        let new = ItemTable((0..<60).map { (i: Int) -> ItemOutcome in
            let length: Int = (50 + i % 3) * 1_000_000_000
            return F.item(UInt64(i), thread: UInt64(i), job: .push, answered: i < 50, quality: ["length_chars": length])
        })
        let overall = try #require(Comparison(base: base, new: new).job(.push)?.overall)
        let length = try #require(overall.metric("quality.length_chars"))
        #expect(length.metric.direction == .neutral && length.metric.unit == .characters)
        #expect(length.verdict == .changed)
        let answered = try #require(overall.metric("answered"))
        // b = 0, c = 40: scipy.stats.binomtest(0, 40, 0.5).pvalue = 1.8189894035458565e-12.
        expectClose(answered.pValue, 1.8189894035458565e-12, relative: 1e-10, "McNemar p")
        #expect(answered.verdict == .better)
        #expect(overall.metric("fallback.time_budget")?.verdict == .noDetectableChange)
    }

    /// A metric no pair has (latency where nothing was asked) is compared over nothing.
    @Test func aMetricWithoutPairsHasNoNumbers() throws {
        let table = ItemTable((0..<5).map { F.item(UInt64($0), thread: 1, asked: false, answered: false, fallback: .timeBudget) })
        let overall = try #require(Comparison(base: table, new: table).job(.chips)?.overall)
        let latency = try #require(overall.metric("latency.host.p95"))
        #expect(latency.pairs == 0 && latency.difference == nil && latency.pValue == nil && latency.verdict == .noPairs)
        #expect(overall.metric("fallback.time_budget")?.base == 1)
        #expect(overall.metric("fallback.time_budget")?.verdict == .noDetectableChange)
    }

    // MARK: - Independent references

    /// CR1 of the mean of NEW − BASE for `key` in chips overall, from the documented formula:
    /// Var = G/(G−1) · Σ_g (Σ_{i∈g} (d_i − d̄))² / n².
    static func clusteredStandardError(overall comparison: Comparison, key: String) -> Double {
        let metric = MetricDefinition.fixed.first { $0.key == key }!
        let base = Dictionary(uniqueKeysWithValues: F.baseItems().map { ($0.key, $0) })
        var byThread: [UInt64: [Double]] = [:]
        var all: [Double] = []
        for item in F.newItems() {
            let d = metric.value(of: item)! - metric.value(of: base[item.key]!)!
            byThread[item.thread, default: []].append(d)
            all.append(d)
        }
        let mean = all.reduce(0, +) / Double(all.count)
        let g = Double(byThread.count), n = Double(all.count)
        let sum = byThread.values.reduce(0.0) { total, ds in
            let s = ds.reduce(0.0) { $0 + ($1 - mean) }
            return total + s * s
        }
        return (g / (g - 1) * sum / (n * n)).squareRoot()
    }

    /// min(1, 2 · P(X ≤ min(b, c))), X ~ Bin(b + c, 1/2), summed directly.
    static func exactBinomialTwoSided(_ b: Int, _ c: Int) -> Double {
        let n = b + c, k = min(b, c)
        var total = 0.0, choose = 1.0
        for i in 0...k {
            if i > 0 { choose = choose * Double(n - i + 1) / Double(i) }
            total += choose
        }
        return min(1, 2 * total / pow(2, Double(n)))
    }

    /// Holm's step-down adjustment, in input order.
    static func holm(_ p: [Double]) -> [Double] {
        let order = p.indices.sorted { p[$0] < p[$1] }
        var adjusted = [Double](repeating: 0, count: p.count)
        var running = 0.0
        for (rank, index) in order.enumerated() {
            running = max(running, min(1, Double(p.count - rank) * p[index]))
            adjusted[index] = running
        }
        return adjusted
    }
}
