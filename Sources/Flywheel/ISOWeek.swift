import Export

/// ISO 8601 week labels ("2026-W36") from export timestamps, without Foundation calendars.
///
/// Timestamps are converted to UTC first (an offset such as `+09:00` moves the day), so a
/// message near midnight lands in the same week whoever's clock wrote it.
public enum ISOWeek {
    /// The week label of an ISO 8601 timestamp (`2026-09-01T07:02:11Z`, with or without seconds,
    /// fraction or offset; a bare date is read as UTC midnight); `nil` when it cannot be read.
    public static func label(forTimestamp text: String) -> String? {
        guard let days = utcDay(text) else { return nil }
        return label(forDay: days)
    }

    /// The label of the week after `label` ("2026-W53" is followed by "2027-W01" when 2026 has 53).
    public static func following(_ label: String) -> String? {
        guard let monday = monday(of: label) else { return nil }
        return self.label(forDay: monday + 7)
    }

    /// Every week label from `first` to `last` inclusive, or `nil` if either is not a label, they
    /// are out of order, or the span is longer than `limit` weeks.
    public static func span(from first: String, to last: String, limit: Int = 520) -> [String]? {
        guard let start = monday(of: first), let end = monday(of: last), start <= end,
              (end - start) / 7 < limit else { return nil }
        return stride(from: start, through: end, by: 7).map { label(forDay: $0) }
    }

    // MARK: - Days since 1970-01-01

    /// The label of the week holding day `days` (days since 1970-01-01).
    static func label(forDay days: Int) -> String {
        let thursday = days - (weekday(days) - 1) + 3
        let year = CivilDay.date(thursday).year
        let week = (thursday - CivilDay.days(year: year, month: 1, day: 1)) / 7 + 1
        return CivilDay.padded(year, 4) + "-W" + CivilDay.padded(week, 2)
    }

    /// The Monday starting the labelled week.
    static func monday(of label: String) -> Int? {
        let bytes = Array(label.utf8)
        guard bytes.count == 8, bytes[4] == UInt8(ascii: "-"), bytes[5] == UInt8(ascii: "W"),
              let year = number(bytes[0..<4]), let week = number(bytes[6..<8]), year >= 1, week >= 1 else { return nil }
        let january4 = CivilDay.days(year: year, month: 1, day: 4)
        let monday = january4 - (weekday(january4) - 1) + (week - 1) * 7
        guard self.label(forDay: monday) == label else { return nil }  // week 53 of a 52-week year
        return monday
    }

    /// ISO weekday: Monday 1 … Sunday 7 (1970-01-01 was a Thursday).
    static func weekday(_ days: Int) -> Int { ((days % 7) + 7 + 3) % 7 + 1 }

    // MARK: - Parsing

    /// The UTC day of a timestamp, checking every field's range.
    static func utcDay(_ text: String) -> Int? {
        // Over the string's own bytes: this runs for every message, and a copy into an array
        // was an allocation each time.
        var text = text
        return text.withUTF8(utcDay(bytes:))
    }

    static func utcDay(bytes b: UnsafeBufferPointer<UInt8>) -> Int? {
        utcDayOfPlainUTC(b) ?? generalUTCDay(bytes: b)
    }

    /// The UTC day of any accepted form (`UTCInstant`'s; the reading `utcDayOfPlainUTC` shortcuts).
    static func generalUTCDay(bytes b: UnsafeBufferPointer<UInt8>) -> Int? {
        UTCInstant.milliseconds(bytes: b).map(UTCInstant.day(ofMilliseconds:))
    }

    /// The day of the form nearly every export writes, `2026-09-01T07:02:11Z`, read straight
    /// from fixed offsets; nil for any other form (the general reading above then decides, and
    /// gives the same day for this form: tested).
    @inline(__always)
    static func utcDayOfPlainUTC(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        guard b.count == 20, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), plainTimeIsValid(b) else { return nil }
        func digits(_ at: Int, _ count: Int) -> Int? {
            var value = 0
            for index in at..<at + count {
                let digit = b[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value &* 10 &+ Int(digit)
            }
            return value
        }
        guard let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
              year >= 1, (1...12).contains(month), day >= 1, day <= daysIn(month, year) else { return nil }
        return CivilDay.days(year: year, month: month, day: day)
    }

    /// The date of the last plain-form timestamp read (`utcDay(bytes:memo:)`): its first ten
    /// bytes and its day.
    struct PlainDateMemo: Sendable {
        fileprivate var date: (UInt64, UInt16)?
        fileprivate var day = 0

        /// Nothing read yet.
        init() {}
    }

    /// `utcDay(bytes:)`, the date of a plain-form timestamp (`utcDayOfPlainUTC`) read once
    /// while it repeats: messages come in time order, most on the day of the one before, and
    /// reading and checking the date was most of the counter's cost per message. The time of
    /// day is checked every time, so the answer is the same for every timestamp.
    static func utcDay(bytes b: UnsafeBufferPointer<UInt8>, memo: inout PlainDateMemo) -> Int? {
        guard b.count == 20, let base = b.baseAddress else { return utcDay(bytes: b) }
        let raw = UnsafeRawPointer(base)
        let date = (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt16.self))
        if let last = memo.date, last == date, plainTimeIsValid(b) { return memo.day }
        guard let day = utcDayOfPlainUTC(b) else { return generalUTCDay(bytes: b) }
        memo.date = date
        memo.day = day
        return day
    }

    /// Whether the time of day of a 20-byte timestamp is `Thh:mm:ssZ` in range: `utcDayOfPlainUTC`'s
    /// check of it, and all `utcDay(bytes:memo:)` checks when the date repeats.
    private static func plainTimeIsValid(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard b[10] == UInt8(ascii: "T"), b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
              b[19] == UInt8(ascii: "Z"),
              let hour = twoDigits(b, 11), let minute = twoDigits(b, 14), let second = twoDigits(b, 17) else { return false }
        return hour <= 23 && minute <= 59 && second <= 60
    }

    /// The number two decimal digits at `at` spell, nil unless both are digits.
    @inline(__always)
    private static func twoDigits(_ b: UnsafeBufferPointer<UInt8>, _ at: Int) -> Int? {
        let tens = b[at] &- UInt8(ascii: "0"), ones = b[at &+ 1] &- UInt8(ascii: "0")
        guard tens < 10 && ones < 10 else { return nil }
        return Int(tens) &* 10 &+ Int(ones)
    }

    private static func daysIn(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func number<Digits: Collection<UInt8>>(_ digits: Digits) -> Int? {
        var value = 0
        for byte in digits {
            guard isDigit(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
