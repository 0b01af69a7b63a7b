/// Language names for instructions ("in French"), from a BCP 47 tag's language subtag.
public enum Language {
    static let names: [String: String] = [
        "en": "English", "fr": "French", "de": "German", "es": "Spanish", "it": "Italian",
        "pt": "Portuguese", "nl": "Dutch", "ja": "Japanese", "zh": "Chinese", "ko": "Korean",
        "sv": "Swedish", "da": "Danish", "nb": "Norwegian", "fi": "Finnish", "pl": "Polish",
        "tr": "Turkish", "vi": "Vietnamese",
    ]

    /// The language subtag of `tag`, lowercased ("en-GB" → "en").
    public static func code(of tag: String?) -> String? {
        guard let tag, let first = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first else { return nil }
        return first.lowercased()
    }

    /// The English name of `tag`'s language; English when the tag is absent or unknown.
    public static func name(of tag: String?) -> String {
        code(of: tag).flatMap { names[$0] } ?? "English"
    }
}
