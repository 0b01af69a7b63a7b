/// The closed vocabularies `ReportLabel` keeps words from: the export format's own names
/// (`../shared/EXPORT_FORMAT.md`, version 1) and the locale subtags that are not free words.
///
/// A word of a report label comes from one of these or from the team's list (`TeamLabels`), never
/// from the corpus alone: a corpus can only choose among these words, not spell its own.
public enum ExportVocabulary {
    /// Line types (`"type"`) and screen node kinds the format defines: an unknown kind or type
    /// is one not in this list, so it is shown only if the team lists it, else as its hash.
    public static let kinds: Set<String> = [
        "export", "thread", "message",
        "say", "card", "stat", "list", "picture", "choose", "pick", "ask", "form", "slide",
    ]

    /// The field names of the format, which the reader quotes in a bad line's field path
    /// (`screen[2].card.title`, `meta.draft_ticks[0]`).
    public static let fields: Set<String> = [
        "type", "version", "created", "anonymised", "id", "thread", "agent", "about", "locale", "group", "lead",
        "members", "name", "at", "from", "text", "screen", "push", "kind", "batch", "lang", "meta", "via", "to",
        "routed", "offline", "draft_ticks", "build", "model", "title", "body", "picture", "props", "label",
        "value", "unit", "items", "url", "alt", "prompt", "options",
    ]

    /// Languages of three letters that have no two-letter code and that locales use (CLDR); any
    /// other three-letter language is hashed, since three letters can be a word.
    public static let threeLetterLanguages: Set<String> = [
        "fil", "yue", "haw", "ceb", "ckb", "gsw", "ast", "chr", "kok", "mai", "mni", "sat", "brx", "doi", "nds",
    ]

    /// The language and script pairs locales use (CLDR), in canonical case: the only places a
    /// script subtag is kept (`zh-Hant-TW`).
    public static let scriptedLanguages: Set<String> = [
        "zh-Hans", "zh-Hant", "yue-Hans", "yue-Hant", "sr-Cyrl", "sr-Latn", "uz-Latn", "uz-Cyrl", "uz-Arab",
        "az-Latn", "az-Cyrl", "bs-Latn", "bs-Cyrl", "pa-Guru", "pa-Arab", "mn-Cyrl", "mn-Mong", "ms-Arab",
        "ha-Arab", "ks-Arab", "ks-Deva", "sd-Arab", "sd-Deva", "ff-Latn", "ff-Adlm",
    ]
}
