/// An export timestamp (`at`) as milliseconds since 1970-01-01T00:00:00Z, without Foundation's
/// calendars: ISO 8601 / RFC 3339 `YYYY-MM-DD`, then optionally `Thh:mm`, `:ss`, a fraction
/// (`.` or `,`, read to the millisecond, cut not rounded) and `Z` or an offset (`±hh:mm`,
/// `±hhmm`, `±hh`); a bare date is midnight UTC. Every field's range is checked (a leap second
/// reads as the last millisecond of its minute). The one reading of a timestamp: the flywheel's
/// weeks and the phone queue's clock both use it.
public enum UTCInstant {
    /// The instant `text` names; nil when it is not such a timestamp.
    public static func milliseconds(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { milliseconds(bytes: $0) }
    }

    /// `milliseconds(_:)` over a timestamp's UTF-8 bytes.
    public static func milliseconds(bytes b: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard b.count >= 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
              let year = number(b, 0, 4), let month = number(b, 5, 2), let day = number(b, 8, 2),
              year >= 1, (1...12).contains(month), day >= 1, day <= daysIn(month, year) else { return nil }
        var milliseconds = 0
        var i = 10
        if i < b.count {
            guard b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: "t") || b[i] == UInt8(ascii: " "),
                  b.count >= i + 6, b[i + 3] == UInt8(ascii: ":"),
                  let hour = number(b, i + 1, 2), let minute = number(b, i + 4, 2),
                  hour <= 23, minute <= 59 else { return nil }
            milliseconds = (hour * 60 + minute) * 60_000
            i += 6
            if i < b.count, b[i] == UInt8(ascii: ":") {
                guard b.count >= i + 3, let second = number(b, i + 1, 2), second <= 60 else { return nil }
                // A leap second (:60) is the minute's last millisecond: it stays in its minute and day.
                milliseconds += second == 60 ? 59_999 : second * 1000
                i += 3
                if i < b.count, b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: ",") {
                    i += 1
                    let start = i
                    var scale = 100
                    while i < b.count, b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9") {
                        if second < 60 { milliseconds += Int(b[i] - UInt8(ascii: "0")) * scale }
                        scale /= 10
                        i += 1
                    }
                    guard i > start else { return nil }
                }
            }
            if i < b.count {
                switch b[i] {
                case UInt8(ascii: "Z"), UInt8(ascii: "z"):
                    i += 1
                case UInt8(ascii: "+"), UInt8(ascii: "-"):
                    let sign = b[i] == UInt8(ascii: "+") ? 1 : -1
                    var offset: Int?
                    // An offset's minutes are 0 to 59: `+05:99` is no offset.
                    if b.count == i + 6, b[i + 3] == UInt8(ascii: ":"), let h = number(b, i + 1, 2), let m = number(b, i + 4, 2), m <= 59 {
                        offset = h * 60 + m
                    } else if b.count == i + 5, let h = number(b, i + 1, 2), let m = number(b, i + 3, 2), m <= 59 {
                        offset = h * 60 + m
                    } else if b.count == i + 3, let h = number(b, i + 1, 2) {
                        offset = h * 60
                    }
                    guard let offset, offset < 24 * 60 else { return nil }
                    milliseconds -= sign * offset * 60_000
                    i = b.count
                default:
                    return nil
                }
            }
            guard i == b.count else { return nil }
        }
        return Int64(CivilDay.days(year: year, month: month, day: day)) * 86_400_000 + Int64(milliseconds)
    }

    /// The UTC day (days since 1970-01-01) of an instant.
    public static func day(ofMilliseconds ms: Int64) -> Int {
        Int(ms >= 0 ? ms / 86_400_000 : -((-ms + 86_399_999) / 86_400_000))
    }

    static func number(_ b: UnsafeBufferPointer<UInt8>, _ at: Int, _ count: Int) -> Int? {
        var value = 0
        for index in at..<at + count {
            let digit = b[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value * 10 + Int(digit)
        }
        return value
    }

    static func daysIn(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
