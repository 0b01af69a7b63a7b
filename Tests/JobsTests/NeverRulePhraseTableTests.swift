import Testing
@testable import Jobs

/// The pieces the word rules are made of: the phrase notation and its boundaries
/// (`PhraseTable`), and what the short-text reader can and cannot tell (`ShortTextLanguage`).
@Suite struct NeverRulePhraseTableTests {
    static func table(_ phrases: String...) -> PhraseTable { PhraseTable(["en": phrases]) }

    @Test(arguments: [
        ("hi", "this is fine", false),                       // a word boundary before and after
        ("hi", "hi there", true),
        ("you", "you'll see", false),                        // an apostrophe and a letter go on with the word
        ("ill", "ill-prepared for Sunday", false),           // so does a hyphen and a letter
        ("ill", "I feel ill.", true),
        ("avocat", "j'ai besoin d'un avocat", true),
        ("avocat", "l'avocat", true),                        // an elided article before is a boundary
        ("injur*", "an old injury", true),                   // a stem needs no boundary after
        ("injur*", "uninjured", false),                      // but one before
        ("schmerz* !frei", "schmerzfrei gelaufen", false),   // a stem's ending can cancel it
        ("schmerz* !frei", "schmerzen im knie", true),
        ("^great job", "Great job!", true),                  // at the text's start
        ("^great job", "👍 Great job", true),                // after an emoji
        ("^great job", "Done. Great job", true),             // after a sentence's end
        ("^great job", "Was it a great job", false),
        ("^great job !?", "Great job? Not really", false),   // questioned
        ("^recuerda !que|mi", "Recuerda que trabajo", false),
        ("^recuerda !que|mi", "Recuerda, mi rodilla", false),  // spaces and commas before the next word are skipped
        ("^recuerda !que|mi", "Recuerda hidratarte", true),
        ("^recuerda !que|mi", "¡Recuerda estirar!", true),
        ("べきです !か", "休むべきですか", false),              // scripts without spaces: no boundaries, beginnings cancel
        ("べきです !か", "休むべきです", true),
        ("don't forget", "Don’t forget", true),              // typographic apostrophes fold to '
    ])
    func phrasesStandWhereTheirNotationSays(phrase: String, text: String, matches: Bool) {
        #expect(Self.table(phrase).contains(PhraseTable.Folded(text)) == matches)
    }

    @Test func aTableReadsOneLanguageOrEvery() {
        let table = PhraseTable(["en": ["pain"], "fr": ["douleur"], "nb": ["smerte"]])
        let bread = PhraseTable.Folded("pain au chocolat")
        #expect(table.contains(bread))                       // any language: every table
        #expect(table.contains(bread, language: "en"))
        #expect(!table.contains(bread, language: "fr"))      // French: the French table alone
        #expect(!table.contains(bread, language: "fi"))      // a language without a table: nothing
        #expect(table.contains(PhraseTable.Folded("vond smerte"), language: "no"))   // "no" reads "nb"
        #expect(table.matches(in: PhraseTable.Folded("pain, pain")) == [0..<4, 6..<10])
    }

    @Test(arguments: [
        ("はい、大丈夫です", Set(["ja"])),
        ("OKです", ["ja"]),                  // a little kana among Latin letters
        ("了解", ["zh", "ja"]),              // Han alone: Chinese or Japanese
        ("좋아요", ["ko"]),
        ("Спасибо", []),                    // another script: none of the supported languages
        ("Yes, let's do it", ["en", "pt"]),      // "do" is Portuguese too
        ("Ja, gerne", ["de", "da", "nl", "nb", "sv"]),   // a word several lists hold supports each of them
    ] as [(String, Set<String>)])
    func clearTextsAreRead(text: String, languages: Set<String>) {
        #expect(ShortTextLanguage(text).clearLanguages == languages)
    }

    @Test(arguments: ["OK", "Yes!", "5 km", "👍", "Le Tour de France", "Café de Flore", "Namaste 🙏", "Sushi tonight?", ""])
    func shortOrAmbiguousTextsAreNotRead(text: String) {
        #expect(ShortTextLanguage(text).clearLanguages == nil)
    }

    @Test(arguments: [
        ("Sounds good to me", "de", true),
        ("Sounds good to me", "en", false),
        ("Ja, gerne", "en", true),
        ("Ja, gerne", "nb", false),          // shared words: no violation
        ("はい", "ja", false),
        ("はい", "zh", true),
        ("了解", "ko", true),
        ("Yes, let's go", "no", true),       // "no" is Norwegian Bokmål
        ("Yes, let's go", "fi", false),      // a language the reader has no list for is never judged
        ("OK", "de", false),
    ])
    func chipsAreJudgedAgainstThePersonsLanguage(chip: String, language: String, wrong: Bool) {
        #expect(ChipLanguageRule.isWrongLanguage(chip, language: language) == wrong)
    }
}
