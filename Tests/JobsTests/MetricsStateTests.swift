import Jobs
import Privacy
import Testing

/// The metrics in state files: written and read back to the same value, and merged in any order
/// to the same bits (sums are integers, so the order of additions cannot change them).
@Suite struct MetricsStateTests {
    /// Metrics with every field set, fractions and latencies that are not round numbers included.
    static func metrics(seed: Int) -> JobMetrics {
        var m = JobMetrics()
        m.scanned = 10 + seed
        m.eligible = 7 + seed
        m.asked = 5
        m.answered = 3
        m.fallbacks = [.timeBudget: 1, .invalidOutput: seed % 3]
        m.inBudgetHost = 2
        m.inBudgetDevice = 3
        m.inputCut = seed % 2
        for i in 0..<(5 + seed) {
            m.hostLatency.add(Double(i) * 13.37 + 0.1)
            m.deviceLatency.add(1000 / Double(i + 3))
        }
        m.tokensIn = 1234 * (seed + 1)
        m.tokensOut = 77
        for value in [1.0 / 3, 0.1, 2.0 / 7, Double(seed) / 11] {
            m.quality["best_f1", default: QualityTally()].add(value)
            m.qualityAllAnswers["best_f1", default: QualityTally()].add(value + 0.01)
        }
        m.counters = ["named": seed, "confusion:lead->Penny": 2]
        return m
    }

    @Test func jobMetricsReadBackExactly() throws {
        for seed in 0..<4 {
            let m = Self.metrics(seed: seed)
            let text = try ReportValueEncoder().encode(m).exactJSON()
            let back = try ReportValueDecoder().decode(JobMetrics.self, from: ReportValue(parsingExactJSON: text))
            #expect(back == m)
            #expect(back.hostLatency.percentile(0.95) == m.hostLatency.percentile(0.95))
            #expect(back.quality["best_f1"]?.mean == m.quality["best_f1"]?.mean)
        }
        var ledger = JobLedger()
        ledger.overall = Self.metrics(seed: 1)
        ledger.byBuild = ["2.3.0 (512)": Self.metrics(seed: 2), "#h:3f9a1c2e": Self.metrics(seed: 3)]
        ledger.byModel = ["26.4": Self.metrics(seed: 0)]
        #expect(try ReportValueDecoder().decode(JobLedger.self, from: ReportValue(parsingExactJSON: ReportValueEncoder().encode(ledger).exactJSON())) == ledger)
    }

    @Test func mergesInAnyOrderGiveTheSameBits() {
        let parts = (0..<6).map { Self.metrics(seed: $0) }
        func merged(_ order: [Int]) -> JobMetrics {
            order.reduce(into: JobMetrics()) { $0.merge(parts[$1]) }
        }
        let forward = merged([0, 1, 2, 3, 4, 5])
        #expect(merged([5, 4, 3, 2, 1, 0]) == forward)
        #expect(merged([3, 0, 5, 1, 4, 2]) == forward)
        // Grouped differently: (0+1+2) + (3+4+5).
        var left = merged([0, 1, 2])
        left.merge(merged([3, 4, 5]))
        #expect(left == forward)
        #expect(left.quality["best_f1"]?.sum == forward.quality["best_f1"]?.sum)
    }

    @Test func aBrokenHistogramIsRefused() {
        let bad = ReportValue.object([("count", .int(3)), ("sum_ns", .int(0)), ("buckets", .array([.array([.int(1), .int(2)])]))])
        #expect(throws: StateFormatError("count: a histogram's count is not the sum of its buckets")) {
            try ReportValueDecoder().decode(LogHistogram.self, from: bad)
        }
        let empty = ReportValue.object([("count", .int(0)), ("sum_ns", .int(0)), ("buckets", .array([.array([.int(1), .int(0)])]))])
        #expect(throws: StateFormatError("buckets: a histogram bucket is not [index, count]")) {
            try ReportValueDecoder().decode(LogHistogram.self, from: empty)
        }
    }
}
