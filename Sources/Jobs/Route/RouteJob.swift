import Privacy
import Engine
import Export

/// Routing an ask (spec §3): in a group, which member a message that names no one is for.
///
/// Fires on a person's message in a group thread. An `@Name` of a member wins and the model is
/// not asked (counter `named`), by `Mention`, the rule the flywheel's `route.named` uses too. Otherwise the model sees the message and each member's name and
/// `about`, never any thread, and answers one of the members or "lead". A low-confidence answer
/// means the lead, as today. The words around them are the prompt set's (`prompts`: `{message}`,
/// `{members}` as one line per member, `{language}`).
///
/// Each request carries every answer the group allows (`Route.outputs`), and the engine scores
/// each as a whole: the confidence is `GenerationOutcome.choiceProbability`, the probability of
/// the chosen member's whole answer (all its tokens) normalised over the group's choices. Not the
/// probability of one token: a name is often several tokens, and the first one can be shared.
/// docs/routing.md measures it against labelled asks and says where the threshold comes from.
///
/// Quality keys (0 or 1 per item, so their means are rates), judged on where the message would
/// have gone: the model's answer after the confidence rule when the pill showed it in time, or the
/// lead when there is no valid answer or it came late (the app's fallback):
/// - `accuracy`: where the person chose (`meta.group.to` without `routed`), the guess is that member.
/// - `agreement`: where the phone's model guessed (`routed == "on-device"`), the guess is the same.
/// - `lead_accuracy`: where the message has no `group` meta (it went to the lead), the guess is
///   the lead. Kept apart from `accuracy` because it mixes choices with messages sent before the
///   pill existed, which say less about what the person meant.
///
/// Counters: `named`, `never:route_outside_group` (an output naming someone outside the group,
/// impossible under the grammar; docs/never-rules.md), `low_confidence` (a member's name turned
/// into the lead), `answered_lead` (the model itself said "lead" or the lead's name), and
/// `confusion:<actual>-><guessed>` for the items of `accuracy` and `lead_accuracy` (the guess the
/// person saw, as the quality keys), the lead written as "lead" and every other name as its `ReportLabel(member:)` (kept when the
/// team listed it in `labels`, else a salted hash): a counter's key is written into the report,
/// and a member's name is free text.
///
/// The drawer (spec §3: "typed words there pick an agent and open its thread"), the one place
/// outside a group where the model picks an agent, is this job's too, kept apart in its counters
/// (`CountedPlace.drawer`). Its place is the first message of a one-agent thread the person
/// started: the words they typed to open it. The choices are the person's agents (`drawer`, a
/// fact of the whole corpus, gathered before the run), with no lead, under the same grammar,
/// budget and confidence rule; the prompt is the prompt set's drawer block (`{message}`,
/// `{agents}` as one line per agent). The known answer is the thread's agent: quality key
/// `drawer_accuracy` (0 or 1 per asked place: the agent the person saw picked is the thread's;
/// none picked, late, invalid or at or below the confidence floor, is 0) and `drawer_shown` (0 or
/// 1: an agent's pill was shown at all; `answered` counts a valid "no pick" in time, which shows
/// none, so gate on this rather than on the drawer's `in_budget` alone). Counters
/// `drawer:scanned` (such first messages with words), `drawer:named` (an `@Name` of an agent
/// offered: not asked), `drawer:agent_not_offered` (the thread's agent is not a choice: not
/// judged), `drawer:low_confidence`, `drawer:confusion:<agent>-><picked>` (the agent meant against
/// the pill seen, `none` for no pill), and `drawer:eligible`, `drawer:asked`, `drawer:answered`,
/// `drawer:in_budget_host` (`CountedPlace.counters(for:)`). No drawer without two agents to pick
/// from.
public struct RouteJob: AskingJob, CountedPlanning {
    public var kind: JobKind { .route }
    /// Planning reads the message and the members, never a screen.
    public var readsScreenWords: Bool { false }
    /// The project's budget, not the spec's: the spec gives none (it guesses "once the typing
    /// pauses for 400 ms", a wait before asking, not a time to answer). 400 ms keeps the pill
    /// from changing long after the pause.
    public static let defaultBudget = Budget(milliseconds: 400, source: .projectDefault)
    /// The project's threshold (the spec says only that a low-confidence answer means the lead),
    /// chosen from the reliability table of docs/routing.md: on the labelled set, the answers of
    /// the largest model measured are right less often than wrong at or below 0.4, and more often
    /// above it; 0.5 kept no more accurate routes than 0.4 and a third fewer.
    public static let defaultMinimumConfidence = 0.4
    /// How routing asks: the budget runs from the typing pause to the pill's guess, and the output
    /// cap fits `{"to":"Name"}` for the longest name.
    public var asking: AskSettings
    /// A member's name is kept only when its confidence is above this; otherwise the lead. 0
    /// turns the rule off (`--route-confidence 0`): every member answer is kept.
    public var minimumConfidence: Double
    /// The members' names the team allows in the confusion counters (`--labels`); others are hashed.
    public var labels: TeamLabels
    /// The agents the drawer offers; none (no drawer places) unless the run gathered them.
    public let drawer: DrawerAgents
    /// How the drawer asks: routing's settings with the drawer's words.
    let drawerAsking: AskSettings
    /// What every drawer request shares, made once; nil without two agents to pick from.
    private let drawerShared: DrawerShared?

