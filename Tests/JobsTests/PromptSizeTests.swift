import Engine
@testable import Llama
import Privacy
import Testing
import TestSupport
@testable import Jobs

/// The sizes planning reports, summed from parts counted once (the prompt set's fixed parts,
/// routing's member lines, the cut words), against the whole request counted again by the
/// model's vocabulary, on every item of the bundled sample. Only counts are compared and shown.
@Suite struct PromptSizeTests {
    /// The sample's threads (read once, by the digest suite's reader).
    static var threads: [ThreadSnapshot] { BuiltInPromptDigestTests.threads }

    /// The built-in prompts, or the same with fixed parts that start in every way the summing
    /// rules tell apart: a newline then a letter (summed), then a digit, a second newline, a
    /// space, a tab, or nothing (counted with their neighbours), and a part that ends in a space;
    /// and parts of words and an input, which a plan call keeps between places.
    static func prompts(_ kind: JobKind, edges: Bool) -> JobPrompts {
        var prompts = PromptSet.builtIn[kind]
        guard edges else { return prompts }
        let starts = ["\n1 of them:", "\n\nNext:", " Note:", "\tTab:", "\nReply:", "\u{3000}Wide:", "Plain: ", "\n",
                      // Words and an input: kept from the last place and counted once they repeat.
                      "\nIn {language}:", "\n\n{language} too", " {language}.", "{language}\n"]
        for (index, start) in starts.enumerated() {
            // Never first (a first part has no separator before it), and each after a part that
            // ends in a letter, so the seam before it is clean and only its start decides.
            let parts = ["Then", start].map { PromptPart(try! PromptTemplate(parsing: $0)) }
            prompts.prompt.insert(contentsOf: parts, at: 1 + (index * 2) % prompts.prompt.count)
        }
        return prompts
    }

    static func job(_ kind: JobKind, edges: Bool) -> any Job {
        let prompts = prompts(kind, edges: edges)
        switch kind {
        case .chips: return ChipsJob(prompts: prompts)
        case .route: return RouteJob(prompts: prompts)
        case .push: return PushJob(prompts: prompts)
        case .draft: return DraftJob(prompts: prompts)
        }
    }

    static func vocabulary() throws -> LlamaModel {
        let model = try BuiltInPromptDigestTests.vocabularyOnly.get()
        try #require(model.nativeTokenizer != nil, "the native tokenizer is what sums counts")
        return model
    }

    @Test(arguments: JobKind.allCases)
    func plannedSizesAreTheWholeRequestCountedAgain(kind: JobKind) throws {
        let model = try Self.vocabulary()
        for edges in [false, true] {
            let name = edges ? "fixed parts of every start" : "built-in"
            var checked = 0, wrong = 0
            for thread in Self.threads {
                var ledger = JobLedger()
                for item in Self.job(kind, edges: edges).plan(thread, tokenizer: model, ledger: &ledger) {
                    guard let request = item.request else { continue }
                    checked += 1
                    if item.promptTokens != model.promptTokenCount(for: request) { wrong += 1 }
                    // Routing's input is its whole prompt, members and message.
                    if kind == .route, item.inputTokens != model.tokenCount(of: request.prompt) { wrong += 1 }
                }
            }
            #expect(checked > 50, "\(kind.rawValue), \(name): only \(checked) requests")
            #expect(wrong == 0, "\(kind.rawValue), \(name): \(wrong) sizes of \(checked) requests differ")
        }
    }

    @Test func fixedPartsAreCountedAndPartsWithInputsAreNot() throws {
        let model = try Self.vocabulary()
        let route = PromptSet.builtIn.route
        let counts = route.fixedPartCounts(model)
        #expect(counts.count == route.prompt.count)
        for (part, count) in zip(route.prompt, counts) {
            let words = part.template.rendered { _ in nil }
            #expect(count == (part.template.isFixed ? model.tokenCount(of: words) : nil))
        }
        #expect(counts.compactMap { $0 }.count == 3)   // "Members:", "\nMessage:", "\nWho is this message for?"
    }
}
