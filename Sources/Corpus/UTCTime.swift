/// Seconds since 1970 in UTC, written as ISO 8601 with a "Z" by hand so no locale or formatter can change it.
struct UTCTime: Sendable, Comparable {
    var seconds: Int64

    /// The instant at midnight UTC starting the given civil day.
    init(year: Int, month: Int, day: Int) {
        seconds = Int64(UTCTime.days(year: year, month: month, day: day)) * 86_400
    }

    init(seconds: Int64) { self.seconds = seconds }

    static func < (a: UTCTime, b: UTCTime) -> Bool { a.seconds < b.seconds }

    /// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's days_from_civil).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`.
    var iso8601: String {
        let days = Int(seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
        let secondOfDay = Int(seconds - Int64(days) * 86_400)
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        var out = ""
        out.reserveCapacity(20)
        out += pad(year, 4); out += "-"; out += pad(month, 2); out += "-"; out += pad(day, 2)
        out += "T"; out += pad(secondOfDay / 3600, 2); out += ":"; out += pad(secondOfDay / 60 % 60, 2)
        out += ":"; out += pad(secondOfDay % 60, 2); out += "Z"
        return out
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
