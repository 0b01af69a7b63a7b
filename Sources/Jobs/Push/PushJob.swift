import Privacy
import Engine
import Export

/// A line for the push (spec §4): one plain line saying what an agent's reply holds.
///
/// Fires on an agent message whose push has `kind == "reply"`; a `handoff` or `quote` (or any
/// other kind) keeps the relay's line and is counted as `relay_line_kept`, not asked. A reply
/// whose input has no words at all (pictures and buttons only) is counted as `no_words`: nothing
/// to sum up, so the relay's line stays.
///
/// Input: the reply's screen words. For `batch > 1`, the newest `min(batch, 3)` replies of that
/// agent in the thread, up to and including this one, oldest first (a push for two replies
/// covers two, not three). The joined words are cut to 1,000 tokens from the end, once: the
/// notification extension has little memory, so the whole input stays under the spec's cap,
/// and cutting from the end keeps the newest words. The words around them are the prompt set's
/// (`prompts`: `{words}`, `{replies}` and `when: batched` for more than one, `{language}`).
///
/// Quality keys: `well_formed` (0 or 1 per asked item: the person saw a line that fits the
/// schema and passes the checks in every language, its own among them; a late line was not seen)
/// and `length_chars` (characters of each line seen). Counters: `relay_line_kept`, `no_words`,
/// `batched` (inputs joined from several replies), one `PushLine.Rejection` per rejected line,
/// and `unchecked`: a line that passed but whose language has no `PushLineRule` of its own, so it
/// is not scored `well_formed` at all (never counted as passed); and the spec's never rules,
/// `never:push_advice`, `never:push_greeting`, `never:push_speaks_for_agent`,
/// `never:push_unfaithful` (`check`; docs/never-rules.md).
///
/// In next-run mode (`PushMode.nextRun`, spec §4's fallback when the extension cannot call the
/// model) the same line is asked with the same request, but it is written at the person's next
/// app run (`nextRuns`: their next message after the push, in any thread), where it becomes the
/// thread's last-message line. Each eligible push the app ran after adds its delay to the
/// ledger (`JobLedger.nextRun(afterSeconds:_:)`); one it never ran after falls back
/// `no_next_run` before asking (its line is never written; `next_run:no_time` too when the push's
/// own time cannot be read). Decided before the language check, so every eligible push is one or
/// the other. The budget stays the job's.
public struct PushJob: AskingJob, CountedPlanning {
    public var kind: JobKind { .push }
    /// Planning reads the newest replies' words.
    public var readsScreenWords: Bool { true }
    /// The project's budget, not the spec's: the spec says only that a notification extension has
    /// "little memory and about 30 seconds"; 3,000 ms keeps the push prompt.
    public static let defaultBudget = Budget(milliseconds: 3000, source: .projectDefault)
    /// How the line is asked: the budget is the line's, and the output cap fits a 90-character
    /// line and its JSON, with room for scripts that take more than one token per character.
    public var asking: AskSettings
    /// Tokens of words the model may see, counted from the end (spec: 1,000).
    public var inputCap: Int
    /// The most replies a batched push reads (spec: the newest three).
    public var newestReplies: Int
    /// Where the line is written: in the extension (the spec's plan), or at the next app run.
    public var mode: PushMode
    /// When the app ran (next-run mode): gathered before the run over the whole corpus.
    public var nextRuns: NextRuns

    public init(budgetMilliseconds: Double = PushJob.defaultBudget.milliseconds, inputCap: Int = 1000, newestReplies: Int = 3,
                contextLimit: Int = 4096, maxOutputTokens: Int = 160, supportedLanguages: SupportedLanguages = .appleIntelligence,
                prompts: JobPrompts = PromptSet.builtIn.push, mode: PushMode = .extension, nextRuns: NextRuns = .none) {
        precondition(prompts.job == .push, "push asks with the push prompts")
        asking = AskSettings(budgetMilliseconds: budgetMilliseconds, contextLimit: contextLimit, maxOutputTokens: maxOutputTokens,
                             supportedLanguages: supportedLanguages, prompts: prompts)
        self.inputCap = inputCap
        self.newestReplies = newestReplies
        self.mode = mode
        self.nextRuns = nextRuns
    }

