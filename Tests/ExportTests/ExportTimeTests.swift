import Testing
@testable import Export

/// A message's `at` as an instant, as the push job's next-run path compares them across threads.
@Suite struct ExportTimeTests {
    /// 2026-09-01T00:00:00Z in milliseconds since 1970.
    static let september1: Int64 = 1_788_220_800_000

    /// Timestamps and their instants.
    static let forms: [(String, Int64)] = [
        ("2026-09-01T07:02:11Z", september1 + 25_331_000),
        ("2026-09-01t07:02:11z", september1 + 25_331_000),
        ("2026-09-01 07:02:11Z", september1 + 25_331_000),
        ("2026-09-01T07:02Z", september1 + 25_320_000),             // no seconds
        ("2026-09-01T07:02:11.5Z", september1 + 25_331_500),        // a fraction, to the millisecond
        ("2026-09-01T07:02:11,123456Z", september1 + 25_331_123),   // finer than that: dropped
        ("2026-09-01T16:02:11+09:00", september1 + 25_331_000),     // the same instant in Tokyo
        ("2026-09-01T16:02:11+0900", september1 + 25_331_000),
        ("2026-09-01T16:02:11+09", september1 + 25_331_000),
        ("2026-08-31T21:02:11-10:00", september1 + 25_331_000),     // and in Honolulu, the day before
        ("2026-09-01", september1),                                 // a bare date: UTC midnight
        ("2026-09-01T07:02:11", september1 + 25_331_000),           // no zone: read as UTC
        ("1970-01-01T00:00:00Z", 0),
        ("2024-02-29T00:00:00Z", 1_709_164_800_000),                // a leap day
    ]

    @Test(arguments: forms)
    func readsTheFormsTheExportWrites(text: String, expected: Int64) {
        #expect(ExportTime.milliseconds(text) == expected)
    }

    @Test(arguments: ["", "2026-09-01T", "2026-13-01T00:00:00Z", "2025-02-29T00:00:00Z", "2026-09-01T24:00:00Z",
                      "2026-09-01T07:60:00Z", "2026-09-01T07:02:11.Z", "2026-09-01T07:02:11+24:00", "2026-09-01T07:02:11Q",
                      "2026/09/01T07:02:11Z", "yesterday", "2026-09-01T07:02:11Z "])
    func refusesWhatIsNotATimestamp(text: String) {
        #expect(ExportTime.milliseconds(text) == nil)
    }
}