    /// What every drawer request shares: the choices, their grammar, schema and outputs, and each
    /// agent's line of the prompt.
    private struct DrawerShared: Sendable {
        let choices: [String]
        /// The choices as an item's labels hold them.
        let joined: String
        let grammar: String
        let schema: ResponseSchema
        let outputs: [SealedText]
        let lines: [SealedText]
    }

    public init(budgetMilliseconds: Double = RouteJob.defaultBudget.milliseconds,
                minimumConfidence: Double = RouteJob.defaultMinimumConfidence, contextLimit: Int = 4096,
                maxOutputTokens: Int = 48, supportedLanguages: SupportedLanguages = .appleIntelligence,
                labels: TeamLabels = .none, prompts: JobPrompts = PromptSet.builtIn.route,
                drawer: DrawerAgents = .none, drawerPrompts: JobPrompts = PromptSet.builtIn.drawer) {
        precondition(prompts.block == .job(.route), "route asks with the route prompts")
        precondition(drawerPrompts.block == .drawer, "the drawer asks with the drawer's prompts")
        asking = AskSettings(budgetMilliseconds: budgetMilliseconds, contextLimit: contextLimit, maxOutputTokens: maxOutputTokens,
                             supportedLanguages: supportedLanguages, prompts: prompts)
        drawerAsking = AskSettings(budgetMilliseconds: budgetMilliseconds, contextLimit: contextLimit, maxOutputTokens: maxOutputTokens,
                                   supportedLanguages: supportedLanguages, prompts: drawerPrompts)
        self.minimumConfidence = minimumConfidence
        self.labels = labels
        self.drawer = drawer
        let choices = Route.choices(members: drawer.names, withLead: false)
        guard choices.count >= 2 else {
            drawerShared = nil
            return
        }
        let schema = Route.schema(members: drawer.names, withLead: false)
        drawerShared = DrawerShared(
            choices: choices, joined: choices.joined(separator: String(Self.nameSeparator)), grammar: GrammarWriter.grammar(for: schema), schema: JSONSchemaWriter.responseSchema("route", schema),
            outputs: Route.outputs(members: drawer.names, withLead: false),
            lines: drawer.agents.filter { choices.contains($0.name) }.map { agent in
                agent.about.isEmpty
                    ? drawerPrompts.line("agent_without_about", ["name": SealedText(agent.name)])
                    : drawerPrompts.line("agent", ["name": SealedText(agent.name), "about": agent.about])
            })
    }

    /// Separates the members' names in `JobItem.labels` (a name that could hold it is never a choice).
    public static let nameSeparator: Character = "\n"

    /// `plan`, counting what it read into `work`: one pass, each message on its own.
    func plan(_ snapshot: ThreadSnapshot, messages range: Range<Int>, writer: inout RequestWriter, ledger: inout JobLedger,
              work: inout PlanningWork) {
        guard let group = snapshot.thread.group else {
            planDrawer(snapshot, messages: range, writer: &writer, ledger: &ledger, work: &work)
            return
        }
        let names = group.members.map(\.name)
        let choices = Route.choices(members: names)
        let schema = Route.schema(members: names)
        let grammar = GrammarWriter.grammar(for: schema)   // one per group, not per message
        let responseSchema = JSONSchemaWriter.responseSchema("route", schema)
        let outputs = Route.outputs(members: names)
        let memberLines = group.members.map(memberLine)   // the same for every message of the group
        // Counted once, at the first message that needs a prompt: every prompt's size then sums
        // them with the message's own count (`Tokenizer.tokenCount(joining:)`).
        var memberTokens: [Int]? = nil
        var countedWith: (any Tokenizer)? = nil
        let members = choices.joined(separator: String(Self.nameSeparator))
        for index in range {
            guard let (message, attribution) = snapshot.personMessage(at: index, work: &work, ledger: &ledger) else { continue }
            guard let text = message.text, !text.isEmpty else { continue }
            if Mention.namesMember(text, members: names) {
                ledger.count(JobCounter.named.rawValue, attribution)
                continue
            }
            guard writer.answers(in: snapshot.language(of: message), at: attribution) else { continue }
            let tokenizer = writer.tokenizer   // the message's model version's
            if countedWith !== tokenizer {
                memberTokens = nil
                countedWith = tokenizer
            }
            var values = PromptValues(language: snapshot.language(of: message))
            // Counted once here, so both sizes below are sums of known counts wherever the seams
            // allow, and the prompt is never joined (a request joins its parts only when read).
            values.set("message", text, tokens: tokenizer.tokenCount(of: text))
            if memberTokens == nil { memberTokens = memberLines.map(tokenizer.tokenCount(of:)) }
            values.set("members", lines: memberLines, tokens: memberTokens)
            let written = writer.request(values, grammar: grammar, schema: responseSchema, choices: outputs)
            var labels = ["lead": group.lead, "members": members]
            labels["to"] = message.meta.groupTo
            labels["routed"] = message.meta.groupRouted
            // The prompt is the input.
            let inputTokens = tokenizer.tokenCount(joining: written.parts, separator: RequestWriter.separator, knownCounts: written.knownCounts)
            writer.items.append(JobItem(job: .route, attribution: attribution, request: written.request,
                                        inputTokens: inputTokens, inputWasCut: false, promptTokens: written.promptTokens, labels: labels,
                                        topic: writer.topic(of: [text], language: snapshot.language(of: message))))
        }
    }

