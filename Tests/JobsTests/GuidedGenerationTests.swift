import Privacy
import Testing
@testable import Jobs

@Suite struct GuidedGenerationTests {
    @Test func repliesGrammarSpellsOutTheGuides() {
        let grammar = Replies.grammar
        #expect(grammar.hasPrefix("root ::= \"{\\\"replies\\\":\" root-replies \"}\""))
        #expect(grammar.contains(#"root-replies ::= "[" root-replies-item ("," root-replies-item){0,2} "]""#))
        #expect(grammar.contains(#"root-replies-item ::= "\"" char{1,40} "\"""#))
        #expect(grammar.contains(#"char ::= [^"\\\x00-\x1F\x7F]"#))
    }

    @Test(arguments: [
        (#"{"replies":["Yes","No thanks"]}"#, 2),
        (#"{"replies":["A fine day"]}"#, 1),
        (#"{"replies":["a","b","c"]}"#, 3),
    ])
    func validOutputsDecode(output: String, count: Int) throws {
        let content = try ContentDecoder.decode(SealedText(output), as: Replies.schema)
        #expect(content["replies"]?.arrayValue?.count == count)
        #expect(Replies(output: SealedText(output))?.replies.count == count)
    }

    @Test(arguments: [
        #"{"replies":[]}"#,                                  // fewer than one
        #"{"replies":["a","b","c","d"]}"#,                   // more than three
        #"{"replies":["this reply is far longer than forty characters"]}"#,
        #"{"replies":["ok"]} "#,                             // trailing characters
        #"{"replies":["ok"]"#,                               // truncated
        #"{"answers":["ok"]}"#,                              // wrong property
        #"{"replies":["a\"b"]}"#,                            // escapes are outside the grammar
    ])
    func outOfSchemaOutputsAreRejected(output: String) {
        #expect(throws: ContentDecoder.Violation.self) { try ContentDecoder.decode(SealedText(output), as: Replies.schema) }
        #expect(Replies(output: SealedText(output)) == nil)
    }

    @Test func repliesDropBlanksAndRepeats() {
        #expect(Replies(output: SealedText(#"{"replies":["Yes!","yes","  "]}"#))?.replies == [SealedText("Yes!")])
        #expect(Replies(output: SealedText(#"{"replies":[" ","  "]}"#)) == nil)
    }

    @Test func everySchemaKindRoundTrips() throws {
        let schema = GenerationSchema.object([
            .init("to", .anyOf(["Sage", "Penny", "lead"])),
            .init("minutes", .integer(1...180)),
            .init("draft", .union([
                .init("timer", [.init("label", .string(length: 1...20))]),
                .init("none", []),
            ])),
        ])
        let grammar = GrammarWriter.grammar(for: schema)
        #expect(grammar.contains(#""\"Sage\"" | "\"Penny\"" | "\"lead\"""#))
        let value = try ContentDecoder.decode(SealedText(#"{"to":"Penny","minutes":25,"draft":{"kind":"timer","label":"Oven"}}"#), as: schema)
        #expect(value["to"]?.stringValue == SealedText("Penny"))
        #expect(value["minutes"]?.integerValue == 25)
        #expect(value["draft"] == .variant(tag: "timer", ["label": .string(SealedText("Oven"))]))
        #expect(throws: ContentDecoder.Violation.integerOutOfRange) {
            try ContentDecoder.decode(SealedText(#"{"to":"lead","minutes":999,"draft":{"kind":"none"}}"#), as: schema)
        }
        #expect(throws: ContentDecoder.Violation.notAnAllowedValue) {
            try ContentDecoder.decode(SealedText(#"{"to":"Bob","minutes":5,"draft":{"kind":"none"}}"#), as: schema)
        }
    }
}

@Suite struct ReplySimilarityTests {
    @Test(arguments: [
        ("Sounds good!", "sounds good", true),
        ("  Yes,  please. ", "yes please", true),
        ("Bit sore but fine", "Bit sore, but fine!", true),
        ("Yes", "No", false),
        ("今日は元気です？", "今日は元気です", true),
    ])
    func foldedMatch(a: String, b: String, same: Bool) {
        #expect(ReplySimilarity.matches(a, b) == same)
    }

    @Test(arguments: [
        ("sore but fine", "Bit sore but fine", 2 * 1.0 * 0.75 / 1.75),
        ("all good", "all good", 1.0),
        ("nope", "all good", 0.0),
        ("good good", "good", 2 * 0.5 * 1.0 / 1.5),
    ])
    func tokenF1(candidate: String, reference: String, expected: Double) {
        #expect(abs(ReplySimilarity.f1(candidate, reference) - expected) < 1e-9)
    }
}

@Suite struct LogHistogramTests {
    @Test func percentilesWithinTwoPercent() {
        var histogram = LogHistogram()
        for ms in 1...1000 { histogram.add(Double(ms)) }
        let p50 = histogram.percentile(0.5)!, p95 = histogram.percentile(0.95)!
        #expect(abs(p50 - 500) / 500 < 0.02)
        #expect(abs(p95 - 950) / 950 < 0.02)
        #expect(LogHistogram().percentile(0.5) == nil)
    }

    @Test func mergingEqualsAddingEverything() {
        var a = LogHistogram(), b = LogHistogram(), all = LogHistogram()
        for ms in stride(from: 0.5, to: 3000, by: 7.3) {
            (ms < 900 ? { a.add(ms) } : { b.add(ms) })()
            all.add(ms)
        }
        a.merge(b)
        #expect(a.count == all.count && abs(a.sum - all.sum) < 1e-6)
        for fraction in [0.1, 0.5, 0.9, 0.99] { #expect(a.percentile(fraction) == all.percentile(fraction)) }
    }
}
