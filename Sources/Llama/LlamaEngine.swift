internal import CLlama
import Engine
import Privacy
import Foundation

/// The real model engine: llama.cpp running a GGUF instruct model, greedy, under a grammar.
///
/// Requests are answered together, continuously: each step evaluates the next token of every
/// generating sequence in one batch, then the next chunk of each waiting prompt, and a sequence
/// that finishes hands its place to the next request at once. Each request is its own sequence
/// in the KV cache and attends to its own tokens only: a fresh session each, as on the phone.
///
/// **The same answer however requests are batched.** llama.cpp's CPU kernels choose their
/// arithmetic by the shape of each evaluation: the output layer (Q8_0 here) is a dot product per
/// row for one row and tinyBLAS for two or more; flash attention is split across threads for a
/// single token alone, tiled for 64 or more rows, and a row at a time otherwise, which is exact to
/// the order of the cells only. Greedy decoding of a small model meets near-ties often enough that
/// these last-bit differences change answers (1 or 2 of 13 chips answers changed with the batch
/// in the engine before this). So every evaluation here holds 2 or more tokens (a companion token
/// in sequence 0 when only one sequence generates), asks for 2 or more rows of logits, and each
/// sequence has a KV buffer of its own whose cells stay in position order. Attention is matrix
/// products and a softmax by default (`Options.Attention.matmul`): a product's every element is
/// summed in the same order whatever the number of rows, so a prompt goes in chunks of up to 512
/// tokens; with flash attention chunks stay under 64. Then a token's numbers depend on its own
/// sequence only, and each speed-up below is exact:
///
/// - **Prefix cache.** The chat framing and a job's instructions (per job and language) are
///   evaluated once; their keys and values are kept and put into each new sequence, which then
///   evaluates only its own words. A request also takes the longest prefix it shares with a
///   sequence in flight, or with a prompt answered earlier in the same call when a later request
///   shares more than instructions with it (a group's member list, for routing). Only framing and
///   instructions outlive a call: no thread's words stay in the cache.
/// - **Forced-token jump** (flash attention only). Every output of a grammar starts the same way
///   (`{"replies":["`): the tokens the model wrote there before go in with the prompt's last chunk,
///   and each is kept only while it is greedy decoding's own pick at its place (one evaluation
///   instead of one per token). When the grammar allows nothing but the end, the sequence ends
///   without another. With matrix-product attention a token among a prompt's rows takes another
///   kernel than one generated alone in its sequence (one row), so there the jump is off.
/// - **Continuous batching.** A finished sequence's place goes to the next request at once.
///
/// One lock serialises use of the context, which llama.cpp does not allow from two threads at once
/// (`answer(_:_:handout:lane:stop:)` takes it for a whole call).
public final class LlamaEngine: LanguageModel, ForwardingTokenizer, @unchecked Sendable {
    let lock = NSLock()
    let model: LlamaModel
    /// The model's vocabulary by first byte (see `LlamaModel.ByteIndex`), held by the engine so
    /// engines sharing a model never touch the model's lazily built copy from two threads.
    private let byteIndex: LlamaModel.ByteIndex?
    let context: LlamaContext
    let batch: LlamaBatch
    /// How the engine evaluates.
    public let options: Options
    public let info: ModelInfo
    /// Where the engine's time went so far: timings and counts only.
    public internal(set) var statistics = EngineStatistics()
    /// Framing and instructions, evaluated: kept across calls (they hold no thread's words), and
    /// shared with the other lanes of a pool.
    let instructionPrefixes: KeptPrefixes
    /// Prompts answered in this call that a later request of it shares more than instructions
    /// with; in a pool, shared by its lanes and emptied by the pool when the call ends.
    let recentPrompts: KeptPrefixes
    /// Whether this engine empties `recentPrompts` at a call's end (its own, not a pool's).
    private let ownsRecentPrompts: Bool
    /// Prompts of thread words kept in the cache now (0 between calls).
    var keptPromptCount: Int { recentPrompts.count }
    /// Per grammar: the start every output had so far, to go in with the prompt.
    private var openers: [String: Opener] = [:]
    /// Per grammar: a parsed sampler in its start state, copied for each request.
    private var samplers: [String: LlamaGrammar] = [:]
    /// The threads of the engine's own context.
    let threadCount: Int
    /// Whether evaluating on lent cores pays off in this call, judged on the call's evaluations.
    private var lending = CoreLending()
    /// Whether the lane evaluates on its finished neighbours' cores now.
    private var isLent = false
    /// While a pool's call is answered: who else answers it and what is left to take, for
    /// `lendIfAlone` before each evaluation.
    private var lendingWatch: (roster: LaneRoster, handout: RequestHandout, lane: Int)?
    /// A choice's tokens (`GenerationRequest.choices`), tokenized once per call for all the
    /// requests of a group. Emptied when a call ends, as the prompts kept for it are.
    private var choiceTokens: [SealedText: [Int32]] = [:]

