import Privacy
import Engine
import Export
import Testing
import TestSupport
@testable import Jobs

/// Every job plans a thread in work linear in its length, and the linear planning gives exactly
/// the items and counts of the straightforward planning it replaced.
///
/// The reference (`QuadraticPlanning`) is the chips and push planning as it was at commit
/// 3e6489b, kept here line for line: each agent message searched the thread around it for the
/// person's nearest message, and each push filtered the thread before it for its agent's
/// replies. Route and draft read each message on its own and did not change. Work is counted in
/// messages read (`PlanningWork`), never timed.
@Suite struct LinearPlanningTests {
    /// Every field of two items, the sealed words compared as values (never shown).
    static func same(_ a: JobItem, _ b: JobItem) -> Bool {
        a.job == b.job && a.attribution == b.attribution && a.earlyFallback == b.earlyFallback
            && a.inputTokens == b.inputTokens && a.inputWasCut == b.inputWasCut && a.promptTokens == b.promptTokens
            && a.reference == b.reference && a.labels == b.labels
            && a.request?.instructions == b.request?.instructions && a.request?.prompt == b.request?.prompt
            && a.request?.grammar == b.request?.grammar && a.request?.maxOutputTokens == b.request?.maxOutputTokens
            && a.request?.contextLimit == b.request?.contextLimit
            && a.request?.choices == b.request?.choices
            && (a.request == nil) == (b.request == nil)
    }

    /// How many items of `a` and `b` differ, and whether their counts differ (counts only).
    static func differences(_ a: [JobItem], _ b: [JobItem]) -> Int {
        zip(a, b).filter { !same($0, $1) }.count + abs(a.count - b.count)
    }

    static let tokenizers: [any Tokenizer] = [ApproximateTokenizer(), ScriptedModel(output: "")]

    /// `job` plans exactly what `reference` (the quadratic planning of the same job) planned, items
    /// and ledger, over two varied threads and with each tokenizer.
    static func expectPlansAsReference<J: Job>(_ job: J, group: Bool,
                                               _ reference: (J, ThreadSnapshot, any Tokenizer, inout JobLedger, inout Int) -> [JobItem]) {
        for seed in 1...2 {
            let snapshot = VariedThread.make(messages: 1500, seed: UInt64(seed), group: group)
            for tokenizer in Self.tokenizers {
                var ledger = JobLedger(), referenceLedger = JobLedger()
                var work = 0
                let items = job.plan(snapshot, tokenizer: tokenizer, ledger: &ledger)
                let planned = reference(job, snapshot, tokenizer, &referenceLedger, &work)
                #expect(!planned.isEmpty)
                #expect(Self.differences(items, planned) == 0)
                #expect(ledger == referenceLedger)
            }
        }
    }

    @Test(arguments: [0, 1, 3, 5], [false, true])
    func pushPlansWhatTheQuadraticPlanningPlanned(newestReplies: Int, group: Bool) {
        Self.expectPlansAsReference(PushJob(newestReplies: newestReplies), group: group) { job, snapshot, tokenizer, ledger, work in
            QuadraticPlanning.push(job, snapshot, tokenizer: tokenizer, ledger: &ledger, reads: &work)
        }
    }

    @Test(arguments: [false, true])
    func chipsPlansWhatTheQuadraticPlanningPlanned(group: Bool) {
        Self.expectPlansAsReference(ChipsJob(), group: group) { job, snapshot, tokenizer, ledger, work in
            QuadraticPlanning.chips(job, snapshot, tokenizer: tokenizer, ledger: &ledger, reads: &work)
        }
    }

    /// The thread exercises every path the comparison is meant to cover: items asked and fallen
    /// back, relay lines kept, pushes without words, batches, and agent messages with no person
    /// message after them or before them.
    @Test func theVariedThreadReachesEveryPath() {
        let snapshot = VariedThread.make(messages: 1500, seed: 1, group: true)
        var push = JobLedger(), chips = JobLedger(), route = JobLedger(), draft = JobLedger()
        let tokenizer = ApproximateTokenizer()
        let pushItems = PushJob().plan(snapshot, tokenizer: tokenizer, ledger: &push)
        let chipsItems = ChipsJob().plan(snapshot, tokenizer: tokenizer, ledger: &chips)
        let routeItems = RouteJob().plan(snapshot, tokenizer: tokenizer, ledger: &route)
        let draftItems = DraftJob().plan(snapshot, tokenizer: tokenizer, ledger: &draft)
        for items in [pushItems, chipsItems, routeItems, draftItems] {
            #expect(items.contains { $0.request != nil })
            #expect(items.contains { $0.earlyFallback == .unsupportedLanguage })
        }
        for counter in ["relay_line_kept", "no_words", "batched"] {
            #expect(push.overall.counters[counter, default: 0] > 0)
        }
        #expect(route.overall.counters["named", default: 0] > 0)
        #expect(pushItems.contains { $0.inputWasCut })
        #expect(chipsItems.contains { $0.reference != nil } && chipsItems.contains { $0.reference == nil })
        // Attributions from the next person message, the previous one, and none at all.
        #expect(Set(pushItems.map(\.attribution.build)).count >= 3)
        let first = snapshot.messages.firstIndex { $0.from == .person } ?? 0
        let last = snapshot.messages.lastIndex { $0.from == .person } ?? 0
        #expect(first > 0 && last < snapshot.messages.count - 1)
    }

