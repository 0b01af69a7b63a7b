extension FallbackInjection {
    /// Which places a share is for: every place, one job's (`push`), those whose words are about
    /// one expert topic (`health`), or one job's about one topic (`chips/health`).
    ///
    /// A place is in the scopes of its job and of its topic at once; the most specific that gives
    /// a reason's share decides it (`of(job:topic:)`): job and topic, then topic, then job, then
    /// every place. The topic comes before the job because the content is what trips a guardrail,
    /// whatever job asks about it.
    public struct Scope: Sendable, Hashable, Comparable {
        public var job: JobKind?
        public var topic: ExpertTopic?

        public init(job: JobKind? = nil, topic: ExpertTopic? = nil) {
            self.job = job
            self.topic = topic
        }

        /// Every place.
        public static let everyPlace = Scope()

        /// As `--inject-fallbacks` writes it: `push`, `health`, `chips/health`; empty for every place.
        public var text: String {
            [job?.rawValue, topic?.rawValue].compactMap { $0 }.joined(separator: "/")
        }

        /// The places it holds, for a sentence: "every place", "push places", "places about
        /// health", "chips places about health".
        public var places: String {
            switch (job, topic) {
            case (nil, nil): "every place"
            case (let job?, nil): "\(job.rawValue) places"
            case (nil, let topic?): "places about \(topic.rawValue)"
            case (let job?, let topic?): "\(job.rawValue) places about \(topic.rawValue)"
            }
        }

        /// The scope `text` names (`push`, `health`, `chips/health`), or an error saying what it
        /// should be.
        public init(text: String) throws(JobsError) {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            switch parts.count {
            case 1:
                if let job = JobKind(rawValue: parts[0]) {
                    self.init(job: job)
                } else if let topic = ExpertTopic(rawValue: parts[0]) {
                    self.init(topic: topic)
                } else {
                    throw .injectionIsNotValid("'\(text)' is not a job or an expert topic (\(Self.names))")
                }
            case 2:
                guard let job = JobKind(rawValue: parts[0]), let topic = ExpertTopic(rawValue: parts[1]) else {
                    throw .injectionIsNotValid("'\(text)' is not JOB/TOPIC, a job's places about a topic (\(Self.names))")
                }
                self.init(job: job, topic: topic)
            default:
                throw .injectionIsNotValid("'\(text)' is not a job, a topic or JOB/TOPIC (\(Self.names))")
            }
        }

        /// The jobs and topics a scope may name.
        static var names: String {
            "jobs: \(JobKind.allCases.map(\.rawValue).joined(separator: ", ")); "
                + "topics: \(ExpertTopic.allCases.map(\.rawValue).joined(separator: ", "))"
        }

        /// The scopes a place of `job` about `topic` (nil: none) is in, the most specific first.
        public static func of(job: JobKind, topic: ExpertTopic?) -> [Scope] {
            guard let topic else { return [Scope(job: job), .everyPlace] }
            return [Scope(job: job, topic: topic), Scope(topic: topic), Scope(job: job), .everyPlace]
        }

        /// `reason` with the scope, as the grammar names one rate: `guardrail`, `guardrail=health`.
        static func rule(_ reason: String, _ scope: Scope) -> String {
            scope == .everyPlace ? reason : "\(reason)=\(scope.text)"
        }

        /// Every place first, then by job (none first), then by topic (none first).
        public static func < (a: Scope, b: Scope) -> Bool {
            func rank(_ scope: Scope) -> (Int, Int) {
                (scope.job.map { JobKind.allCases.firstIndex(of: $0)! + 1 } ?? 0,
                 scope.topic.map { ExpertTopic.allCases.firstIndex(of: $0)! + 1 } ?? 0)
            }
            return rank(a) < rank(b)
        }
    }
}
