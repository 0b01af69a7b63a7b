/// One locale's words: its agents' domains, slot values that differ by locale, and the lines every agent shares.
struct Phrasebook: Sendable {
    /// The BCP 47 locale written on threads (or on messages as `lang`).
    let locale: String
    /// Locale-wide slots (currency, units, days), looked up before a domain's own.
    let slots: [String: [String]]
    /// The agents this locale's threads may have, in a fixed order.
    let domains: [Domain]
    /// How often each domain is a one-agent thread's agent (parallel to `domains`).
    let weights: [Int]
    /// An agent's opening question; "@AGENT" is replaced with its name.
    let greetings: [String]
    /// The lead passing a message on; "@NAME" is replaced with the member's name.
    let handoffs: [String]
    /// Short person closers that fit any agent.
    let thanks: [String]
    /// Sentences that fit any long screen, to vary long bodies.
    let connectives: [String]
    /// The mark a question ends with.
    let questionMark: String

    /// The domain of the agent called `name`, if this locale has one.
    func domain(named name: String) -> Domain? {
        domains.first { $0.agent == name }
    }

    /// The locales threads are written in, with their weights.
    static let locales: [(locale: String, weight: Int)] = [
        ("en-US", 41), ("en-GB", 32), ("fr-FR", 7), ("de-DE", 6), ("es-ES", 7), ("ja-JP", 7),
    ]

    /// The phrasebook for a locale from `locales`.
    static func book(for locale: String) -> Phrasebook {
        switch locale {
        case "en-US": americanEnglish
        case "en-GB": britishEnglish
        case "fr-FR": french
        case "de-DE": german
        case "es-ES": spanish
        case "ja-JP": japanese
        default: americanEnglish
        }
    }

    /// Expands `{slot}` and `{a-b}` placeholders in `template`, and any placeholders inside slot values.
    func expand(_ template: String, in domain: Domain, using rng: inout Xoshiro256) -> String {
        guard template.utf8.contains(UInt8(ascii: "{")) else { return template }
        var out = ""
        out.reserveCapacity(template.utf8.count + 16)
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            out += rest[rest.startIndex ..< open]
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = rest[rest.index(after: open) ..< close]
            out += resolve(name, in: domain, using: &rng)
            rest = rest[rest.index(after: close)...]
        }
        out += rest
        return out
    }

    private func resolve(_ name: Substring, in domain: Domain, using rng: inout Xoshiro256) -> String {
        if let first = name.utf8.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9"),
           let dash = name.firstIndex(of: "-"),
           let low = Int(name[name.startIndex ..< dash]), let high = Int(name[name.index(after: dash)...]) {
            return String(rng.int(low ... high))
        }
        let key = String(name)
        // A slot's value may hold slots of its own ("the {bin}"), which are expanded in turn.
        if let values = slots[key] ?? domain.slots[key], !values.isEmpty { return expand(rng.pick(values), in: domain, using: &rng) }
        return key
    }
}
