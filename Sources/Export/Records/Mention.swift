import Privacy

/// Whether a person's message names a group member as `@Name`: the one rule routing and the
/// flywheel share.
///
/// Spec §3: "An @name always wins", so a named message is routed by the database and the model
/// is not asked. The routing job decides from it which messages the model sees, and the flywheel
/// which messages count as named; if the two read `@Name` differently, the replay's `named`
/// counter and the flywheel's `route.named` share describe different messages. So the rule lives
/// here, below both.
///
/// The rule: an `@` that does not follow a letter, digit or `_` (so `x@sage.com`, an e-mail
/// address, is not a mention), then a member's name, compared without regard to case, ending the
/// text or followed by something other than a letter, digit or `_` (`@Sage,` names Sage;
/// `@Sagebrush` does not). A name may hold spaces (`@Dr Lee`).
public enum Mention {
    /// Whether `text` names one of `members` (names as the export writes them).
    public static func namesMember(_ text: String, members: [String]) -> Bool {
        // Bytes, not Foundation's `contains` (a locale-aware search, per message): an `@`
        // character is the byte 0x40, and the scan below decides the rest.
        guard text.utf8.contains(UInt8(ascii: "@")) else { return false }
        let names = members.map { Array($0.lowercased()) }.filter { !$0.isEmpty }
        guard !names.isEmpty else { return false }
        let characters = Array(text.lowercased())
        for at in characters.indices where characters[at] == "@" {
            if at > 0 && isWordCharacter(characters[at - 1]) { continue }
            let start = at + 1
            for name in names where characters.count - start >= name.count {
                guard characters[start..<(start + name.count)].elementsEqual(name) else { continue }
                let end = start + name.count
                if end == characters.count || !isWordCharacter(characters[end]) { return true }
            }
        }
        return false
    }

    /// Whether sealed `text` names one of `members`: a yes or no, never the words.
    public static func namesMember(_ text: SealedText, members: [String]) -> Bool {
        text.withUnsealedText { namesMember($0, members: members) }
    }

    /// A character that continues a word: a letter, a digit or `_`.
    static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }
}
