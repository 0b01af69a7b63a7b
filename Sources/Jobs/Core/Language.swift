/// Language names for instructions ("in French"), from a BCP 47 tag.
///
/// Every language `SupportedLanguages.appleIntelligence` accepts has its own name here, so a
/// supported tag is never answered "in English" by default: `no` and `nb` are both Norwegian
/// Bokmål (the written standard `no` means in practice), `nn` is Nynorsk. Chinese names its
/// script when the tag gives one (or a region that writes it), since the reader's script is what
/// the answer must be in.
public enum Language {
    static let names: [String: String] = [
        "en": "English", "fr": "French", "de": "German", "es": "Spanish", "it": "Italian",
        "pt": "Portuguese", "nl": "Dutch", "ja": "Japanese", "zh": "Chinese", "ko": "Korean",
        "sv": "Swedish", "da": "Danish", "nb": "Norwegian Bokmål", "no": "Norwegian Bokmål",
        "nn": "Norwegian Nynorsk", "fi": "Finnish", "pl": "Polish", "tr": "Turkish", "vi": "Vietnamese",
    ]

    /// Regions that write Chinese in Traditional characters when the tag names no script.
    static let traditionalChineseRegions: Set<String> = ["tw", "hk", "mo"]

    /// The language subtag of `tag`, lowercased ("en-GB" → "en").
    public static func code(of tag: String?) -> String? {
        guard let tag else { return nil }
        // Asked at every place a job fires: a tag that starts with its language in ASCII
        // ("en-US") is read from its bytes, the rest by the general rule.
        return asciiCode(of: tag) ?? splitCode(of: tag)
    }

    /// The first subtag alone, lowercased, found without splitting the rest.
    static func splitCode(of tag: String) -> String? {
        guard let first = tag.split(maxSplits: 1, omittingEmptySubsequences: true, whereSeparator: { $0 == "-" || $0 == "_" }).first
        else { return nil }
        return first.lowercased()
    }

    /// `splitCode(of:)` for a tag whose first subtag is ASCII and comes first: the bytes before
    /// the first separator, folded to lower case; nil for any other tag.
    static func asciiCode(of tag: String) -> String? {
        var tag = tag   // withUTF8 is mutating: it may make the storage contiguous
        return tag.withUTF8 { bytes -> String? in
            var length = 0
            while length < bytes.count, bytes[length] != UInt8(ascii: "-"), bytes[length] != UInt8(ascii: "_") {
                guard bytes[length] < 0x80 else { return nil }
                length += 1
            }
            guard length > 0 else { return nil }
            return String(unsafeUninitializedCapacity: length) { folded in
                for index in 0..<length {
                    let byte = bytes[index]
                    folded[index] = byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
                }
                return length
            }
        }
    }

    /// The English name of `tag`'s language; English when the tag is absent or its language is
    /// not one this table knows (no supported language is among those: tested).
    public static func name(of tag: String?) -> String {
        guard let tag, let code = code(of: tag), let name = names[code] else { return "English" }
        guard code == "zh" else { return name }
        let rest = subtags(of: tag).dropFirst()
        if rest.contains("hant") || (!rest.contains("hans") && rest.contains(where: traditionalChineseRegions.contains)) {
            return "Traditional Chinese"
        }
        return rest.contains("hans") || rest.contains("cn") || rest.contains("sg") ? "Simplified Chinese" : name
    }

    /// A tag's subtags, lowercased ("zh_Hant-TW" → zh, hant, tw).
    static func subtags(of tag: String) -> [String] {
        tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).map { $0.lowercased() }
    }
}
