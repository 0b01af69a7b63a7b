import Export

/// Seconds since 1970 in UTC, written as ISO 8601 with a "Z" by hand so no locale or formatter can change it.
struct UTCTime: Sendable, Comparable {
    var seconds: Int64

    /// The instant at midnight UTC starting the given civil day.
    init(year: Int, month: Int, day: Int) {
        seconds = Int64(CivilDay.days(year: year, month: month, day: day)) * 86_400
    }

    init(seconds: Int64) { self.seconds = seconds }

    static func < (a: UTCTime, b: UTCTime) -> Bool { a.seconds < b.seconds }

    /// `YYYY-MM-DDTHH:MM:SSZ`.
    var iso8601: String {
        let days = Int(seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
        let secondOfDay = Int(seconds - Int64(days) * 86_400)
        let (year, month, day) = CivilDay.date(days)
        let pad = CivilDay.padded
        var out = ""
        out.reserveCapacity(20)
        out += pad(year, 4); out += "-"; out += pad(month, 2); out += "-"; out += pad(day, 2)
        out += "T"; out += pad(secondOfDay / 3600, 2); out += ":"; out += pad(secondOfDay / 60 % 60, 2)
        out += ":"; out += pad(secondOfDay % 60, 2); out += "Z"
        return out
    }
}