    /// The drawer's place in a one-agent thread, when `range` holds its first message: that
    /// message, when the person sent it with words, asked against the agents offered.
    func planDrawer(_ snapshot: ThreadSnapshot, messages range: Range<Int>, writer: inout RequestWriter, ledger: inout JobLedger,
                    work: inout PlanningWork) {
        guard let shared = drawerShared, range.contains(0), let agent = snapshot.thread.agent, !agent.isEmpty,
              let (message, attribution) = snapshot.personMessage(at: 0, work: &work, ledger: &ledger),
              let text = message.text, !text.isEmpty else { return }
        ledger.count(JobCounter.drawerScanned.rawValue, attribution)
        if Mention.namesMember(text, members: shared.choices) {
            ledger.count(JobCounter.drawerNamed.rawValue, attribution)
            return
        }
        guard shared.choices.contains(agent) else {
            ledger.count(JobCounter.drawerAgentNotOffered.rawValue, attribution)
            return
        }
        // The drawer labels topics whenever routing does (an injection that follows topics).
        var drawerSettings = drawerAsking
        drawerSettings.labelsTopics = asking.labelsTopics
        var drawerWriter = writer.sibling(asking: drawerSettings)
        defer { writer.items += drawerWriter.items.map { item in var item = item; item.place = .drawer; return item } }
        guard drawerWriter.answers(in: snapshot.language(of: message), at: attribution) else { return }
        let tokenizer = drawerWriter.tokenizer
        var values = PromptValues(language: snapshot.language(of: message))
        values.set("message", text, tokens: tokenizer.tokenCount(of: text))
        values.set("agents", lines: shared.lines, tokens: shared.lines.map(tokenizer.tokenCount(of:)))
        let written = drawerWriter.request(values, grammar: shared.grammar, schema: shared.schema, choices: shared.outputs)
        let inputTokens = tokenizer.tokenCount(joining: written.parts, separator: RequestWriter.separator, knownCounts: written.knownCounts)
        drawerWriter.items.append(JobItem(job: .route, attribution: attribution, request: written.request, inputTokens: inputTokens,
                                          inputWasCut: false, promptTokens: written.promptTokens,
                                          labels: ["agent": agent, "agents": shared.joined],
                                          topic: drawerWriter.topic(of: [text], language: snapshot.language(of: message))))
    }

    public var described: JobDescription {
        let confidenceSource: SettingSource = minimumConfidence == Self.defaultMinimumConfidence ? .projectDefault : .flagOrConfig
        return JobDescription(kind: kind, budget: budget, inputCapTokens: nil, contextLimitTokens: asking.contextLimit, outputSchema: nil,
                              settings: JobSettings.Own(minimumConfidence: minimumConfidence, minimumConfidenceSource: confidenceSource),
                              countedPlaces: [.drawer])
    }

