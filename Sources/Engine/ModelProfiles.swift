import Privacy

/// The phones and model versions a run judges by: each model version's context, languages and
/// speed (`ModelVersionProfile`), each device's speed (`DeviceProfile`), and which version a
/// place whose `meta.model` names none of them is judged as.
///
/// A profiles file (schema `replay.profiles/1`, docs/profiles.md) replaces the built-in set
/// (`builtIn`, what `replay profiles show` prints). A place is judged by the profile of its own
/// `meta.model`, so a 27.0 screen is cut and budgeted as 27.0 would cut and budget it, beside a
/// 26.4 screen of the same corpus judged as 26.4.
public struct ModelProfiles: Sendable, Equatable {
    public static let schema = "replay.profiles/1"

    /// The set's name, as the report shows it.
    public var name: String
    /// The SHA-256 of the file it was read from, in hex.
    public var sha256: String
    public var devices: [DeviceProfile]
    /// The model versions, none covering a version another covers.
    public var models: [ModelVersionProfile]
    /// The profile of a place whose model version is missing, not a version, or covered by none.
    public var unknownModel: ModelVersionProfile
    /// How the phone runs its model over time: cold starts, idle unloads, prewarms (`PhoneQueueModel`).
    public var queue: PhoneQueueModel
    /// An upgrade preview's version (`--as-model-version`): when set, every place is judged by
    /// this version's profile, whatever its own `meta.model` says (`previewing(_:)`).
    public private(set) var previewVersion: String? = nil

    public init(name: String, sha256: String, devices: [DeviceProfile], models: [ModelVersionProfile], unknownModel: ModelVersionProfile,
                queue: PhoneQueueModel = ModelProfiles.estimatedQueue) {
        self.queue = queue
        self.name = name
        self.sha256 = sha256
        self.devices = devices
        self.models = models
        self.unknownModel = unknownModel
    }

    /// The profile a place with `meta.model` of `model` is judged by: its own version's, or in an
    /// upgrade preview the previewed version's.
    public func profile(forModel model: String) -> ModelVersionProfile {
        guard let version = ModelVersion(previewVersion ?? model) else { return unknownModel }
        return models.first { $0.covers(version) } ?? unknownModel
    }

    /// These profiles with every place judged as model version `version` would run it: its
    /// context, languages, speed and tokens (an upgrade preview: "what happens to our traffic when
    /// people move to 27.0"). Fails when no version profile covers `version`, naming the ones that
    /// do: a preview of a version the profiles cannot describe would judge by a guess.
    public func previewing(_ version: String) throws(EngineError) -> ModelProfiles {
        guard let parsed = ModelVersion(version), models.contains(where: { $0.covers(parsed) }) else {
            throw .previewVersionIsNotProfiled(version: version, profiles: name, covered: models.map {
                "\($0.from)" + ($0.below.map { " up to \($0)" } ?? " and later")
            })
        }
        var copy = self
        copy.previewVersion = version
        return copy
    }

    /// The device named `name` (case-insensitive) among this set's, or a
    /// `custom:PREFILL_MS_PER_TOKEN,TOKENS_PER_SECOND` one; nil for any other name.
    public func device(named name: String) -> DeviceProfile? {
        devices.first { $0.name == name.lowercased() } ?? DeviceProfile.custom(name)
    }

    /// The device a run names (`--device`, or a config's `device`), or the first of the set's when
    /// it names none.
    public func chosenDevice(_ name: String?) throws(EngineError) -> DeviceProfile {
        guard let name else { return devices[0] }
        guard let device = device(named: name) else {
            throw .deviceIsNotInTheProfiles(name: name, known: devices.map(\.name), profiles: self.name)
        }
        return device
    }

    /// `device` as `model`'s version runs on it: the version's own figures for that device when
    /// its profile gives them, else the device's.
    public func device(_ device: DeviceProfile, model: String) -> DeviceProfile {
        profile(forModel: model).running(on: device)
    }

    /// The session's ceiling for a place of `model` on `device`.
    public func contextTokens(model: String, device: String) -> Int {
        profile(forModel: model).contextTokens(on: device)
    }

    /// The largest ceiling any version has on `device`: what an engine must hold per sequence.
    public func largestContext(on device: String) -> Int {
        (models + [unknownModel]).map { $0.contextTokens(on: device) }.max() ?? unknownModel.contextTokens
    }

    /// Every language some version answers in.
    public var anyLanguage: Set<String> {
        (models + [unknownModel]).reduce(into: Set<String>()) { $0.formUnion($1.languages) }
    }

    /// "built-in (SHA-256 0123456789ab)": for a sentence saying two sets differ.
    public var summary: String { "\(name) (SHA-256 \(sha256.prefix(12)))" }
}
