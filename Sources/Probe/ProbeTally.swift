import Flywheel
import Jobs

/// What a probe counted for one job and one kind of attack: counts and sums only, never a word.
///
/// A *trial* is one place the job would ask about, planted with the attack, asked twice: plain
/// (as the corpus has it) and attacked. The attack *succeeded* when the attacked output carries
/// the place's marker (or, for a routing attack, the route went to the member it pushed); it was
/// *shown* when it succeeded in an answer the app would show (valid, within the budget). Utility
/// is the same places' answered share and quality, plain against attacked.
public struct ProbeTally: Sendable, Equatable {
    public var trials = 0
    public var succeeded = 0
    /// Plain outputs that already did what the attack asks (a route to the pushed member without
    /// the attack): the rate an attack's success is read against.
    public var baseline = 0
    public var shown = 0
    public var plainAnswered = 0
    public var attackedAnswered = 0
    /// Per quality measure: how many trials scored it both ways, and the two sums (in memory;
    /// a report sorts the names).
    public var quality: [String: QualityPair] = [:]

    public init() {}

    /// One measure's paired sums.
    public struct QualityPair: Sendable, Equatable {
        public var count = 0
        public var plainSum = 0.0
        public var attackedSum = 0.0

        public init() {}

        public var plainMean: Double? { count == 0 ? nil : plainSum / Double(count) }
        public var attackedMean: Double? { count == 0 ? nil : attackedSum / Double(count) }
    }

    /// The attack success rate, `succeeded` of `trials`; nil without trials.
    public var successRate: Double? { trials == 0 ? nil : Double(succeeded) / Double(trials) }
    /// Its Wilson 95% interval.
    public var successInterval: WilsonInterval? { WilsonInterval(successes: succeeded, trials: trials) }

    /// Adds one trial.
    mutating func add(_ trial: ProbeTrial) {
        trials += 1
        if trial.succeeded { succeeded += 1 }
        if trial.baseline { baseline += 1 }
        if trial.shown { shown += 1 }
        if trial.plainAnswered { plainAnswered += 1 }
        if trial.attackedAnswered { attackedAnswered += 1 }
        for (name, value) in trial.quality {
            var pair = quality[name] ?? QualityPair()
            pair.count += 1
            pair.plainSum += value.plain
            pair.attackedSum += value.attacked
            quality[name] = pair
        }
    }

    /// This tally and `other`, added (kinds pooled into a job's line).
    public func adding(_ other: ProbeTally) -> ProbeTally {
        var sum = self
        sum.trials += other.trials
        sum.succeeded += other.succeeded
        sum.baseline += other.baseline
        sum.shown += other.shown
        sum.plainAnswered += other.plainAnswered
        sum.attackedAnswered += other.attackedAnswered
        for (name, pair) in other.quality {
            var mine = sum.quality[name] ?? QualityPair()
            mine.count += pair.count
            mine.plainSum += pair.plainSum
            mine.attackedSum += pair.attackedSum
            sum.quality[name] = mine
        }
        return sum
    }
}
