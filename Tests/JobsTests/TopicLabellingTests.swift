import Privacy
import Engine
import Export
import Testing
@testable import Jobs

/// Each job labels a place's topic (`JobItem.topic`) from the words its model sees there, when
/// asked (`Job.labellingTopics`, for fallbacks injected by topic), and not otherwise: the
/// category only, read in the place's language.
@Suite struct TopicLabellingTests {
    static let tokenizer = ScriptedModel(output: "")

    /// The topics of `job`'s items in `thread`, labelling or not.
    static func topics(_ job: any Job, _ thread: ThreadSnapshot) -> [ExpertTopic?] {
        var ledger = JobLedger()
        return job.plan(thread, tokenizer: tokenizer, ledger: &ledger).map(\.topic)
    }

    @Test func chipsReadTheScreenAndThePersonsLastMessage() {
        let aboutTheScreen = Threads.coachThread([Threads.person("m1", "Morning run done"),
                                                  Threads.agent("m2", [.say(SealedText("Did the blood test come back?"))])])
        let aboutTheMessage = Threads.coachThread([Threads.person("m1", "Should I put my savings into stocks"),
                                                   Threads.agent("m2", [.say(SealedText("What would you like to do?"))])])
        let neither = Threads.coachThread([Threads.person("m1", "Morning run done"), Threads.agent("m2", [.say(SealedText("How was it?"))])])
        #expect(Self.topics(ChipsJob().labellingTopics(), aboutTheScreen) == [.health])
        #expect(Self.topics(ChipsJob().labellingTopics(), aboutTheMessage) == [.money])
        #expect(Self.topics(ChipsJob().labellingTopics(), neither) == [nil])
        #expect(Self.topics(ChipsJob(), aboutTheScreen) == [nil])   // not asked: not read
    }

    /// Routing reads the message, never the members' lines: Penny's "money and budgets" makes no
    /// message about money.
    @Test func routingReadsTheMessageAlone() {
        let thread = Threads.group([Threads.groupPerson("m1", "Who can help me sleep better"),
                                    Threads.groupPerson("m2", "I think I need a lawyer for the lease")])
        #expect(Self.topics(RouteJob().labellingTopics(), thread) == [nil, .legal])
    }

    @Test func pushReadsTheRepliesItSumsUp() {
        let thread = Threads.coachThread([Threads.reply("m1", "Your blood pressure is steady this week.", push: PushInfo(kind: "reply", batch: 1)),
                                          Threads.reply("m2", "Rest day tomorrow.", push: PushInfo(kind: "reply", batch: 1))])
        #expect(Self.topics(PushJob().labellingTopics(), thread) == [.health, nil])
    }

    /// A draft's topic is what the message names, whatever kind it asks for: the never rule's
    /// label (`expert_topic`) leaves out a list asked for by name, the injection's topic does not.
    @Test func draftsReadTheMessageWhateverKindItAsksFor() {
        let thread = Threads.coachThread([Threads.offline("m1", "Make a list of questions for my doctor"),
                                          Threads.offline("m2", "J'ai mal au genou depuis hier", lang: "fr"),
                                          Threads.offline("m3", "Un pain au chocolat ce matin", lang: "fr")])
        var ledger = JobLedger()
        let items = DraftJob().labellingTopics().plan(thread, tokenizer: Self.tokenizer, ledger: &ledger)
        #expect(items.map(\.topic) == [.health, .health, nil])
        #expect(items.first?.labels["expert_topic"] == nil)
    }
}
