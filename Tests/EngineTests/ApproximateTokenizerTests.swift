import Engine
import Privacy
import Testing

/// The tokenizer a run without its model uses: one token per four UTF-8 bytes, rounded up.
///
/// Every reference value is the text's UTF-8 size from Python 3 (`len(s.encode("utf-8"))`)
/// divided by four and rounded up (`-(-n // 4)`); the kept bytes of a cut are
/// `s.encode("utf-8")[-4 * maxTokens:]` less any leading continuation bytes (`0b10xxxxxx`).
@Suite struct ApproximateTokenizerTests {
    let tokenizer = ApproximateTokenizer()

    @Test(arguments: [("", 0), ("abcd", 1), ("abcde", 2), ("é", 1), ("日本語", 3), ("ab日本語", 3)])
    func countsOneTokenPerFourBytesRoundedUp(text: String, tokens: Int) {
        #expect(tokenizer.tokenCount(of: SealedText(text)) == tokens)
    }

    @Test func aTextWithinTheBudgetIsKeptWholeWithItsCount() {
        let cut = tokenizer.suffix(of: SealedText("abcde"), maxTokens: 2)
        #expect(cut.text == SealedText("abcde"))
        #expect(!cut.wasCut)
        #expect((cut.keptTokens, cut.textTokens) == (2, 2))
    }

    @Test func aCutKeepsTheLastBytesOfTheBudget() {
        let cut = tokenizer.suffix(of: SealedText("abcdefghij"), maxTokens: 2)
        #expect(cut.text == SealedText("cdefghij"))
        #expect((cut.keptTokens, cut.wasCut) == (2, true))
        #expect(cut.textTokens == nil)
    }

    /// The last eight bytes of "ab日本語" start inside 日 (0x97 0xA5), so the cut drops them.
    @Test func aCutNeverStartsInsideACharacter() {
        let cut = tokenizer.suffix(of: SealedText("ab日本語"), maxTokens: 2)
        #expect(cut.text == SealedText("本語"))
        #expect((cut.keptTokens, cut.wasCut) == (2, true))
    }

    /// Instructions (1 token) and prompt (2 tokens), plus 16 for the chat framing.
    @Test func aRequestCountsItsTurnsAndTheFraming() {
        let request = GenerationRequest(instructions: SealedText("abcd"), prompt: SealedText("abcde"), grammar: nil, maxOutputTokens: 8)
        #expect(tokenizer.promptTokenCount(for: request) == 19)
        #expect(tokenizer.promptTokenCount(for: request, promptParts: [SealedText("ab"), SealedText("de")], separator: "c",
                                           knownCounts: [1, nil]) == 19)
    }
}
