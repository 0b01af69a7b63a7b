import Foundation
import Engine
import Privacy
import Synchronization

/// Several engines over one loaded model, answering parts of each call side by side.
///
/// A small model on a few cores is better served by independent contexts with one thread each
/// than by one context whose threads meet at a barrier after every operation: each lane runs
/// on its own core with no waiting, and when the machine is shared a descheduled thread stalls
/// only its own lane. Answers do not depend on which lane answers (each engine's evaluation is
/// batch-independent, see `LlamaEngine`), so the pool answers exactly as one engine would.
public final class LlamaEnginePool: LanguageModel, ForwardingTokenizer, @unchecked Sendable {
    /// The engines, each with its own context and threads; they share the weights.
    let lanes: [LlamaEngine]
    let model: LlamaModel
    public let info: ModelInfo
    /// The ceiling of the longest session a request may ask for (`longestContext`), when it is
    /// longer than the lanes' sequences.
    private let longestContext: Int?
    /// One sequence of `longestContext` tokens, made the first time a request needs it.
    private let longLane = Mutex<LlamaEngine?>(nil)
    private let laneThreads: Int
    /// The prompts of a call that a later request of it shares more than instructions with (a
    /// group's member list), kept by whichever lane evaluated one for every lane: requests of a
    /// group split between lanes evaluate it once. Emptied when the call ends.
    private let recentPrompts: KeptPrefixes
    private let laneOptions: LlamaEngine.Options
    /// At least the tokens the chat template adds around instructions and a prompt: with them, a
    /// request's bytes bound its tokens (a token of words is at least a byte) without tokenizing
    /// it. Measured with empty and with one-letter instructions and prompt (a template may frame
    /// or replace an empty system turn), with a margin for a letter merged into the framing.
    private let templateTokens: Int

    /// Loads the model at `modelPath` once and starts `lanes` engines over it (nil: one per
    /// thread), sharing out `sequences` parallel sessions of `contextPerSequence` tokens and
    /// `threads` evenly, so the cache's memory is what one engine of `sequences` would take.
    ///
    /// `longestContext`, when longer than `contextPerSequence`, is the ceiling a request may
    /// still ask for (a model version with a larger session: 27.0's 8,192 tokens): a request
    /// that fits it but not a lane's sequence is answered in one sequence of that size, made on
    /// first need. Every sequence's cache is allocated whole, so sizing them all for the rare
    /// long request would double the run's memory for nothing.
    public init(modelPath: String, lanes: Int? = nil, sequences: Int = 8, contextPerSequence: Int = 4096,
                longestContext: Int? = nil, threads: Int = ProcessInfo.processInfo.activeProcessorCount,
                options: LlamaEngine.Options = .standard) throws(LlamaError) {
        let model = try LlamaModel(path: modelPath, offloadedLayers: options.offloadedLayers)
        let threadCount = max(1, options.threads ?? threads)
        // Lanes are the processors' shape (a context per thread, side by side); on a GPU one
        // context with every sequence keeps the device's batches large, so offloading takes one.
        let laneCount = options.offloadedLayers > 0 ? 1 : max(1, min(lanes ?? threadCount, threadCount))
        var laneOptions = options
        laneOptions.threads = max(1, threadCount / laneCount)
        let perLane = max(1, (sequences + laneCount - 1) / laneCount)
        let prefixes = KeptPrefixes(limit: LlamaEngine.instructionPrefixLimit)
        let recent = KeptPrefixes(limit: LlamaEngine.recentPromptLimit * laneCount)
        var engines: [LlamaEngine] = []
        for _ in 0..<laneCount {
            engines.append(try LlamaEngine(model: model, sequences: perLane, contextPerSequence: contextPerSequence,
                                           threads: threadCount, options: laneOptions, instructionPrefixes: prefixes,
                                           recentPrompts: recent))
        }
        self.recentPrompts = recent
        self.model = model
        self.lanes = engines
        self.longestContext = longestContext.flatMap { $0 > contextPerSequence ? $0 : nil }
        self.laneThreads = threadCount
        self.laneOptions = options
        let empty = model.promptTokenCount(for: GenerationRequest(instructions: .empty, prompt: .empty, grammar: nil, maxOutputTokens: 0))
        let letters = model.promptTokenCount(for: GenerationRequest(instructions: SealedText("x"), prompt: SealedText("x"), grammar: nil,
                                                                    maxOutputTokens: 0))
        self.templateTokens = max(empty, letters) + 8
        var info = engines[0].info
        info.batchSize = perLane * laneCount
        self.info = info
    }