    /// `plan`, counting what it read into `work`.
    ///
    /// One pass in time order: each agent's newest replies (`NewestReplies`) and every message's
    /// attribution (`ThreadAttributions`) are kept as the thread is read, so a push reads only
    /// the replies it joins, never the thread before it.
    func plan(_ snapshot: ThreadSnapshot, messages range: Range<Int>, writer: inout RequestWriter, ledger: inout JobLedger,
              work: inout PlanningWork) {
        // Messages are read in place, by index, and copied only when they carry a push.
        let messages = snapshot.messages
        let attributions = snapshot.attributions()
        work.messagesRead += attributions.reads
        var newest = NewestReplies(keep: newestReplies)
        // A range that starts partway knows the replies before it, as one pass from the start would.
        for index in messages[..<range.lowerBound].indices {
            work.messagesRead += 1
            if case .agent(let agent) = messages[index].from, messages[index].screen != nil { newest.add(index, agent: agent) }
        }
        for index in range {
            work.messagesRead += 1
            guard case .agent(let agent) = messages[index].from else { continue }
            if messages[index].screen != nil { newest.add(index, agent: agent) }
            guard let push = messages[index].push else { continue }
            let message = messages[index]
            var attribution = attributions.attribution(at: index)
            attribution.locale = snapshot.language(of: message) ?? attribution.locale
            ledger.scanned(attribution)
            guard push.kind == "reply" else {
                ledger.count(JobCounter.relayLineKept.rawValue, attribution)
                continue
            }
            // The newest `min(batch, 3)` replies of this agent, up to and including this one, oldest first.
            // Read by index: only their words are wanted, never a copy of each record.
            let replies = message.screen == nil ? []
                : newest.newest(min(max(push.batch, 1), newest.keep), of: agent)
            work.messagesRead += replies.count
            let words = SealedText.joined(replies.compactMap { messages[$0].screen?.words }.filter { !$0.isEmpty }, separator: "\n\n")
            guard !words.isEmpty else {
                ledger.count(JobCounter.noWords.rawValue, attribution)
                continue
            }
            var firesAt: Int64? = nil
            if mode == .nextRun {
                guard let delay = nextRuns.delaySeconds(after: message.at) else {
                    if UTCInstant.milliseconds(message.at) == nil { ledger.count(JobCounter.nextRunNoTime.rawValue, attribution) }
                    writer.items.append(.fallingBack(job: .push, attribution: attribution, reason: .noNextRun))
                    continue
                }
                ledger.nextRun(afterSeconds: delay, attribution)
                // The line is written at the next run, not at the push: that is when it waits
                // in the phone's queue (`PhoneQueue`).
                firesAt = UTCInstant.milliseconds(message.at).map { $0 + Int64((delay * 1000).rounded()) }
            }
            guard writer.answers(in: snapshot.language(of: message), at: attribution) else { continue }
            if replies.count > 1 { ledger.count(JobCounter.batched.rawValue, attribution) }
            let cut = writer.tokenizer.suffix(of: words, maxTokens: inputCap)
            var values = PromptValues(language: snapshot.language(of: message))
            values.set("words", cut.text, tokens: cut.textTokens)
            values.set("replies", SealedText(String(replies.count)))
            if replies.count > 1 { values.hold("batched") }
            // The words were counted for the cut: the prompt's size reuses that count.
            let written = writer.request(values, grammar: PushLine.grammar, schema: PushLine.responseSchema)
            var labels = ["agent": agent]
            labels["language"] = Language.code(of: snapshot.language(of: message))
            // The facts of every reply the line sums up (not only the words left after the cut):
            // numbers, times, days and names, kept in memory for `PushUnfaithfulRule`.
            let source = SourceFacts(words, agent: agent, members: snapshot.thread.group?.members.map(\.name) ?? [],
                                     counts: [replies.count, push.batch])
            var item = JobItem(job: .push, attribution: attribution, request: written.request,
                               inputTokens: cut.keptTokens, inputWasCut: cut.wasCut, promptTokens: written.promptTokens,
                               source: source, labels: labels,
                               topic: writer.topic(of: [cut.text], language: snapshot.language(of: message)))
            item.firedAtMilliseconds = firesAt
            writer.items.append(item)
        }
    }

    public var described: JobDescription {
        JobDescription(kind: kind, budget: budget, inputCapTokens: inputCap, contextLimitTokens: asking.contextLimit,
                       outputSchema: PushLine.schema, settings: JobSettings.Own(newestReplies: newestReplies, pushMode: mode))
    }

    /// Decodes and checks the line (`PushLine.check`), and counts the spec's never rules
    /// (`NeverRule.rules(of: .push)`) on every line the schema decodes, rejected or late ones too:
    /// a greeting and a line spoken for the agent (what `rejected_greeting` and
    /// `rejected_agent_says` reject, each counted whether or not the other rejected the line
    /// first), and advice of its own (`PushAdviceRule`) and a fact the replies do not hold
    /// (`PushUnfaithfulRule`, against the item's `source`), which do not reject the line.
    public func check(_ output: SealedText, for item: JobItem, outcome: GenerationOutcome) -> Checked<PushLine> {
        let agent = item.labels["agent"] ?? ""
        var checked: Checked<PushLine> = switch PushLine.check(output: output, agent: agent, language: item.labels["language"]) {
        case .success(let line): .accepted(line, counters: line.checkedInItsLanguage ? [:] : [JobCounter.unchecked.rawValue: 1])
        case .failure(let rejection): .rejected(rejection.rawValue)
        }
        guard let line = PushLine.decodedLine(output), !line.isEmpty else { return checked }
        let rule = PushLineRule.everyLanguage
        let broken: [(NeverRule, Bool)] = line.withUnsealedText { text in
            [(.pushGreeting, rule.startsWithGreeting(text)),
             (.pushSpeaksForAgent, rule.speaksForAgent(text, agent: agent)),
             (.pushAdvice, PushAdviceRule.givesAdvice(text)),
             (.pushUnfaithful, item.source.map { PushUnfaithfulRule.invents(text, source: $0, language: item.labels["language"]) } ?? false)]
        }
        for (never, breaks) in broken where breaks { checked.counters[never.counter] = 1 }
        return checked
    }

    /// A line seen is well formed (it passed every check) unless its language has no rule of its
    /// own, when it is not scored; no line seen (the relay's) is not.
    public func score(_ line: PushLine?, for item: JobItem) -> Scored {
        guard let line else { return Scored(quality: ["well_formed": 0]) }
        var quality = ["length_chars": Double(line.characterCount)]
        if line.checkedInItsLanguage { quality["well_formed"] = 1 }
        return Scored(quality: quality)
    }
}