    /// Sequence 0 holds the companion token of an evaluation that would otherwise carry a single
    /// sequence's single token; requests use sequences 1 to `sequences`.
    static let companion = 0
    static let instructionPrefixLimit = 32
    static let recentPromptLimit = 4
    /// Requests ahead of the queue's head looked at for a shared prompt.
    static let lookahead = 32
    /// How few requests a pool's hand-out holds when a lane takes scored requests one at a time.
    /// A scored request is answered whole in the step that prefills it (its prompt, then its
    /// choices), so a lane that took several at the end holds a step of a second or more while
    /// its neighbour, finding nothing left, idles; one at a time, the last ones stay with the
    /// hand-out for whichever lane is free. Before that, several in a step share what their
    /// prompts have in common (`waits`), which taking one at a time throughout would lose.
    static let scoredTail = 8
    /// Tokens past what is kept already that a later prompt must share with a prompt for keeping
    /// it to pay (`worthKeeping`), and that the lanes' first prompts must share for the pool to
    /// evaluate their head before they start (`LlamaEnginePool.keepSharedHead`).
    static let keepingMargin = 16
    /// Opening tokens that go in with a prompt, at most.
    static let openerLimit = 16

    /// Loads the model at `modelPath` and a context for `sequences` parallel sessions of
    /// `contextPerSequence` tokens each (4,096 mirrors the phone's session ceiling).
    public convenience init(modelPath: String, sequences: Int = 8, contextPerSequence: Int = 4096,
                            threads: Int = ProcessInfo.processInfo.activeProcessorCount, options: Options = .standard) throws(LlamaError) {
        try self.init(model: try LlamaModel(path: modelPath, offloadedLayers: options.offloadedLayers), sequences: sequences, contextPerSequence: contextPerSequence,
                      threads: threads, options: options)
    }

    /// An engine over an already loaded `model`, which several engines may share: the weights
    /// are read-only, and each engine has its own context (`LlamaEnginePool`).
    /// Lanes of a pool share `instructionPrefixes`, and `recentPrompts` for a call, which the pool
    /// then empties when every lane is done.
    init(model: LlamaModel, sequences: Int, contextPerSequence: Int, threads: Int, options: Options,
         instructionPrefixes: KeptPrefixes? = nil, recentPrompts: KeptPrefixes? = nil) throws(LlamaError) {
        precondition(sequences >= 1 && contextPerSequence >= 64)
        let modelPath = model.path
        guard model.framing != nil else { throw .modelHasNoChatTemplate(path: modelPath) }
        self.model = model
        // Built here, before any engine sharing the model answers on another thread.
        self.byteIndex = model.byteIndex
        self.options = options
        let threadCount = options.threads ?? threads
        self.threadCount = threadCount
        context = try LlamaContext(model: model, sequences: sequences + 1, contextPerSequence: contextPerSequence,
                                   batchTokens: Options.maximumChunk, threads: threadCount, batchThreads: threadCount,
                                   flashAttention: options.attention == .flash)
        self.batch = LlamaBatch(capacity: context.batchCapacity)
        self.instructionPrefixes = instructionPrefixes ?? KeptPrefixes(limit: Self.instructionPrefixLimit)
        self.recentPrompts = recentPrompts ?? KeptPrefixes(limit: Self.recentPromptLimit)
        ownsRecentPrompts = recentPrompts == nil
        self.info = ModelInfo(
            name: model.metadata("general.name") ?? URL(fileURLWithPath: modelPath).lastPathComponent,
            description: model.summary, path: modelPath, parameters: model.parameterCount,
            contextPerSequence: contextPerSequence, batchSize: sequences)
    }

    /// The tokenizer is the loaded model's.
    public var underlyingTokenizer: any Tokenizer { model }

    func promptTokens(for request: GenerationRequest) -> [Int32] { model.promptTokens(for: request) }

    public func respond(to requests: [GenerationRequest]) -> [GenerationOutcome] {
        respondInvariant(to: requests, stop: nil)!
    }

    /// Answers unless `stop` is raised first, which is read before every step: the call then
    /// ends within one evaluation, its sequences are cleared and nothing is returned.
    public func respond(to requests: [GenerationRequest], unless stop: StopRequest) -> [GenerationOutcome]? {
        respondInvariant(to: requests, stop: stop)
    }

    // MARK: - Sequences