    /// Decodes the route and applies the confidence rule: the answer is where the message goes,
    /// a member's name as the item's labels spell it (never the model's words) or the lead's.
    ///
    /// An output that names someone outside the group (`RouteOutsideGroupRule`) is rejected as
    /// any output outside the schema is, and also counted `never:route_outside_group`: the
    /// grammar makes it impossible, so a count there means the grammar or the engine broke.
    public func check(_ output: SealedText, for item: JobItem, outcome: GenerationOutcome) -> Checked<String> {
        if item.place == .drawer { return checkDrawer(output, for: item, outcome: outcome) }
        let lead = item.labels["lead"] ?? Route.lead
        let members = (item.labels["members"] ?? "").split(separator: Self.nameSeparator).map(String.init)
        guard let route = Route(output: output, members: members) else {
            return .rejected(RouteOutsideGroupRule.namesOutsider(output, choices: members) ? NeverRule.routeOutsideGroup.counter : nil)
        }
        if route.chose(Route.lead) || route.chose(caseInsensitive: lead) {
            return .accepted(lead, counters: [JobCounter.answeredLead.rawValue: 1])
        }
        guard minimumConfidence == 0 || outcome.choiceProbability > minimumConfidence else {
            return .accepted(lead, counters: [JobCounter.lowConfidence.rawValue: 1])
        }
        return .accepted(members.first { route.chose($0) } ?? lead)
    }

    /// What a drawer guess stands for when no agent is picked (a guess at or below the
    /// confidence floor): the empty name, which no agent has.
    static let noPick = ""
    /// The prefix of the drawer's `drawer:confusion:<agent>-><picked>` counters.
    public static let drawerConfusion = "drawer:confusion:"
    /// The picked side of a drawer confusion pair where no pill was shown.
    public static let drawerNoPill = "none"

    /// `check` in the drawer: the agent picked, as the item's labels spell it, or `noPick` when the
    /// guess is not above the confidence floor. There is no lead to fall to: no pill, the person
    /// picks by hand as today.
    func checkDrawer(_ output: SealedText, for item: JobItem, outcome: GenerationOutcome) -> Checked<String> {
        let agents = (item.labels["agents"] ?? "").split(separator: Self.nameSeparator).map(String.init)
        guard let route = Route(output: output, members: agents, withLead: false) else {
            return .rejected(RouteOutsideGroupRule.namesOutsider(output, choices: agents, withLead: false) ? NeverRule.routeOutsideGroup.counter : nil)
        }
        guard minimumConfidence == 0 || outcome.choiceProbability > minimumConfidence else {
            return .accepted(Self.noPick, counters: [JobCounter.drawerLowConfidence.rawValue: 1])
        }
        return .accepted(agents.first { route.chose($0) } ?? Self.noPick)
    }

    /// Judges where the message goes (`guess`, or the lead when nil) against where it went; in
    /// the drawer, the agent picked (none when nil) against the thread's.
    public func score(_ guess: String?, for item: JobItem) -> Scored {
        if item.place == .drawer {
            let shown = guess.map { $0 != Self.noPick } ?? false
            let picked = shown && guess == item.labels["agent"]
            // Which agent the person meant against the pill they saw (`none`: no pill), names by
            // the agent rule, as routing's `confusion:` pairs are by the member rule.
            let agent = { (name: String) -> String in ReportLabel(agent: name, listed: labels).text }
            let pair = agent(item.labels["agent"] ?? "") + "->" + (shown ? agent(guess ?? "") : Self.drawerNoPill)
            return Scored(quality: ["drawer_accuracy": picked ? 1 : 0, "drawer_shown": shown ? 1 : 0],
                          counters: [Self.drawerConfusion + pair: 1])
        }
        let lead = item.labels["lead"] ?? Route.lead
        let guess = guess ?? lead   // no answer shown: the lead, as today
        var scored = Scored()
        let hit = { (actual: String) -> Double in Self.same(guess, actual) ? 1 : 0 }
        let label = { (name: String) -> String in Self.same(name, lead) ? Route.lead : ReportLabel(member: name, listed: labels).text }
        switch (item.labels["to"], item.labels["routed"]) {
        case (let to?, nil):
            scored.quality["accuracy"] = hit(to)
            scored.counters["confusion:\(label(to))->\(label(guess))"] = 1
        case (let to?, "on-device"):
            scored.quality["agreement"] = hit(to)
        case (nil, _):
            scored.quality["lead_accuracy"] = hit(lead)
            scored.counters["confusion:\(Route.lead)->\(label(guess))"] = 1
        default:
            break   // a `routed` value this replay does not know: no label to judge against
        }
        return scored
    }

    /// Names compare without regard to case, as `@Name` does.
    public static func same(_ a: String, _ b: String) -> Bool { a.lowercased() == b.lowercased() }

    /// A member's line of the prompt (`{members}`): its name and what it is for, or its name
    /// alone when it has no `about`.
    func memberLine(_ member: GroupMember) -> SealedText {
        member.about.isEmpty
            ? asking.prompts.line("member_without_about", ["name": SealedText(member.name)])
            : asking.prompts.line("member", ["name": SealedText(member.name), "about": member.about])
    }
}
