import Privacy
import Engine
import Export
import Testing
@testable import Jobs

/// The spec's never rules counted through each job's own `plan` and `check`: an output that
/// breaks a rule is counted `never:<rule>`, a clean one is not, and the job's other behaviour
/// (the answer, its other counters) stays as it was. Nothing here prints an output.
@Suite struct NeverRuleJobTests {
    /// The never counters among `counters`.
    static func never(_ counters: [String: Int]) -> Set<String> {
        Set(counters.keys.filter { $0.hasPrefix(NeverRule.counterPrefix) })
    }

    // MARK: Chips

    /// The one chips item of a coach thread whose reply language is `lang` (nil: the thread's en-US).
    static func chipsItem(replyLanguage lang: String? = nil) throws -> JobItem {
        let reply = MessageRecord(thread: "t1", id: "m3", from: .person, text: SealedText("Etwas müde"), lang: lang,
                                  meta: MessageMeta(build: "2.4.0 (530)", model: "26.4"))
        let snapshot = ThreadSnapshot(thread: ThreadRecord(id: "t1", agent: "Coach", locale: "en-US"),
                                      messages: [Threads.person("m1", "Morning run done"), Threads.agent("m2", Threads.asks), reply])
        var ledger = JobLedger()
        return try #require(ChipsJob().plan(snapshot, tokenizer: ScriptedModel(output: ""), ledger: &ledger).first)
    }

    @Test func chipsLabelThePersonsLanguageAtPlanning() throws {
        #expect(try Self.chipsItem().labels["language"] == "en")
        #expect(try Self.chipsItem(replyLanguage: "de-AT").labels["language"] == "de")
    }

