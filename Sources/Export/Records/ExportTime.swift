/// A message's `at` as an instant: milliseconds since 1970-01-01T00:00:00Z, without Foundation
/// calendars, formatters or time zones.
///
/// The forms read are the ones the flywheel's weeks read (`ISOWeek`): `2026-09-01T07:02:11Z`,
/// with or without seconds, with a fraction (kept to the millisecond, the rest dropped), with `Z`
/// or an offset (`+09:00`, `+0900`, `+09`), and a bare date, read as UTC midnight. Every field is
/// checked against its range; anything else is nil. The push job's next-run path compares the
/// instants of messages of different threads, which may be written with different offsets.
public enum ExportTime {
    /// Milliseconds since 1970 UTC of `text`, or nil when it is not a timestamp of the forms above.
    public static func milliseconds(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8(milliseconds(bytes:))
    }

    /// `milliseconds(_:)` of a timestamp's UTF-8 bytes.
    public static func milliseconds(bytes b: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard b.count >= 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
              let year = number(b, 0, 4), let month = number(b, 5, 2), let day = number(b, 8, 2),
              year >= 1, (1...12).contains(month), day >= 1, day <= daysIn(month, year) else { return nil }
        var milliseconds: Int64 = 0
        var i = 10
        if i < b.count {
            guard b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: "t") || b[i] == UInt8(ascii: " "),
                  b.count >= i + 6, b[i + 3] == UInt8(ascii: ":"),
                  let hour = number(b, i + 1, 2), let minute = number(b, i + 4, 2), hour <= 23, minute <= 59 else { return nil }
            milliseconds = Int64(hour * 3_600_000 + minute * 60_000)
            i += 6
            if i < b.count, b[i] == UInt8(ascii: ":") {
                guard b.count >= i + 3, let second = number(b, i + 1, 2), second <= 60 else { return nil }
                milliseconds += Int64(second * 1000)
                i += 3
                if i < b.count, b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: ",") {
                    i += 1
                    let start = i
                    var fraction = 0, scale = 100
                    while i < b.count, let digit = digit(b[i]) {
                        fraction += digit * scale
                        scale /= 10
                        i += 1
                    }
                    guard i > start else { return nil }
                    milliseconds += Int64(fraction)
                }
            }
            if i < b.count {
                switch b[i] {
                case UInt8(ascii: "Z"), UInt8(ascii: "z"):
                    i += 1
                case UInt8(ascii: "+"), UInt8(ascii: "-"):
                    let sign: Int64 = b[i] == UInt8(ascii: "+") ? 1 : -1
                    var minutes: Int?
                    if b.count == i + 6, b[i + 3] == UInt8(ascii: ":"), let h = number(b, i + 1, 2), let m = number(b, i + 4, 2) {
                        minutes = h * 60 + m
                    } else if b.count == i + 5, let h = number(b, i + 1, 2), let m = number(b, i + 3, 2) {
                        minutes = h * 60 + m
                    } else if b.count == i + 3, let h = number(b, i + 1, 2) {
                        minutes = h * 60
                    }
                    guard let minutes, minutes < 24 * 60 else { return nil }
                    milliseconds -= sign * Int64(minutes) * 60_000
                    i = b.count
                default:
                    return nil
                }
            }
            guard i == b.count else { return nil }
        }
        return Int64(CivilDay.days(year: year, month: month, day: day)) * 86_400_000 + milliseconds
    }

    private static func digit(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }

    /// The number `count` decimal digits at `at` spell; nil unless every one is a digit.
    private static func number(_ b: UnsafeBufferPointer<UInt8>, _ at: Int, _ count: Int) -> Int? {
        var value = 0
        for index in at..<at + count {
            guard let digit = digit(b[index]) else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    private static func daysIn(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
