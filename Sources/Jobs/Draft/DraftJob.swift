import Privacy
import Engine
import Export

/// Drafting a screen offline (spec §5): under a message waiting in the outbox, a checklist, a
/// timer or a note the person can use now, or nothing when only the agent can answer.
///
/// Fires on a person's message with `meta.offline == true`. The model sees the message and the
/// agent's name, nothing else from the thread, and fills `Draft` (one tagged union: kind first,
/// then its fields). `none` is an answer, not a failure. The words around them are the prompt
/// set's (`prompts`: `{message}`, `{agent}`, `{language}`).
///
/// Counters: `kind:checklist`, `kind:timer`, `kind:card` and `no_draft` (valid answers by kind),
/// `expected:<kind>` (the keyword label below, per asked item), one `Draft.Rejection` per
/// rejected output, and the never rules (docs/never-rules.md): `never:draft_expert_question` (a
/// draft for a health, money or legal question, `ExpertTopic`), `never:draft_advice` (advice of
/// the model's own, `DraftAdviceRule`) and `never:draft_agent_voice` (the agent's voice,
/// `DraftAgentVoiceRule`).
///
/// Quality keys (0 or 1 per item), judged on what the person would have seen: the model's valid
/// draft when it came within the budget, or no draft when there is none or it came late (the
/// app's fallback):
/// - `kind_agrees`: the kind equals `expectedKind(of:)` of the message, a rough keyword proxy
///   for "a list, timer or note request gets that kind; anything else gets none".
/// - `used_when_drafted`: over messages that got a draft, whether the person ticked the draft
///   the app showed then (`draft_ticks` non-empty). Only checklists can be ticked and the ticks
///   belong to the phone's draft, not this model's, so it is a lower bound on use.
/// - `checklist_when_used`: over messages whose draft the person ticked (so a checklist was
///   wanted and used), whether this model also drafts a checklist: the draft that matters most
///   should not be lost.
public struct DraftJob: AskingJob, CountedPlanning {
    public var kind: JobKind { .draft }
    /// Planning reads the message alone.
    public var readsScreenWords: Bool { false }
    /// The project's budget, not the spec's: the spec says the person "gets something to use
    /// right away" and gives no number.
    public static let defaultBudget = Budget(milliseconds: 2000, source: .projectDefault)
    /// How a draft is asked: the budget runs from sending offline to the draft drawn, and the
    /// output cap fits a full checklist (40 + 8 × 60 characters) and its JSON.
    public var asking: AskSettings

    public init(budgetMilliseconds: Double = DraftJob.defaultBudget.milliseconds, contextLimit: Int = 4096,
                maxOutputTokens: Int = 256, supportedLanguages: SupportedLanguages = .appleIntelligence,
                prompts: JobPrompts = PromptSet.builtIn.draft) {
        precondition(prompts.job == .draft, "draft asks with the draft prompts")
        asking = AskSettings(budgetMilliseconds: budgetMilliseconds, contextLimit: contextLimit, maxOutputTokens: maxOutputTokens,
                             supportedLanguages: supportedLanguages, prompts: prompts)
    }

