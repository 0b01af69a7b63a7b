import Privacy
import Foundation
import Synchronization
import Testing
import TestSupport
import Engine
@testable import Llama
@testable import ReplayBench

/// The engine's speed-ups change nothing but speed: the real model answers the same requests
/// with each of them off and on, in a larger batch of smaller chunks, one request at a time and
/// in lanes side by side, and every answer (SHA-256 of the words, or the failure), token count
/// and confidence is identical. Nothing is printed: mismatches are reported by request index only.
@Suite(.serialized, .tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct EngineSpeedUpTests {
    /// One answer, as numbers and a digest.
    struct Answer: Equatable, CustomStringConvertible {
        let digest: String
        let promptTokens: Int
        let outputTokens: Int
        let confidence: Double

        init(_ outcome: GenerationOutcome) {
            switch outcome.output {
            case .success(let text): digest = text.withUnsealedText { SHA256.hex(Array($0.utf8)) }
            case .failure(let failure): digest = "failure:\(failure)"
            }
            promptTokens = outcome.promptTokens
            outputTokens = outcome.outputTokens
            confidence = outcome.choiceProbability
        }

        var description: String { "\(digest.prefix(12)) \(promptTokens)+\(outputTokens) p=\(confidence)" }
    }

    /// Answers to `JobShapes.requests` by an engine with `options`, `sequences` at a time, the
    /// requests sent in calls of `perCall` (the runner's flush), and the engine's statistics.
    static func answers(_ options: LlamaEngine.Options, sequences: Int = 4, perCall: Int = 8,
                        requests: [GenerationRequest] = JobShapes.requests) throws -> ([Answer], EngineStatistics) {
        let path = try #require(DefaultModel.path(), "run scripts/setup first")
        // One thread: the suite runs beside others, and a context's threads stall each other at
        // every barrier when a core is taken (answers do not depend on the thread count).
        let engine = try LlamaEngine(modelPath: path, sequences: sequences, contextPerSequence: 1536, threads: 1,
                                     options: options)
        var answers: [Answer] = []
        var start = 0
        while start < requests.count {
            let end = min(start + perCall, requests.count)
            answers += engine.respond(to: Array(requests[start..<end])).map(Answer.init)
            start = end
            #expect(engine.keptPromptCount == 0, "no prompt's words stay in the cache after a call")
        }
        return (answers, engine.statistics)
    }

    /// The reference: batch-independent evaluation with every speed-up off.
    static let reference = Result { try answers(.plain) }
    /// The flash engine (a `replay-bench model --engine` option, not the shipped one) is held over the
    /// first seven requests (every job, long prompts of many 63-token chunks, a second language)
    /// in calls of four: the forced-token jump proposes the openings of answers an earlier call gave.
    static let flashRequests = Array(JobShapes.requests.prefix(7))
    /// Answers to `flashRequests` by an engine with `options` (flash attention), in calls of four.
    static func flashAnswers(_ options: LlamaEngine.Options) throws -> ([Answer], EngineStatistics) {
        try answers(options, perCall: 4, requests: flashRequests)
    }
    /// The plain engine with flash attention, the reference for the flash engine's speed-ups.
    static let flashReference = Result { try flashAnswers(LlamaEngine.Options(parsing: "plain,attention=flash")!) }

    /// `answers` are the reference's answers to the first `count` requests, one each.
    static func expectSame(_ answers: [Answer], _ label: String, flash: Bool = false,
                           count: Int? = nil) throws {
        let count = count ?? (flash ? flashRequests.count : JobShapes.requests.count)
        let expected = Array(try (flash ? flashReference : reference).get().0.prefix(count))
        #expect(answers.count == count && expected.count == count, "\(label): \(answers.count) answers to \(count) requests")
        let differing = zip(answers, expected).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(differing.isEmpty, "\(label): answers differ at requests \(differing)")
    }

    @Test func theRequestsHaveTheJobsShapes() throws {
        let (answers, statistics) = try Self.reference.get()
        #expect(answers.count == JobShapes.requests.count)
        // Long prompts take several chunks; some answers are long; routing measures a confidence.
        #expect(answers.contains { $0.promptTokens > 512 })
        #expect(answers.contains { $0.outputTokens > 20 })
        #expect(answers.contains { $0.confidence < 1 })
        #expect(!answers.contains { $0.digest.hasPrefix("failure:decodeFailed") })
        #expect(statistics.promptTokensShared == 0 && statistics.draftTokensProposed == 0 && statistics.endStepsSkipped == 0)
    }

    /// The shipped engine's answers and statistics.
    static let standardRun = Result { try answers(.standard) }

    @Test func everySpeedUpOnGivesTheSameAnswers() throws {
        let (answers, statistics) = try Self.standardRun.get()
        try Self.expectSame(answers, "standard")
        try Self.nameTheSpeedUpsThatDiffer(answers, ["prefix=on", "continuous=on", "chunk=100"])
        // And each speed-up did something.
        #expect(statistics.promptTokensShared > 0)
        #expect(statistics.requestsScored > 0)
    }

    /// The flash engine's speed-ups, the forced-token jump among them, against flash's own plain run.
    @Test func everyFlashSpeedUpOnGivesTheSameAnswers() throws {
        let (answers, statistics) = try Self.flashAnswers(.flash)
        try Self.expectSame(answers, "flash", flash: true)
        try Self.nameTheSpeedUpsThatDiffer(answers, ["attention=flash,jump=on", "attention=flash,chunk=17"], flash: true)
        #expect(statistics.promptTokensShared > 0)
        #expect(statistics.draftTokensAccepted > 0)
        #expect(statistics.endStepsSkipped > 0)
    }

    /// When every speed-up together changes an answer, each of `flags` alone against the plain
    /// engine, so the failure names the speed-up that breaks (a passing run answers no more).
    /// Matrix-product attention keeps a token's arithmetic whatever the rows beside it, flash
    /// attention only below 64 rows: the answers differ between the two (they may), never within.
    static func nameTheSpeedUpsThatDiffer(_ answers: [Answer], _ flags: [String], flash: Bool = false) throws {
        let (expected, _) = try (flash ? flashReference : reference).get()
        guard answers != expected else { return }
        for flag in flags {
            let options = try #require(LlamaEngine.Options(parsing: "plain," + flag))
            try expectSame(try (flash ? flashAnswers(options) : Self.answers(options)).0, "\(flag) alone", flash: flash)
        }
    }

    /// One request a call, over the first seven (every job, two agents' chips, a second
    /// language): each call starts from the prefixes the calls before it kept.
    @Test func oneRequestAtATimeGivesTheSameAnswers() throws {
        let requests = Array(JobShapes.requests.prefix(7))
        let (answers, statistics) = try Self.answers(.standard, sequences: 2, perCall: 1, requests: requests)
        try Self.expectSame(answers, "one at a time", count: 7)
        #expect(statistics.promptTokensShared > 0)
    }

    /// Other batch shapes in one run: eight sequences in one call of every request (more
    /// sequences than a lane keeps), each prompt evaluated in chunks of nine tokens.
    @Test func aLargerBatchInSmallerChunksGivesTheSameAnswers() throws {
        let options = try #require(LlamaEngine.Options(parsing: "standard,chunk=9"))
        #expect(options.attention == .matmul)
        let (answers, statistics) = try Self.answers(options, sequences: 8, perCall: 24)
        try Self.expectSame(answers, "8 sequences, chunks of 9")
        // The same prompt tokens in more, smaller evaluations: the shipped chunks are large.
        let (_, shipped) = try Self.standardRun.get()
        #expect(statistics.decodeCalls > shipped.decodeCalls)
    }

    @Test func lanesSideBySideGiveTheSameAnswers() throws {
        let path = try #require(DefaultModel.path(), "run scripts/setup first")
        let pool = try LlamaEnginePool(modelPath: path, lanes: 2, sequences: 6, contextPerSequence: 1536, threads: 2)
        #expect(pool.laneCount == 2)
        #expect(pool.lanes.allSatisfy { $0.options.threads == 1 && $0.info.batchSize == 3 }, "each lane has its share")
        var answers: [Answer] = []
        var start = 0
        let requests = JobShapes.requests
        while start < requests.count {
            let end = min(start + 11, requests.count)
            answers += pool.respond(to: Array(requests[start..<end])).map(Answer.init)
            start = end
            #expect(pool.keptPromptCount == 0, "no prompt's words stay in any lane after a call")
        }
        try Self.expectSame(answers, "two lanes")
        #expect(pool.lanes.allSatisfy { $0.statistics.decodeCalls > 0 }, "both lanes answered")
        // A lane left alone at a call's end evaluated on both threads (judged, and perhaps
        // withdrawn on a loaded machine, after its first) and answered as the reference does.
        #expect(pool.statistics.evaluationsLent > 0)
        #expect(pool.lanes.allSatisfy { $0.context.batchThreads == 1 }, "and each lane has its own thread again")
        #expect(pool.statistics.decodeCalls == pool.lanes.map(\.statistics.decodeCalls).reduce(0, +))
    }

    /// Lanes share kept framing and instructions: a lane that never evaluated a job's
    /// instructions starts from the cells another lane kept, and answers as the reference does.
    @Test func aLaneStartsFromTheInstructionsAnotherLaneKept() throws {
        let path = try #require(DefaultModel.path(), "run scripts/setup first")
        let pool = try LlamaEnginePool(modelPath: path, lanes: 2, sequences: 2, contextPerSequence: 1536, threads: 2)
        let requests = JobShapes.requests
        // English chips for one agent: the same framing and instructions.
        var answers = pool.respond(to: [requests[0]]).map(Answer.init)
        #expect(pool.lanes[1].statistics.decodeCalls == 0, "a lone request is answered by the first lane")
        answers += pool.respond(to: [requests[3], requests[9]]).map(Answer.init)
        #expect(pool.lanes[1].statistics.decodeCalls > 0, "the second request went to the second lane")
        #expect(pool.lanes[1].statistics.promptTokensShared > 0, "which started from the first lane's instructions")
        let (expected, _) = try Self.reference.get()
        #expect(answers == [expected[0], expected[3], expected[9]])
    }

    /// Lanes whose first prompts begin alike (routing's instructions and member list) do not
    /// evaluate that head side by side: it is evaluated once before they start, each lane starts
    /// from its cells, and the call evaluates the fewest prompt tokens, with the answers the
    /// reference gives and nothing kept after it.
    @Test func lanesEvaluateTheHeadTheirFirstPromptsShareOnce() throws {
        let path = try #require(DefaultModel.path(), "run scripts/setup first")
        let pool = try LlamaEnginePool(modelPath: path, lanes: 2, sequences: 2, contextPerSequence: 1536, threads: 2)
        let requests = JobShapes.requests
        let routed = [requests[2], requests[5]]
        let tokens = routed.map { pool.lanes[0].promptTokens(for: $0) }
        #expect(commonPrefix(tokens[0], tokens[1]) > pool.lanes[0].prepare(routed)[0].instructionPrefix + LlamaEngine.keepingMargin)
        let answers = pool.respond(to: routed).map(Answer.init)
        #expect(pool.lanes.allSatisfy { $0.statistics.decodeCalls > 0 }, "each lane answered one")
        #expect(pool.statistics.prefillTokens == pool.fewestPromptTokens(for: routed))
        #expect(pool.lanes[0].instructionPrefixes.count == 1, "the instructions were kept for later calls on the way")
        #expect(pool.keptPromptCount == 0, "no prompt's words stay after the call")
        let (expected, _) = try Self.reference.get()
        #expect(answers == [expected[2], expected[5]])
    }

    /// Scored requests past `LlamaEngine.scoredTail` in one pooled call: the lanes take several in
    /// a step, then one at a time near the end (and the last lane alone evaluates on both
    /// threads), and every answer is the plain engine's, every request answered once.
    @Test func scoredRequestsNearACallsEndGiveThePlainEnginesAnswers() throws {
        let path = try #require(DefaultModel.path(), "run scripts/setup first")
        let routed = (0..<(2 * LlamaEngine.scoredTail)).map { JobShapes.route(message: 6 + $0, seed: UInt64(30 + $0 / 4)) }
        let (expected, _) = try Self.answers(.plain, perCall: routed.count, requests: routed)
        let pool = try LlamaEnginePool(modelPath: path, lanes: 2, sequences: 6, contextPerSequence: 1536, threads: 2)
        let answers = pool.respond(to: routed).map(Answer.init)
        #expect(answers == expected)
        #expect(pool.statistics.requestsScored == routed.count, "each request scored once")
        #expect(pool.lanes.allSatisfy { $0.statistics.requestsScored > 0 }, "by both lanes")
        #expect(pool.keptPromptCount == 0 && pool.lanes.allSatisfy { $0.context.batchThreads == 1 })
    }

    /// The tokens a scored request's choices all start with go in with its prompt's last chunk:
    /// one evaluation for the prompt and them, then one per choice with more than one token of its
    /// own. When the last chunk has no room for them (chunks the first prompt's length), they take
    /// an evaluation of their own, and every answer and confidence is the same to the last bit.
    @Test func theChoicesOpeningGoesInWithThePromptsLastChunkWhenItFits() throws {
        let path = try #require(DefaultModel.path(), "run scripts/setup first")
        let routed = (0..<3).map { JobShapes.route(message: 8 + 5 * $0, seed: UInt64(70 + $0)) }
        let probe = try LlamaEngine(modelPath: path, sequences: 1, contextPerSequence: 1536, threads: 1, options: .plain)
        let prompt = probe.promptTokens(for: routed[0]).count
        let choices = try #require(routed[0].choices).map { choice in choice.withUnsealedText { probe.model.tokenize($0) } }
        let opening = choices.dropFirst().reduce(choices[0].count) { min($0, commonPrefix(choices[0], $1)) }
        let choiceEvaluations = choices.filter { $0.count > opening + 1 }.count
        #expect(opening > 0 && choiceEvaluations > 0 && prompt < LlamaEngine.Options.maximumChunk)

        var apartOptions = LlamaEngine.Options.plain
        apartOptions.chunkTokens = prompt
        var answers: [[Answer]] = []
        for (options, evaluations) in [(LlamaEngine.Options.plain, 1 + choiceEvaluations), (apartOptions, 2 + choiceEvaluations)] {
            let engine = try LlamaEngine(modelPath: path, sequences: 1, contextPerSequence: 1536, threads: 1, options: options)
            var given = engine.respond(to: [routed[0]]).map(Answer.init)
            #expect(engine.statistics.decodeCalls == evaluations, "chunk \(options.chunkTokens)")
            #expect(engine.statistics.prefillTokens == prompt)
            #expect(engine.statistics.choiceTokensEvaluated == opening + choices.map { max(0, $0.count - opening - 1) }.reduce(0, +))
            given += engine.respond(to: Array(routed.dropFirst())).map(Answer.init)
            answers.append(given)
        }
        #expect(answers[0] == answers[1])
    }

    /// The choices of scored requests whose prompts went in during one step are evaluated
    /// together, one choice of each request per evaluation: four route requests in one round take
    /// their four prompt evaluations and as many more as the request with the most choices to
    /// evaluate needs (one at a time they take the sum), with the same answers and confidences to
    /// the last bit.
    @Test func choicesOfRequestsInOneStepAreEvaluatedTogether() throws {
        let path = try #require(DefaultModel.path(), "run scripts/setup first")
        let routed = (0..<4).map { JobShapes.route(message: 6 + 4 * $0, seed: UInt64(80 + $0)) }
        let probe = try LlamaEngine(modelPath: path, sequences: 1, contextPerSequence: 1536, threads: 1, options: .plain)
        let evaluations = try routed.map { request in
            let choices = try #require(request.choices).map { choice in choice.withUnsealedText { probe.model.tokenize($0) } }
            let opening = choices.dropFirst().reduce(choices[0].count) { min($0, commonPrefix(choices[0], $1)) }
            return choices.filter { $0.count > opening + 1 }.count
        }
        #expect(evaluations.allSatisfy { $0 > 0 })

        var given: [[Answer]] = []
        for (sequences, calls) in [(1, routed.count + evaluations.reduce(0, +)), (4, routed.count + evaluations.max()!)] {
            let engine = try LlamaEngine(modelPath: path, sequences: sequences, contextPerSequence: 1536, threads: 1, options: .plain)
            given.append(engine.respond(to: routed).map(Answer.init))
            #expect(engine.statistics.decodeCalls == calls, "\(sequences) sequences")
            #expect(engine.statistics.requestsScored == routed.count)
        }
        #expect(given[0] == given[1])
    }

    /// Choices of unequal lengths never share an evaluation: llama.cpp splits a batch whose
    /// sequences have unequal rows into micro-batches, and a sequence's rows evaluated in a later
    /// micro-batch beside fewer sequences came out wrong (logits off by up to 0.6 against alone,
    /// /work/exp-1207/unequal3.py). Requests to groups whose names take different numbers of
    /// tokens give, scored together, the answers and confidences each gives alone.
    @Test func choicesOfUnequalLengthsAreEvaluatedApart() throws {
        let path = try #require(DefaultModel.path(), "run scripts/setup first")
        let others: [(name: String, about: String)] = [("Bartholomew", "budgets, bills and savings"),
                                                       ("Quinn", "stretching and mobility"), ("Evangeline", "travel plans and packing")]
        let routed = (0..<4).map { JobShapes.route(message: 6 + 3 * $0, seed: UInt64(60 + $0),
                                                   members: $0 % 2 == 0 ? JobShapes.members : others) }
        var given: [[Answer]] = []
        var calls: [Int] = []
        for sequences in [1, 4] {
            let engine = try LlamaEngine(modelPath: path, sequences: sequences, contextPerSequence: 1536, threads: 1, options: .plain)
            given.append(engine.respond(to: routed).map(Answer.init))
            calls.append(engine.statistics.decodeCalls)
        }
        #expect(given[0] == given[1])
        #expect(calls[1] < calls[0], "the equal ones still share")
    }

    /// Each framing and instructions a pooled call's prompts begin with is evaluated once, before
    /// the lanes start: drafts to two agents, each lane's run holding both, give the plain
    /// engine's answers, and the prompt tokens evaluated are the fewest possible but for the two
    /// that each request evaluates itself. Without it both lanes meet the second agent at once
    /// and each evaluates that agent's instructions.
    @Test func aCallsInstructionsAreEvaluatedOnceWhicheverLaneMeetsThem() throws {
        let path = try #require(DefaultModel.path(), "run scripts/setup first")
        let drafts = (0..<4).map { JobShapes.draft("English", agent: $0 % 2 == 0 ? "Sage" : "Rio",
                                                   message: JobShapes.words(6, seed: UInt64(90 + $0))) }
        let (expected, _) = try Self.answers(.plain, perCall: drafts.count, requests: drafts)
        let pool = try LlamaEnginePool(modelPath: path, lanes: 2, sequences: 4, contextPerSequence: 1536, threads: 2)
        let answers = pool.respond(to: drafts).map(Answer.init)
        #expect(answers == expected)
        #expect(pool.lanes[0].instructionPrefixes.count == 2)
        let fewest = pool.fewestPromptTokens(for: drafts)
        #expect(pool.statistics.prefillTokens <= fewest + 2 * drafts.count, "\(pool.statistics.prefillTokens) against \(fewest)")
    }

    /// The shared head: all the common tokens, cut back to the instructions' end when only a few
    /// go past it, and none unless it reaches the margin past what is kept.
    @Test(arguments: [
        (common: 200, kept: 0, instructions: 60, expected: 200 as Int?),   // route: a member list past the instructions
        (common: 63, kept: 0, instructions: 60, expected: 60),              // push: three tokens past them
        (common: 60 + LlamaEngine.keepingMargin, kept: 0, instructions: 60, expected: 60 + LlamaEngine.keepingMargin),
        (common: 63, kept: 60, instructions: 60, expected: nil),            // the instructions kept by a call before
        (common: 40, kept: 0, instructions: 60, expected: 40),              // inside the instructions
        (common: 10, kept: 0, instructions: 60, expected: nil),
    ])
    func theSharedHeadStopsAtTheInstructionsUnlessItGoesWellPast(common: Int, kept: Int, instructions: Int, expected: Int?) {
        #expect(LlamaEnginePool.headLength(common: common, kept: kept, instructions: instructions) == expected)
    }

    /// bench/model.sh's floor counts a prefix that prompts share once, and every other token.
    @Test func theFewestPromptTokensCountASharedPrefixOnce() throws {
        let path = try #require(DefaultModel.path(), "run scripts/setup first")
        let pool = try LlamaEnginePool(modelPath: path, lanes: 1, sequences: 1, contextPerSequence: 256, threads: 1)
        // Two English chips requests of one agent: the same framing and instructions, other words.
        let (a, b) = (JobShapes.requests[0], JobShapes.requests[3])
        let (tokensA, tokensB) = (pool.lanes[0].promptTokens(for: a), pool.lanes[0].promptTokens(for: b))
        let common = commonPrefix(tokensA, tokensB)
        #expect(common > 0 && common < min(tokensA.count, tokensB.count))
        #expect(pool.fewestPromptTokens(for: [a]) == tokensA.count)
        #expect(pool.fewestPromptTokens(for: [a, a]) == tokensA.count)
        #expect(pool.fewestPromptTokens(for: [a, b]) == tokensA.count + tokensB.count - common)
        #expect(pool.fewestPromptTokens(for: []) == 0)
    }

    /// The floor counts a scored request's choices by their proper prefixes, each prefix once per
    /// prompt, and prompt tokens by their position (counted here apart from the trie: by sets of
    /// prefixes and by the prompt's length).
    @Test func theFewestTokensCountChoicePrefixesOnceAndPromptsByPosition() throws {
        let path = try #require(DefaultModel.path(), "run scripts/setup first")
        let pool = try LlamaEnginePool(modelPath: path, lanes: 1, sequences: 1, contextPerSequence: 256, threads: 1)
        let (a, b) = (JobShapes.route(message: 12, seed: 1), JobShapes.route(message: 12, seed: 2))
        let choices = try #require(a.choices).map { choice in choice.withUnsealedText { pool.lanes[0].model.tokenize($0) } }
        let prefixes = Set(choices.flatMap { tokens in (1..<max(1, tokens.count)).map { Array(tokens.prefix($0)) } })
        #expect(prefixes.count < choices.reduce(0) { $0 + $1.count - 1 }, "the choices share their opening")
        #expect(pool.fewestTokens(for: [a]).choices == prefixes.count)
        #expect(pool.fewestTokens(for: [a, a]).choices == prefixes.count, "one prompt's choices are evaluated once")
        #expect(pool.fewestTokens(for: [a, b]).choices == 2 * prefixes.count)
        var plain = a
        plain.choices = nil
        #expect(pool.fewestTokens(for: [plain]).choices == 0)

        // A prompt of 513 to 1,023 tokens: its first 512 in the first range, the rest in the second.
        let long = JobShapes.route(message: 500, seed: 3)
        let count = pool.lanes[0].promptTokens(for: long).count
        try #require(count > 512 && count < 1024)
        #expect(pool.fewestTokens(for: [long]).promptByPosition == [512, count - 512, 0, 0])
        #expect(pool.fewestTokens(for: [long]).prompt == count)
        #expect(LlamaEnginePool.FewestTokens.range(of: 0) == 0 && LlamaEnginePool.FewestTokens.range(of: 511) == 0)
        #expect(LlamaEnginePool.FewestTokens.range(of: 512) == 1 && LlamaEnginePool.FewestTokens.range(of: 4095) == 3)
    }

    @Test(arguments: [
        ([5, 5, 5, 5], 2, [0..<2, 2..<4]),
        ([1, 1, 1, 30], 2, [0..<3, 3..<4]),
        ([30, 1, 1, 1], 2, [0..<1, 1..<4]),
        ([4, 4, 4], 4, [0..<1, 1..<2, 2..<3]),
        ([7], 2, [0..<1]),
        ([], 2, []),
        ([3, 3, 3, 3, 3, 3], 3, [0..<2, 2..<4, 4..<6]),
    ])
    func requestsSplitIntoNeighboursOfEqualWork(work: [Int], lanes: Int, expected: [Range<Int>]) {
        let ranges = LlamaEnginePool.split(work, into: lanes)
        #expect(ranges == expected)
        // Whatever the split, it covers every request once, in order.
        #expect(ranges.flatMap { Array($0) } == Array(work.indices))
    }

    @Test func optionsReadAndWriteTheSameText() throws {
        let options = try #require(LlamaEngine.Options(parsing: "plain,attention=flash,jump=on,chunk=32,threads=2"))
        #expect(options.forcedTokenJump && !options.prefixCache && !options.continuousBatching)
        #expect(LlamaEngine.Options(parsing: options.summary) == options)
        #expect(LlamaEngine.Options(parsing: LlamaEngine.Options.standard.summary) == .standard)
        #expect(LlamaEngine.Options(parsing: "flash") == .flash)
        #expect(LlamaEngine.Options(parsing: "attention=flash")?.chunkTokens == 63, "flash without a chunk stays under 64")
        #expect(LlamaEngine.Options(parsing: "attention=flash,chunk=64") == nil, "64 rows take llama.cpp's tiled attention")
        #expect(LlamaEngine.Options(parsing: "chunk=512")?.attention == .matmul)
        #expect(LlamaEngine.Options(parsing: "chunk=513") == nil, "one evaluation holds 512 tokens")
        #expect(LlamaEngine.Options(parsing: "jump=on") == nil, "the jump is exact with flash attention only")
        #expect(LlamaEngine.Options(parsing: "prefix=maybe") == nil)
        #expect(LlamaEngine.Options(parsing: "legacy") == nil, "the engine before issue 11 is gone")
    }

    /// The engine's one GPU setting reaches libllama: on this build (no GPU backend) a request
    /// to offload every layer runs them all on the processors, and every answer is the plain
    /// engine's. On a CUDA build the same run says whether the GPU's kernels keep the answers.
    @Test func anOffloadRequestOnABuildWithoutAGPUAnswersAsThePlainEngine() throws {
        let options = try #require(LlamaEngine.Options(parsing: "plain,gpu-layers=99"))
        #expect(options.offloadedLayers == 99)
        #expect(LlamaEngine.Options(parsing: options.summary) == options)
        #expect(LlamaEngine.Options(parsing: "gpu-layers=-1") == nil)
        let requests = Array(JobShapes.requests.prefix(7))
        try Self.expectSame(try Self.answers(options, requests: requests).0, "gpu-layers=99", count: 7)
    }
}

/// Requests in the shapes the four jobs send (`Sources/Jobs`): their instructions in two
/// languages, their prompt layouts and their grammars (as `GrammarWriter` writes them), around
/// invented words. Chips, pushes, routing (with a confidence, three messages to one group) and
/// drafts, interleaved as a replay of all four jobs queues them.
enum JobShapes {
    static let replies = #"""
        root ::= "{\"replies\":" root-replies "}"
        root-replies ::= "[" root-replies-item ("," root-replies-item){0,2} "]"
        root-replies-item ::= "\"" char{1,40} "\""
        char ::= [^"\\\x00-\x1F\x7F]

        """#
    static let pushLine = #"""
        root ::= "{\"line\":" root-line "}"
        root-line ::= "\"" char{1,90} "\""
        char ::= [^"\\\x00-\x1F\x7F]

        """#
    static let draft = #"""
        root ::= ("{\"kind\":\"checklist\"" ",\"title\":" root-checklist-title ",\"items\":" root-checklist-items "}") | ("{\"kind\":\"timer\"" ",\"label\":" root-timer-label ",\"minutes\":" root-timer-minutes "}") | ("{\"kind\":\"card\"" ",\"title\":" root-card-title ",\"body\":" root-card-body "}") | ("{\"kind\":\"none\"" "}")
        root-card-body ::= "\"" char{1,200} "\""
        root-card-title ::= "\"" char{1,40} "\""
        root-timer-minutes ::= [1-9] | [1-9] [0-9] | "1" [0-7] [0-9] | "1" "8" "0"
        root-timer-label ::= "\"" char{1,40} "\""
        root-checklist-items ::= "[" root-checklist-items-item ("," root-checklist-items-item){0,7} "]"
        root-checklist-items-item ::= "\"" char{1,60} "\""
        root-checklist-title ::= "\"" char{1,40} "\""
        char ::= [^"\\\x00-\x1F\x7F]

        """#
    static let route = #"""
        root ::= "{\"to\":" root-to "}"
        root-to ::= "\"Sage\"" | "\"Rio\"" | "\"Mika\"" | "\"lead\""
        char ::= [^"\\\x00-\x1F\x7F]

        """#

    static let vocabulary = """
        plan week run walk water sleep meal rest stretch morning evening list timer note coach \
        garden tomato basil soil light seed budget rent saving card bill lesson piano scale chord \
        practice minute hour step goal track progress easy hard today tomorrow fresh green quiet \
        bread flour oven recipe bake rise salt sugar lemon tea cup mug kettle shelf book page
        """.split(separator: " ").map(String.init)

    /// Invented words, the same every time: a small linear congruential sequence over `vocabulary`.
    static func words(_ count: Int, seed: UInt64) -> String {
        var state = seed &* 6364136223846793005 &+ 1442695040888963407
        return (0..<count).map { index in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let word = vocabulary[Int((state >> 33) % UInt64(vocabulary.count))]
            return index % 9 == 8 ? word + "." : word
        }.joined(separator: " ")
    }

    static func chips(_ language: String, agent: String, words count: Int, seed: UInt64) -> GenerationRequest {
        let instructions = "You suggest short replies that a person could send in a chat with an assistant. "
            + "Write one to three different replies, each under 40 characters, in \(language), "
            + "as the person would say them. Answer only with JSON."
        let prompt = "\(agent) wrote:\n\(words(count, seed: seed)) What would you like to do first?"
            + "\n\nThe person's last message was:\n\(words(8, seed: seed + 1))\n\nSuggest replies to \(agent)."
        return GenerationRequest(instructions: SealedText(instructions), prompt: SealedText(prompt), grammar: replies,
                                 maxOutputTokens: 160)
    }

    static func push(_ language: String, words count: Int, seed: UInt64) -> GenerationRequest {
        let instructions = "You write the one-line preview of a push notification for a reply in a chat app. "
            + "Say in one plain line, under 90 characters, in \(language), what the reply holds. "
            + "Start with the content: no greeting, do not say who wrote it, give no advice of your own. "
            + "Answer only with JSON."
        return GenerationRequest(instructions: SealedText(instructions),
                                 prompt: SealedText("The reply:\n\(words(count, seed: seed))\n\nWrite the line."),
                                 grammar: pushLine, maxOutputTokens: 160)
    }

    static let members: [(name: String, about: String)] = [("Sage", "sleep, rest and evening routines"), ("Rio", "running plans and weekly training"),
                          ("Mika", "meals, recipes and baking")]

    static func route(message count: Int, seed: UInt64, members: [(name: String, about: String)] = members) -> GenerationRequest {
        let instructions = "You route a message in a group chat to the member it is for. Each member has a name and "
            + "a line saying what they are for. Answer with the name of the member the message is for, "
            + "or \"lead\" when it is not clearly for one member. Answer only with JSON."
        let prompt = "Members:\n" + members.map { "- \($0.name): \($0.about)\n" }.joined()
            + "\nMessage:\n\(words(count, seed: seed))\n\nWho is this message for?"
        return GenerationRequest(instructions: SealedText(instructions), prompt: SealedText(prompt), grammar: route,
                                 maxOutputTokens: 48,
                                 choices: (members.map(\.name) + ["lead"]).map { SealedText(#"{"to":""# + $0 + #""}"#) })
    }

    static func draft(_ language: String, agent: String, message: String) -> GenerationRequest {
        let instructions = "The person has no signal and sent a message to \(agent); it waits until they are back online. "
            + "Until \(agent) answers, the phone can draw a draft the person can use: a checklist when "
            + "they ask for a list, a timer when they ask for a timer, a card when they ask for a note. "
            + "A question about health, money or anything only \(agent) knows gets none. "
            + "Write the draft in \(language). Answer only with JSON."
        return GenerationRequest(instructions: SealedText(instructions), prompt: SealedText("Message:\n" + message),
                                 grammar: draft, maxOutputTokens: 256)
    }

    static let requests: [GenerationRequest] = [
        chips("English", agent: "Coach", words: 40, seed: 1),
        push("English", words: 30, seed: 2),
        route(message: 12, seed: 3),
        chips("English", agent: "Coach", words: 120, seed: 4),
        draft("English", agent: "Coach", message: "List what I need for the long run on Sunday"),
        route(message: 20, seed: 5),
        chips("French", agent: "Chef", words: 25, seed: 6),
        push("English", words: 420, seed: 7),
        route(message: 6, seed: 8),
        chips("English", agent: "Coach", words: 70, seed: 9),
        draft("English", agent: "Coach", message: "Timer for twenty minutes of stretching please"),
        draft("English", agent: "Chef", message: "Note: buy flour, lemon and salt"),
    ]
}
