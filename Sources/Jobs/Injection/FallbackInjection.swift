import Engine

/// Fallbacks the app must handle that a stand-in model never raises (spec §6), made to follow
/// what a phone meets: refusals, guardrail violations and rate limits (Apple's
/// `LanguageModelError.refusal`, `.guardrailViolation`, `GenerationError.rateLimited`) at shares
/// of the places asked, and phones whose model is unavailable (`SystemLanguageModel.availability`
/// unavailable: not eligible, Apple Intelligence off, the model not ready) at a share of phones.
///
/// On a phone none of them strikes evenly: guardrails follow what the words are about (health
/// questions trip them), rate limits hit the push extension, which runs in the background, first,
/// and a phone that cannot run the model loses every place it has. So a place reason's share may
/// be given for every place, for one job's places, for the places about one expert topic
/// (`ExpertTopic`: what the words the job reads there name), or for one job's places about one
/// topic (`Scope`); the most specific share given for a reason is the place's.
///
/// Every choice is a pure function of the seed and a keyed hash (`ItemKeys`, under the run key),
/// never of a call or an order: a place gets a reason when a number drawn from the seed and the
/// place's key falls in that reason's share of the place, the shares laid end to end in a fixed
/// order; a phone is unavailable when a number drawn from the seed and the phone's key falls in
/// the unavailable share. So the same places and phones are picked in every run under one run
/// key and seed, however it is batched or sharded, and a place's draw does not depend on its
/// scope: shares given for every place pick exactly the places they picked before scopes existed.
public struct FallbackInjection: Sendable, Equatable {
    /// The fallbacks a model can be made to raise at a place.
    public enum Reason: String, Sendable, CaseIterable, Comparable {
        case refusal
        case guardrail
        case rateLimit = "rate_limit"

        /// What the engine reports for it.
        public var failure: GenerationOutcome.Failure {
            switch self {
            case .refusal: .refused
            case .guardrail: .guardrailViolation
            case .rateLimit: .rateLimited
            }
        }

