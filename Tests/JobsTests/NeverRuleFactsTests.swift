import Privacy
import Testing
@testable import Jobs

/// The pieces `push_unfaithful` is made of: how numbers, units, times and days are read
/// (`FactReader`), what counts as rounding (`SourceFacts.rounds`), that the same fact written
/// another way in another language is the same fact, that nothing a text holds can stop the
/// reading, and that the kept facts show nothing.
@Suite struct NeverRuleFactsTests {
    @Test(arguments: [
        ("2.3", [2.3], nil),
        ("2,3", [2.3], nil),                        // a decimal comma
        ("1,200", [1.2, 1200], nil),                // one separator before three digits: either
        ("1.234,5", [1234.5], nil),                 // both marks: the last is the decimal one
        ("1,234,567", [1_234_567], nil),
        ("1\u{202F}250", [1250], nil),              // a narrow no-break space between thousands
        ("7:30", [7], 450),                          // a time
        ("19:45", [19], 465),                        // read modulo twelve hours
    ] as [(String, [Double], Int?)])
    func numbersAreReadEveryWayTheyMayBeMeant(text: String, values: [Double], clock: Int?) {
        let parsed = FactReader.parse(text)
        #expect(parsed.values.map(\.value) == values)
        #expect(parsed.clock.map { FactReader.clock(hour: $0.hour, minute: $0.minute) } == clock)
    }

