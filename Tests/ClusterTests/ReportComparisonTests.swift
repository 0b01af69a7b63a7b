import Foundation
import Testing
import TestSupport

/// The comparison slurmArrayThenMergeEqualsOneProcess relies on finds a changed count, a missing
/// key and a changed rate, and passes over timings, the sandbox block and sharding's own keys.
@Suite struct ReportComparisonTests {
    @Test func aChangedCountIsFoundAndTimingsAreNot() throws {
        let directory = try TemporaryDirectory(prefix: "replay-compare")
        let one = try directory.write("one.json", text: """
            {"run": {"mode": "dry-run", "started": "2026-01-01T00:00:00Z", "seconds": 1.5},
             "sandbox": {"writable_directories": ["/a"]},
             "jobs": {"chips": {"eligible": 455, "answered_rate": 0.25, "latency_ms": {"p50": 10},
                                "by_build": {"2.4.0 (530)": {"eligible": 200}}}},
             "corpus": {"errors": [], "threads": 300}}
            """)
        let same = try directory.write("same.json", text: """
            {"run": {"mode": "dry-run", "started": "2026-02-02T00:00:00Z", "seconds": 9, "shards": 4, "resumed": false},
             "sandbox": {"writable_directories": ["/b"]},
             "jobs": {"chips": {"eligible": 455, "answered_rate": 0.2500000000001, "latency_ms": {"p50": 99},
                                "by_build": {"2.4.0 (530)": {"eligible": 200}}}},
             "corpus": {"errors": [], "threads": 300}}
            """)
        #expect(try ReportComparison.differences(one, same).isEmpty)

        let other = try directory.write("other.json", text: """
            {"run": {"mode": "dry-run"},
             "jobs": {"chips": {"eligible": 454, "answered_rate": 0.3, "by_build": {}}},
             "corpus": {"errors": ["x"], "threads": 300}}
            """)
        let found = try ReportComparison.differences(one, other)
        #expect(found.contains { $0.hasPrefix("jobs.chips.eligible:") })
        #expect(found.contains { $0.hasPrefix("jobs.chips.answered_rate:") })
        #expect(found.contains { $0.hasPrefix("jobs.chips.by_build.2.4.0 (530): missing") })
        #expect(found.contains { $0.hasPrefix("corpus.errors:") })
        #expect(found.count == 4, "\(found)")
    }
}
