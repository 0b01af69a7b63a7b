import Engine
import Jobs
import Privacy
import Testing

/// Refusals, guardrails and rate limits injected at shares of places, by job and by topic, and
/// phones without the model at a share of phones: seeded, decided per place and per phone, and
/// unchanged for the shares of every place that came before scopes.
@Suite struct FallbackInjectionTests {
    /// Place keys are keyed hashes: spread as such, not as consecutive numbers.
    static func key(_ index: Int) -> UInt64 { UInt64(index) &* 0x9E37_79B9_7F4A_7C15 }

    @Test func eachReasonTakesItsShareOfPlacesWithinBinomialNoise() throws {
        let injection = try FallbackInjection.parse("refusal=0.05,guardrail=0.02,rate_limit=0.01", seed: 7)
        let places = 200_000
        var counts: [FallbackInjection.Reason: Int] = [:]
        for index in 0..<places {
            if let reason = injection.reason(at: Self.key(index), job: .chips, topic: nil) { counts[reason, default: 0] += 1 }
        }
        for (reason, rate) in [(FallbackInjection.Reason.refusal, 0.05), (.guardrail, 0.02), (.rateLimit, 0.01)] {
            let expected = Double(places) * rate
            let sd = (Double(places) * rate * (1 - rate)).squareRoot()
            #expect(abs(Double(counts[reason] ?? 0) - expected) < 5 * sd, "\(reason): \(counts[reason] ?? 0) against \(expected)")
        }
    }

    /// The places the grammar of every place's shares picked before scopes existed (seed 7, keys
    /// `key(0..<400)`, refusal 0.05, guardrail 0.02, rate limit 0.01), written down from that
    /// code: a run with the old grammar injects exactly these again, whatever the job or topic.
    static let pinned: [Int: FallbackInjection.Reason] = [
        8: .guardrail, 12: .refusal, 19: .refusal, 25: .refusal, 39: .guardrail, 49: .guardrail, 61: .refusal, 72: .refusal,
        83: .rateLimit, 89: .refusal, 91: .refusal, 93: .refusal, 95: .refusal, 121: .rateLimit, 147: .refusal, 150: .rateLimit,
        157: .refusal, 163: .guardrail, 177: .guardrail, 179: .rateLimit, 183: .refusal, 184: .refusal, 185: .rateLimit,
        203: .refusal, 212: .refusal, 214: .refusal, 225: .rateLimit, 238: .refusal, 273: .refusal, 305: .rateLimit,
        331: .refusal, 345: .rateLimit, 367: .refusal, 399: .refusal,
    ]

    @Test(arguments: [(JobKind.chips, ExpertTopic?.none), (.push, .health), (.draft, .money), (.route, .legal)])
    func everyPlacesSharesPickThePlacesTheyPickedBeforeScopes(job: JobKind, topic: ExpertTopic?) throws {
        let injection = try FallbackInjection.parse("refusal=0.05,guardrail=0.02,rate_limit=0.01", seed: 7)
        var picked: [Int: FallbackInjection.Reason] = [:]
        for index in 0..<400 { picked[index] = injection.reason(at: Self.key(index), job: job, topic: topic) }
        #expect(picked == Self.pinned)
    }

    @Test func theSamePlaceGetsTheSameDecisionAndAnotherSeedOtherPlaces() throws {
        let a = try FallbackInjection.parse("refusal=0.1", seed: 1)
        let b = try FallbackInjection.parse("refusal=0.1", seed: 2)
        let keys = (0..<5_000).map { UInt64($0) &* 0xD6E8_FEB8_6659_FD93 }
        let first = keys.filter { a.reason(at: $0, job: .chips, topic: nil) != nil }
        #expect(first == keys.filter { a.reason(at: $0, job: .chips, topic: nil) != nil })
        let second = Set(keys.filter { b.reason(at: $0, job: .chips, topic: nil) != nil })
        #expect(Set(first) != second && !second.isEmpty)
        #expect(try FallbackInjection.parse("refusal=0", seed: 1).reason(at: 42, job: .chips, topic: nil) == nil)
        #expect(try FallbackInjection.parse("refusal=1", seed: 1).reason(at: 42, job: .chips, topic: nil) == .refusal)
    }

