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
        if let named = namesMemberInASCII(text, members: members) { return named }
        return namesMemberByCharacters(text, members: members)
    }

    /// The rule over Characters: the definition, for any text.
    static func namesMemberByCharacters(_ text: String, members: [String]) -> Bool {
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

    /// The same rule over bytes when the text and every name are ASCII without a carriage
    /// return (then each byte is one Character, lowercasing maps A-Z only, and a word character
    /// is a letter, a digit or `_`); nil otherwise. The Character rule lowercased and split the
    /// whole text into Characters, some 20,000 instructions a message (tested equal).
    static func namesMemberInASCII(_ text: String, members: [String]) -> Bool? {
        func plain(_ value: String) -> [UInt8]? {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(value.utf8.count)
            for byte in value.utf8 {
                guard byte < 0x80, byte != 0x0D else { return nil }
                bytes.append(byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte)
            }
            return bytes
        }
        guard let characters = plain(text) else { return nil }
        var names: [[UInt8]] = []
        for member in members {
            guard let name = plain(member) else { return nil }
            if !name.isEmpty { names.append(name) }
        }
        guard !names.isEmpty else { return false }
        func isWordByte(_ byte: UInt8) -> Bool {
            byte &- UInt8(ascii: "a") < 26 || byte &- UInt8(ascii: "A") < 26 || byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: "_")
        }
        for at in characters.indices where characters[at] == UInt8(ascii: "@") {
            if at > 0 && isWordByte(characters[at - 1]) { continue }
            let start = at + 1
            for name in names where characters.count - start >= name.count {
                guard characters[start..<(start + name.count)].elementsEqual(name) else { continue }
                let end = start + name.count
                if end == characters.count || !isWordByte(characters[end]) { return true }
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