    /// `plan`, counting what it read into `work`: one pass, each message on its own.
    func plan(_ snapshot: ThreadSnapshot, messages range: Range<Int>, writer: inout RequestWriter, ledger: inout JobLedger,
              work: inout PlanningWork) {
        for index in range {
            guard let (message, attribution) = snapshot.personMessage(at: index, work: &work, ledger: &ledger) else { continue }
            guard message.meta.offline, let text = message.text, !text.isEmpty else { continue }
            let language = snapshot.language(of: message)
            guard writer.answers(in: language, at: attribution) else { continue }
            let agent = snapshot.thread.agent ?? message.meta.groupTo ?? snapshot.thread.group?.lead ?? "the agent"
            // The message is the input: counted once, for both sizes.
            let inputTokens = writer.tokenizer.tokenCount(of: text)
            var values = PromptValues(language: language)
            values.set("agent", SealedText(agent))
            values.set("message", text, tokens: inputTokens)
            let written = writer.request(values, grammar: Draft.grammar, schema: Draft.responseSchema)
            let expected = text.withUnsealedText { Self.expectedKind(of: $0) }
            var labels = [
                "expected": expected,
                "ticked": message.meta.draftTicks?.isEmpty == false ? "yes" : "no",
                "agent": agent,
            ]
            // A question for the expert (health, money, legal) gets no draft (spec §5): only the
            // category is kept, never a word. A message that names the kind it wants has none.
            if expected == Draft.none.kind {
                labels["expert_topic"] = text.withUnsealedText { ExpertTopic.named(in: $0, language: Language.code(of: language)) }?.rawValue
            }
            // The message's words as hashes, kept in memory: a draft that repeats the person's own
            // "remember to…" neither advises nor speaks as the agent.
            let source = SourceFacts(text, keepsParts: true)
            writer.items.append(JobItem(job: .draft, attribution: attribution, request: written.request,
                                        inputTokens: inputTokens, inputWasCut: false, promptTokens: written.promptTokens,
                                        source: source, labels: labels, topic: writer.topic(of: [text], language: language)))
        }
    }

    public var described: JobDescription {
        JobDescription(kind: kind, budget: budget, inputCapTokens: nil, contextLimitTokens: asking.contextLimit, outputSchema: Draft.schema)
    }

    /// Decodes and checks the draft (`Draft.check`), and counts the never rules on every output
    /// the schema decodes, rejected (a blank field) and late ones too: `draftExpertQuestion` when
    /// the message is a question for the expert (`labels["expert_topic"]`, from `ExpertTopic`)
    /// and the output is any kind but `none`; `draftAdvice` and `draftAgentVoice` when a title,
    /// body, item or label advises or speaks as the agent (`DraftAdviceRule`,
    /// `DraftAgentVoiceRule`, against the message's `source`). None of them rejects.
    public func check(_ output: SealedText, for item: JobItem, outcome: GenerationOutcome) -> Checked<Draft> {
        var checked: Checked<Draft> = switch Draft.check(output: output) {
        case .success(let draft): .accepted(draft, counters: [draft == .none ? JobCounter.noDraft.rawValue : "kind:\(draft.kind)": 1])
        case .failure(let rejection): .rejected(rejection.rawValue)
        }
        if item.labels["expert_topic"] != nil, let kind = Draft.decodedKind(output), kind != Draft.none.kind {
            checked.counters[NeverRule.draftExpertQuestion.counter] = 1
        }
        if let texts = Draft.decodedTexts(output), !texts.isEmpty {
            if DraftAdviceRule.breaks(texts, message: item.source) { checked.counters[NeverRule.draftAdvice.counter] = 1 }
            if DraftAgentVoiceRule.breaks(texts, agent: item.labels["agent"], message: item.source) {
                checked.counters[NeverRule.draftAgentVoice.counter] = 1
            }
        }
        return checked
    }

    public func score(_ draft: Draft?, for item: JobItem) -> Scored {
        let shown = draft?.kind ?? Draft.none.kind   // no draft shown: none, as today
        let expected = item.labels["expected"] ?? Draft.none.kind
        let ticked = item.labels["ticked"] == "yes"
        var quality = ["kind_agrees": shown == expected ? 1.0 : 0]
        if shown != Draft.none.kind { quality["used_when_drafted"] = ticked ? 1 : 0 }
        if ticked { quality["checklist_when_used"] = shown == "checklist" ? 1 : 0 }
        return Scored(quality: quality, counters: ["expected:\(expected)": 1])
    }

    /// The kind a message asks for, by keywords in the corpus's languages (`DraftKeywords`): a
    /// note ("note:", "Notiz:", "nota:", "メモ"), a timer ("timer", "minuteur", "temporizador",
    /// "タイマー"), a list ("list", "liste", "lista", "リスト"), else none (questions for the expert).
    public static func expectedKind(of text: String) -> String { DraftKeywords.kind(of: text) }
}