    /// The number of engines answering side by side.
    public var laneCount: Int { lanes.count }

    /// How each lane evaluates (the same for all).
    public var options: LlamaEngine.Options { lanes[0].options }

    /// Where the lanes' time went, summed.
    public var statistics: EngineStatistics {
        lanes.map(\.statistics).reduce(into: EngineStatistics()) { $0.add($1) }
    }

    /// Prompts of thread words kept for the lanes now (0 between calls).
    var keptPromptCount: Int { recentPrompts.count }

    /// The tokenizer is the loaded model's.
    public var underlyingTokenizer: any Tokenizer { model }

    /// HMAC-SHA-256 under `key` of the tokens the model sees for `request` (see `LlamaModel.promptDigest`).
    public func promptDigest(for request: GenerationRequest, key: RunKey) -> String { model.promptDigest(for: request, key: key) }

    /// Splits the requests into one run of neighbours per lane, of about equal work, and answers
    /// them at once, a lane whose run is done taking requests from the back of another's; the
    /// outcomes come back in the requests' order.
    ///
    /// Neighbours stay together because requests next to each other share the most (a group's
    /// member list for routing), which a lane evaluates once. A lane left alone with work at the
    /// call's end evaluates on every lane's threads while that is faster than its own thread
    /// (`CoreLending`): threads of one context meet at a barrier after every operation, which on
    /// a loaded machine costs more than it gains, so each lent evaluation is judged.
    public func respond(to requests: [GenerationRequest]) -> [GenerationOutcome] {
        answer(requests, stop: nil)!
    }

    /// Answers unless `stop` is raised first: every lane reads it between its steps, and one
    /// lane stopped drops the whole call.
    public func respond(to requests: [GenerationRequest], unless stop: StopRequest) -> [GenerationOutcome]? {
        answer(requests, stop: stop)
    }

    /// The requests answered side by side by the lanes, each starting on its own run of neighbours
    /// and then taking from the back of the run with the most left (`RequestHandout`); nil if
    /// `stop` was raised.
    private func answer(_ requests: [GenerationRequest], stop: StopRequest?) -> [GenerationOutcome]? {
        guard let longestContext else { return answerInLanes(requests, stop: stop) }
        // Only a request allowed more than a lane holds is counted; the rest go as they came.
        let laneContext = info.contextPerSequence
        let long = requests.indices.filter { index in
            let request = requests[index]
            guard request.contextLimit > laneContext else { return false }
            // A token is at least a byte: words and instructions that fit in bytes fit in tokens.
            let bytes = request.instructions.withUnsealedText { $0.utf8.count } + request.prompt.withUnsealedText { $0.utf8.count }
            if bytes + templateTokens + request.maxOutputTokens <= laneContext { return false }
            let tokens = model.promptTokenCount(for: request)
            return tokens + request.maxOutputTokens > laneContext
        }
        guard !long.isEmpty else { return answerInLanes(requests, stop: stop) }
        let longSet = Set(long)
        let short = requests.indices.filter { !longSet.contains($0) }
        guard let shortAnswers = short.isEmpty ? [] : answerInLanes(short.map { requests[$0] }, stop: stop) else { return nil }
        let engine: LlamaEngine
        do {
            engine = try longLane.withLock { lane throws(LlamaError) -> LlamaEngine in
                if let lane { return lane }
                var options = laneOptions
                options.threads = laneThreads
                let made = try LlamaEngine(model: model, sequences: 1, contextPerSequence: longestContext, threads: laneThreads,
                                           options: options, instructionPrefixes: KeptPrefixes(limit: LlamaEngine.instructionPrefixLimit))
                lane = made
                return made
            }
        } catch {
            // No memory for the long sequence: the lanes answer, and say it does not fit.
            return answerInLanes(requests, stop: stop)
        }
        let longRequests = long.map { requests[$0] }
        guard let longAnswers = stop.map({ engine.respond(to: longRequests, unless: $0) }) ?? engine.respond(to: longRequests) else { return nil }
        var outcomes = [GenerationOutcome?](repeating: nil, count: requests.count)
        for (index, answer) in zip(short, shortAnswers) { outcomes[index] = answer }
        for (index, answer) in zip(long, longAnswers) { outcomes[index] = answer }
        return outcomes.map { $0! }
    }