    @Test(arguments: [
        (2.3, 1, "2", true), (2.3, 1, "2.3", true), (2.7, 1, "2", true),    // rounded or cut
        (2.3, 1, "3", false), (2.3, 1, "2.5", false), (2.0, 0, "2.3", false),   // never more precise than the source
        (18.7, 1, "20", true), (1234, 0, "1200", true), (1234, 0, "1000", false),
        (9, 0, "10", false), (12, 0, "10", false),                           // a whole number keeps two figures
    ] as [(Double, Int, String, Bool)])
    func roundingIsAllowedInventingIsNot(source: Double, decimals: Int, line: String, rounds: Bool) throws {
        let value = try #require(FactReader.parse(line).values.first)
        #expect(SourceFacts.rounds(FactReader.Quantity(value: source, decimals: decimals, units: []),
                                   to: FactReader.Quantity(value: value.value, decimals: value.decimals, units: [])) == rounds)
    }

    /// The same fact written another way, in the reply's words and the line's.
    @Test(arguments: [
        ("Weight: -2.3 lb", "Weight down 2.3 lbs", "en"),
        ("5 kilometres easy", "5 km easy", "en"),
        ("Lights low at ten", "Lights out at 10pm", "en"),
        ("Meeting at 14:00", "Meeting at 2 p.m.", "en"),
        ("Saved $12", "Saved 12 dollars", "en"),
        ("up 15 percent", "up 15%", "en"),
        ("3k tomorrow", "3 km tomorrow", "en"),
        ("10,000 steps", "10k steps", "en"),
        ("vingt-cinq minutes", "25 min", "fr"),
        ("rendez-vous à 18h30", "rendez-vous 18:30", "fr"),
        ("10\u{00A0}000 pas", "10 000 pas", "fr"),
        ("fünfundzwanzig Minuten", "25 Minuten", "de"),
        ("Start 19 Uhr", "Start um 19:00", "de"),
        ("Training um 19.30 Uhr", "Training 19:30", "de"),
        ("Race on 14 Sept", "Race on 14 Sept", "en"),
        ("Training um 19:30", "Training um 19.30 Uhr", "de"),
        ("treinta y cinco minutos", "35 min", "es"),
        ("今週は三回走りました", "今週3回", "ja"),
        ("土曜日は10キロ", "土曜10km", "ja"),
        ("７時半に起床", "7時半起床", "ja"),
    ])
    func theSameFactWrittenAnotherWayIsHeld(reply: String, line: String, language: String) {
        #expect(!PushUnfaithfulRule.invents(line, source: SourceFacts(reading: reply), language: language))
    }

    @Test(arguments: [
        ("Weight: -2.3 lb", "Weight down 2.3 kg", "en"),
        ("5 km easy", "5 miles easy", "en"),
        ("Run on Friday", "Run on Saturday", "en"),
        ("Rest tomorrow", "Rest yesterday", "en"),
        ("Lauf am Samstag", "Lauf am Sonntag", "de"),
        ("Repos demain", "Repos samedi", "fr"),
        ("mañana 5 km", "el jueves 5 km", "es"),
        ("今週は三回走りました", "今週5回", "ja"),
        ("Booked with Dr. Patel", "Booked with Dr. Shah", "en"),
        ("Training um 19.30 Uhr", "Training um 19.45 Uhr", "de"),
        ("Training um 19.30 Uhr", "Training um 19 Uhr", "de"),
    ])
    func aFactTheReplyDoesNotHoldIsInvented(reply: String, line: String, language: String) {
        #expect(PushUnfaithfulRule.invents(line, source: SourceFacts(reading: reply), language: language))
    }

    /// Words that look like facts in another language or place are none: a line in German
    /// capitalises nouns, English "one" is an article, "一緒" holds a kanji one.
    @Test(arguments: [
        ("Ruhetag", "Morgen Ruhetag, dann Lauf", "de", true),     // "Morgen" first is tomorrow: the reply does not say it
        ("Ruhetag morgen", "Morgen Ruhetag, dann lockerer Lauf", "de", false),
        ("Nice week", "Nice week, a light one", "en", false),
        ("明日は休み", "明日は一緒に休み", "ja", false),
        ("Heute zehn Atemzüge", "Heute 10 Atemzüge, guten Morgen", "de", false),
        ("Rest day", "Rest day, may feel tired", "en", false),       // "may" is no month
    ])
    func wordsThatAreNoFactsAreNotRead(reply: String, line: String, language: String, invents: Bool) {
        #expect(PushUnfaithfulRule.invents(line, source: SourceFacts(reading: reply), language: language) == invents)
    }

    /// Whatever a text holds, reading it ends: huge numbers, lone separators, marks, emoji.
    @Test func anyTextIsReadWithoutStopping() {
        let texts = ["", "h", "a.m.", "1,", ",5", ".", "99999999999999999999999999:30", String(repeating: "9", count: 400) + " pm",
                     "1e309 km", "1 2 3 4 5 6 7 8 9 000", "e\u{301}\u{301}\u{301}", "👍🏽 3️⃣ km", "１２３４５６７８９０ｋｍ", "七十二万三千", "〇〇〇月",
                     "x2 ×3 5x", "- 3 - - 4 -", "'''", "Dr.", "L'Anna's", "\u{202F}\u{00A0}\u{2009}", "2万3千円", "半時", "时间 10:61"]
        for text in texts {
            let facts = SourceFacts(reading: text, agent: text, members: [text], counts: [1], keepsParts: true)
            _ = PushUnfaithfulRule.invents(text, source: facts, language: "en")
            _ = PushUnfaithfulRule.invents(text, source: facts, language: "ja")
            _ = DraftAdviceRule.advises(text, message: facts)
            _ = DraftAgentVoiceRule.speaksAsAgent(text, agent: text, message: facts)
        }
    }

    /// The kept facts are the thread's: printing them shows nothing.
    @Test func factsShowNothing() {
        let facts = SourceFacts(SealedText("Weight: 182.3 lb, Dr. Patel on Friday"))
        #expect(Mirror(reflecting: facts).children.isEmpty)
        // Every way to show a value: none shows a number of the text (words are kept as hashes).
        var dumped = ""
        dump(facts, to: &dumped)
        for shown in [String(describing: facts), String(reflecting: facts), dumped] {
            #expect(!shown.contains("182") && !shown.contains("Patel"), "\(shown.count) characters")
        }
        // The other holders of a text's words or the corpus's facts hide theirs too.
        let folded = PhraseTable.Folded("remember to call dr patel")
        let agents = DrawerAgents([.init(name: "Patel", about: SealedText("money"))])
        let facts2 = CorpusFacts(drawer: agents)
        for shown in [String(describing: folded), String(reflecting: folded), String(describing: agents),
                      String(describing: agents.agents), String(reflecting: facts2)] {
            #expect(!shown.contains("atel") && !shown.contains("remember"), "\(shown.count) characters")
        }
    }

    @Test func aDraftsWordsAreItsTitleLabelBodyAndItems() {
        let checklist = Draft.decodedTexts(SealedText(#"{"kind":"checklist","title":"Race","items":["Shoes"," ","Gels"]}"#))
        #expect(checklist?.count == 3 && checklist?[1].withUnsealedText { $0 == "Shoes" } == true)   // blank ones left out
        let timer = Draft.decodedTexts(SealedText(#"{"kind":"timer","label":"Ice","minutes":20}"#))
        #expect(timer?.count == 1)
        #expect(Draft.decodedTexts(SealedText(#"{"kind":"none"}"#))?.isEmpty == true)
        #expect(Draft.decodedTexts(SealedText(#"{"kind":"card","title":"A""#)) == nil)
    }
}
