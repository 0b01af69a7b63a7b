import Engine
import Flywheel
import Privacy
import ReplayKit

/// The auditor's rulings on the strings of a result file as it decodes the file with its
/// writer's type: each `ResultStringRule` a field names is judged by `ResultText`'s rule of the
/// same meaning, in the run's context (its paths, its team's labels, its model file's words).
struct ResultJudge: ResultStringJudge {
    let context: ResultText.Context

    func problem(with text: String, as rule: ResultStringRule) -> String? {
        let check = Self.text(rule)
        return check.admits(text, context: context) ? nil : check.summary
    }

    /// The devices `replay` knows by name, as its built-in profiles list them.
    static let builtInDevices = Set(ModelProfiles.builtIn.devices.map(\.name))

    static func text(_ rule: ResultStringRule) -> ResultText {
        switch rule {
        case .label(let kind): .label(ResultText.Label(rawValue: kind.rawValue)!)
        case .timestamp: .timestamp
        case .hex(let digits): .hex(digits)
        case .stateDigest: .prefixedHex(StateDigest.prefix, 64)
        case .path: .path
        case .prose: .prose
        case .counter: .counter
        case .modelText: .modelText
        case .device: .either([.fixed(builtInDevices), .customDevice, .label(.token)])
        case .resultFileName: .resultFileName
        case .flywheelKey(let dimension): flywheelKeyRule(dimension) ?? .fixed([])
        }
    }

    /// The rule for a flywheel key under `dimension` (docs/report-schema.md, flywheel): `all`
    /// alone under `all`, an ISO week (or `unknown`) under `week`, and under build, model,
    /// locale and agent the label rule of that kind. Nil for a dimension replay does not count.
    static func flywheelKeyRule(_ dimension: String) -> ResultText? {
        switch MetricDimension(name: dimension) {
        case .overall?: .fixed([MetricDimension.overallKey])
        case .week?: .either([.isoWeek, .fixed([ReportLabel.unknown.text])])
        case .build?: .label(.build)
        case .model?: .label(.model)
        case .locale?: .label(.locale)
        case .agent?: .label(.agent)
        case nil: nil
        }
    }
}