    /// The requests answered by the lanes alone.
    private func answerInLanes(_ requests: [GenerationRequest], stop: StopRequest?) -> [GenerationOutcome]? {
        defer { recentPrompts.removeAll() }
        guard lanes.count > 1, requests.count > 1 else {
            if let stop { return lanes[0].respond(to: requests, unless: stop) }
            return lanes[0].respond(to: requests)
        }
        let work = requests.map(Self.estimatedWork)
        let prepared = lanes[0].prepare(requests)
        let ranges = Self.placeBoundaries(Self.split(work, into: lanes.count), prompts: prepared.map(\.tokens))
        if options.prefixCache {
            keepInstructions(of: prepared)
            keepSharedHead(of: ranges.map { prepared[$0.lowerBound] })
        }
        let handout = RequestHandout(ranges: ranges, work: work)
        let roster = LaneRoster(lanes: lanes.count, threads: laneThreads)
        let results = Mutex<[[GenerationOutcome?]?]>(Array(repeating: nil, count: lanes.count))
        let engines = self.lanes
        DispatchQueue.concurrentPerform(iterations: engines.count) { index in
            let answers = engines[index].answer(requests, prepared, handout: handout, lane: index, roster: roster, stop: stop)
            results.withLock { $0[index] = answers }
        }
        let answers = results.withLock { $0 }
        guard answers.allSatisfy({ $0 != nil }) else { return nil }
        return requests.indices.map { index in answers.lazy.compactMap { $0![index] }.first! }
    }

    /// Evaluates once, on every lane's threads, each framing and instructions (per job, language
    /// and, for drafts, agent) that the call's prompts begin with and no lane keeps yet.
    /// Otherwise the lanes meet them in their own order and time: a lane that meets an agent first
    /// evaluates its instructions while the other lane will evaluate them too, or already did
    /// (drafts over the sample's first 50: five of the second lane's prompts evaluated almost whole).
    private func keepInstructions(of prepared: [LlamaEngine.Prepared]) {
        var seen = Set<[Int32]>()
        for request in prepared where request.instructionPrefix >= 2 && request.tokens.count - request.instructionPrefix >= 2 {
            let instructions = Array(request.tokens.prefix(request.instructionPrefix))
            guard seen.insert(instructions).inserted, !lanes[0].instructionPrefixes.contains(instructions) else { continue }
            lanes[0].keepSharedHead(instructions, instructionPrefix: instructions.count, threads: laneThreads)
        }
    }

    /// Evaluates once, on every lane's threads, the head that the lanes' first prompts (`firsts`)
    /// all begin with (`headLength`; `LlamaEngine.keepSharedHead`): otherwise every lane
    /// evaluates it at once. Two tokens of each first prompt are left for its lane, as a kept
    /// prefix is taken only so.
    private func keepSharedHead(of firsts: [LlamaEngine.Prepared]) {
        guard let first = firsts.first, firsts.count > 1 else { return }
        let common = firsts.dropFirst().reduce(first.tokens.count - 2) { length, other in
            min(length, commonPrefix(first.tokens, other.tokens), other.tokens.count - 2)
        }
        let kept = lanes[0].instructionPrefixes.longestMatch(for: first.tokens)
        guard let length = Self.headLength(common: common, kept: kept, instructions: first.instructionPrefix) else { return }
        lanes[0].keepSharedHead(Array(first.tokens.prefix(length)), instructionPrefix: first.instructionPrefix, threads: laneThreads)
    }