    /// One sequence being answered.
    struct Slot {
        let request: Int
        let prompt: [Int32]
        /// Prompt tokens of the framing and instructions (what the prefix cache keeps).
        let instructionPrefix: Int
        let maxOutputTokens: Int
        let grammar: LlamaGrammar?
        let grammarText: String?
        /// The request's choices and their tokens, when it is scored rather than generated.
        let choices: [SealedText]?
        let choiceTokens: [[Int32]]
        /// When the call that carried the request began: its wall-clock times count from here.
        let called: ContinuousClock.Instant
        var firstToken: ContinuousClock.Instant? = nil
        var cursor = 0                 // prompt tokens already evaluated
        var position = 0               // next position in the sequence
        var next: Int32? = nil         // picked token still to be evaluated
        var draft: [Int32] = []        // the grammar's usual opening, to go in with the prompt's end
        var choiceOpening: [Int32] = [] // the tokens every choice starts with (scored requests), evaluated once
        var offeredPrefix = false      // its framing and instructions were considered for keeping
        var bytes: [UInt8] = []
        var outputIDs: [Int32] = []    // the output tokens so far (the grammar's state, with its text)
        var outputTokens = 0
        var hostNanoseconds: Double = 0
        var choiceProbability = 1.0
        /// A scored request's choices still to be evaluated, once its prompt is (`beginScoring`).
        var scoring: Scoring? = nil
        var failure: GenerationOutcome.Failure? = nil
        var finished = false

        var isPrefilling: Bool { !finished && cursor < prompt.count }
        var isGenerating: Bool { !finished && cursor == prompt.count && next != nil }

        /// The outcome, answered at `answered`.
        func outcome(answered: ContinuousClock.Instant) -> GenerationOutcome {
            let output: Result<SealedText, GenerationOutcome.Failure> = failure.map { .failure($0) }
                ?? .success(SealedText(String(decoding: bytes, as: UTF8.self)))
            return GenerationOutcome(output: output, promptTokens: prompt.count, outputTokens: outputTokens,
                                     hostMilliseconds: hostNanoseconds / 1_000_000, choiceProbability: choiceProbability,
                                     firstTokenMilliseconds: Self.milliseconds(from: called, to: firstToken ?? answered),
                                     answerMilliseconds: Self.milliseconds(from: called, to: answered))
        }

        static func milliseconds(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant) -> Double {
            let elapsed = start.duration(to: end).components
            return Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15
        }
    }

    /// What every output of a grammar started with so far, and the last bytes of those that ended.
    private struct Opener {
        var tokens: [Int32] = []
        var observations = 0
        /// Last bytes of complete outputs (`}` for JSON): only a token ending in one of them is
        /// followed by a check that nothing but the end is allowed. Any filter keeps the answers
        /// (an unchecked end is simply evaluated); this one keeps the checks to the right places.
        var endBytes: Set<UInt8> = []

        mutating func observe(_ output: [Int32], bytes: [UInt8], ended: Bool) {
            let output = output.prefix(LlamaEngine.openerLimit)
            tokens = observations == 0 ? Array(output) : Array(tokens.prefix(commonPrefix(tokens, output)))
            observations += 1
            if ended, let last = bytes.last { endBytes.insert(last) }
        }

        /// Two outputs agree on it: likely the grammar's fixed opening, not a chance word.
        var draft: [Int32] { observations >= 2 ? tokens : [] }
    }

    /// The sequences of one call: `slots[0]` is the companion's and always empty; the generating
    /// sequences are `1...generating`, so one evaluation takes them all (llama.cpp batches
    /// sequences with separate buffers only when their ids follow each other).
    struct Run {
        var slots: [Slot?]
        var generating = 0
        var isIdle: Bool { slots.allSatisfy { $0 == nil } }
    }

    /// A request's tokens, prepared before any is answered.
    struct Prepared {
        let tokens: [Int32]
        let instructionPrefix: Int
        let nanoseconds: Double
    }

    // MARK: - Answering

    private func respondInvariant(to requests: [GenerationRequest], stop: StopRequest?) -> [GenerationOutcome]? {
        let prepared = prepare(requests)
        let handout = RequestHandout(ranges: [0..<requests.count], work: requests.map { _ in 1 })
        return answer(requests, prepared, handout: handout, lane: 0, stop: stop)?.map { $0! }
    }

    /// Every request's tokens, made before any is answered: to see which later prompts share
    /// more than instructions with one answered now.
    func prepare(_ requests: [GenerationRequest]) -> [Prepared] {
        requests.map { request in
            let started = ContinuousClock.now
            let (tokens, prefix) = model.promptTokensAndInstructionPrefix(for: request)
            return Prepared(tokens: tokens, instructionPrefix: prefix, nanoseconds: started.nanosecondsSince)
        }
    }