    @Test func attributionsAreThoseOfTheSearchFromEachMessage() {
        var threads = (1...4).map { VariedThread.make(messages: 800, seed: UInt64($0), group: $0 % 2 == 0) }
        // No person message at all, and a person message only first or only last.
        let agents = (0..<50).map { Threads.reply("a\($0)", "w\($0)") }
        threads.append(Threads.coachThread(agents))
        threads.append(Threads.coachThread([Threads.offline("p", "hi")] + agents))
        threads.append(Threads.coachThread(agents + [Threads.offline("p", "hi")]))
        threads.append(Threads.coachThread([]))
        for snapshot in threads {
            let attributions = snapshot.attributions()
            var reads = 0
            let mismatches = snapshot.messages.indices.filter {
                attributions.attribution(at: $0) != QuadraticPlanning.attribution(in: snapshot, at: $0, reads: &reads)
            }
            #expect(mismatches.isEmpty)
            #expect(attributions.reads == 2 * snapshot.messages.count)
        }
    }

    /// Each job reads a bounded number of messages per message (chips: 3, push: at most 3 plus
    /// the replies it joins, at most 3 a push; route and draft: 1), so doubling the thread doubles
    /// the work exactly; the reference's reads grow with the square.
    @Test(arguments: JobKind.allCases)
    func workGrowsLinearlyWithTheThread(kind: JobKind) {
        let sizes = [1000, 2000, 4000]
        var reads: [Int] = []
        var quadratic: [Int] = []
        for size in sizes {
            let snapshot = VariedThread.make(messages: size, seed: 7, group: true, repeating: true)
            let tokenizer = ScriptedModel(output: "")
            var ledger = JobLedger(), referenceLedger = JobLedger()
            var work = PlanningWork()
            var referenceReads = 0
            switch kind {
            case .chips:
                _ = ChipsJob().plan(snapshot, messages: snapshot.messages.indices, tokenizer: tokenizer, ledger: &ledger, work: &work)
                _ = QuadraticPlanning.chips(ChipsJob(), snapshot, tokenizer: tokenizer, ledger: &referenceLedger, reads: &referenceReads)
                #expect(work.messagesRead == 3 * size)
            case .push:
                _ = PushJob().plan(snapshot, messages: snapshot.messages.indices, tokenizer: tokenizer, ledger: &ledger, work: &work)
                _ = QuadraticPlanning.push(PushJob(), snapshot, tokenizer: tokenizer, ledger: &referenceLedger, reads: &referenceReads)
                #expect(work.messagesRead <= 6 * size)
            case .route:
                _ = RouteJob().plan(snapshot, messages: snapshot.messages.indices, tokenizer: tokenizer, ledger: &ledger, work: &work)
                #expect(work.messagesRead == size)
            case .draft:
                _ = DraftJob().plan(snapshot, messages: snapshot.messages.indices, tokenizer: tokenizer, ledger: &ledger, work: &work)
                #expect(work.messagesRead == size)
            }
            reads.append(work.messagesRead)
            quadratic.append(referenceReads)
        }
        // The thread repeats one 1,000-message block, so a linear job's work doubles exactly; a
        // push's, all but a few replies (a block's first pushes may join the last block's replies).
        for step in 1..<sizes.count {
            if kind == .push {
                #expect((1.99...2.01).contains(Double(reads[step]) / Double(reads[step - 1])))
            } else {
                #expect(reads[step] == 2 * reads[step - 1])
            }
        }
        // The same count tells a quadratic planner: the reference's push reads grow about 4× a doubling.
        if kind == .push {
            #expect(quadratic[2] > 12 * quadratic[0])
        }
    }
}

/// The chips and push planning at commit 3e6489b, line for line, counting each message it reads;
/// with each place's locale (issue 35), which reads no message beyond those it already read.
enum QuadraticPlanning {
    /// The search from one message: the person's next message, else their previous one.
    static func attribution(in snapshot: ThreadSnapshot, at index: Int, reads: inout Int) -> Attribution {
        let messages = snapshot.messages
        var after: MessageRecord? = nil
        for candidate in messages[(index + 1)...] {
            reads += 1
            if candidate.from == .person { after = candidate; break }
        }
        var before: MessageRecord? = nil
        for candidate in messages[..<index].reversed() {
            reads += 1
            if candidate.from == .person { before = candidate; break }
        }
        let meta = (after ?? before)?.meta
        return Attribution(build: meta?.build, model: meta?.model, message: messages[index].id)
    }

