import Jobs
import ReplayKit

/// One number `replay compare` compares between two runs, item by item: what it is measured over,
/// in which unit, which way is better, and how its difference is tested.
///
/// Keys are what `--fail-if-worse JOB.KEY=MARGIN` names and what compare.json lists:
/// - rates (a share of the eligible items both runs have): `asked`, `answered`,
///   `in_budget.host`, `in_budget.device`, `fallback.<reason>`; paired differences of 0/1
///   values with an exact McNemar test of the discordant pairs;
/// - means: `tokens.in`, `tokens.out` (items asked in both runs), `quality.<name>` and
///   `quality_all_answers.<name>` (items with the measure in both runs); paired differences;
/// - percentiles: `latency.host.p50`, `.p95`, `latency.device.p50`, `.p95` in ms (items asked in
///   both runs); a paired bootstrap over threads.
public struct MetricDefinition: Sendable, Hashable {
    /// How the difference is estimated and tested.
    public enum Kind: String, Sendable, Codable {
        /// A yes/no outcome per item: paired difference of shares, exact McNemar test.
        case rate
        /// A number per item: paired difference of means, normal test with clustered errors.
        case mean
        /// A percentile of a number per item: paired bootstrap resampling threads.
        case percentile
    }

    /// Which way is better.
    public enum Direction: String, Sendable, Codable {
        case higherIsBetter = "higher_is_better"
        case lowerIsBetter = "lower_is_better"
        /// Neither (a size): a change is reported, never called better or worse.
        case neutral
    }

    /// What a value is measured in.
    public enum Unit: String, Sendable, Codable, CaseIterable {
        /// A rate's share of items.
        case fraction
        /// A quality measure from 0 to 1.
        case score
        case tokens
        case ms
        case characters
    }

    public var key: String
    public var kind: Kind
    public var unit: Unit
    public var direction: Direction

    /// A metric of another comparison over paired outcomes (`replay probe compare`'s attack
    /// success): its key, how it is tested, its unit and which way is better.
    public init(key: String, kind: Kind, unit: Unit, direction: Direction) {
        (self.key, self.kind, self.unit, self.direction) = (key, kind, unit, direction)
    }

    /// The rates, means and percentiles every job has, in the order they are shown.
    public static let fixed: [MetricDefinition] = {
        var list = ["asked", "answered", "in_budget.host", "in_budget.device", "in_budget.queued"].map {
            MetricDefinition(key: $0, kind: .rate, unit: .fraction, direction: .higherIsBetter)
        }
        list += FallbackReason.allCases.sorted().map {
            MetricDefinition(key: "fallback." + $0.rawValue, kind: .rate, unit: .fraction, direction: .lowerIsBetter)
        }
        list += ["tokens.in", "tokens.out"].map { MetricDefinition(key: $0, kind: .mean, unit: .tokens, direction: .lowerIsBetter) }
        list += ["latency.host.p50", "latency.host.p95", "latency.device.p50", "latency.device.p95"].map {
            MetricDefinition(key: $0, kind: .percentile, unit: .ms, direction: .lowerIsBetter)
        }
        return list
    }()

    /// The share of a job's eligible places whose answer broke each of its never rules
    /// (`violation.<rule>`, lower is better): every decoded answer is checked, late ones too.
    public static func violations(_ job: JobKind) -> [MetricDefinition] {
        NeverRule.rules(of: job).map { MetricDefinition(key: "violation." + $0.rawValue, kind: .rate, unit: .fraction, direction: .lowerIsBetter) }
    }

    /// The two families of quality keys: what the person saw, and every valid answer as if shown.
    public static let qualityFamilies = ["quality", "quality_all_answers"]

    /// A quality measure's key in `family`: a score from 0 to 1 where higher is better, except a
    /// size (`length_chars`, any `_chars`), which has no better side.
    public static func quality(_ name: String, family: String = "quality") -> MetricDefinition {
        let size = name.hasSuffix("_chars")
        return MetricDefinition(key: family + "." + name, kind: .mean, unit: size ? .characters : .score,
                                direction: size ? .neutral : .higherIsBetter)
    }

    /// The quality measures each job scores (Sources/Jobs: `ChipsJob`, `RouteJob`, `PushJob`,
    /// `DraftJob`), so a gate can name one before any run is read. A measure a run has that is
    /// not listed here is still compared; it cannot be gated until it is.
    public static let qualityNames: [JobKind: [String]] = [
        .chips: ["best_f1", "exact_match"],
        .route: ["accuracy", "agreement", "drawer_accuracy", "drawer_shown", "lead_accuracy"],
        .push: ["length_chars", "well_formed"],
        .draft: ["checklist_when_used", "kind_agrees", "used_when_drafted"],
    ]

    /// Every key a gate may name for `job`: the fixed rates, means and percentiles and the job's
    /// quality keys, neutral ones excepted (a size has no "worse").
    public static func gateable(_ job: JobKind) -> [MetricDefinition] {
        let measures = qualityFamilies.flatMap { family in (qualityNames[job] ?? []).map { quality($0, family: family) } }
        return (fixed + violations(job) + measures).filter { $0.direction != .neutral }
    }

    /// Every key compare.json may name (a slice's metrics, a gate's): the fixed ones, every job's
    /// violations, and each known quality measure in both families.
    public static let knownKeys: Set<String> = Set(fixed.map(\.key) + JobKind.allCases.flatMap { violations($0).map(\.key) }
        + qualityFamilies.flatMap { family in qualityNames.values.joined().map { quality($0, family: family).key } })

    /// Whether `difference` (NEW − BASE) is in the better direction.
    public func isBetter(_ difference: Double) -> Bool {
        switch direction {
        case .higherIsBetter: difference > 0
        case .lowerIsBetter: difference < 0
        case .neutral: false
        }
    }
}