    /// Answers the requests `handout` gives lane `lane` until it has none left (the pool's lanes
    /// share one hand-out), on `roster`'s threads when it is the last lane answering and that is
    /// faster (`CoreLending`); under the engine's lock. The outcomes at the indices answered
    /// here, nil elsewhere. Nil if `stop` was raised first.
    func answer(_ requests: [GenerationRequest], _ prepared: [Prepared], handout: RequestHandout, lane: Int,
                roster: LaneRoster? = nil, stop: StopRequest?) -> [GenerationOutcome?]? {
        lock.lock()
        defer { lock.unlock() }
        if stop?.isRaised == true { return nil }
        var results = [GenerationOutcome?](repeating: nil, count: requests.count)
        let called = ContinuousClock.now
        var run = Run(slots: [Slot?](repeating: nil, count: context.sequences))
        var handedOut = false
        lending = CoreLending()
        lendingWatch = roster.map { ($0, handout, lane) }
        defer {
            lendingWatch = nil
            if isLent { endLending() }
            roster?.finished()
            for id in run.slots.indices { context.remove(sequence: id) }
            if ownsRecentPrompts { recentPrompts.removeAll() }
            choiceTokens.removeAll()
        }
        while true {
            if stop?.isRaised == true { return nil }
            if options.continuousBatching || run.isIdle {
                admitting: for id in run.slots.indices.dropFirst() where run.slots[id] == nil {
                    while !handedOut && run.slots[id] == nil {
                        guard let index = handout.take(lane: lane) else { handedOut = true; break }
                        admit(requests[index], prepared[index], index: index, id: id, called: called, run: &run, results: &results)
                        // Near a pooled call's end, scored requests one at a time (`scoredTail`).
                        if roster != nil, run.slots[id] != nil, requests[index].choices?.isEmpty == false,
                           handout.remaining <= Self.scoredTail { break admitting }
                    }
                }
            }
            if run.isIdle {
                if !handedOut { continue }
                break
            }
            lendIfAlone()
            step(&run, &results, upcoming: handout.upcoming(lane: lane, limit: Self.lookahead).map { prepared[$0] })
        }
        return results
    }

    /// Takes a request into sequence `id`, or records why it cannot be asked.
    private func admit(_ request: GenerationRequest, _ prepared: Prepared, index: Int, id: Int, called: ContinuousClock.Instant,
                       run: inout Run, results: inout [GenerationOutcome?]) {
        let started = ContinuousClock.now
        let tokens = prepared.tokens
        let limit = min(request.contextLimit, context.contextPerSequence)
        guard tokens.count + request.maxOutputTokens <= limit else {
            results[index] = GenerationOutcome(
                output: .failure(.contextExceeded(promptTokens: tokens.count, limit: limit)),
                promptTokens: tokens.count, outputTokens: 0,
                hostMilliseconds: (prepared.nanoseconds + started.nanosecondsSince) / 1e6,
                firstTokenMilliseconds: Slot.milliseconds(from: called, to: .now), answerMilliseconds: Slot.milliseconds(from: called, to: .now))
            return
        }
        let constraint = request.grammar.flatMap { self.sampler(for: $0) }
        precondition(request.grammar == nil || constraint != nil, "a job built a grammar llama.cpp rejects")
        var choices: [[Int32]] = []
        for choice in request.choices ?? [] {
            if let known = choiceTokens[choice] {
                choices.append(known)
            } else {
                let tokens = choice.withUnsealedText { model.tokenize($0) }
                choiceTokens[choice] = tokens
                choices.append(tokens)
            }
        }
        var slot = Slot(request: index, prompt: tokens, instructionPrefix: prepared.instructionPrefix,
                        maxOutputTokens: request.maxOutputTokens, grammar: constraint, grammarText: request.grammar,
                        choices: request.choices?.isEmpty == false ? request.choices : nil, choiceTokens: choices, called: called)
        if options.prefixCache {
            share(into: &slot, id: id, run: run)
        }
        if options.forcedTokenJump, slot.choices == nil, let text = request.grammar, let opener = openers[text] {
            slot.draft = opener.draft
        }
        if slot.choices != nil, let first = choices.first {
            slot.choiceOpening = Array(first.prefix(choices.dropFirst().reduce(first.count) { min($0, commonPrefix(first, $1)) }))
        }
        slot.hostNanoseconds = prepared.nanoseconds + started.nanosecondsSince
        run.slots[id] = slot
    }

    /// Puts into sequence `id` the longest evaluated prefix of its prompt the engine holds, when it
    /// is longer than what the sequence has evaluated itself: kept framing and instructions, a
    /// prompt kept for this call, or another sequence in flight. By then the cells are the same
    /// numbers the sequence would compute (evaluation is batch-independent), only sooner.
    private func share(into slot: inout Slot, id: Int, run: Run) {
        let tokens = slot.prompt
        var best = 0
        var source: (state: [UInt8]?, id: Int?) = (nil, nil)
        for kept in [instructionPrefixes, recentPrompts] {
            if let (length, entry) = kept.longest(for: tokens), length > best { best = length; source = (entry.state, nil) }
        }
        for (other, flight) in run.slots.enumerated() where other != id {
            guard let flight, flight.failure == nil else { continue }
            let length = commonPrefix(flight.prompt.prefix(flight.cursor), tokens)
            if length > best { best = length; source = (nil, other) }
        }
        // At least two prompt tokens are evaluated: one chunk of two or more, ending in the logits.
        let shared = min(best, tokens.count - 2)
        guard shared >= slot.cursor + 2 else { return }
        let state = source.state ?? context.save(sequence: source.id!)
        guard context.restore(state, into: id) else {
            // Cannot happen with a buffer per sequence; start the prompt over rather than answer wrong.
            context.remove(sequence: id)
            slot.cursor = 0
            slot.position = 0
            return
        }
        context.remove(sequence: id, from: shared)
        statistics.promptTokensShared += shared - slot.cursor
        slot.cursor = shared
        slot.position = shared
    }