    @Test(arguments: [
        ("refusal", "is not REASON=RATE"), ("refusals=0.1", "'refusals' is not a fallback that can be injected"),
        ("refusal=0.1,refusal=0.2", "refusal is given twice"), ("refusal=1.5", "is not a number from 0 to 1"),
        ("refusal=nan", "is not a number from 0 to 1"), ("refusal=0.6,guardrail=0.6", "the rates add up to more than 1 (refusal 0.6 + guardrail 0.6)"),
        ("guardrail=helth:0.2", "'helth' is not a job or an expert topic (jobs: chips, route, push, draft; topics: health, money, legal)"),
        ("guardrail=health/chips:0.2", "'health/chips' is not JOB/TOPIC"), ("guardrail=chips/health/x:0.2", "is not a job, a topic or JOB/TOPIC"),
        ("guardrail=health:0.2,guardrail=health:0.3", "guardrail=health is given twice"),
        ("guardrail=chips/health:2", "the rate of guardrail=chips/health, '2', is not a number from 0 to 1"),
        ("rate_limit=push:", "the rate of rate_limit=push, '', is not a number"),
        ("unavailable=push:0.1", "unavailable is a share of phones, which have no job or topic"),
        ("unavailable=0.1,unavailable=0.2", "unavailable is given twice"), ("unavailable=-0.1", "the rate of unavailable, '-0.1'"),
        ("refusal=0.5,guardrail=health:0.6", "the rates add up to more than 1 at chips places about health (refusal 0.5 + guardrail 0.6)"),
        ("refusal=push:0.5,guardrail=push/money:0.6", "at push places about money (refusal 0.5 + guardrail 0.6)"),
    ])
    func aBadValueSaysWhatIsWrong(text: String, expected: String) {
        #expect {
            _ = try FallbackInjection.parse(text)
        } throws: { error in
            let description = (error as? JobsError)?.description ?? ""
            return description.hasPrefix("--inject-fallbacks: ") && description.contains(expected)
        }
    }

    /// A place's share of a reason is the most specific scope's that gives it: job and topic,
    /// then topic, then job, then every place; shares of one scope leave its other reasons to
    /// the broader scopes.
    @Test func theMostSpecificScopeThatGivesAReasonDecidesIt() throws {
        let injection = try FallbackInjection.parse(
            "refusal=0.05,guardrail=0.01,guardrail=health:0.2,guardrail=chips/health:0.5,guardrail=push:0.1,rate_limit=push:0.3,guardrail=money:0")
        #expect(injection.rate(.guardrail, job: .chips, topic: nil) == 0.01)
        #expect(injection.rate(.guardrail, job: .chips, topic: .health) == 0.5)
        #expect(injection.rate(.guardrail, job: .draft, topic: .health) == 0.2)
        #expect(injection.rate(.guardrail, job: .push, topic: .health) == 0.2)   // the topic before the job
        #expect(injection.rate(.guardrail, job: .push, topic: .legal) == 0.1)
        #expect(injection.rate(.guardrail, job: .route, topic: .money) == 0)     // a narrower zero takes places out
        #expect(injection.rate(.refusal, job: .chips, topic: .health) == 0.05)   // not given there: every place's
        #expect(injection.rate(.rateLimit, job: .push, topic: .health) == 0.3 && injection.rate(.rateLimit, job: .chips, topic: nil) == 0)
        let byJobOnly = try FallbackInjection.parse("rate_limit=push:0.3")
        #expect(injection.followsTopics && !byJobOnly.followsTopics)
        // The grammar written back reads as the same injection.
        #expect(try FallbackInjection.parse(injection.description) == injection)
        #expect(try FallbackInjection.parse("refusal=0.05,unavailable=0.1", seed: 3).description == "refusal=0.05,unavailable=0.1")
    }

    /// Each kind of place takes its own share and no other's: a topic's share only its places,
    /// a job's only its own, within binomial noise, and exactly none elsewhere.
    @Test func aScopedShareHitsOnlyItsPlacesAtItsRate() throws {
        let injection = try FallbackInjection.parse("guardrail=health:0.2,rate_limit=push:0.3", seed: 5)
        let places = 20_000
        func share(_ reason: FallbackInjection.Reason, _ job: JobKind, _ topic: ExpertTopic?) -> Double {
            Double((0..<places).filter { injection.reason(at: Self.key($0), job: job, topic: topic) == reason }.count) / Double(places)
        }
        for (reason, job, topic, rate) in [(FallbackInjection.Reason.guardrail, JobKind.chips, ExpertTopic.health, 0.2),
                                           (.guardrail, .draft, .health, 0.2), (.rateLimit, .push, nil, 0.3)] {
            let sd = (rate * (1 - rate) / Double(places)).squareRoot()
            #expect(abs(share(reason, job, topic) - rate) < 5 * sd, "\(reason) at \(job)/\(String(describing: topic))")
        }
        #expect(share(.guardrail, .chips, nil) == 0 && share(.guardrail, .chips, .money) == 0 && share(.guardrail, .push, nil) == 0)
        #expect(share(.rateLimit, .chips, nil) == 0 && share(.rateLimit, .draft, .health) == 0)
    }

    /// Phones are drawn apart from places: the unavailable share of phones within binomial noise,
    /// the same phones under one seed, others under another, and none or all at 0 and 1.
    @Test func unavailableTakesItsShareOfPhonesApartFromThePlaces() throws {
        let injection = try FallbackInjection.parse("refusal=0.5,unavailable=0.1", seed: 9)
        let phones = (0..<20_000).map { UInt64($0) &* 0xD6E8_FEB8_6659_FD93 }
        let unavailable = phones.filter(injection.isUnavailable(phone:))
        let sd: Double = (20_000 * 0.1 * 0.9).squareRoot()
        #expect(abs(Double(unavailable.count) - 2_000) < 5 * sd)
        // Not the places' draw: among phones whose key, as a place, is refused, a tenth still.
        let refusedAsPlaces = phones.filter { injection.reason(at: $0, job: .chips, topic: nil) == .refusal }
        let both = refusedAsPlaces.filter(injection.isUnavailable(phone:)).count
        #expect(abs(Double(both) / Double(refusedAsPlaces.count) - 0.1) < 0.02)
        #expect(phones.filter(injection.isUnavailable(phone:)) == unavailable)
        let other = try FallbackInjection.parse("unavailable=0.1", seed: 10)
        #expect(phones.filter(other.isUnavailable(phone:)) != unavailable)
        let none = try FallbackInjection.parse("refusal=0.1"), all = try FallbackInjection.parse("unavailable=1")
        #expect(!phones.contains(where: none.isUnavailable(phone:)) && phones.allSatisfy(all.isUnavailable(phone:)))
    }

    /// report.json's `run.inject_fallbacks` and state.json's options: every place's rates in full,
    /// each scope's with the reasons given, the phones' share and the seed, read back whole; a
    /// state written before scopes reads as none.
    @Test func itIsWrittenAndReadBackWithItsScopes() throws {
        let injection = try FallbackInjection.parse(
            "refusal=0.05,guardrail=health:0.2,guardrail=chips/health:0.5,rate_limit=push:0.3,guardrail=draft/money:0,unavailable=0.1", seed: 4)
        let value = try ReportValueEncoder().encode(injection)
        #expect(value.compactJSON() == #"{"rates":{"refusal":0.05,"guardrail":0.0,"rate_limit":0.0},"by_job":{"push":{"rate_limit":0.3}},"#
            + #""by_topic":{"health":{"guardrail":0.2}},"by_job_topic":{"chips":{"health":{"guardrail":0.5}},"draft":{"money":{"guardrail":0.0}}},"#
            + #""unavailable_phones":0.1,"seed":4}"# + "\n")
        #expect(try ReportValueDecoder(strict: true).decode(FallbackInjection.self, from: value) == injection)
        let old = try ReportValue(parsingExactJSON: #"{"rates":{"refusal":0.05,"guardrail":0,"rate_limit":0},"seed":4}"#)
        #expect(try ReportValueDecoder().decode(FallbackInjection.self, from: old) == FallbackInjection.parse("refusal=0.05", seed: 4))
        let tooMuch = try ReportValue(parsingExactJSON: #"{"rates":{"refusal":0.6,"guardrail":0,"rate_limit":0},"by_topic":{"health":{"guardrail":0.6}},"seed":0}"#)
        #expect(throws: StateFormatError.self) { try ReportValueDecoder().decode(FallbackInjection.self, from: tooMuch) }
    }
}
