import Privacy

/// The phone's tokens for every model version of a profiles set: each place is counted by its
/// own version's estimate (`ModelVersionProfile.tokens`), looked up by its `meta.model` as the
/// version's ceiling and languages are.
///
/// Used as a plain `Tokenizer` it counts as the unknown model's version (its calls forwarded to
/// that version's `PhoneTokenizer`); a job counts a place with `tokenizer(forModel:)`. When every version has the same rates (the built-in set) that is
/// one tokenizer, and no place's version is looked up.
public final class PhoneTokenizers: ForwardingTokenizer, Sendable {
    private let profiles: ModelProfiles
    private let byName: [String: PhoneTokenizer]
    private let fallback: PhoneTokenizer
    private let single: Bool

    public init(_ profiles: ModelProfiles) {
        self.profiles = profiles
        let all = profiles.models + [profiles.unknownModel]
        var byName: [String: PhoneTokenizer] = [:]
        for model in all where byName[model.name] == nil { byName[model.name] = PhoneTokenizer(model.tokens) }
        self.byName = byName
        fallback = byName[profiles.unknownModel.name]!
        single = Set(all.map(\.tokens.charactersPerToken)).count == 1 && Set(all.map(\.tokens.framingTokens)).count == 1
    }

    public func tokenizer(forModel model: String) -> any Tokenizer {
        single ? fallback : byName[profiles.profile(forModel: model).name] ?? fallback
    }

    public var underlyingTokenizer: any Tokenizer { fallback }
}
