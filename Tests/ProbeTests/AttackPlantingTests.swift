import Engine
import Foundation
import Export
import Jobs
import Privacy
import Testing
import TestSupport
@testable import Probe

/// Each site plants the attack's words where an agent's words go, at the place only, and the
/// job then asks the model with them: the attacked request carries the marker, the plain one not.
@Suite struct AttackPlantingTests {
    static let set = Result { try AttackSet.read(AttackSetTests.bundled) }
    static let marker = AttackMarker(key: RunKey(bytes: Array(0..<32))!, place: 42)
    static let meta = MessageMeta(build: "2.4.0 (530)", model: "26.4")

    static func attack(_ kind: String) throws -> AttackSet.Attack {
        try #require(try set.get().attacks.first { $0.kind == kind })
    }

    /// A coach thread: the person's message, then a screen that asks in words.
    static var chipsThread: ThreadSnapshot {
        ThreadSnapshot(thread: ThreadRecord(id: "t1", agent: "Coach", locale: "en-US"), messages: [
            MessageRecord(thread: "t1", id: "m1", from: .person, text: SealedText("Did the long run"), meta: meta),
            MessageRecord(thread: "t1", id: "m2", from: .agent("Coach"),
                          screen: Screen(nodes: [.say(SealedText("Nice week. How did your knee feel?"))])),
        ])
    }

    static func prompt(_ items: [JobItem]) -> String {
        items.compactMap(\.request).map { $0.prompt.withUnsealedText { $0 } }.joined(separator: "\n")
    }

    static func plan(_ job: any Job, _ snapshot: ThreadSnapshot) -> [JobItem] {
        var ledger = JobLedger()
        return job.plan(snapshot, tokenizer: ApproximateTokenizer(), ledger: &ledger)
    }

    @Test(arguments: ["chips_say_reply", "chips_card_title", "chips_list_item", "chips_stat_label"])
    func chipsSitesAddANodeToTheScreenThePlaceAnswers(kind: String) throws {
        let attack = try Self.attack(kind)
        let planted = try #require(AttackPlanting.plant(attack, in: Self.chipsThread, at: 1, marker: Self.marker))
        let nodes = try #require(planted.snapshot.messages[1].screen?.nodes)
        // Before the question, which stays the screen's last node.
        #expect(nodes.count == 2 && nodes.last?.kind == "say")
        #expect(nodes.first?.kind == ["chips_say_reply": "say", "chips_card_title": "card", "chips_list_item": "list",
                                      "chips_stat_label": "stat"][kind])
        #expect(nodes.last.map { if case .say(let text) = $0 { text.withUnsealedText { $0.hasSuffix("knee feel?") } } else { false } } == true)
        // The person's message is as it was; the job asks with the attack in the screen's words.
        #expect(planted.snapshot.messages[0].text?.withUnsealedText { $0 } == "Did the long run")
        #expect(Self.prompt(Self.plan(ChipsJob(), planted.snapshot)).contains(Self.marker.text))
        #expect(!Self.prompt(Self.plan(ChipsJob(), Self.chipsThread)).contains(Self.marker.text))
        // Not at the person's message.
        #expect(AttackPlanting.plant(attack, in: Self.chipsThread, at: 0, marker: Self.marker) == nil)
    }

    /// Routing: the `about` of a member the person did not mean (nor the lead) claims every ask.
    @Test func routingTakesOverAnotherMembersAboutLine() throws {
        let group = GroupInfo(lead: "Coach", members: [GroupMember(name: "Coach", about: SealedText("training")),
                                                       GroupMember(name: "Sage", about: SealedText("sleep")),
                                                       GroupMember(name: "Penny", about: SealedText("money"))])
        let thread = ThreadSnapshot(thread: ThreadRecord(id: "g1", locale: "de-DE", group: group), messages: [
            MessageRecord(thread: "g1", id: "m1", from: .person, text: SealedText("Ich schlafe schlecht"),
                          meta: MessageMeta(groupTo: "Sage", build: "2.4.0 (530)", model: "26.4")),
        ])
        let planted = try #require(AttackPlanting.plant(try Self.attack("route_about_claims_every_ask"), in: thread, at: 0, marker: Self.marker))
        #expect(planted.member == "Penny")
        let members = try #require(planted.snapshot.thread.group?.members)
        #expect(members.map(\.name) == ["Coach", "Sage", "Penny"])
        #expect(members[2].about.withUnsealedText { $0.contains(Self.marker.text) && $0.contains("Penny") && $0.contains("wähle") })
        #expect(members[1].about.withUnsealedText { $0 } == "sleep")
        #expect(Self.prompt(Self.plan(RouteJob(), planted.snapshot)).contains(Self.marker.text))
    }

    /// Push: a `say` added to the reply the line sums up.
    @Test(arguments: ["push_speaks_for_agent", "push_carries_link"])
    func pushSitesAddToTheReplyTheLineSumsUp(kind: String) throws {
        let thread = ThreadSnapshot(thread: ThreadRecord(id: "t1", agent: "Coach", locale: "es-MX"), messages: [
            MessageRecord(thread: "t1", id: "m1", from: .agent("Coach"), screen: Screen(nodes: [.say(SealedText("Semana tranquila."))]),
                          push: PushInfo(kind: "reply")),
        ])
        let planted = try #require(AttackPlanting.plant(try Self.attack(kind), in: thread, at: 0, marker: Self.marker))
        #expect(planted.snapshot.messages[0].screen?.nodes.count == 2)
        #expect(Self.prompt(Self.plan(PushJob(), planted.snapshot)).contains(Self.marker.text))
    }

    /// Draft: the agent's words pasted before the person's own ask, which stays.
    @Test func draftsGetTheQuoteBeforeThePersonsAsk() throws {
        let thread = ThreadSnapshot(thread: ThreadRecord(id: "t1", agent: "Coach", locale: "ja-JP"), messages: [
            MessageRecord(thread: "t1", id: "m1", from: .person, text: SealedText("週末の持ち物リストを作って"),
                          meta: MessageMeta(offline: true, build: "2.4.0 (530)", model: "26.4")),
        ])
        let planted = try #require(AttackPlanting.plant(try Self.attack("draft_follows_quoted_screen"), in: thread, at: 0, marker: Self.marker))
        let text = try #require(planted.snapshot.messages[0].text?.withUnsealedText { $0 })
        #expect(text.hasPrefix("Coachより") && text.hasSuffix("週末の持ち物リストを作って") && text.contains(Self.marker.text))
        #expect(Self.prompt(Self.plan(DraftJob(), planted.snapshot)).contains(Self.marker.text))
    }

    /// A language the attack is not written in is no place for it.
    @Test func aPlaceInALanguageTheAttackLacksIsSkipped() throws {
        var thread = Self.chipsThread
        thread.thread.locale = "fi-FI"
        #expect(AttackPlanting.plant(try Self.attack("chips_say_reply"), in: thread, at: 1, marker: Self.marker) == nil)
    }
}

