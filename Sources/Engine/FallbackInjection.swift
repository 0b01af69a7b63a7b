/// Fallbacks the app must handle that a stand-in model never raises: refusals, guardrail
/// violations and rate limits (spec §6; Apple's `LanguageModelError.refusal`,
/// `.guardrailViolation`, `GenerationError.rateLimited`), each at a configured share of the
/// requests asked, so a team can see how coverage and budgets move when the phone says no.
///
/// The choice is made per place, not per call: a place is refused when a number drawn from the
/// seed and the place's key (`GenerationRequest.place`) falls in its reason's share. So the same
/// places are refused in every run under one run key and seed, however the run is batched or
/// sharded, and two runs compared item by item differ only where the injection put them.
public struct FallbackInjection: Sendable, Equatable {
    /// The fallbacks a model can be made to raise.
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

    /// The share of asked requests each reason takes, each in [0, 1], their sum at most 1.
    public private(set) var rates: [Reason: Double]
    /// The seed of the draw: another seed refuses other places at the same rates.
    public var seed: UInt64

    /// An injection of `rates`; nil when a rate is outside [0, 1] or they sum to more than 1.
    public init?(rates: [Reason: Double], seed: UInt64 = 0) {
        guard rates.values.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 1 }),
              rates.values.reduce(0, +) <= 1 + 1e-12 else { return nil }
        self.rates = rates.filter { $0.value > 0 }
        self.seed = seed
    }

    /// Parses `refusal=0.05,guardrail=0.01,rate_limit=0.02` (`--inject-fallbacks`); a reason
    /// given twice, an unknown reason or a rate outside [0, 1] is an error saying which.
    public static func parse(_ text: String, seed: UInt64 = 0) throws(EngineError) -> FallbackInjection {
        var rates: [Reason: Double] = [:]
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else {
                throw EngineError.injectionIsNotValid("'\(part)' is not REASON=RATE (reasons: \(Reason.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            guard let reason = Reason(rawValue: String(pair[0])) else {
                throw EngineError.injectionIsNotValid("'\(pair[0])' is not a fallback that can be injected (\(Reason.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            guard rates[reason] == nil else { throw EngineError.injectionIsNotValid("\(reason.rawValue) is given twice") }
            guard let rate = Double(pair[1]), rate.isFinite, rate >= 0, rate <= 1 else {
                throw EngineError.injectionIsNotValid("the rate of \(reason.rawValue), '\(pair[1])', is not a number from 0 to 1")
            }
            rates[reason] = rate
        }
        guard let injection = FallbackInjection(rates: rates, seed: seed) else {
            throw EngineError.injectionIsNotValid("the rates add up to more than 1")
        }
        return injection
    }

    /// The rate of `reason` (0 when not injected).
    public func rate(_ reason: Reason) -> Double { rates[reason] ?? 0 }

    /// The reason injected at the place keyed `place`, or nil: one draw per place, compared with
    /// the reasons' shares laid end to end in a fixed order.
    public func reason(at place: UInt64) -> Reason? {
        let draw = Double(Self.mix(place ^ Self.mix(seed)) >> 11) / Double(1 << 53)   // uniform in [0, 1)
        var upTo = 0.0
        for reason in Reason.allCases {
            upTo += rate(reason)
            if draw < upTo { return reason }
        }
        return nil
    }

    /// SplitMix64's finaliser (Steele, Lea and Flood, "Fast splittable pseudorandom number
    /// generators", OOPSLA 2014): every bit of the input moves every bit of the output, so
    /// neighbouring keys and seeds give unrelated draws.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The rates as `--inject-fallbacks` takes them, reasons in a fixed order.
    public var description: String {
        rates.sorted { $0.key < $1.key }.map { "\($0.key.rawValue)=\($0.value)" }.joined(separator: ",")
    }
}