    /// Whether sequence `id` should wait a step: another waiting prompt shares more with it than it
    /// has evaluated and is ahead (or level and first), so it evaluates that part once and this
    /// one takes it next step. The one ahead never waits, so every step makes progress.
    private func waits(_ slot: Slot, id: Int, run: Run) -> Bool {
        for (other, leader) in run.slots.enumerated() where other != id {
            guard let leader, leader.isPrefilling, leader.failure == nil,
                  leader.cursor > slot.cursor || (leader.cursor == slot.cursor && other < id) else { continue }
            if commonPrefix(leader.prompt, slot.prompt) >= slot.cursor + 2 { return true }
        }
        return false
    }

    /// The grammar's sampler in its start state: parsed once per grammar, then copied.
    private func sampler(for text: String) -> LlamaGrammar? {
        if let template = samplers[text] { return LlamaGrammar(copying: template) }
        guard let parsed = try? LlamaGrammar(model: model, grammar: text) else { return nil }
        if samplers.count >= 64 { samplers.removeAll() }
        samplers[text] = parsed
        return LlamaGrammar(copying: parsed)
    }

    // MARK: - Evaluating

    /// One step: the generating sequences' next tokens in one evaluation, then a chunk of each
    /// waiting prompt, then the choices of the scored requests whose prompts are in, those of all
    /// of them in each evaluation; then finished sequences leave and generating ones close ranks.
    private func step(_ run: inout Run, _ results: inout [GenerationOutcome?], upcoming: [Prepared]) {
        if run.generating > 0 {
            generate(&run)
        }
        for id in run.slots.indices.dropFirst() where run.slots[id]?.isPrefilling == true {
            if options.prefixCache {
                share(into: &run.slots[id]!, id: id, run: run)
                if waits(run.slots[id]!, id: id, run: run) { continue }
            }
            lendIfAlone()
            prefill(&run.slots[id]!, id: id)
        }
        scoreChoices(&run)
        settle(&run, &results, upcoming: upcoming)
    }

    /// The next token of every generating sequence (`1...generating`), in one evaluation.
    private func generate(_ run: inout Run) {
        let ids = (1...run.generating).filter { run.slots[$0]?.isGenerating == true }
        guard !ids.isEmpty else { return }
        batch.reset()
        if ids.count == 1 {
            // Never one sequence's single token alone (llama.cpp would split its attention over
            // threads), and two rows of logits at least (one row takes another kernel). Sequence
            // ids must follow each other in the batch for llama.cpp to evaluate them together.
            batch.append(model.framingTokens[0].first ?? 0, position: 0, sequence: Self.companion, wantsLogits: true)
        }
        var indices: [Int: Int32] = [:]
        for id in ids {
            let slot = run.slots[id]!
            indices[id] = batch.append(slot.next!, position: slot.position, sequence: id, wantsLogits: true)
            run.slots[id]!.position += 1
            run.slots[id]!.next = nil
        }
        let status = evaluate(shares: ids.map { ($0, 1) }, slots: &run.slots)
        if ids.count == 1 { context.remove(sequence: Self.companion) }
        for id in ids where status == 0 && !run.slots[id]!.finished {
            pick(&run.slots[id]!, id: id, indices: [indices[id]!], draft: [])
        }
    }

