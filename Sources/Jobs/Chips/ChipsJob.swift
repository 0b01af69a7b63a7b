import Privacy
import Engine
import Export

/// Reply chips (spec §2): under a screen that asks in words, one to three short replies.
///
/// Fires on an agent screen whose last `say` ends in a question and that has nothing to tap.
/// The model sees the agent's name, the screen's words cut to the last 600 tokens, and the
/// person's last message; nothing else from the thread. The words around them are the prompt
/// set's (`prompts`: `{agent}`, `{words}`, `{last_message}` when there is one, `{language}`). Chips that come later than the budget
/// are not shown, so they count as a fallback, and score as no chips in `quality`.
///
/// Quality keys, over asked screens the person answered directly: `exact_match` (one chip equals
/// the reply, folded) and `best_f1` (the best chip's token F1 with it); no chips shown scores 0.
/// Counters: the spec's never rules, `never:chips_wrong_language` and `never:chips_agent_voice`
/// (`check`; docs/never-rules.md).
public struct ChipsJob: AskingJob, CountedPlanning {
    public var kind: JobKind { .chips }
    /// Planning reads the words of the screen that asks.
    public var readsScreenWords: Bool { true }
    /// The spec's budget: "ready within 800 ms of the screen landing, or they don't show" (§2).
    public static let defaultBudget = Budget(milliseconds: 800, source: .spec)
    /// How chips are asked: the budget runs from the screen landing to chips ready, and the output
    /// cap fits three 40-character replies and their JSON.
    public var asking: AskSettings
    /// Tokens of screen words the model may see, counted from the end (spec: 600).
    public var inputCap: Int

    public init(budgetMilliseconds: Double = ChipsJob.defaultBudget.milliseconds, inputCap: Int = 600, contextLimit: Int = 4096,
                maxOutputTokens: Int = 160, supportedLanguages: SupportedLanguages = .appleIntelligence,
                prompts: JobPrompts = PromptSet.builtIn.chips) {
        precondition(prompts.job == .chips, "chips asks with the chips prompts")
        asking = AskSettings(budgetMilliseconds: budgetMilliseconds, contextLimit: contextLimit, maxOutputTokens: maxOutputTokens,
                             supportedLanguages: supportedLanguages, prompts: prompts)
        self.inputCap = inputCap
    }

    /// `plan`, counting what it read into `work`: one pass, each screen's attribution looked up
    /// in `ThreadAttributions`, and (for a range that starts partway) one pass back to the
    /// person's last words before it.
    func plan(_ snapshot: ThreadSnapshot, messages range: Range<Int>, writer: inout RequestWriter, ledger: inout JobLedger,
              work: inout PlanningWork) {
        // Messages are read in place, by index: a copy of a whole record retains each of its
        // strings, and a dry run plans hundreds of thousands of screens on two threads.
        let messages = snapshot.messages
        var lastFromPerson: SealedText? = nil
        for index in messages[..<range.lowerBound].indices.reversed() {
            work.messagesRead += 1
            if case .agent = messages[index].from { continue }
            if let text = messages[index].text {
                lastFromPerson = text
                break
            }
        }
        let attributions = snapshot.attributions()
        work.messagesRead += attributions.reads
        for index in range {
            work.messagesRead += 1
            guard case .agent(let agent) = messages[index].from else {
                lastFromPerson = messages[index].text ?? lastFromPerson
                continue
            }
            guard let screen = messages[index].screen else { continue }
            // The reply's language when there is a next message, else the screen's.
            let next = index + 1 < messages.endIndex ? index + 1 : nil
            let language = snapshot.language(of: messages[next ?? index])
            var attribution = attributions.attribution(at: index)
            attribution.locale = language ?? attribution.locale
            ledger.scanned(attribution)
            guard screen.isChipEligible else { continue }

            guard writer.answers(in: language, at: attribution) else { continue }
            let cut = writer.tokenizer.suffix(of: screen.words, maxTokens: inputCap)
            let reference = next.flatMap { messages[$0].from == .person ? messages[$0].text : nil }
            let values = Self.values(agent: agent, cut: cut, lastFromPerson: lastFromPerson, language: language)
            // The words were counted for the cut: the prompt's size reuses that count.
            let written = writer.request(values, grammar: Replies.grammar, schema: Replies.responseSchema)
            // The person's language as a subtag, for the language rule at check (`ChipLanguageRule`).
            var labels: [String: String] = [:]
            labels["language"] = Language.code(of: language)
            writer.items.append(JobItem(job: .chips, attribution: attribution, request: written.request,
                                        inputTokens: cut.keptTokens, inputWasCut: cut.wasCut, promptTokens: written.promptTokens,
                                        reference: reference, labels: labels,
                                        topic: writer.topic(of: [cut.text, lastFromPerson], language: language)))
        }
    }

    public var described: JobDescription {
        JobDescription(kind: kind, budget: budget, inputCapTokens: inputCap, contextLimitTokens: asking.contextLimit,
                       outputSchema: Replies.schema)
    }

    /// Decodes the replies, and counts the spec's never rules (`NeverRule.rules(of: .chips)`) on
    /// every chip the schema decodes, whether or not the answer is kept or comes in time: a chip
    /// not in the person's language (`ChipLanguageRule`), a chip in the agent's voice
    /// (`AgentVoiceRule`). Each rule counts once per output, however many chips break it.
    public func check(_ output: SealedText, for item: JobItem, outcome: GenerationOutcome) -> Checked<Replies> {
        var checked: Checked<Replies> = Replies(output: output).map { .accepted($0) } ?? .rejected()
        let chips = Replies.decodedReplies(output)
        if ChipLanguageRule.breaks(chips, language: item.labels["language"]) {
            checked.counters[NeverRule.chipsWrongLanguage.counter] = 1
        }
        if AgentVoiceRule.breaks(chips) {
            checked.counters[NeverRule.chipsAgentVoice.counter] = 1
        }
        return checked
    }

    public func score(_ replies: Replies?, for item: JobItem) -> Scored {
        guard let reference = item.reference else { return Scored() }
        let chips = replies?.replies ?? []
        return Scored(quality: [
            "exact_match": chips.contains { ReplySimilarity.matches($0, reference) } ? 1 : 0,
            "best_f1": chips.map { ReplySimilarity.f1($0, reference) }.max() ?? 0,
        ])
    }

    /// What the prompt set's templates are filled with at one screen: the agent's name, the cut
    /// words (with their count when the cut knows it), the person's last message when there is
    /// one, and the language of the reply.
    static func values(agent: String, cut: TokenCut, lastFromPerson: SealedText?, language: String?) -> PromptValues {
        var values = PromptValues(language: language)
        values.set("agent", SealedText(agent))
        values.set("words", cut.text, tokens: cut.textTokens)
        if let lastFromPerson {
            values.set("last_message", lastFromPerson)
            values.hold("last_message")
        }
        return values
    }
}
