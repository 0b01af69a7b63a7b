import Testing
@testable import Export

/// `UTCInstant`: known answers from Python's `datetime.fromisoformat(...).timestamp()` (CPython
/// 3.11, computed apart from this code), the forms exports write, and the forms it refuses.
@Suite struct UTCInstantTests {
    /// 2026-09-01T00:00:00Z in milliseconds since 1970.
    static let september1: Int64 = 1_788_220_800_000

    /// Every form the export's timestamps come in, the same instant in several zones.
    static let forms: [(String, Int64)] = [
        ("2026-09-01t07:02:11z", september1 + 25_331_000),
        ("2026-09-01 07:02:11Z", september1 + 25_331_000),
        ("2026-09-01T07:02:11,123456Z", september1 + 25_331_123),   // finer than a millisecond: dropped
        ("2026-09-01T16:02:11+09:00", september1 + 25_331_000),     // the same instant in Tokyo
        ("2026-09-01T16:02:11+09", september1 + 25_331_000),
        ("2026-08-31T21:02:11-10:00", september1 + 25_331_000),     // and in Honolulu, the day before
        ("2026-09-01", september1),                                 // a bare date: UTC midnight
        ("1970-01-01T00:00:00Z", 0),
    ]

    @Test(arguments: forms)
    func readsTheFormsTheExportWrites(text: String, expected: Int64) {
        #expect(UTCInstant.milliseconds(text) == expected)
    }

    @Test(arguments: [
        ("2026-09-01T07:02:11Z", Int64(1_788_246_131_000)),
        ("2026-09-01T07:02:11.5Z", 1_788_246_131_500),
        ("2026-09-01T07:02:11.5009Z", 1_788_246_131_500),
        ("2026-09-01T09:02:11+02:00", 1_788_246_131_000),
        ("2026-09-01T09:02:11+0200", 1_788_246_131_000),
        ("2026-09-01T07:02Z", 1_788_246_120_000),
        // No offset: read as UTC, as the export's times are.
        ("2026-09-01T07:02:11", 1_788_246_131_000),
        ("1969-12-31T23:59:59.999Z", -1),
        ("2024-02-29", 1_709_164_800_000),
        // A leap second is the last millisecond of its minute, in its own day.
        ("2016-12-31T23:59:60Z", 1_483_228_799_999),
    ])
    func readsTheInstant(text: String, milliseconds: Int64) {
        #expect(UTCInstant.milliseconds(text) == milliseconds)
    }

    @Test(arguments: ["", "2026-13-01", "2025-02-29", "2026-09-01T24:00Z", "2026-09-01T07:02:11.Z",
                      "2026-09-01T07:02:11+25:00", "2026-09-01T07:02:11Zjunk", "yesterday", "2026-09-01T", "2026-09-01T07:60:00Z",
                      "2026-09-01T07:02:11+24:00", "2026-09-01T07:02:11Q", "2026/09/01T07:02:11Z", "2026-09-01T07:02:11Z ",
                      "2026-09-01T07:02:11+05:99", "2026-09-01T07:02:11-0560"])
    func refusesWhatIsNotATimestamp(text: String) {
        #expect(UTCInstant.milliseconds(text) == nil)
    }

    @Test func daysFloorBeforeTheEpoch() {
        #expect(UTCInstant.day(ofMilliseconds: -1) == -1 && UTCInstant.day(ofMilliseconds: 0) == 0)
        #expect(UTCInstant.day(ofMilliseconds: -86_400_000) == -1 && UTCInstant.day(ofMilliseconds: -86_400_001) == -2)
    }
}
