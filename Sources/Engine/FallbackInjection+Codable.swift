import Privacy

/// `run.inject_fallbacks` of a report, `options.inject_fallbacks` of a state: every reason's
/// rate, in the reasons' order, and the seed (the command takes seeds up to `Int.max`).
extension FallbackInjection: Codable {
    enum CodingKeys: String, CodingKey { case rates, seed }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let rates = try container.decode(ResultMap<Reason, Double>.self, forKey: .rates)
        guard let injection = FallbackInjection(rates: Dictionary(rates.pairs, uniquingKeysWith: +),
                                                seed: UInt64(max(0, try container.decode(Int.self, forKey: .seed)))) else {
            throw StateFormatError(at: container.codingPath, "rates outside 0 to 1 or adding up to more than 1")
        }
        self = injection
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ResultMap(Reason.allCases.map { ($0, rate($0)) }), forKey: .rates)
        try container.encode(Int(clamping: seed), forKey: .seed)
    }
}

extension FallbackInjection.Reason: Codable, ResultMapKey {}