    @Test(arguments: [
        (#"{"replies":["Yes, let's do it","Not today"]}"#, "en", Set<NeverRule>()),
        (#"{"replies":["OK","5 km","👍"]}"#, "de", []),                                  // too little to tell
        (#"{"replies":["Sounds good to me","Ja, gerne"]}"#, "de", [.chipsWrongLanguage]),
        (#"{"replies":["はい、大丈夫です"]}"#, "en", [.chipsWrongLanguage]),
        (#"{"replies":["I'm tired","Great job!"]}"#, "en", [.chipsAgentVoice]),
        (#"{"replies":["Gut gemacht!","Ja"]}"#, "de", [.chipsAgentVoice]),
        (#"{"replies":["Great job!","Ja, gerne morgen"]}"#, "en", [.chipsWrongLanguage, .chipsAgentVoice]),
    ] as [(String, String, Set<NeverRule>)])
    func chipsAreCheckedForLanguageAndVoice(output: String, language: String, broken: Set<NeverRule>) throws {
        let item = try Self.chipsItem(replyLanguage: language)
        let checked = ChipsJob().check(SealedText(output), for: item, outcome: Threads.outcome(output))
        #expect(checked.answer != nil)   // the rules count, they never reject a chip
        #expect(Self.never(checked.counters) == Set(broken.map(\.counter)))
    }

    /// Every chip the schema decodes is judged, even when the row drops it (a repeat) or the
    /// answer comes too late to be shown.
    @Test func chipsLateOrDroppedAreCheckedToo() throws {
        let item = try Self.chipsItem()
        let job = ChipsJob()
        let repeated = #"{"replies":["Great job!","great job"]}"#
        #expect(Self.never(job.check(SealedText(repeated), for: item, outcome: Threads.outcome(repeated)).counters)
                == [NeverRule.chipsAgentVoice.counter])
        let late = job.evaluate(item, outcome: Threads.outcome(#"{"replies":["Well done!"]}"#, promptTokens: 4000, outputTokens: 160),
                                device: .iPhone15Pro)
        #expect(late.fallback == .timeBudget && late.counters[NeverRule.chipsAgentVoice.counter] == 1)
        let broken = job.evaluate(item, outcome: Threads.outcome(#"{"replies":["Well done!""#), device: .iPhone15Pro)
        #expect(broken.fallback == .invalidOutput && Self.never(broken.counters).isEmpty)   // nothing decoded, nothing judged
    }

    /// With no language known (no `lang`, no `locale`), no chip is judged for its language.
    @Test func chipsWithNoKnownLanguageAreNotJudgedForIt() throws {
        let snapshot = ThreadSnapshot(thread: ThreadRecord(id: "t1", agent: "Coach"),
                                      messages: [Threads.agent("m2", Threads.asks), Threads.person("m3", "Bit sore but fine")])
        var ledger = JobLedger()
        let item = try #require(ChipsJob().plan(snapshot, tokenizer: ScriptedModel(output: ""), ledger: &ledger).first)
        #expect(item.labels["language"] == nil)
        let output = #"{"replies":["はい、大丈夫です"]}"#
        #expect(Self.never(ChipsJob().check(SealedText(output), for: item, outcome: Threads.outcome(output)).counters).isEmpty)
    }

    // MARK: Push

    /// The push item of a reply that holds every fact the lines below state, so only the rule
    /// a line is about counts.
    static func pushItem() throws -> JobItem {
        try pushItem(Threads.coachThread([Threads.reply("m1", "Weight down 2.3 lb. New plan: three easy runs this week. "
                                                                + "Rest day or a light 3k tomorrow?", push: PushInfo(kind: "reply"))]))
    }

    static func pushItem(_ thread: ThreadSnapshot) throws -> JobItem {
        var ledger = JobLedger()
        return try #require(PushJob().plan(thread, tokenizer: ScriptedModel(output: ""), ledger: &ledger).first)
    }

    @Test(arguments: [
        ("Weight down 2.3 lb. Rest day or a light 3k tomorrow?", nil, Set<NeverRule>()),   // the spec's own line
        ("New plan: three easy runs this week", nil, []),
        ("Remember to stretch after your run", nil, [.pushAdvice]),
        ("Weight down 2.3 lb. You should rest tomorrow", nil, [.pushAdvice]),
        ("Ricordati di bere più acqua", nil, [.pushAdvice]),
        ("Hi! Weight down 2.3 lb", "rejected_greeting", [.pushGreeting]),
        ("Coach says rest tomorrow", "rejected_agent_says", [.pushSpeaksForAgent]),
        ("Hello! Don't forget to stretch", "rejected_greeting", [.pushGreeting, .pushAdvice]),   // rejected, still checked for advice
        ("Hey, Coach says rest tomorrow", "rejected_greeting", [.pushGreeting, .pushSpeaksForAgent]),
    ] as [(String, String?, Set<NeverRule>)])
    func pushLinesAreCheckedForEveryRule(line: String, rejection: String?, broken: Set<NeverRule>) throws {
        let output = #"{"line":"\#(line)"}"#
        let checked = PushJob().check(SealedText(output), for: try Self.pushItem(), outcome: Threads.outcome(output))
        #expect((checked.answer == nil) == (rejection != nil))   // advice alone never rejects a line
        if let rejection { #expect(checked.counters[rejection] == 1) }
        #expect(Self.never(checked.counters) == Set(broken.map(\.counter)))
    }

    /// A line may round, reorder, write a number as a word and name the agent; a number, unit,
    /// day or name the reply does not hold is counted, and the line is still shown.
    @Test(arguments: [
        ("Weight down 2.3 lb. Rest day or a light 3k tomorrow?", false),
        ("Down about 2 lb; 3 easy runs this week", false),           // rounded, a number as digits
        ("Coach's new plan: three easy runs", false),                // the agent's own name
        ("Weight down 5 lb this week", true),                        // a number the reply does not hold
        ("Weight down 2.3 kg this week", true),                      // its unit changed
        ("Rest day or a light 3k on Friday?", true),                 // a day it does not name
        ("Rest day, then a light 3k with Anna", true),               // a name it does not hold
    ])
    func pushLinesThatInventAFactAreCounted(line: String, counted: Bool) throws {
        let output = #"{"line":"\#(line)"}"#
        let checked = PushJob().check(SealedText(output), for: try Self.pushItem(), outcome: Threads.outcome(output))
        #expect(checked.answer != nil)   // counting never rejects
        #expect(Self.never(checked.counters) == (counted ? [NeverRule.pushUnfaithful.counter] : []))
    }

    /// Late lines and lines rejected for another rule are judged too.
    @Test func pushLinesLateOrRejectedAreJudgedForFaithfulness() throws {
        let item = try Self.pushItem()
        let late = PushJob().evaluate(item, outcome: Threads.outcome(#"{"line":"Weight down 5 lb"}"#, promptTokens: 4000, outputTokens: 160),
                                      device: .iPhone15Pro)
        #expect(late.fallback == .timeBudget && Self.never(late.counters) == [NeverRule.pushUnfaithful.counter])
        let greeting = PushJob().check(SealedText(#"{"line":"Hi! Weight down 5 lb"}"#), for: item, outcome: Threads.outcome(""))
        #expect(greeting.answer == nil && greeting.counters["rejected_greeting"] == 1)
        #expect(Self.never(greeting.counters) == [NeverRule.pushGreeting.counter, NeverRule.pushUnfaithful.counter])
    }

    /// The facts are those of every reply the push sums up, read at planning: a batched push's
    /// line may use an earlier reply's numbers, a single push's may not.
    @Test(arguments: [(2, false), (1, true)])
    func pushFactsAreTheRepliesTheLineSumsUp(batch: Int, counted: Bool) throws {
        let item = try Self.pushItem(Threads.coachThread([
            Threads.reply("m1", "Long run Sunday: 18 km easy."),
            Threads.reply("m2", "Rest day tomorrow.", push: PushInfo(kind: "reply", batch: batch)),
        ]))
        let output = #"{"line":"Rest day tomorrow, 18 km on Sunday"}"#
        let checked = PushJob().check(SealedText(output), for: item, outcome: Threads.outcome(output))
        #expect(Self.never(checked.counters) == (counted ? [NeverRule.pushUnfaithful.counter] : []))
    }

    /// How many replies a push sums up is a number the line may say ("3 new replies"), and only
    /// that: with three replies, "3 km", "at 3pm" or "in March" are still invented.
    @Test(arguments: [("3 new replies from Coach", false), ("Run 3 km on Sunday", true), ("Meet at 3pm", true),
                      ("Race day in March", true)])
    func aPushsReplyCountSupportsABareNumberOnly(line: String, counted: Bool) throws {
        let item = try Self.pushItem(Threads.coachThread([
            Threads.reply("m1", "Long run Sunday, easy."),
            Threads.reply("m2", "Rest day tomorrow."),
            Threads.reply("m3", "Sleep early tonight.", push: PushInfo(kind: "reply", batch: 3)),
        ]))
        let output = #"{"line":"\#(line)"}"#
        let checked = PushJob().check(SealedText(output), for: item, outcome: Threads.outcome(output))
        #expect(Self.never(checked.counters) == (counted ? [NeverRule.pushUnfaithful.counter] : []))
    }

    /// In a group, a member the replies do not name may not be brought in, whatever its case.
    @Test(arguments: [("sage will follow up on sleep", true), ("Coach will follow up on sleep", false)])
    func pushLinesNamingAnotherMemberAreCounted(line: String, counted: Bool) throws {
        let reply = MessageRecord(thread: "g1", id: "m1", from: .agent("Coach"), screen: Screen(nodes: [.say(SealedText("Good week overall."))]),
                                  push: PushInfo(kind: "reply"))
        let item = try Self.pushItem(Threads.group([reply]))
        let output = #"{"line":"\#(line)"}"#
        let checked = PushJob().check(SealedText(output), for: item, outcome: Threads.outcome(output))
        #expect(Self.never(checked.counters) == (counted ? [NeverRule.pushUnfaithful.counter] : []))
    }

    @Test func pushLinesOutsideTheSchemaAreNotJudged() throws {
        let item = try Self.pushItem()
        for output in [#"{"line":"   "}"#, #"{"text":"Remember to stretch"}"#, #"{"line":"Hi"} "#] {
            #expect(Self.never(PushJob().check(SealedText(output), for: item, outcome: Threads.outcome(output)).counters).isEmpty)
        }
    }

    // MARK: Draft

    static func draftItem(_ text: String, lang: String? = nil) throws -> JobItem {
        var ledger = JobLedger()
        return try #require(DraftJob().plan(Threads.coachThread([Threads.offline("m1", text, lang: lang)]),
                                            tokenizer: ScriptedModel(output: ""), ledger: &ledger).first)
    }

    @Test(arguments: [
        ("My knee hurts when I run downhill", nil, "health"),
        ("Should I invest my bonus or pay off my loan?", nil, "money"),
        ("Do I need a lawyer for this contract?", nil, "legal"),
        ("Mein Knie tut weh, was soll ich tun?", "de", "health"),
        ("走ると膝が痛いです", "ja", "health"),
        ("make me a packing list for race day", nil, nil),
        ("list my medications for the trip", nil, nil),    // asks for a list: drafting it is the job
        ("Pain au chocolat ou porridge avant ?", "fr", nil),   // French bread, read with the French table
    ] as [(String, String?, String?)])
    func draftsLabelTheExpertTopicAtPlanning(text: String, lang: String?, topic: String?) throws {
        #expect(try Self.draftItem(text, lang: lang).labels["expert_topic"] == topic)
    }

    @Test(arguments: [
        ("My knee hurts when I run downhill", #"{"kind":"none"}"#, false),
        ("My knee hurts when I run downhill", #"{"kind":"card","title":"Knee","body":"Ice it for 20 minutes"}"#, true),
        ("My knee hurts when I run downhill", #"{"kind":"timer","label":"Ice","minutes":20}"#, true),
        ("My knee hurts when I run downhill", #"{"kind":"checklist","title":"  ","items":["Ice"]}"#, true),   // rejected blank, still a draft
        ("My knee hurts when I run downhill", #"{"kind":"card","title":"Knee""#, false),                      // does not decode
        ("set a 20 minute timer for the ice pack", #"{"kind":"timer","label":"Ice","minutes":20}"#, false),
        ("what should I eat before a long run?", #"{"kind":"card","title":"Fuel","body":"Oats"}"#, false),
    ])
    func draftsForExpertQuestionsAreCounted(text: String, output: String, counted: Bool) throws {
        let item = try Self.draftItem(text)
        let result = DraftJob().evaluate(item, outcome: Threads.outcome(output), device: .iPhone15Pro)
        #expect(Self.never(result.counters) == (counted ? [NeverRule.draftExpertQuestion.counter] : []))
        let late = DraftJob().evaluate(item, outcome: Threads.outcome(output, promptTokens: 4000, outputTokens: 256), device: .iPhone15Pro)
        #expect(Self.never(late.counters) == (counted ? [NeverRule.draftExpertQuestion.counter] : []))   // late ones too
    }

    /// A draft's title, body, items and label are judged for advice of the model's own and the
    /// agent's voice; the person's own to-dos and words are theirs. Neither rule rejects.
    @Test(arguments: [
        ("make me a packing list for race day", #"{"kind":"checklist","title":"Race day","items":["Shoes","Gels"]}"#, Set<NeverRule>()),
        ("make me a packing list for race day", #"{"kind":"checklist","title":"Race day","items":["Buy gels","Pack shoes"]}"#, []),
        ("make me a packing list for race day", #"{"kind":"checklist","title":"Race day","items":["Shoes","Remember to hydrate the day before"]}"#,
         [.draftAdvice]),
        ("make me a packing list for race day", #"{"kind":"checklist","title":"Here's your race day list","items":["Shoes"]}"#,
         [.draftAgentVoice]),
        ("note: remember to call the bank", #"{"kind":"card","title":"Bank","body":"Remember to call the bank"}"#, []),   // the person's words
        ("note: hydrate", #"{"kind":"card","title":"Hydrate","body":"Great job! You should drink more water."}"#,
         [.draftAdvice, .draftAgentVoice]),
        ("set a 10 minute timer", #"{"kind":"timer","label":"Plank — you can do it!","minutes":10}"#, [.draftAgentVoice]),
        ("list for Saturday", #"{"kind":"checklist","title":"Saturday","items":["Coach says: bring gels"]}"#, [.draftAgentVoice]),
        ("note: ask Coach about new shoes", #"{"kind":"card","title":"Shoes","body":"Coach: new shoes?"}"#, []),   // the person names the agent
        ("note: Vergiss nicht, den Schlüssel abzugeben", #"{"kind":"card","title":"Schlüssel","body":"Vergiss nicht, den Schlüssel abzugeben"}"#, []),
        ("liste pour le marathon", #"{"kind":"checklist","title":"Voici ta liste","items":["Tu devrais dormir huit heures"]}"#,
         [.draftAdvice, .draftAgentVoice]),
    ] as [(String, String, Set<NeverRule>)])
    func draftsAreCheckedForAdviceAndVoice(text: String, output: String, broken: Set<NeverRule>) throws {
        let item = try Self.draftItem(text)
        let checked = DraftJob().check(SealedText(output), for: item, outcome: Threads.outcome(output))
        #expect(checked.answer != nil)
        #expect(Self.never(checked.counters) == Set(broken.map(\.counter)))
        let late = DraftJob().evaluate(item, outcome: Threads.outcome(output, promptTokens: 4000, outputTokens: 256), device: .iPhone15Pro)
        #expect(late.fallback == .timeBudget && Self.never(late.counters) == Set(broken.map(\.counter)))   // late ones too
    }

    @Test func draftsRejectedForABlankFieldAreJudgedOnTheRest() throws {
        let item = try Self.draftItem("note: hydrate")
        let output = #"{"kind":"card","title":"  ","body":"You should drink more water."}"#
        let checked = DraftJob().check(SealedText(output), for: item, outcome: Threads.outcome(output))
        #expect(checked.answer == nil && checked.counters["rejected_blank"] == 1)
        #expect(Self.never(checked.counters) == [NeverRule.draftAdvice.counter])
        let broken = #"{"kind":"card","title":"Great job!""#
        #expect(Self.never(DraftJob().check(SealedText(broken), for: item, outcome: Threads.outcome(broken)).counters).isEmpty)
    }

    // MARK: Route

    static func routeItem() throws -> JobItem {
        var ledger = JobLedger()
        return try #require(RouteJob().plan(Threads.group([Threads.groupPerson("m1", "I can't sleep")]),
                                            tokenizer: ScriptedModel(output: ""), ledger: &ledger).first)
    }

    @Test(arguments: [
        (#"{"to":"Sage"}"#, false, false),
        (#"{"to":"lead"}"#, false, false),
        (#"{"to":"Bob"}"#, true, true),            // outside the group: rejected and counted
        (#"{"to": "Dr. Who"}"#, true, true),       // JSON, though not the grammar's spacing
        (#"{"to":"sage"}"#, true, false),          // a member, as the schema does not spell it: rejected, not outside
        (#"{"to": "Sage"}"#, true, false),
        (#"{"to":3}"#, true, false),               // no name at all
        (#"{"to":"Bob""#, true, false),            // not JSON
    ])
    func routesNamingSomeoneOutsideTheGroupAreCounted(output: String, rejected: Bool, outside: Bool) throws {
        let checked = RouteJob().check(SealedText(output), for: try Self.routeItem(), outcome: Threads.outcome(output, confidence: 0.9))
        #expect((checked.answer == nil) == rejected)
        #expect(Self.never(checked.counters) == (outside ? [NeverRule.routeOutsideGroup.counter] : []))
    }

    // MARK: Every rule

    /// Every rule is counted under its own job, so the ledger slices it with that job.
    @Test func everyRuleHasACountingTestAboveAndBelongsToItsJob() {
        let covered: Set<NeverRule> = [.chipsWrongLanguage, .chipsAgentVoice, .pushAdvice, .pushGreeting, .pushSpeaksForAgent,
                                       .pushUnfaithful, .draftExpertQuestion, .draftAdvice, .draftAgentVoice, .routeOutsideGroup]
        #expect(covered == Set(NeverRule.allCases))
        #expect(NeverRule.rules(of: .chips) == [.chipsWrongLanguage, .chipsAgentVoice])
        #expect(NeverRule.rules(of: .push) == [.pushAdvice, .pushGreeting, .pushSpeaksForAgent, .pushUnfaithful])
        #expect(NeverRule.rules(of: .draft) == [.draftExpertQuestion, .draftAdvice, .draftAgentVoice])
    }
}
