import Privacy

/// `run.inject_fallbacks` of a report, `options.inject_fallbacks` of a state: every place's rate
/// of each reason (`rates`, all three, in the reasons' order), the shares given for a job's
/// places (`by_job`), a topic's (`by_topic`) and a job's about a topic (`by_job_topic`), each
/// with only the reasons given, the share of phones unavailable (`unavailable_phones`) and the
/// seed (the command takes seeds up to `Int.max`). A state written before scopes existed has
/// only `rates` and `seed`, and reads as none scoped and no phone unavailable.
extension FallbackInjection: Codable {
    enum CodingKeys: String, CodingKey {
        case rates, byJob = "by_job", byTopic = "by_topic", byJobTopic = "by_job_topic"
        case unavailablePhones = "unavailable_phones", seed
    }

    typealias Shares = ResultMap<Reason, Double>

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var rates: [Scope: [Reason: Double]] = [.everyPlace: Self.shares(try container.decode(Shares.self, forKey: .rates))]
        for (job, shares) in try Self.decodeIfThere(ResultMap<JobKind, Shares>.self, .byJob, in: container) {
            rates[Scope(job: job)] = Self.shares(shares)
        }
        for (topic, shares) in try Self.decodeIfThere(ResultMap<ExpertTopic, Shares>.self, .byTopic, in: container) {
            rates[Scope(topic: topic)] = Self.shares(shares)
        }
        for (job, topics) in try Self.decodeIfThere(ResultMap<JobKind, ResultMap<ExpertTopic, Shares>>.self, .byJobTopic, in: container) {
            for (topic, shares) in topics.pairs { rates[Scope(job: job, topic: topic)] = Self.shares(shares) }
        }
        let unavailable = container.contains(.unavailablePhones) ? try container.decode(Double.self, forKey: .unavailablePhones) : 0
        do {
            self = try FallbackInjection(rates: rates, unavailable: unavailable,
                                         seed: UInt64(max(0, try container.decode(Int.self, forKey: .seed))))
        } catch let error as JobsError {
            throw StateFormatError(at: container.codingPath, error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Shares(Reason.allCases.map { ($0, rate($0)) }), forKey: .rates)
        let scoped = rates.filter { $0.key != .everyPlace }.sorted { $0.key < $1.key }
        func shares(_ given: [Reason: Double]) -> Shares { Shares(given.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }) }
        try container.encode(ResultMap(scoped.compactMap { scope, given in
            scope.topic == nil ? scope.job.map { ($0, shares(given)) } : nil
        }), forKey: .byJob)
        try container.encode(ResultMap(scoped.compactMap { scope, given in
            scope.job == nil ? scope.topic.map { ($0, shares(given)) } : nil
        }), forKey: .byTopic)
        let jobTopics = JobKind.allCases.compactMap { job -> (key: JobKind, value: ResultMap<ExpertTopic, Shares>)? in
            let topics: [(key: ExpertTopic, value: Shares)] = scoped.compactMap { scope, given in
                scope.job == job ? scope.topic.map { ($0, shares(given)) } : nil
            }
            return topics.isEmpty ? nil : (job, ResultMap(topics))
        }
        try container.encode(ResultMap(jobTopics), forKey: .byJobTopic)
        try container.encode(unavailable, forKey: .unavailablePhones)
        try container.encode(Int(clamping: seed), forKey: .seed)
    }

    /// The pairs of the map at `key`, or none in a file written before the key existed.
    private static func decodeIfThere<Key, Value>(_ type: ResultMap<Key, Value>.Type, _ key: CodingKeys,
                                                  in container: KeyedDecodingContainer<CodingKeys>) throws -> [(key: Key, value: Value)] {
        container.contains(key) ? try container.decode(type, forKey: key).pairs : []
    }

    /// A file's shares, each reason once (a reason given twice is one the strict reading refuses).
    private static func shares(_ map: Shares) -> [Reason: Double] {
        Dictionary(map.pairs, uniquingKeysWith: { first, _ in first })
    }
}

extension FallbackInjection.Reason: Codable, ResultMapKey {}
extension ExpertTopic: ResultMapKey {}
