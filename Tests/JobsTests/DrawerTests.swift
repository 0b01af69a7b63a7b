import Privacy
import Engine
import Export
import Testing
@testable import Jobs

/// Routing's drawer (spec §3, "The drawer"): the first message of a one-agent thread the person
/// started, routed over the person's agents, judged against the thread's agent.
@Suite struct DrawerTests {
    /// The person's agents: Coach, Sage and Penny with their lines.
    static let agents = DrawerAgents([
        .init(name: "Coach", about: SealedText("running and rest days")),
        .init(name: "Sage", about: SealedText("sleep and calm")),
        .init(name: "Penny", about: SealedText("money and budgets")),
    ])

    static let job = RouteJob(drawer: agents)

    /// A one-agent thread with `agent`, its messages given.
    static func thread(_ agent: String, _ messages: [MessageRecord]) -> ThreadSnapshot {
        ThreadSnapshot(thread: ThreadRecord(id: "t1", agent: agent, locale: "en-US"), messages: messages)
    }

    static func person(_ id: String, _ text: String, build: String = "2.4.0 (530)") -> MessageRecord {
        MessageRecord(thread: "t1", id: id, from: .person, text: SealedText(text), meta: MessageMeta(build: build, model: "27.0"))
    }

    /// A model that always picks `agent` with `confidence`.
    static func picking(_ agent: String, confidence: Double = 0.9) -> GenerationOutcome {
        Threads.outcome(#"{"to":"\#(agent)"}"#, confidence: confidence)
    }

    @Test func theFirstMessageOfAThreadThePersonStartedIsAskedOverTheAgents() throws {
        var ledger = JobLedger()
        let items = Self.job.plan(Self.thread("Sage", [Self.person("m1", "I keep waking at 3am"), Threads.reply("m2", "ok"),
                                                       Self.person("m3", "and again today")]),
                                  tokenizer: ScriptedModel(output: ""), ledger: &ledger)
        #expect(items.count == 1)   // the first message only: later ones are typed in the thread
        let item = try #require(items.first)
        #expect(item.place == .drawer && item.labels["agent"] == "Sage")
        let request = try #require(item.request)
        // The agents alone: there is no lead in the drawer.
        #expect(request.choices == Route.outputs(members: ["Coach", "Sage", "Penny"], withLead: false))
        #expect(request.choices?.count == 3)
        #expect(request.grammar == GrammarWriter.grammar(for: Route.schema(members: ["Coach", "Sage", "Penny"], withLead: false)))
        #expect(request.instructions == PromptSet.builtIn.drawer.instructions(PromptValues(language: "en-US")))
        #expect(request.prompt.withUnsealedText {
            $0.contains("I keep waking at 3am") && $0.contains("- Sage: sleep and calm") && $0.contains("- Penny: money and budgets")
                && !$0.contains("and again today") && !$0.contains("lead")
        })
        #expect(ledger.overall.counters["drawer:scanned"] == 1)
        #expect(ledger.overall.scanned == 1)   // a one-agent thread's first message is all routing looks at
    }

    /// The drawer's place is about what the person typed, as routing's is: an injection that
    /// follows topics (`guardrail=route/legal:…`) reaches it; the agents' lines make no topic.
    @Test func aDrawerPlaceIsLabelledWithItsMessagesTopicWhenRoutingLabelsTopics() throws {
        var ledger = JobLedger()
        let thread = Self.thread("Penny", [Self.person("m1", "I think I need a lawyer for the lease")])
        let labelled = Self.job.labellingTopics().plan(thread, tokenizer: ScriptedModel(output: ""), ledger: &ledger)
        #expect(labelled.map(\.topic) == [.legal] && labelled.first?.place == .drawer)
        let plain = Self.job.plan(thread, tokenizer: ScriptedModel(output: ""), ledger: &ledger)
        #expect(plain.map(\.topic) == [nil])
        let money = Self.job.labellingTopics().plan(Self.thread("Penny", [Self.person("m1", "hello there")]),
                                                   tokenizer: ScriptedModel(output: ""), ledger: &ledger)
        #expect(money.map(\.topic) == [nil], "Penny's 'money and budgets' is no topic of the message")
    }

    @Test func threadsTheAgentStartedOrThatNameAnAgentAreNotAsked() {
        var ledger = JobLedger()
        let started = Self.job.plan(Self.thread("Sage", [Threads.reply("m1", "hello"), Self.person("m2", "hi")]),
                                    tokenizer: ScriptedModel(output: ""), ledger: &ledger)
        #expect(started.isEmpty && ledger.overall.counters["drawer:scanned"] == nil)
        let named = Self.job.plan(Self.thread("Sage", [Self.person("m1", "@penny can I afford it?")]),
                                  tokenizer: ScriptedModel(output: ""), ledger: &ledger)
        #expect(named.isEmpty && ledger.overall.counters["drawer:named"] == 1)
        let outside = Self.job.plan(Self.thread("Chef", [Self.person("m1", "what's for dinner")]),
                                    tokenizer: ScriptedModel(output: ""), ledger: &ledger)
        #expect(outside.isEmpty && ledger.overall.counters["drawer:agent_not_offered"] == 1)
        #expect(ledger.overall.counters["drawer:scanned"] == 2)
    }

    @Test func noDrawerWithoutTwoAgentsToPickFrom() {
        for agents in [DrawerAgents.none, DrawerAgents([.init(name: "Sage")])] {
            var ledger = JobLedger()
            let items = RouteJob(drawer: agents).plan(Self.thread("Sage", [Self.person("m1", "can't sleep")]),
                                                      tokenizer: ScriptedModel(output: ""), ledger: &ledger)
            #expect(items.isEmpty && ledger.overall.counters.isEmpty)
        }
    }

    /// A scripted model that always answers Sage: right in Sage's thread, wrong in Penny's.
    @Test(arguments: [("Sage", 1.0), ("Penny", 0.0)])
    func accuracyIsTheThreadsAgent(agent: String, accuracy: Double) throws {
        var ledger = JobLedger()
        let item = try #require(Self.job.plan(Self.thread(agent, [Self.person("m1", "hello there")]),
                                              tokenizer: ScriptedModel(output: ""), ledger: &ledger).first)
        ledger.add(Self.job.evaluate(item, outcome: Self.picking("Sage"), device: .iPhone15Pro))
        let metrics = ledger.overall
        #expect(metrics.quality["drawer_accuracy"]?.mean == accuracy && metrics.quality["drawer_accuracy"]?.count == 1)
        #expect(metrics.quality["accuracy"] == nil && metrics.quality["lead_accuracy"] == nil)   // the groups' measures stay the groups'
        #expect(metrics.counters["drawer:eligible"] == 1 && metrics.counters["drawer:asked"] == 1 && metrics.counters["drawer:answered"] == 1)
        #expect(metrics.eligible == 1 && metrics.answered == 1)   // and the job's own counts hold it
    }

    @Test func aGuessAtOrBelowTheFloorPicksNoAgent() throws {
        var ledger = JobLedger()
        let item = try #require(Self.job.plan(Self.thread("Sage", [Self.person("m1", "hello there")]),
                                              tokenizer: ScriptedModel(output: ""), ledger: &ledger).first)
        let result = Self.job.evaluate(item, outcome: Self.picking("Sage", confidence: 0.4), device: .iPhone15Pro)
        #expect(result.answered)   // a valid answer in time, which shows no pill
        #expect(result.quality["drawer_accuracy"] == 0 && result.quality["drawer_shown"] == 0)
        #expect(result.counters["drawer:low_confidence"] == 1)
        let kept = RouteJob(minimumConfidence: 0, drawer: Self.agents).evaluate(item, outcome: Self.picking("Sage", confidence: 0.4),
                                                                                device: .iPhone15Pro)
        #expect(kept.quality["drawer_accuracy"] == 1 && kept.quality["drawer_shown"] == 1)   // the rule off: kept
        // A pill shown for the wrong agent is shown, and wrong.
        let wrong = Self.job.evaluate(item, outcome: Self.picking("Penny"), device: .iPhone15Pro)
        #expect(wrong.quality["drawer_accuracy"] == 0 && wrong.quality["drawer_shown"] == 1)
        // Which agent was meant against the pill seen: names by the agent rule, hashed unless
        // the team listed them, `none` where no pill was shown.
        let pairs = { (result: ItemResult) in result.counters.keys.filter { $0.hasPrefix(RouteJob.drawerConfusion) } }
        #expect(pairs(result).count == 1 && pairs(result).allSatisfy { $0.hasSuffix("->none") && $0.contains("#h:") })
        let listed = RouteJob(labels: TeamLabels(agents: ["Sage", "Penny"]), drawer: Self.agents)
        #expect(pairs(listed.evaluate(item, outcome: Self.picking("Penny"), device: .iPhone15Pro)) == ["drawer:confusion:Sage->Penny"])
        #expect(pairs(listed.evaluate(item, outcome: Self.picking("Sage", confidence: 0.4), device: .iPhone15Pro))
                == ["drawer:confusion:Sage->none"])
    }

    @Test func aLateOrInvalidGuessPicksNoAgent() throws {
        var ledger = JobLedger()
        let item = try #require(Self.job.plan(Self.thread("Sage", [Self.person("m1", "hello there")]),
                                              tokenizer: ScriptedModel(output: ""), ledger: &ledger).first)
        let late = Self.job.evaluate(item, outcome: Self.picking("Sage"), device: DeviceProfile.custom("custom:100,30")!)
        #expect(late.fallback == .timeBudget && late.quality["drawer_accuracy"] == 0 && late.qualityAllAnswers["drawer_accuracy"] == 1)
        #expect(late.quality["drawer_shown"] == 0)
        // "lead" is no agent: outside the drawer's schema, and counted as naming someone outside it.
        let lead = Self.job.evaluate(item, outcome: Self.picking("lead"), device: .iPhone15Pro)
        #expect(lead.fallback == .invalidOutput && lead.quality["drawer_accuracy"] == 0)
        #expect(lead.counters[NeverRule.routeOutsideGroup.counter] == 1)
    }

    @Test func anUnsupportedLanguageFallsBackAsADrawerPlace() throws {
        var ledger = JobLedger()
        let snapshot = ThreadSnapshot(thread: ThreadRecord(id: "t1", agent: "Sage", locale: "ru-RU"), messages: [Self.person("m1", "привет")])
        let item = try #require(Self.job.plan(snapshot, tokenizer: ScriptedModel(output: ""), ledger: &ledger).first)
        #expect(item.earlyFallback == .unsupportedLanguage && item.place == .drawer)
        ledger.add(Self.job.unasked(item, reason: .unsupportedLanguage))
        #expect(ledger.overall.counters["drawer:eligible"] == 1 && ledger.overall.counters["drawer:asked"] == nil)
    }

    @Test func theAgentsAreTheCorpussMostFrequentByName() {
        var collector = DrawerAgents.Collector()
        let threads: [(String?, String?)] = [("Sage", nil), ("Sage", "sleep"), ("Coach", "runs"), ("Penny", "money"), ("Coach", "other"),
                                             ("Atlas", nil), ("Sage", "later")]
        for (index, (agent, about)) in threads.enumerated() {
            collector.add(ThreadRecord(id: "t\(index)", agent: agent, about: about.map { SealedText($0) }))
        }
        collector.add(ThreadRecord(id: "g", group: GroupInfo(lead: "Lead", members: [GroupMember(name: "Lead", about: .empty)])))
        let agents = collector.agents
        // Most threads first, ties by name; a group's members are not the person's agents.
        #expect(agents.names == ["Sage", "Coach", "Atlas", "Penny"])
        #expect(agents.agents[0].about == SealedText("sleep"))     // the first line met
        #expect(agents.agents[2].about.isEmpty)
        #expect(agents.isUsable && !DrawerAgents([.init(name: "Sage")]).isUsable)
    }

    @Test func atMostTheCapIsOfferedAndTrackedNamesAreBounded() {
        var collector = DrawerAgents.Collector()
        for index in 0..<(DrawerAgents.Collector.trackedNames + 10) {
            collector.add(ThreadRecord(id: "t\(index)", agent: "Agent\(index)"))
        }
        #expect(collector.untracked == 10)
        #expect(collector.agents.agents.count == DrawerAgents.maximumCount)
    }
}