    /// The next chunk of a waiting prompt: up to `chunkTokens`, never leaving a single token for
    /// later, stopping once at the end of the instructions so they can be kept; the last chunk
    /// carries the grammar's usual opening, and its logits are picked at once. A scored request's
    /// last chunk carries the tokens all its choices start with, when they fit: its own sequence's
    /// rows, so they cost a few more rows of an evaluation made anyway, not one of their own.
    private func prefill(_ slot: inout Slot, id: Int) {
        let limit = options.chunkTokens
        let start = slot.cursor
        var end = min(slot.prompt.count, start + limit)
        let boundary = slot.instructionPrefix
        if options.prefixCache && !slot.offeredPrefix && start < boundary && boundary < end && boundary - start >= 2
            && slot.prompt.count - boundary >= 2 {
            end = boundary
        }
        if slot.prompt.count - end == 1 { end -= 1 }
        let isLast = end == slot.prompt.count
        batch.reset()
        var indices: [Int32] = []
        var previous: Int32 = -1
        for i in start..<end {
            let index = batch.append(slot.prompt[i], position: slot.position, sequence: id, wantsLogits: isLast && i == end - 1)
            if isLast && i == end - 1 { indices.append(index) } else { previous = index }
            slot.position += 1
        }
        var draft: [Int32] = []
        // The batch position of the logits after the choices' opening, when it went in here.
        var opening: Int32? = nil
        if isLast, slot.choices != nil {
            let tokens = slot.choiceOpening
            if !tokens.isEmpty && tokens.count <= limit - (end - start) {
                for (k, token) in tokens.enumerated() {
                    let index = batch.append(token, position: slot.position, sequence: id, wantsLogits: k == tokens.count - 1)
                    if k == tokens.count - 1 { opening = index }
                    slot.position += 1
                }
                statistics.choiceTokensEvaluated += tokens.count
            }
        } else if isLast {
            draft = Array(slot.draft.prefix(max(0, limit - (end - start))))
            for token in draft {
                indices.append(batch.append(token, position: slot.position, sequence: id, wantsLogits: true))
                slot.position += 1
            }
            statistics.draftTokensProposed += draft.count
        }
        // Two rows of logits at least, so the output layer always takes the same kernel.
        if isLast && indices.count == 1 && opening == nil { batch.requestLogits(at: previous) }
        slot.cursor = end
        var single: [Slot?] = [slot]
        let status = evaluate(shares: [(0, batch.count)], slots: &single)
        statistics.prefillTokens += batch.count - (opening == nil ? 0 : slot.choiceOpening.count)
        slot = single[0]!
        guard status == 0 else { return }
        if options.prefixCache && !slot.offeredPrefix && slot.cursor >= boundary {
            slot.offeredPrefix = true
            let prefix = Array(slot.prompt.prefix(boundary))
            if slot.cursor == boundary && boundary > 0 && !instructionPrefixes.contains(prefix) {
                instructionPrefixes.keep(prefix, state: context.save(sequence: id))
            }
        }
        if isLast {
            if slot.choices != nil {
                beginScoring(&slot, id: id, at: opening ?? indices[0], openingEvaluated: opening != nil)
            } else {
                pick(&slot, id: id, indices: indices, draft: draft)
            }
        }
    }

    /// Evaluates the batch; each `(slot, tokens)` share is charged its part of the time. On
    /// failure those sequences fail with llama_decode's status.
    func evaluate(shares: [(Int, Int)], slots: inout [Slot?]) -> Int32 {
        let (status, nanoseconds) = decodeBatch()
        let total = shares.reduce(0) { $0 + $1.1 }
        for (index, tokens) in shares {
            slots[index]!.hostNanoseconds += nanoseconds * Double(tokens) / Double(max(total, 1))
            if status != 0 {
                slots[index]!.failure = .decodeFailed(status: status)
                slots[index]!.finished = true
            }
        }
        return status
    }

    /// Evaluates the batch, counted in `statistics`: llama_decode's status and the time it took.
    func decodeBatch() -> (status: Int32, nanoseconds: Double) {
        let (status, nanoseconds) = countedDecode()
        if isLent {
            statistics.evaluationsLent += 1
            if !lending.judgeLent(tokens: batch.count, nanoseconds: nanoseconds) {
                endLending()
                statistics.lendingWithdrawn += 1
            }
        } else {
            lending.recordOwn(tokens: batch.count, nanoseconds: nanoseconds)
        }
        return (status, nanoseconds)
    }

    /// Evaluates the batch, counted in `statistics` but judged by no lending: llama_decode's
    /// status and the time it took (`decodeBatch`, and the shared head, evaluated before a call).
    func countedDecode() -> (status: Int32, nanoseconds: Double) {
        let started = ContinuousClock.now
        let status = context.decode(batch)
        let nanoseconds = started.nanosecondsSince
        statistics.decodeCalls += 1
        statistics.tokensEvaluated += batch.count
        statistics.decodeNanoseconds += nanoseconds
        return (status, nanoseconds)
    }

    /// Takes every lane's threads when this lane is the last one answering the call, nothing is
    /// left to take, and its own evaluations can judge whether that pays (`CoreLending`).
    /// Looked at before every evaluation of a step, not only between steps: a step of scored
    /// requests evaluates each one's prompt and choices in turn, so the other lane may finish
    /// while one step still holds a second of work.
    func lendIfAlone() {
        guard let (roster, handout, lane) = lendingWatch, options.lendsIdleCores, !isLent, lending.canJudge,
              roster.threads > threadCount, handout.isExhausted(for: lane), roster.isAlone else { return }
        context.setThreads(roster.threads)
        isLent = true
    }

    /// Back on the lane's own threads.
    private func endLending() {
        context.setThreads(threadCount)
        isLent = false
    }

