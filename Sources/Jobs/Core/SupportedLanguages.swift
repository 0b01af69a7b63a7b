/// The languages a job may answer in; any other falls back before the model is asked (spec §6).
///
/// The replay judges the app's behaviour, so the default list is the one the app would check on
/// the phone: the languages Apple's on-device model supports (Apple Intelligence as of iOS 26:
/// English, French, German, Italian, Portuguese, Spanish, Chinese, Japanese, Korean, Danish,
/// Dutch, Norwegian, Swedish, Turkish, Vietnamese), by language subtag, because the app checks the
/// language, not the region. The replay's own default model (SmolLM2) is English-first, so its
/// answers in the other languages understate the phone's quality; `englishOnly` is there to
/// replay only what the default model handles well. A message with no `lang` in a thread with no
/// `locale` is taken as supported: the app would use the phone's language, which the export
/// does not record.
public struct SupportedLanguages: Sendable, Equatable {
    /// Lowercased language subtags ("en", "ja"); "no" and "nb" are both Norwegian (Bokmål).
    public var codes: Set<String>

    /// Languages by lowercased language subtag.
    public init(codes: Set<String>) {
        self.codes = Set(codes.map { $0.lowercased() })
    }

    /// Apple's on-device model's languages (Apple Intelligence, iOS 26): the default.
    public static let appleIntelligence = SupportedLanguages(codes: [
        "en", "fr", "de", "it", "pt", "es", "zh", "ja", "ko",
        "da", "nl", "nb", "no", "sv", "tr", "vi",
    ])

    /// English only: what the replay's default model (SmolLM2) was trained for.
    public static let englishOnly = SupportedLanguages(codes: ["en"])

    /// Whether a BCP 47 tag's language is supported; an absent tag is (the phone's own language).
    public func supports(_ tag: String?) -> Bool {
        guard let tag else { return true }
        guard let code = Language.code(of: tag) else { return true }   // an empty tag says nothing
        return codes.contains(code)
    }
}
