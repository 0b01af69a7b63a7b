import Testing
@testable import Export

/// The byte rule for ASCII texts must answer as the Character rule does.
@Suite struct MentionTests {
    @Test func asciiRuleAgreesWithTheCharacterRule() {
        var generator = Xorshift(seed: 11)  // fixed, so a failure can be read again
        let alphabet = Array("aAbB sS@_-.,0z\tZ!\r\n".utf8) + Array("@@".utf8)
        let names = ["Sage", "sage", "Dr Lee", "S", "Sa_ge", "", "Ab-1", "ZZ"]
        var fastAnswers = 0, named = 0
        for _ in 0..<5_000 {
            let length = Int.random(in: 0...24, using: &generator)
            let text = String(decoding: (0..<length).map { _ in alphabet.randomElement(using: &generator) ?? 0x40 }, as: UTF8.self)
            let members = (0..<Int.random(in: 0...3, using: &generator)).compactMap { _ in names.randomElement(using: &generator) }
            let reference = Mention.namesMemberByCharacters(text, members: members)
            #expect(Mention.namesMember(text, members: members) == reference)
            if let fast = Mention.namesMemberInASCII(text, members: members) {
                #expect(fast == reference)
                fastAnswers += 1
                if fast { named += 1 }
            }
        }
        // The fast rule answered most, with both answers among them; carriage returns fell back.
        #expect(fastAnswers > 2_500)
        #expect(named > 10)
        #expect(Mention.namesMemberInASCII("hi @sage\r\n", members: ["Sage"]) == nil)
        #expect(Mention.namesMemberInASCII("hi @zoé", members: ["Zoé"]) == nil)
        #expect(Mention.namesMemberInASCII("hi @Zoe", members: ["Zoé"]) == nil)
    }
}