    /// The newest `count` messages of the agent who sent `messages[index]` that have a screen,
    /// up to and including it, oldest first: the thread up to `index` filtered.
    static func replies(in snapshot: ThreadSnapshot, upTo index: Int, count: Int, reads: inout Int) -> [MessageRecord] {
        let sender = snapshot.messages[index].from
        reads += index + 1
        let own = snapshot.messages[...index].filter { $0.from == sender && $0.screen != nil }
        return Array(own.suffix(count))
    }

    static func push(_ job: PushJob, _ snapshot: ThreadSnapshot, tokenizer: any Tokenizer, ledger: inout JobLedger,
                     reads: inout Int) -> [JobItem] {
        var items: [JobItem] = []
        for (index, message) in snapshot.messages.enumerated() {
            reads += 1
            guard case .agent(let agent) = message.from, let push = message.push else { continue }
            var attribution = attribution(in: snapshot, at: index, reads: &reads)
            attribution.locale = snapshot.language(of: message) ?? attribution.locale
            ledger.scanned(attribution)
            guard push.kind == "reply" else {
                ledger.count("relay_line_kept", attribution)
                continue
            }
            let replies = message.screen == nil ? []
                : Self.replies(in: snapshot, upTo: index, count: min(max(push.batch, 1), max(job.newestReplies, 1)), reads: &reads)
            let words = SealedText.joined(replies.compactMap { $0.screen?.words }.filter { !$0.isEmpty }, separator: "\n\n")
            guard !words.isEmpty else {
                ledger.count("no_words", attribution)
                continue
            }
            guard job.asking.supportedLanguages.supports(snapshot.language(of: message)) else {
                items.append(.unsupportedLanguage(job: .push, attribution: attribution))
                continue
            }
            if replies.count > 1 { ledger.count("batched", attribution) }
            let cut = tokenizer.suffix(of: words, maxTokens: job.inputCap)
            var values = PromptValues(language: snapshot.language(of: message))
            values.set("words", cut.text, tokens: cut.textTokens)
            values.set("replies", SealedText(String(replies.count)))
            if replies.count > 1 { values.hold("batched") }
            let (parts, knownCounts) = job.asking.prompts.promptParts(values)
            let request = GenerationRequest(
                instructions: job.asking.prompts.instructions(values),
                prompt: SealedText.joined(parts, separator: "\n"),
                grammar: PushLine.grammar, maxOutputTokens: job.asking.maxOutputTokens, contextLimit: job.asking.contextLimit)
            let promptTokens = tokenizer.promptTokenCount(for: request, promptParts: parts, separator: "\n",
                                                          knownCounts: knownCounts)
            var labels = ["agent": agent]
            labels["language"] = Language.code(of: snapshot.language(of: message))
            items.append(JobItem(job: .push, attribution: attribution, request: request,
                                 inputTokens: cut.keptTokens, inputWasCut: cut.wasCut, promptTokens: promptTokens, labels: labels))
        }
        return items
    }

    static func chips(_ job: ChipsJob, _ snapshot: ThreadSnapshot, tokenizer: any Tokenizer, ledger: inout JobLedger,
                      reads: inout Int) -> [JobItem] {
        var items: [JobItem] = []
        var lastFromPerson: SealedText? = nil
        let messages = snapshot.messages
        for index in messages.indices {
            reads += 1
            guard case .agent(let agent) = messages[index].from else {
                lastFromPerson = messages[index].text ?? lastFromPerson
                continue
            }
            guard let screen = messages[index].screen else { continue }
            let next = index + 1 < messages.endIndex ? index + 1 : nil
            let language = snapshot.language(of: messages[next ?? index])
            var attribution = attribution(in: snapshot, at: index, reads: &reads)
            attribution.locale = language ?? attribution.locale
            ledger.scanned(attribution)
            guard screen.isChipEligible else { continue }
            guard job.asking.supportedLanguages.supports(language) else {
                items.append(.unsupportedLanguage(job: .chips, attribution: attribution))
                continue
            }
            let cut = tokenizer.suffix(of: screen.words, maxTokens: job.inputCap)
            let reference = next.flatMap { messages[$0].from == .person ? messages[$0].text : nil }
            let values = ChipsJob.values(agent: agent, cut: cut, lastFromPerson: lastFromPerson, language: language)
            let (parts, knownCounts) = job.asking.prompts.promptParts(values)
            let request = GenerationRequest(
                instructions: job.asking.prompts.instructions(values),
                prompt: SealedText.joined(parts, separator: "\n"),
                grammar: Replies.grammar, maxOutputTokens: job.asking.maxOutputTokens, contextLimit: job.asking.contextLimit)
            let promptTokens = tokenizer.promptTokenCount(for: request, promptParts: parts, separator: "\n",
                                                          knownCounts: knownCounts)
            var labels: [String: String] = [:]
            labels["language"] = Language.code(of: language)
            items.append(JobItem(job: .chips, attribution: attribution, request: request,
                                 inputTokens: cut.keptTokens, inputWasCut: cut.wasCut, promptTokens: promptTokens,
                                 reference: reference, labels: labels))
        }
        return items
    }
}
