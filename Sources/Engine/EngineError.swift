/// What went wrong in the engine's own inputs: a profiles file or a device profile.
///
/// Each case reads as a sentence naming the file and the key where there is one.
public enum EngineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A profiles file that is not UTF-8 JSON: the parser's words.
    case profilesFileIsNotJSON(file: String, problem: String)
    /// A profiles file whose `schema` is not `replay.profiles/1`.
    case profilesFileHasAnotherSchema(file: String)
    /// A value of a profiles file that is missing or wrong: where, and what it must be.
    case profilesFileHasAWrongValue(file: String, path: String, expected: String)
    /// A device name that is neither one of the profiles' devices nor `custom:`.
    case deviceIsNotInTheProfiles(name: String, known: [String], profiles: String)
    /// An upgrade preview's version (`--as-model-version`) that no version profile covers.
    case previewVersionIsNotProfiled(version: String, profiles: String, covered: [String])

    public var description: String {
        switch self {
        case .profilesFileIsNotJSON(let file, let problem):
            "\(file): not a JSON profiles file: \(problem)"
        case .profilesFileHasAnotherSchema(let file):
            "\(file): its schema is not \(ModelProfiles.schema)"
        case .profilesFileHasAWrongValue(let file, let path, let expected):
            "\(file): \(path) must be \(expected)"
        case .deviceIsNotInTheProfiles(let name, let known, let profiles):
            "unknown device profile '\(name)': use \(known.joined(separator: ", ")) (the \(profiles) profiles) or custom:MS_PER_TOKEN,TOKENS_PER_S"
        case .previewVersionIsNotProfiled(let version, let profiles, let covered):
            "--as-model-version \(version): no version of the \(profiles) profiles covers it (they cover \(covered.joined(separator: ", ")));"
                + " a preview judges by the version's profile, so add one (--profiles, docs/profiles.md)"
        }
    }
}
