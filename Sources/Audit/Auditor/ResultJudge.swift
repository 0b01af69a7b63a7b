import Engine
import Privacy

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
        case .stateDigest: .prefixedHex(ResultSchemas.stateDigestPrefix, 64)
        case .path: .path
        case .prose: .prose
        case .counter: .counter
        case .modelText: .modelText
        case .device: .either([.fixed(builtInDevices), .customDevice, .label(.token)])
        case .resultFileName: .resultFileName
        case .flywheelKey(let dimension): ResultSchemas.flywheelKeyRule(dimension) ?? .fixed([])
        }
    }
}