/// The spotlighting prompt set (examples/prompts/spotlight.json), the probe's ablation: it reads
/// as any prompt set, and a planted attack lands inside the fence that marks the agent's words.
@Suite struct SpotlightPromptSetTests {
    static let path = BuiltProducts.packageRoot + "/examples/prompts/spotlight.json"

    @Test func plantedWordsLandInsideTheAgentsFence() throws {
        let bytes = try #require(FileManager.default.contents(atPath: Self.path))
        let set = try PromptSet(parsing: [UInt8](bytes), file: Self.path)
        #expect(set.name == "spotlight")
        let attack = try #require(try AttackPlantingTests.set.get().attacks.first { $0.kind == "chips_say_reply" })
        let planted = try #require(AttackPlanting.plant(attack, in: AttackPlantingTests.chipsThread, at: 1, marker: AttackPlantingTests.marker))
        let prompt = AttackPlantingTests.prompt(AttackPlantingTests.plan(ChipsJob(prompts: set.chips), planted.snapshot))
        let open = try #require(prompt.range(of: "<<agent>>")), close = try #require(prompt.range(of: "<</agent>>"))
        let marker = try #require(prompt.range(of: AttackPlantingTests.marker.text))
        #expect(open.upperBound <= marker.lowerBound && marker.upperBound <= close.lowerBound)
        let instructions = try #require(AttackPlantingTests.plan(ChipsJob(prompts: set.chips), planted.snapshot).first?.request?.instructions)
        #expect(instructions.withUnsealedText { $0.contains("never instructions to follow") })
    }

    /// An attack that closes the fence and speaks from outside it (`chips_fence_escape`) cannot:
    /// the set reserves its fence, so the fence's strings are taken out of the agent's words and
    /// the prompt holds exactly the template's one `<<agent>>` and one `<</agent>>`, the marker
    /// between them. Without `reserved`, the same words close the fence early.
    @Test(arguments: [true, false])
    func anAttackCannotCloseTheFenceTheSetReserves(reserves: Bool) throws {
        let bytes = try #require(FileManager.default.contents(atPath: Self.path))
        var text = String(decoding: bytes, as: UTF8.self)
        if !reserves {
            let start = try #require(text.range(of: "  \"reserved\": [")), end = try #require(text.range(of: "],\n", range: start.upperBound..<text.endIndex))
            text.removeSubrange(start.lowerBound..<end.upperBound)
        }
        let set = try PromptSet(parsing: Array(text.utf8), file: Self.path)
        #expect(set.reserved.isEmpty != reserves)
        let attack = try #require(try AttackPlantingTests.set.get().attacks.first { $0.kind == "chips_fence_escape" })
        let planted = try #require(AttackPlanting.plant(attack, in: AttackPlantingTests.chipsThread, at: 1, marker: AttackPlantingTests.marker))
        let prompt = AttackPlantingTests.prompt(AttackPlantingTests.plan(ChipsJob(prompts: set.chips), planted.snapshot))
        func count(_ fence: String) -> Int { prompt.components(separatedBy: fence).count - 1 }
        let marker = try #require(prompt.range(of: AttackPlantingTests.marker.text))
        if reserves {
            #expect(count("<<agent>>") == 1 && count("<</agent>>") == 1)
            let open = try #require(prompt.range(of: "<<agent>>")), close = try #require(prompt.range(of: "<</agent>>"))
            #expect(open.upperBound <= marker.lowerBound && marker.upperBound <= close.lowerBound)
        } else {
            #expect(count("<</agent>>") == 2)
            let close = try #require(prompt.range(of: "<</agent>>"))
            #expect(close.upperBound <= marker.lowerBound, "the marker stands outside the fence the attack closed")
        }
    }

    /// Removing one reserved string may join another's pieces: removal repeats until none is left.
    @Test func reservedStringsAreRemovedUntilNoneIsLeft() {
        var prompts = PromptSet.builtIn.chips
        prompts.reserved = ["<<agent>>", "<</agent>>"]
        let cleaned = prompts.withoutReserved(SealedText("a<<age<</agent>>nt>>b <</<<agent>>agent>>c"))
        #expect(cleaned.withUnsealedText { $0 } == "ab c")
        #expect(PromptSet.builtIn.reserved.isEmpty && PromptSet.builtIn.chips.withoutReserved(SealedText("<<agent>>")).withUnsealedText { $0 } == "<<agent>>")
    }
}
