import Engine
import Privacy
import Testing

/// The phone's tokens by estimate: each character weighs `round(1000 / chars_per_token)`
/// thousandths of a token by its script, and a count is the sum rounded up.
///
/// Reference values from Python 3 over the built-in rates (latin 3.5 → 286, han and kana 1.4 →
/// 714, hangul and other 1.0 → 1000): `-(-sum(weight(c) for c in s) // 1000)`, the script of each
/// character by the same Unicode blocks; a cut walks back from the end while the kept weight
/// stays within `1000 * maxTokens`.
@Suite struct PhoneTokenizerTests {
    let tokenizer = PhoneTokenizer(.builtIn)

    @Test(arguments: [("", 0), ("a", 1), ("Hello, world", 4), ("日本語です", 4), ("안녕하세요", 5), ("Привет", 6),
                      ("Café au lait 😀", 5), ("明日10時に会いましょう。", 9)])
    func countsEachScriptAtItsRate(text: String, tokens: Int) {
        #expect(tokenizer.tokenCount(of: SealedText(text)) == tokens)
    }

    @Test(arguments: [("abcdefghij", 1, "hij", 1, true), ("Hello, world", 2, " world", 2, true), ("日本語です", 2, "です", 2, true),
                      ("ab日本", 3, "ab日本", 2, false)])
    func aCutKeepsTheLongestEndWithinTheBudget(text: String, maxTokens: Int, kept: String, tokens: Int, wasCut: Bool) {
        let cut = tokenizer.suffix(of: SealedText(text), maxTokens: maxTokens)
        #expect(cut.text == SealedText(kept))
        #expect((cut.keptTokens, cut.textTokens, cut.wasCut) == (tokens, tokens, wasCut))
        #expect(tokenizer.tokenCount(of: cut.text) == tokens)
    }

    /// The weights add before rounding, so parts count as their joined text does: "ab" and "c"
    /// are 1 token each alone, and "ab\nc" (4 × 286 = 1144) is 2.
    @Test func partsCountAsTheirJoinedText() {
        let parts = [SealedText("ab"), SealedText("c")]
        #expect(tokenizer.tokenCount(joining: parts, separator: "\n", knownCounts: [1, 1]) == 2)
        let request = GenerationRequest(instructions: SealedText("Be brief."), promptParts: parts, separator: "\n",
                                        grammar: nil, maxOutputTokens: 8)
        // 24 framing + "Be brief." (9 × 286 → 3) + 2.
        #expect(tokenizer.promptTokenCount(for: request) == 29)
        #expect(tokenizer.promptTokenCount(for: request, promptParts: parts, separator: "\n", knownCounts: [nil, nil]) == 29)
    }

    /// A team's rates replace the built-in ones: at 2 characters per token "abcd" is 2 tokens.
    @Test func ratesComeFromTheProfile() {
        var rates = PhoneTokenRates.builtIn
        rates.charactersPerToken[.latin] = 2
        #expect(PhoneTokenizer(rates).tokenCount(of: SealedText("abcd")) == 2)
    }

    /// Each place is counted by its own version's rates, looked up as its ceiling is; with one
    /// set of rates for every version, one tokenizer counts them all.
    @Test func eachVersionCountsWithItsOwnRates() throws {
        var text = ModelProfiles.builtInText
        // 27.0 counts two Latin characters a token.
        let marker = #""name": "27.0","#
        let start = try #require(text.range(of: marker))
        let rates = try #require(text.range(of: #""latin": 3.5"#, range: start.upperBound..<text.endIndex))
        text.replaceSubrange(rates, with: #""latin": 2"#)
        let profiles = try ModelProfiles(parsing: Array(text.utf8), file: "test")
        let tokenizers = PhoneTokenizers(profiles)
        #expect(tokenizers.tokenizer(forModel: "27.0.1").tokenCount(of: SealedText("abcd")) == 2)
        #expect(tokenizers.tokenizer(forModel: "26.4").tokenCount(of: SealedText("abcd")) == 2)   // 4 × 286 → 2
        #expect(tokenizers.tokenizer(forModel: "27.0").tokenCount(of: SealedText("abcdef")) == 3)
        #expect(tokenizers.tokenizer(forModel: "26.4").tokenCount(of: SealedText("abcdef")) == 2)   // 6 × 286 → 2
        let single = PhoneTokenizers(.builtIn)
        #expect(single.tokenizer(forModel: "27.0") === single.tokenizer(forModel: "26.0"))
    }

    /// Every built-in version carries the same estimate as `PhoneTokenRates.builtIn`, the one a
    /// team file without `tokens` gets.
    @Test func theBuiltInVersionsCarryTheBuiltInRates() {
        for model in ModelProfiles.builtIn.models { #expect(model.tokens == .builtIn) }
    }

    @Test(arguments: [
        (#""tokens": {"chars_per_token": {"latin": 3}, "framing_tokens": 1, "source": "x"}"#, "models[0].tokens.chars_per_token"),
        (#""tokens": {"chars_per_token": {"latin": 0, "han": 1, "kana": 1, "hangul": 1, "other": 1}, "framing_tokens": 1, "source": "x"}"#,
         "models[0].tokens.chars_per_token.latin"),
        (#""tokens": {"chars_per_token": {"latin": 3, "han": 1, "kana": 1, "hangul": 1, "other": 1}, "framing_tokens": -1, "source": "x"}"#,
         "models[0].tokens.framing_tokens"),
    ])
    func aWrongTokensBlockIsNamed(block: String, path: String) {
        let text = #"{"schema": "replay.profiles/1", "name": "team", "unknown_model": "26.0", "#
            + #""devices": [{"name": "p", "prefill_ms_per_token": 1, "decode_tokens_per_s": 10, "source": "s"}], "#
            + #""models": [{"name": "26.0", "from": "26.0", "context_tokens": 4096, "languages": ["en"], "source": "s", "# + block + "}]}"
        #expect(throws: EngineError.self) { try ModelProfiles(parsing: Array(text.utf8), file: "team.json") }
        do {
            _ = try ModelProfiles(parsing: Array(text.utf8), file: "team.json")
        } catch {
            #expect(error.description.contains(path))
        }
    }
}