    /// Picks the slot's next tokens from the latest evaluation: one after its last token, or, when
    /// its expected opening went in with the prompt, one per position for as long as each pick is
    /// the token already there. The first disagreement drops the rest of the opening.
    private func pick(_ slot: inout Slot, id: Int, indices: [Int32], draft: [Int32]) {
        let draftStart = slot.position - draft.count
        for (j, index) in indices.enumerated() {
            let sampling = ContinuousClock.now
            let chosen = sample(&slot, at: index)
            let sampled = sampling.nanosecondsSince
            slot.hostNanoseconds += sampled
            statistics.samplingNanoseconds += sampled
            statistics.tokensSampled += 1
            guard let chosen else { return }
            if j < draft.count {
                if chosen == draft[j] {
                    statistics.draftTokensAccepted += 1
                    continue
                }
                context.remove(sequence: id, from: draftStart + j)
                slot.position = draftStart + j
            }
            slot.next = chosen
            break
        }
        if options.forcedTokenJump, slot.next != nil, let grammar = slot.grammar,
           let last = slot.bytes.last, let text = slot.grammarText, openers[text]?.endBytes.contains(last) == true,
           onlyTheEndIsAllowed(by: grammar) {
            // Greedy decoding would pick an end token next, whatever the logits: the answer is complete.
            slot.next = nil
            slot.finished = true
            statistics.endStepsSkipped += 1
        }
    }

    /// Records finished sequences and frees their places; moves generating sequences to
    /// `1...generating`, swapping buffers with waiting ones where needed.
    private func settle(_ run: inout Run, _ results: inout [GenerationOutcome?], upcoming: [Prepared]) {
        for id in run.slots.indices.dropFirst() {
            guard let slot = run.slots[id], slot.finished else { continue }
            results[slot.request] = slot.outcome(answered: .now)
            if let text = slot.grammarText, slot.outputTokens > 0 {
                openers[text, default: Opener()].observe(slot.outputIDs, bytes: slot.bytes, ended: slot.failure == nil)
            }
            if options.prefixCache, slot.cursor == slot.prompt.count, worthKeeping(slot, upcoming: upcoming) {
                context.remove(sequence: id, from: slot.prompt.count)
                recentPrompts.keep(slot.prompt, state: context.save(sequence: id))
            }
            context.remove(sequence: id)
            run.slots[id] = nil
        }
        let generating = run.slots.indices.filter { run.slots[$0]?.isGenerating == true }
        let count = generating.count
        var outside = generating.filter { $0 > count }
        for target in 1..<(count + 1) where run.slots[target]?.isGenerating != true {
            let source = outside.removeFirst()
            move(source, target, slots: &run.slots)
        }
        run.generating = count
    }

    /// Whether a later request of this call shares more of `slot`'s prompt than its instructions.
    private func worthKeeping(_ slot: Slot, upcoming: [Prepared]) -> Bool {
        let covered = max(slot.instructionPrefix, instructionPrefixes.longestMatch(for: slot.prompt))
        return upcoming.contains { commonPrefix($0.tokens, slot.prompt) >= covered + Self.keepingMargin }
    }

    /// Exchanges sequences `a` and `b` (either may be empty), buffers and all.
    private func move(_ a: Int, _ b: Int, slots: inout [Slot?]) {
        let stateA = slots[a] == nil ? nil : context.save(sequence: a)
        let stateB = slots[b] == nil ? nil : context.save(sequence: b)
        context.remove(sequence: a)
        context.remove(sequence: b)
        slots.swapAt(a, b)
        for (state, id) in [(stateA, b), (stateB, a)] {
            guard let state, !context.restore(state, into: id) else { continue }
            // Cannot happen with a buffer per sequence; fail the sequence rather than answer wrong.
            slots[id]!.failure = .decodeFailed(status: -2)
            slots[id]!.finished = true
        }
    }

    /// Whether `grammar` allows an end token and nothing else.
    private func onlyTheEndIsAllowed(by grammar: LlamaGrammar) -> Bool {
        guard let end = model.endToken else { return false }
        let started = ContinuousClock.now
        defer { statistics.grammarNanoseconds += started.nanosecondsSince }
        guard grammar.allows(end) else { return false }
        if let index = byteIndex {
            return !grammar.allowsAny(of: index.firstByteTokens)
        }
        return allowedTokens(grammar).allSatisfy { model.isEndOfGeneration($0) }
    }

    // MARK: - Sampling

    /// Picks the most likely token the grammar allows at the batch position `index`. Returns the
    /// token, or nil when the sequence is finished (an end token, the output allowance reached,
    /// or no token allowed).
    ///
    /// Masking the whole vocabulary with the grammar costs about as much as evaluating a token,
    /// so the unconstrained best token is tried first: if the grammar allows it, it is also the
    /// best allowed token (greedy gives the same answer), and the full mask is only needed when
    /// it does not.
    func sample(_ slot: inout Slot, at index: Int32) -> Int32? {
        guard let logits = context.logits(at: index) else {
            slot.failure = .decodeFailed(status: -1)
            slot.finished = true
            return nil
        }
        let vocabulary = model.vocabularySize
        var best: Int32 = -1
        var top = 0
        for token in 1..<vocabulary where logits[token] > logits[top] { top = token }
        if let grammar = slot.grammar {
            let grammarStarted = ContinuousClock.now
            best = grammar.allows(Int32(top)) ? Int32(top) : bestAllowed(logits: logits, vocabulary: vocabulary, grammar: grammar)
            statistics.grammarNanoseconds += grammarStarted.nanosecondsSince
        } else {
            best = Int32(top)
        }
        guard best >= 0 else {
            slot.failure = .grammarDeadEnd
            slot.finished = true
            return nil
        }
        if model.isEndOfGeneration(best) {
            slot.finished = true
            return nil
        }
        slot.grammar?.accept(best)
        slot.bytes += model.piece(best)
        slot.outputTokens += 1
        if slot.outputTokens == 1 { slot.firstToken = .now }
        slot.outputIDs.append(best)
        if slot.outputTokens >= slot.maxOutputTokens {
            slot.failure = .outputTruncated
            slot.finished = true
            return nil
        }
        return best
    }

