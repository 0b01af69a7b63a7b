import Privacy
import Engine
import Testing
@testable import Jobs
@testable import Llama

/// `never:route_outside_group` cannot happen under the route grammar: a proof, not a sample.
///
/// The engine writes an output only through llama.cpp's grammar sampler (`LlamaGrammar`): every
/// token it keeps is one the sampler allows at that point (the forced-token jump keeps a token
/// only when the grammar-constrained pick agrees), and an output is returned as a success only
/// when the sampler allows an end token there (or allows nothing but the end); running out of
/// tokens is `outputTruncated`, a failure `check` never sees. So the outputs that can reach
/// `RouteJob.check` are exactly the byte strings the sampler can be walked through to an end.
///
/// The test walks the sampler through all of them: from each state it offers the whole
/// vocabulary of the default model (every token, so every byte sequence the model could write,
/// SmolLM2 having a token for each byte), follows each allowed token, and stops where only the
/// end is left. llama.cpp advances a grammar over a token's text, code point by code point with
/// any partial UTF-8 carried over, so two token paths that wrote the same bytes leave the sampler
/// in the same state: states are identified by the bytes written, which keeps the walk finite
/// and exact. The language is finite (literal names, no repetition), and the walk is bounded to
/// say so if it were not. What it finds is the whole language: every string is `{"to":"<choice>"}`
/// for a choice of `Route.choices`, every choice is reachable, and names outside the group (or
/// members whose names the grammar cannot write) are refused at their first wrong byte.
@Suite(.serialized) struct NeverRuleRouteGrammarTests {
    /// A group whose names test the edges: a name that is a prefix of another, accents and a
    /// character of several UTF-8 bytes (tokens may hold part of one), and a name with quotes,
    /// which the grammar cannot write and so never offers.
    static let members = ["Coach", "Sage", "Sagebrush", "Penny", "Zoë", "李明", #"Dr "Who""#]

    /// Every output the route grammar lets llama.cpp's sampler finish, and the sampler state
    /// after each prefix it can write.
    struct Walk {
        var complete: Set<[UInt8]> = []
        var states: [[UInt8]: LlamaGrammar] = [:]
    }

    /// Walks the sampler for `text` over every token of `model` (`pieces`: each token's bytes, by id).
    static func walk(grammar text: String, model: LlamaModel, pieces: [[UInt8]], bound: Int = 5_000) throws -> Walk {
        let vocabulary = pieces.indices.map { Int32($0) }
        let start = try LlamaGrammar(model: model, grammar: text)
        var walk = Walk()
        walk.states[[]] = start
        var frontier: [[UInt8]] = [[]]
        while let prefix = frontier.popLast() {
            try #require(walk.states.count <= bound, "the grammar's language should be finite and small")
            guard let grammar = walk.states[prefix] else { continue }
            for token in grammar.allowed(among: vocabulary) {
                if model.isEndOfGeneration(token) {
                    walk.complete.insert(prefix)
                    continue
                }
                let piece = pieces[Int(token)]
                try #require(!piece.isEmpty, "a control token the grammar allows: its text is not what the engine writes")
                let next = prefix + piece
                guard walk.states[next] == nil else { continue }
                let copy = try #require(LlamaGrammar(copying: grammar))
                copy.accept(token)
                walk.states[next] = copy
                frontier.append(next)
            }
        }
        return walk
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func everyOutputTheGrammarAllowsNamesAMemberOrTheLead() throws {
        let path = try #require(DefaultModel.path(), "run scripts/setup: the proof walks the default model's vocabulary")
        let model = try LlamaModel(path: path, vocabularyOnly: true, nativeTokenizer: false)
        let choices = Route.choices(members: Self.members)
        #expect(choices == ["Coach", "Sage", "Sagebrush", "Penny", "Zoë", "李明", "lead"])   // the quoted name is never offered
        let pieces = (0..<Int32(model.vocabularySize)).map { model.piece($0) }
        let walk = try Self.walk(grammar: GrammarWriter.grammar(for: Route.schema(members: Self.members)), model: model, pieces: pieces)

        // The whole language: exactly one output per choice.
        let expected = Set(choices.map { Self.bytes(#"{"to":""# + $0 + #""}"#) })
        #expect(walk.complete == expected)

        // Each of them is a route to a member or the lead, and the job counts no outsider.
        let item = JobItem(job: .route, attribution: Attribution(build: nil, model: nil, message: "m1"), request: nil,
                           inputTokens: 0, inputWasCut: false,
                           labels: ["lead": "Coach", "members": choices.joined(separator: String(RouteJob.nameSeparator))])
        for output in walk.complete {
            let text = SealedText(String(decoding: output, as: UTF8.self))
            let route = try #require(Route(output: text, members: choices))
            #expect(choices.contains { route.chose($0) })
            #expect(!RouteOutsideGroupRule.namesOutsider(text, choices: choices))
            let checked = RouteJob().check(text, for: item, outcome: GenerationOutcome(output: .success(text), promptTokens: 1,
                                                                                    outputTokens: 1, hostMilliseconds: 1,
                                                                                    choiceProbability: 1))
            #expect(checked.answer != nil && checked.counters[NeverRule.routeOutsideGroup.counter] == nil)
        }

        // Names outside the group are refused: the sampler never gets to write them whole, and
        // after `{"to":"` it allows no first byte but the choices'.
        for outsider in ["Bob", "sage", "Sage ", "Sag", "Lead", "Coach2", #"Dr "Who""#, "李"] {
            #expect(walk.states[Self.bytes(#"{"to":""# + outsider + #"""#)] == nil, "an outside name written whole")
        }
        let opened = try #require(walk.states[Self.bytes(#"{"to":""#)])
        let firstBytes = Set(choices.compactMap { $0.utf8.first })
        for byte in UInt8(0x20)...UInt8(0x7E) where !firstBytes.contains(byte) {
            let single = try #require(pieces.firstIndex(of: [byte]), "a token for byte \(byte)")
            #expect(!opened.allows(Int32(single)), "byte \(byte) after the opening")
        }
    }

    /// The drawer's grammar (spec §3's drawer, §8: "no messages to anyone but the person's own
    /// agents"): the agents offered and nothing else, not even the lead; a guess outside them
    /// cannot reach `check`, and one that did would be counted.
    @Test func theDrawersGrammarAllowsTheAgentsOfferedAndNoLead() throws {
        let path = try #require(DefaultModel.path(), "run scripts/setup: the proof walks the default model's vocabulary")
        let model = try LlamaModel(path: path, vocabularyOnly: true, nativeTokenizer: false)
        let agents = ["Coach", "Sage", "Sagebrush", "Penny"]
        let pieces = (0..<Int32(model.vocabularySize)).map { model.piece($0) }
        let walk = try Self.walk(grammar: GrammarWriter.grammar(for: Route.schema(members: agents, withLead: false)), model: model,
                                 pieces: pieces)
        #expect(walk.complete == Set(agents.map { Self.bytes(#"{"to":""# + $0 + #""}"#) }))
        for outsider in ["lead", "Lead", "Bob", "sage"] {
            #expect(walk.states[Self.bytes(#"{"to":""# + outsider + #"""#)] == nil, "an outside name written whole")
        }
        #expect(RouteOutsideGroupRule.namesOutsider(SealedText(#"{"to":"lead"}"#), choices: agents, withLead: false))
        #expect(!RouteOutsideGroupRule.namesOutsider(SealedText(#"{"to":"lead"}"#), choices: agents))
    }

    /// An outside name the engine could only write by breaking the grammar is still counted:
    /// the check does not rely on the grammar it guards.
    @Test func anOutputOutsideTheGrammarIsCountedNotTrusted() {
        let choices = Route.choices(members: Self.members)
        #expect(RouteOutsideGroupRule.namesOutsider(SealedText(#"{"to":"Bob"}"#), choices: choices))
        #expect(!RouteOutsideGroupRule.namesOutsider(SealedText(#"{"to":"LEAD"}"#), choices: choices))
        #expect(!RouteOutsideGroupRule.namesOutsider(SealedText(#"{"from":"Bob"}"#), choices: choices))
    }
}
