import Engine
import Jobs

/// What is decided about a planned place before the model is asked: the same for a run's planner
/// and a suite's cases, so a suite judges a case as a run would judge that place.
///
/// The place is judged as its own model version (`meta.model`): that version's languages, its
/// session's ceiling on the run's device, and the device's speed for it. A language the version
/// does not answer in falls back (`unsupportedLanguage`), as does every place when the model is
/// unavailable; any other is asked, and its prompt sized in the phone's tokens (the version's
/// estimate, `PhoneTokenizers`): tokens, the device's prefill estimate, and whether prompt and
/// output allowance exceed the version's ceiling. The request itself goes to the stand-in with
/// the largest ceiling of any version on the device: the stand-in counts in its own tokens, so it
/// is held to no ceiling of the phone's, only to what its engine holds.
package struct PreAsk {
    let profiles: ModelProfiles
    let device: DeviceProfile
    /// The phone's tokens of each model version.
    let phoneTokens: PhoneTokenizers
    /// The ceiling every request goes to the stand-in with: the largest on the device.
    private let engineContext: Int
    /// Each model version's judging, looked up once (a thread has a few).
    private var versions: [String: Version] = [:]

    /// A model version as it judges a place.
    package struct Version {
        package var languages: SupportedLanguages
        package var contextTokens: Int
        package var device: DeviceProfile
        /// Counts the version's tokens.
        package var tokens: any Tokenizer
    }

    /// What becomes of a place.
    package enum Decision {
        /// Decided without the model.
        case fallback(FallbackReason)
        /// Asked: the request as it goes to the model, and its size.
        case ask(GenerationRequest, Size)
    }

    /// A request's size on the device, known before it is asked.
    package struct Size {
        package var promptTokens: Int
        package var devicePrefillMilliseconds: Double
        /// Prompt and output allowance exceed the session's ceiling: the model cannot answer.
        package var overContext: Bool
    }

    package init(profiles: ModelProfiles, device: DeviceProfile, phoneTokens: PhoneTokenizers) {
        self.profiles = profiles
        self.device = device
        self.phoneTokens = phoneTokens
        engineContext = profiles.largestContext(on: device.name)
    }

    /// The judging of model version `model` (`meta.model`, or `Attribution.unknown`).
    package mutating func version(_ model: String) -> Version {
        if let known = versions[model] { return known }
        let profile = profiles.profile(forModel: model)
        let version = Version(languages: SupportedLanguages(codes: profile.languages), contextTokens: profile.contextTokens(on: device.name),
                              device: profiles.device(device, model: model), tokens: phoneTokens.tokenizer(forModel: model))
        versions[model] = version
        return version
    }

    /// The decision for `item`, whose job made `request` (planned with `phoneTokens`, so its
    /// `promptTokens` are the phone's; the version's estimate sizes a prompt planning did not count).
    package mutating func decide(_ item: JobItem, request: GenerationRequest, modelUnavailable: Bool) -> Decision {
        let version = version(item.attribution.model)
        let locale = item.attribution.locale == Attribution.unknown ? nil : item.attribution.locale
        guard version.languages.supports(locale) else { return .fallback(.unsupportedLanguage) }
        if modelUnavailable { return .fallback(.modelUnavailable) }
        var request = request
        request.contextLimit = engineContext
        // Planning counted most requests from words it had counted already.
        let promptTokens = item.promptTokens ?? version.tokens.promptTokenCount(for: request)
        let prefill = version.device.estimatedMilliseconds(promptTokens: promptTokens, outputTokens: 0)
        return .ask(request, Size(promptTokens: promptTokens, devicePrefillMilliseconds: prefill,
                                  overContext: promptTokens + request.maxOutputTokens > version.contextTokens))
    }
}
