import Privacy
import Engine
import Export
@testable import Jobs
import TestSupport

/// Hand-made group, push and offline threads whose answers are known.
extension Threads {
    static let members = VariedThread.members

    /// A person's message in the group "g1" (lead: Coach).
    static func groupPerson(_ id: String, _ text: String, to: String? = nil, routed: String? = nil, lang: String? = nil,
                            build: String? = "2.4.0 (530)", model: String? = "26.4") -> MessageRecord {
        MessageRecord(thread: "g1", id: id, from: .person, text: SealedText(text), lang: lang,
                      meta: MessageMeta(groupTo: to, groupRouted: routed, build: build, model: model))
    }

    /// A group thread with Coach (the lead), Sage and Penny.
    static func group(_ messages: [MessageRecord], locale: String? = "en-GB") -> ThreadSnapshot {
        ThreadSnapshot(thread: ThreadRecord(id: "g1", locale: locale, group: GroupInfo(lead: "Coach", members: members)),
                       messages: messages)
    }

    /// An agent's reply that says `words`, with a push if given.
    static func reply(_ id: String, _ words: String, from agent: String = "Coach", push: PushInfo? = nil,
                      lang: String? = nil) -> MessageRecord {
        MessageRecord(thread: "t1", id: id, from: .agent(agent), screen: Screen(nodes: [.say(SealedText(words))]),
                      push: push, lang: lang)
    }

    /// A person's message, offline or not, with draft ticks if given.
    static func offline(_ id: String, _ text: String, offline: Bool = true, ticks: [Int]? = nil, lang: String? = nil) -> MessageRecord {
        MessageRecord(thread: "t1", id: id, from: .person, text: SealedText(text), lang: lang,
                      meta: MessageMeta(offline: offline, draftTicks: ticks, build: "2.4.0 (530)", model: "27.0"))
    }

    /// A one-agent thread with Coach.
    static func coachThread(_ messages: [MessageRecord], locale: String? = "en-US") -> ThreadSnapshot {
        ThreadSnapshot(thread: ThreadRecord(id: "t1", agent: "Coach", locale: locale), messages: messages)
    }

    /// An outcome that wrote `output`, with a confidence.
    static func outcome(_ output: String, promptTokens: Int = 100, outputTokens: Int = 5, confidence: Double = 1) -> GenerationOutcome {
        GenerationOutcome(output: .success(SealedText(output)), promptTokens: promptTokens, outputTokens: outputTokens,
                          hostMilliseconds: 20, choiceProbability: confidence)
    }
}