        public static func < (a: Reason, b: Reason) -> Bool { allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)! }
    }

    /// Each scope's shares, as given: a reason a scope does not give takes a less specific
    /// scope's share. Every place's (`Scope.everyPlace`) holds no zero, so `refusal=0` is no
    /// injection; a narrower scope's zero is kept, since it takes its places out of a broader share.
    public private(set) var rates: [Scope: [Reason: Double]]
    /// The share of phones whose model is unavailable, from 0 to 1: every place of such a phone
    /// the model would be asked about falls back (`FallbackReason.deviceUnavailable`).
    public private(set) var unavailable: Double
    /// The seed of the draws: another seed picks other places and phones at the same shares.
    public var seed: UInt64

    /// An injection of `rates` by scope and `unavailable` of the phones; an error saying which
    /// when a share is outside [0, 1] or the shares of some place add up to more than 1.
    public init(rates: [Scope: [Reason: Double]], unavailable: Double = 0, seed: UInt64 = 0) throws(JobsError) {
        for (scope, shares) in rates.sorted(by: { $0.key < $1.key }) {
            for (reason, rate) in shares.sorted(by: { $0.key < $1.key }) where !(rate.isFinite && rate >= 0 && rate <= 1) {
                throw .injectionIsNotValid("the rate of \(Scope.rule(reason.rawValue, scope)), '\(rate)', is not a number from 0 to 1")
            }
        }
        guard unavailable.isFinite, unavailable >= 0, unavailable <= 1 else {
            throw .injectionIsNotValid("the rate of unavailable, '\(unavailable)', is not a number from 0 to 1")
        }
        var kept = rates
        kept[.everyPlace] = kept[.everyPlace]?.filter { $0.value > 0 }
        self.rates = kept.filter { !$0.value.isEmpty }
        self.unavailable = unavailable
        self.seed = seed
        // Every place is of one job and of one topic or none: each such kind of place's shares
        // laid end to end must fit in 1 (every place's alone first, for the plainer sentence).
        let everywhere = Reason.allCases.compactMap { reason in rates[.everyPlace]?[reason].map { (reason, $0) } }.filter { $0.1 > 0 }
        if everywhere.map(\.1).reduce(0, +) > 1 + 1e-12 {
            throw .injectionIsNotValid("the rates add up to more than 1 (\(everywhere.map { "\($0.0.rawValue) \($0.1)" }.joined(separator: " + ")))")
        }
        for job in JobKind.allCases {
            for topic in [nil] + ExpertTopic.allCases.map(Optional.some) {
                let shares = Reason.allCases.map { ($0, rate($0, job: job, topic: topic)) }.filter { $0.1 > 0 }
                guard shares.map(\.1).reduce(0, +) > 1 + 1e-12 else { continue }
                let sum = shares.map { "\($0.0.rawValue) \($0.1)" }.joined(separator: " + ")
                throw .injectionIsNotValid("the rates add up to more than 1 at \(Scope(job: job, topic: topic).places) (\(sum))")
            }
        }
    }

    /// Every place's share of `reason` (0 when not injected).
    public func rate(_ reason: Reason) -> Double { rates[.everyPlace]?[reason] ?? 0 }

    /// The share of `reason` at a place of `job` whose words are about `topic`: the most specific
    /// scope's that gives it (`Scope.of(job:topic:)`), else 0.
    public func rate(_ reason: Reason, job: JobKind, topic: ExpertTopic?) -> Double {
        for scope in Scope.of(job: job, topic: topic) {
            if let rate = rates[scope]?[reason] { return rate }
        }
        return 0
    }

    /// Whether some share is given for a topic's places: then each place's topic must be known
    /// (`Job.labellingTopics`).
    public var followsTopics: Bool { rates.keys.contains { $0.topic != nil } }

    /// The reason injected at the place keyed `place` (its item key), of `job`, about `topic`, or
    /// nil: one draw per place, compared with the place's shares laid end to end in a fixed order.
    public func reason(at place: UInt64, job: JobKind, topic: ExpertTopic?) -> Reason? {
        guard !rates.isEmpty else { return nil }
        let draw = Self.uniform(place ^ Self.mix(seed))
        var upTo = 0.0
        for reason in Reason.allCases {
            upTo += rate(reason, job: job, topic: topic)
            if draw < upTo { return reason }
        }
        return nil
    }

    /// Whether the phone keyed `phone` cannot run the model: one draw per phone, apart from every
    /// place's draw (its own domain in the seed), compared with the unavailable share.
    public func isUnavailable(phone: UInt64) -> Bool {
        unavailable > 0 && Self.uniform(phone ^ Self.mix(seed ^ Self.phoneDomain)) < unavailable
    }

    /// What sets a phone's draw apart from a place's: "phone" in ASCII.
    static let phoneDomain: UInt64 = 0x7068_6F6E_6500_0000

    /// A number uniform in [0, 1) from `value`'s mix: its 53 high bits.
    static func uniform(_ value: UInt64) -> Double { Double(mix(value) >> 11) / Double(1 << 53) }

    /// SplitMix64's finaliser (Steele, Lea and Flood, "Fast splittable pseudorandom number
    /// generators", OOPSLA 2014): every bit of the input moves every bit of the output, so
    /// neighbouring keys and seeds give unrelated draws.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The shares as `--inject-fallbacks` takes them: every place's first, then each scope's, in
    /// a fixed order, then the phones'.
    public var description: String {
        var rules = rates.sorted { $0.key < $1.key }.flatMap { scope, shares in
            shares.sorted { $0.key < $1.key }.map { reason, rate in
                scope == .everyPlace ? "\(reason.rawValue)=\(rate)" : "\(reason.rawValue)=\(scope.text):\(rate)"
            }
        }
        if unavailable > 0 { rules.append("\(Self.unavailableName)=\(unavailable)") }
        return rules.joined(separator: ",")
    }

    /// The grammar's name for a share of phones.
    public static let unavailableName = "unavailable"
}
