import Privacy

/// `NeverRule.chipsWrongLanguage`: a chip not in the person's language (spec §2: the replies
/// come "in the person's language").
///
/// The person's language is the one the chips job already resolves (the next message's `lang`,
/// else the thread's `locale`), kept as its subtag in the item's `labels["language"]`. A chip
/// breaks the rule only when `ShortTextLanguage` clearly reads it as other languages: Japanese
/// script for an English person, an English chip with English function words for a German one.
/// "OK", "Yes!", "5 km", an emoji or a name say too little and never count: a gate that cries
/// wolf gets switched off, so precision comes before recall.
///
/// Only languages the identifier knows are judged (every supported language); a person's
/// language outside them is never judged. Norwegian "no" is read as "nb".
public enum ChipLanguageRule {
    /// The languages the identifier can tell a chip is not in.
    public static let judgedLanguages: Set<String> = Set(ShortTextLanguage.wordLists.keys).union(["ja", "zh", "ko"])

    /// Whether `chip` is clearly not in `language` (a language subtag).
    public static func isWrongLanguage(_ chip: String, language: String) -> Bool {
        let code = Self.code(language)
        guard judgedLanguages.contains(code), let clear = ShortTextLanguage(chip).clearLanguages else { return false }
        return !clear.contains(code)
    }

    /// Whether any of `chips` is clearly not in `language`; never, when the language is unknown.
    public static func breaks(_ chips: [SealedText], language: String?) -> Bool {
        guard let language else { return false }
        return chips.contains { chip in chip.withUnsealedText { isWrongLanguage($0, language: language) } }
    }

    /// A language subtag as the identifier names it: lowercased, "no" as "nb".
    static func code(_ language: String) -> String {
        let code = language.lowercased()
        return code == "no" ? "nb" : code
    }
}