    /// How much of the `common` leading tokens of the lanes' first prompts the pool evaluates
    /// before they start, or nil for none: all of them, cut back to the instructions' end
    /// (`instructions` tokens) when they reach fewer than `LlamaEngine.keepingMargin` past it,
    /// and only when that reaches the margin past what is `kept` already.
    ///
    /// A few tokens past the instructions are not worth an evaluation of their own, and they
    /// would make one: the head is evaluated in chunks that stop at the instructions' end, so
    /// its last chunk would hold only those tokens. A chunk that short took another path through
    /// Qwen2.5-Coder-0.5B's kernels than the plain engine's longer ones: 2 of push's first 20
    /// answers differed from the plain engine's with it (bench/all.sh at 80f04d5, 54 of 60),
    /// none without.
    static func headLength(common: Int, kept: Int, instructions: Int) -> Int? {
        let length = common > instructions && common - instructions < LlamaEngine.keepingMargin ? instructions : common
        return length >= kept + LlamaEngine.keepingMargin ? length : nil
    }

    /// `ranges` (contiguous, in order) with each boundary between two moved, by at most a quarter
    /// of the shorter run, to where neighbouring prompts share the fewest leading tokens: between
    /// two groups rather than inside one, whose member list both lanes would otherwise evaluate.
    /// The nearest such place to the even split; every run keeps a request.
    static func placeBoundaries(_ ranges: [Range<Int>], prompts: [[Int32]]) -> [Range<Int>] {
        var placed = ranges
        for k in placed.indices.dropLast() {
            let even = placed[k].upperBound
            let reach = max(1, min(placed[k].count, placed[k + 1].count) / 4)
            let low = max(placed[k].lowerBound + 1, even - reach), high = min(placed[k + 1].upperBound - 1, even + reach)
            guard low <= high else { continue }
            // Fewest shared leading tokens first, then nearest the even split: each candidate's once.
            let best = (low...high).map { (at: $0, shared: commonPrefix(prompts[$0 - 1], prompts[$0]), distance: abs($0 - even)) }
                .min { ($0.shared, $0.distance) < ($1.shared, $1.distance) }!.at
            placed[k] = placed[k].lowerBound..<best
            placed[k + 1] = best..<placed[k + 1].upperBound
        }
        return placed
    }

    /// A request's work in rough token units: its prompt's bytes over four, plus half its output
    /// allowance (outputs are usually shorter than allowed). Only balances lanes; never reported.
    static func estimatedWork(_ request: GenerationRequest) -> Int {
        let bytes = request.prompt.withUnsealedText { $0.utf8.count }
        return 1 + bytes / 4 + request.maxOutputTokens / 2
    }

    /// Contiguous, non-empty ranges covering `work`'s indices, at most `count` of them, each
    /// closing once it holds its share of what is left.
    static func split(_ work: [Int], into count: Int) -> [Range<Int>] {
        guard count > 1, work.count > 1 else { return work.isEmpty ? [] : [0..<work.count] }
        var ranges: [Range<Int>] = []
        var remaining = work.reduce(0, +)
        var start = 0
        var lanesLeft = min(count, work.count)
        while lanesLeft > 1 {
            let share = remaining / lanesLeft
            var end = start
            var sum = 0
            // Leave at least one request for every lane still to come.
            while end < work.count - (lanesLeft - 1) && (end == start || sum + work[end] / 2 <= share) {
                sum += work[end]
                end += 1
            }
            ranges.append(start..<end)
            remaining -= sum
            start = end
            lanesLeft -= 1
        }
        ranges.append(start..<work.count)
        return ranges
    }
}

extension EngineStatistics {
    /// Adds another engine's counts and times to these.
    mutating func add(_ other: EngineStatistics) {
        decodeCalls += other.decodeCalls
        tokensEvaluated += other.tokensEvaluated
        tokensSampled += other.tokensSampled
        decodeNanoseconds += other.decodeNanoseconds
        samplingNanoseconds += other.samplingNanoseconds
        grammarNanoseconds += other.grammarNanoseconds
        promptTokensShared += other.promptTokensShared
        draftTokensProposed += other.draftTokensProposed
        draftTokensAccepted += other.draftTokensAccepted
        endStepsSkipped += other.endStepsSkipped
        requestsScored += other.requestsScored
        choiceTokensEvaluated += other.choiceTokensEvaluated
        prefillTokens += other.prefillTokens
        evaluationsLent += other.evaluationsLent
        lendingWithdrawn += other.lendingWithdrawn
    }
}