    /// Tokens tried one by one before masking the whole vocabulary.
    static let ladder = 32

    /// The most likely token the grammar allows, lowest id first among equals (what masking the
    /// whole vocabulary and taking the first maximum gives): the best `ladder` tokens are asked
    /// one at a time, in that order, and only when the grammar allows none of them is the whole
    /// vocabulary masked. -1 when the grammar allows nothing.
    private func bestAllowed(logits: UnsafeMutablePointer<Float>, vocabulary: Int, grammar: LlamaGrammar) -> Int32 {
        // The `ladder` best (logit descending, id ascending), kept sorted by insertion.
        var ranked: [(logit: Float, token: Int32)] = []
        ranked.reserveCapacity(Self.ladder + 1)
        for token in 0..<vocabulary {
            let logit = logits[token]
            if ranked.count == Self.ladder, let last = ranked.last, !(logit > last.logit) { continue }
            var at = ranked.count
            while at > 0 && logit > ranked[at - 1].logit { at -= 1 }
            ranked.insert((logit, Int32(token)), at: at)
            if ranked.count > Self.ladder { ranked.removeLast() }
        }
        for candidate in ranked where grammar.allows(candidate.token) {
            return candidate.token
        }
        let allowed = allowedTokens(grammar)
        var best: Int32 = -1
        var bestLogit = -Float.infinity
        for token in allowed where logits[Int(token)] > bestLogit {
            best = token
            bestLogit = logits[Int(token)]
        }
        return best
    }

    /// The tokens `grammar` allows next, in id order: what masking the whole vocabulary gives.
    /// Only the tokens whose first byte the grammar allows are asked about (with the end tokens),
    /// which is a few hundred where a grammar expects a quote or a name.
    private func allowedTokens(_ grammar: LlamaGrammar) -> [Int32] {
        var asked: [Int32]
        if let index = byteIndex {
            let firstAllowed = grammar.allowed(among: index.firstByteTokens)
            var allowedBytes = Set<UInt8>()
            for (token, byte) in zip(index.firstByteTokens, index.firstBytes) where firstAllowed.contains(token) {
                allowedBytes.insert(byte)
            }
            asked = index.endTokens
            for byte in allowedBytes { asked += index.tokensStartingWith[Int(byte)] }
            asked.sort()
        } else {
            asked = (0..<Int32(model.vocabularySize)).map { $0 }
        }
        return grammar.allowed(among: asked)
    }
}

/// How many leading elements two token lists share.
func commonPrefix<A: Collection, B: Collection>(_ a: A, _ b: B) -> Int where A.Element == Int32, B.Element == Int32 {
    var count = 0
    for (x, y) in zip(a, b) {
        guard x == y else { break }
        count += 1
    }
    return count
}

/// Where an engine's time went: evaluation, sampling and the grammar's share of sampling.
public struct EngineStatistics: Sendable, Equatable {
    public var decodeCalls = 0
    public var tokensEvaluated = 0
    public var tokensSampled = 0
    public var decodeNanoseconds = 0.0
    public var samplingNanoseconds = 0.0
    /// Part of `samplingNanoseconds` spent masking the vocabulary with the grammar.
    public var grammarNanoseconds = 0.0
    /// Prompt tokens not evaluated because a kept prefix or another sequence already held them.
    public var promptTokensShared = 0
    /// Expected opening tokens that went in with prompts, and how many greedy decoding confirmed.
    public var draftTokensProposed = 0
    public var draftTokensAccepted = 0
    /// Sequences ended without evaluating their last token (the grammar allowed only the end).
    public var endStepsSkipped = 0
    /// Requests answered by scoring their choices, and the choice tokens evaluated for them.
    public var requestsScored = 0
    public var choiceTokensEvaluated = 0
    /// Tokens of prompt chunks (the rest of `tokensEvaluated` is generation).
    public var prefillTokens = 0
    /// Evaluations on lent cores (`CoreLending`), and calls in which lending was withdrawn
    /// because a lent evaluation was not faster than the lane's own thread.
    public var evaluationsLent = 0
    public var lendingWithdrawn = 0
}

extension ContinuousClock.Instant {
    /// Nanoseconds from this instant to now, as a Double for sums and shares.
    public var nanosecondsSince: Double {
        let elapsed = ContinuousClock.now - self
        return Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
    }
    /// Milliseconds from this instant to now.
    public var millisecondsSince: Double { nanosecondsSince / 1e6 }
}
