extension FallbackInjection {
    /// Parses `--inject-fallbacks`: rules joined by commas, each one of
    /// - `REASON=RATE`: the share of every place (`refusal=0.05`);
    /// - `REASON=SCOPE:RATE`: the share of one job's places (`rate_limit=push:0.3`), of the places
    ///   about one expert topic (`guardrail=health:0.2`), or of one job's places about one topic
    ///   (`guardrail=chips/health:0.5`);
    /// - `unavailable=RATE`: the share of phones whose model is unavailable.
    ///
    /// REASON is `refusal`, `guardrail` or `rate_limit`; a job is `chips`, `route`, `push` or
    /// `draft`, a topic `health`, `money` or `legal`. A rule given twice, an unknown reason, job
    /// or topic, a scope on `unavailable`, a rate outside [0, 1], or shares of some place adding
    /// up to more than 1 is an error saying which.
    public static func parse(_ text: String, seed: UInt64 = 0) throws(JobsError) -> FallbackInjection {
        var rates: [Scope: [Reason: Double]] = [:]
        var unavailable: Double? = nil
        let reasons = (Reason.allCases.map(\.rawValue) + [unavailableName]).joined(separator: ", ")
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard pair.count == 2 else {
                throw .injectionIsNotValid("'\(part)' is not REASON=RATE or REASON=SCOPE:RATE (reasons: \(reasons))")
            }
            let value = pair[1].split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            if pair[0] == unavailableName {
                guard value.count == 1 else {
                    throw .injectionIsNotValid("unavailable is a share of phones, which have no job or topic: give unavailable=RATE, not '\(pair[1])'")
                }
                guard unavailable == nil else { throw .injectionIsNotValid("unavailable is given twice") }
                unavailable = try rate(value[0], of: unavailableName)
                continue
            }
            guard let reason = Reason(rawValue: pair[0]) else {
                throw .injectionIsNotValid("'\(pair[0])' is not a fallback that can be injected (\(reasons))")
            }
            let scope = value.count == 2 ? try Scope(text: value[0]) : .everyPlace
            let rule = Scope.rule(reason.rawValue, scope)
            guard rates[scope]?[reason] == nil else { throw .injectionIsNotValid("\(rule) is given twice") }
            rates[scope, default: [:]][reason] = try rate(value[value.count - 1], of: rule)
        }
        return try FallbackInjection(rates: rates, unavailable: unavailable ?? 0, seed: seed)
    }

    /// `text` as a rate of `rule`, or an error naming the rule.
    private static func rate(_ text: String, of rule: String) throws(JobsError) -> Double {
        guard let rate = Double(text), rate.isFinite, rate >= 0, rate <= 1 else {
            throw .injectionIsNotValid("the rate of \(rule), '\(text)', is not a number from 0 to 1")
        }
        return rate
    }
}
