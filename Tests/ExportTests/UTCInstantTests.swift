import Testing
@testable import Export

/// `UTCInstant`: known answers from Python's `datetime.fromisoformat(...).timestamp()` (CPython
/// 3.11, computed apart from this code), and the forms it refuses.
@Suite struct UTCInstantTests {
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
                      "2026-09-01T07:02:11+25:00", "2026-09-01T07:02:11Zjunk", "yesterday"])
    func refusesWhatIsNotATimestamp(text: String) {
        #expect(UTCInstant.milliseconds(text) == nil)
    }

    @Test func daysFloorBeforeTheEpoch() {
        #expect(UTCInstant.day(ofMilliseconds: -1) == -1 && UTCInstant.day(ofMilliseconds: 0) == 0)
        #expect(UTCInstant.day(ofMilliseconds: -86_400_000) == -1 && UTCInstant.day(ofMilliseconds: -86_400_001) == -2)
    }
}
