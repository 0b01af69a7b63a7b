import Jobs
import Privacy

/// What a gate names: a job, the slice of its places it judges, and the path of a number in that
/// slice's metrics, as `--fail-under`, `--fail-over` and `replay compare --fail-if-worse` take it.
///
///     chips.in_budget.device                          the job over every place
///     chips[build=2.4.1 (534)].answered_rate          one app build
///     chips[model=27.0].violations.chips_agent_voice
///     chips[build=2.4.1 (534),model=27.0].answered_rate   one build × model-version cell
///     route[model=*].accuracy                         every model version, each its own gate
///
/// The slice is written in brackets before the first dot, so a label may hold dots and spaces as
/// it is. A label holding `,`, `]`, `"` or `\`, or that is `*` itself, is written in double
/// quotes with `\"` and `\\` inside (`chips[build="beta, internal"]`). `*` unquoted is every
/// label of that dimension, each slice judged as its own gate (for a cell, every cell whose other
/// label matches). Labels are matched as report.json shows them (`ReportLabel`): a label given
/// as the corpus spells it goes through the same rule first, so a build the team listed or a
/// hashed one is named either way.
public struct GateKey: Sendable, Equatable, CustomStringConvertible {
    /// One dimension's label in a slice: a label, or every label (`*`).
    public enum Label: Sendable, Equatable {
        case named(String)
        case every
    }

    /// Which places of the job the gate judges.
    public enum Slice: Sendable, Equatable {
        case overall
        case build(Label)
        case model(Label)
        case locale(Label)
        /// One (app build, model version) cell: report.json's `by_build_model`.
        case cell(build: Label, model: Label)
    }

    public var job: JobKind
    public var slice: Slice
    /// The number's path within the slice's metrics, as report.json spells it (`in_budget.device`),
    /// or a quality measure's name (`accuracy`).
    public var path: String

    public init(job: JobKind, slice: Slice = .overall, path: String) { (self.job, self.slice, self.path) = (job, slice, path) }

    /// The key as people write it, labels quoted only where they must be.
    public var description: String {
        func written(_ label: Label) -> String {
            switch label {
            case .every: return "*"
            case .named(let text):
                guard text == "*" || text.contains(where: { ",]\"\\".contains($0) }) || text.isEmpty else { return text }
                return "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
            }
        }
        let slice: String = switch self.slice {
        case .overall: ""
        case .build(let label): "[build=\(written(label))]"
        case .model(let label): "[model=\(written(label))]"
        case .locale(let label): "[locale=\(written(label))]"
        case .cell(let build, let model): "[build=\(written(build)),model=\(written(model))]"
        }
        return job.rawValue + slice + "." + path
    }

    /// Why a key could not be read.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }
}

extension GateKey {
    /// The label `name` names in report.json: a label as the run wrote it passes as it is, and a
    /// value as the corpus spells it goes through the same rule (`ReportLabel`) the report used.
    static func judged(_ name: String, _ rule: (String) -> ReportLabel) -> String {
        [ReportLabel.unknown.text, ReportLabel.other.text].contains(name) ? name : rule(name).text
    }

    /// The slices of `job`'s block this key names, each as the concrete key (a label for `*`)
    /// and its metrics: one for a key without `*` (no metrics when the report has no such slice),
    /// one per label for `*` (none when the dimension has no label).
    public func slices(of job: RunReport.Job, listed: TeamLabels = .none) -> [(key: GateKey, metrics: ReportValue?)] {
        func pick<Key: ResultMapKey, Value: Sendable>(_ map: ResultMap<Key, Value>, _ label: Label, text: (Key) -> String,
                                                      rule: (String) -> ReportLabel) -> [(String, Value?)] {
            switch label {
            case .every: return map.pairs.map { (text($0.key), $0.value) }
            case .named(let name):
                let judged = Self.judged(name, rule)
                return [(judged, map.pairs.first { text($0.key) == judged }?.value)]
            }
        }
        let buildRule = { ReportLabel(build: $0, listed: listed) }, modelRule = { ReportLabel(model: $0, listed: listed) }
        func concrete(_ slice: Slice) -> GateKey { GateKey(job: self.job, slice: slice, path: path) }
        switch slice {
        case .overall:
            return [(self, ReportValue(encoding: job))]
        case .build(let label):
            return pick(job.byBuild, label, text: \.text, rule: buildRule).map { (concrete(.build(.named($0.0))), $0.1.map(ReportValue.init(encoding:))) }
        case .model(let label):
            return pick(job.byModel, label, text: \.text, rule: modelRule).map { (concrete(.model(.named($0.0))), $0.1.map(ReportValue.init(encoding:))) }
        case .locale(let label):
            return pick(job.byLocale, label, text: \.text, rule: { ReportLabel(locale: $0) })
                .map { (concrete(.locale(.named($0.0))), $0.1.map(ReportValue.init(encoding:))) }
        case .cell(let build, let model):
            return pick(job.byBuildModel, build, text: \.text, rule: buildRule).flatMap { buildLabel, models in
                guard let models else {
                    let shown: Label = if case .named(let name) = model { .named(Self.judged(name, modelRule)) } else { .every }
                    return [(concrete(.cell(build: .named(buildLabel), model: shown)), ReportValue?.none)]
                }
                return pick(models, model, text: \.text, rule: modelRule).map {
                    (concrete(.cell(build: .named(buildLabel), model: .named($0.0))), $0.1.map(ReportValue.init(encoding:)))
                }
            }
        }
    }
}
