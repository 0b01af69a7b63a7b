import Privacy
import Corpus
import Export
import Foundation
import Testing
import TestSupport
import CLlama
import Engine
@testable import Llama

/// The model's vocabulary, loaded once for the suite (vocabulary only: milliseconds).
private let sharedModel: Result<LlamaModel, LlamaError> = {
    guard let path = DefaultModel.path() else {
        return .failure(.modelFileUnreadable(path: DefaultModel.cacheDirectory, reason: "run scripts/setup first"))
    }
    return Result { () throws(LlamaError) in try LlamaModel(path: path, vocabularyOnly: true, nativeTokenizer: true) }
}()

private func model() throws -> LlamaModel { try sharedModel.get() }

private func native() throws -> ByteLevelBPE {
    let model = try model()
    return try #require(model.nativeTokenizer, "no native tokenizer: \(model.nativeTokenizerUnavailable ?? "")")
}

@Suite(.tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct ByteLevelBPETests {
    @Test func theDefaultModelGetsTheNativeTokenizer() throws {
        let model = try model()
        #expect(model.nativeTokenizerUnavailable == nil, "\(model.nativeTokenizerUnavailable ?? "")")
        #expect(model.nativeTokenizer != nil)
        // Most short tokens are pieces that merge into themselves: the lookup is in use.
        #expect((model.nativeTokenizer?.wholePieceCount ?? 0) > 20_000)
        // The environment switch and the parameter turn it off; text then goes to llama_tokenize.
        let plain = try LlamaModel(path: model.path, vocabularyOnly: true, nativeTokenizer: false)
        #expect(plain.nativeTokenizer == nil)
        #expect(plain.nativeTokenizerUnavailable == "turned off")
        #expect(plain.tokenize("Turned off, it still tokenizes 42 words.") == model.llamaTokenize("Turned off, it still tokenizes 42 words."))
    }

    @Test func everyASCIICharacterInEveryContextMatchesLlama() throws {
        let model = try model(), tokenizers = everyMergePath(try native())
        let contexts: [(String, String)] = [("", ""), ("a", "b"), (" ", ""), ("", " "), ("  ", "x"), ("1", "2"), ("'", "s"),
                                            ("x'", "ll"), ("\n", "\n"), ("word ", " word"), ("\t \t", "  "), ("é", "漢")]
        var texts: [String] = []
        for byte in 0..<128 {
            let character = String(UnicodeScalar(UInt8(byte)))
            for (before, after) in contexts {
                texts.append(before + character + after)
                texts.append(before + character + character + character + after)
            }
        }
        let found = mismatches(texts, model: model, tokenizers: tokenizers)
        #expect(found.isEmpty, "\(found.count) of \(texts.count * 3) differ; first: \(found.first.map(String.init(describing:)) ?? "")")
    }

    @Test func everyCodePointMatchesLlama() throws {
        let model = try model(), tokenizer = try native()
        let texts = TrickyTexts.everyCodePoint
        let found = mismatches(texts, model: model, tokenizers: [tokenizer])
        #expect(texts.count > 4000)
        #expect(found.isEmpty, "\(found.count) of \(texts.count) differ; first: \(found.first.map(String.init(describing:)) ?? "")")
    }

    /// Drawn from every piece, and from the ASCII pieces alone: a text all of ASCII takes the
    /// splitter's ASCII path, one with any other byte the decoding path.
    @Test(arguments: [false, true])
    func randomTextsOfTrickyPiecesMatchLlama(asciiOnly: Bool) throws {
        let model = try model(), tokenizers = everyMergePath(try native())
        let pieces = TrickyTexts.pieces.filter { piece in !asciiOnly || piece.allSatisfy { $0 < 0x80 } }
        var texts = TrickyTexts.random(20_000, of: pieces, upTo: 120, seed: asciiOnly ? 12 : 11)
        // And some long runs: one piece of hundreds of letters, spaces or symbols.
        for length in [64, 100, 500, 2_000] {
            if !asciiOnly { texts.append(String(repeating: "漢字", count: length)) }
            texts.append(String(repeating: " ", count: length) + "x")
            texts.append(String(repeating: "ab", count: length))
            texts.append(String(repeating: "!?", count: length))
        }
        #expect(texts.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } } == asciiOnly)
        let found = mismatches(texts, model: model, tokenizers: tokenizers)
        #expect(found.isEmpty, "\(found.count) of \(texts.count * 3) differ; first: \(found.first.map(String.init(describing:)) ?? "")")
    }

    @Test func everyTextOfTheSampleCorpusMatchesLlama() throws {
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("corpora/sample.jsonl.zst").path
        let texts = try corpusTexts(sample)
        #expect(texts.count > 1_000)
        let found = mismatches(texts, model: try model(), tokenizers: everyMergePath(try native()))
        #expect(found.isEmpty, "\(found.count) of \(texts.count * 3) differ; first: \(found.first.map(String.init(describing:)) ?? "")")
    }

    @Test func everyTextOfAGeneratedCorpusInEveryLanguageMatchesLlama() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("generated.jsonl.zst")
        _ = try CorpusGenerator(threads: 600, seed: 7).write(to: path)
        var languages: Set<String> = []
        let texts = try corpusTexts(path, languages: &languages)
        #expect(languages.count >= 5, "only \(languages.count) languages generated")
        let found = mismatches(texts, model: try model(), tokenizers: [try native()])
        #expect(found.isEmpty, "\(found.count) of \(texts.count) differ; first: \(found.first.map(String.init(describing:)) ?? "")")
        // And every language's cuts, taken from a tail, keep the whole text's last tokens.
        let (checked, cuts, counted, wrong) = lastTokensMismatches(texts.map { $0.withUnsealedText { $0 } }, caps: [50, 600], tokenizer: try native())
        #expect(checked > 1_000 && wrong.isEmpty, "\(wrong.count) of \(checked) cuts differ; first: \(wrong.first ?? "")")
        // Most cuts start at a character, and their kept text's count comes without counting it all.
        #expect(counted * 10 > cuts * 9, "\(counted) of \(cuts) cuts had their kept text counted")
    }

    /// Long texts of every piece, and runs where no piece always starts (the whole text is then
    /// tokenized) or where one starts at every code point.
    @Test func aCutTakenFromTheTailKeepsTheLastTokensOfTheWhole() throws {
        var texts = TrickyTexts.random(800, upTo: 1_500, seed: 41)
        for length in [100, 3_000] {
            texts += ["!?", " ", "漢字", "😀", "7", "ab ", "\n\n"].map { String(repeating: $0, count: length) }
        }
        let (checked, cuts, counted, wrong) = lastTokensMismatches(texts, caps: [0, 1, 7, 50, 600], tokenizer: try native())
        #expect(checked > 2_500 && wrong.isEmpty, "\(wrong.count) of \(checked) cuts differ; first: \(wrong.first ?? "")")
        // Fewer than in words: a cut inside emoji and CJK characters often starts mid-character.
        #expect(counted * 3 > cuts, "\(counted) of \(cuts) cuts had their kept text counted")
    }

    @Test func aVocabularyOfAnotherKindGetsNoNativeTokenizer() throws {
        let model = try model()
        let vocabulary = try #require(ByteLevelBPE.Vocabulary(model: model))
        #expect(ByteLevelBPE.unsupportedReason(vocabulary) == nil)
        var other = vocabulary
        for pre in ["llama3", "gpt-2", "qwen35", "deepseek-r1-qwen", "default", ""] {
            other.preTokenizer = pre
            #expect(throws: ByteLevelBPE.Unsupported.self) { try ByteLevelBPE(vocabulary: other) }
        }
        other = vocabulary
        other.preTokenizer = nil
        #expect(throws: ByteLevelBPE.Unsupported.self) { try ByteLevelBPE(vocabulary: other) }
        other = vocabulary
        other.isBPE = false
        #expect(throws: ByteLevelBPE.Unsupported.self) { try ByteLevelBPE(vocabulary: other) }
        other = vocabulary
        other.model = "llama"
        #expect(throws: ByteLevelBPE.Unsupported.self) { try ByteLevelBPE(vocabulary: other) }
        // User-defined tokens llama.cpp would cut words around otherwise than `UserDefinedTokens`
        // does: one that strips the spaces beside it, or two of one length that may overlap.
        other = vocabulary
        other.userDefinedTokens = [UserDefinedTokens.Token(bytes: Array("<tool_call>".utf8), id: 7)]
        other.userDefinedTokensStripSpaces = true
        #expect(throws: ByteLevelBPE.Unsupported.self) { try ByteLevelBPE(vocabulary: other) }
        other = vocabulary
        other.userDefinedTokens = [UserDefinedTokens.Token(bytes: Array("<ab".utf8), id: 7), UserDefinedTokens.Token(bytes: Array("ab>".utf8), id: 8)]
        #expect(throws: ByteLevelBPE.Unsupported.self) { try ByteLevelBPE(vocabulary: other) }
    }

    @Test func countingJoinedPartsFromKnownCountsEqualsCountingTheJoinedText() throws {
        // Parts that start and end in every way (whitespace, quotes, digits, letters, nothing),
        // joined by separators the sum applies to and ones it must not.
        let tokenizer = try native()
        let edges = ["", " ", "  ", "\n", "\n\n", "\t", "\u{3000}", "'", "'s", "re", "1", "٣", "a", "é", "漢", "!", "😀", "\u{301}", ".", " x"]
        let middles = ["", "word", "two words", "it's 12:30", "a\n\nb", "  spaced  out  ", "日本語のテキスト", "x'll"]
        var random = SplitMix64(seed: 23)
        func pick(_ list: [String]) -> String { list[Int(random.next() % UInt64(list.count))] }
        var checked = 0, summed = 0
        for separator in ["\n", "\n\n", " ", "\t", "\r", "\u{3000}", ":"] {
            for _ in 0..<3_000 {
                let parts = (0..<Int(random.next() % 5 + 1)).map { _ in SealedText(pick(edges) + pick(middles) + pick(edges)) }
                let known = parts.map { part -> Int? in
                    random.next() % 4 == 0 ? nil : part.withUnsealedText { tokenizer.tokens(of: $0).count }
                }
                let expected = SealedText.joined(parts, separator: separator).withUnsealedText { tokenizer.tokens(of: $0).count }
                let got = tokenizer.tokenCount(joining: parts, separator: separator, knownCounts: known)
                #expect(got == expected, "separator #\(separator.unicodeScalars.first!.value), \(parts.count) parts: \(got) vs \(expected)")
                checked += 1
                if got == expected, known.contains(where: { $0 != nil }) { summed += 1 }
            }
        }
        #expect(checked == 21_000 && summed > 10_000)
    }

    @Test func aModelWithAnotherPreTokenizerFallsBackToLlamaTokenize() throws {
        // The same vocabulary under Llama 3's pre-tokenizer (other expressions, whole words kept), as a
        // vocabulary-only GGUF: llama.cpp loads it; the native tokenizer must refuse it.
        let model = try model()
        let directory = try TemporaryDirectory()
        let path = directory.path("llama3-pre.gguf")
        let source = try #require(gguf_init_from_file(model.path, gguf_init_params(no_alloc: true, ctx: nil)))
        defer { gguf_free(source) }
        let copy = try #require(gguf_init_empty())
        defer { gguf_free(copy) }
        gguf_set_kv(copy, source)
        gguf_set_val_str(copy, "tokenizer.ggml.pre", "llama3")
        #expect(gguf_write_to_file(copy, path, false))
        let other = try LlamaModel(path: path, vocabularyOnly: true, nativeTokenizer: true)
        #expect(other.nativeTokenizer == nil)
        #expect(other.nativeTokenizerUnavailable?.contains("pre-tokenizer llama3") == true)
        let texts = ["Order 12345 ships on 2024-06-01.", "It's 3.14159, isn't it?", "  spaced   out  ", "日本語 123"]
        for text in texts {
            #expect(other.tokenize(text) == other.llamaTokenize(text))
            #expect(other.tokenCount(of: SealedText(text)) == other.llamaTokenize(text).count)
        }
        // And it is not the smollm split: Llama 3's groups digits by three, keeps a sign with
        // the word after it and upper-case contractions, and takes a piece that is a token whole.
        let spaced = ["a  b", "x   y   z", "IT'S  MINE", "(hello)  [world]", "tab\t\tafter", "2024-06-01", "\n\n\nend"]
        #expect(spaced.contains { other.tokenize($0) != model.tokenize($0) })
    }

    @Test func cuttingAndCountingGiveTheSameAnswersEitherWay() throws {
        // The Tokenizer protocol's answers (what a dry run reports) with and without the native tokenizer.
        let model = try model()
        let plain = try LlamaModel(path: model.path, vocabularyOnly: true, nativeTokenizer: false)
        var random = SplitMix64(seed: 5)
        let words = ["The", " cat", " sat", " on", " 12", " mats", "!", " Don't", " 日本語", " 😀", "\n\n", " é", "  ", "'s",
                     "\u{FFFD}", "e\u{301}", " \u{FFFD}\u{301}"]
        for _ in 0..<300 {
            var text = ""
            for _ in 0..<Int(random.next() % 200) { text += words[Int(random.next() % UInt64(words.count))] }
            let sealed = SealedText(text)
            #expect(model.tokenCount(of: sealed) == plain.tokenCount(of: sealed))
            for cap in [1, 7, 50, 600] {
                let a = model.suffix(of: sealed, maxTokens: cap), b = plain.suffix(of: sealed, maxTokens: cap)
                #expect(a.keptTokens == b.keptTokens && a.wasCut == b.wasCut && a.text == b.text)
                // A count given is the kept text's; llama.cpp's path knows it only when nothing was cut.
                for cut in [a, b] where cut.textTokens != nil {
                    #expect(cut.textTokens == plain.tokenCount(of: cut.text))
                }
                #expect((a.textTokens != nil || a.wasCut) && (b.textTokens != nil) == !b.wasCut)
            }
            // The cut text is what Foundation's removal of U+FFFD gives, whichever way it was reached.
            let native = try #require(model.nativeTokenizer)
            let tokens = native.tokens(of: text)
            for cap in [1, 7, 50] where tokens.count > cap {
                let bytes = native.bytes(of: tokens.suffix(cap))
                let expected = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\u{FFFD}", with: "")
                #expect(model.suffix(of: sealed, maxTokens: cap).text == SealedText(expected))
                if !LlamaModel.mayHoldReplacement(bytes) {
                    #expect(!String(decoding: bytes, as: UTF8.self).unicodeScalars.contains("\u{FFFD}"))
                }
            }
            let request = GenerationRequest(instructions: SealedText("Answer briefly."), prompt: sealed, grammar: nil, maxOutputTokens: 8)
            #expect(model.promptTokenCount(for: request) == plain.promptTokenCount(for: request))
            let key = try #require(RunKey(bytes: Array(repeating: 7, count: RunKey.length)))
            #expect(model.promptDigest(for: request, key: key) == plain.promptDigest(for: request, key: key))
        }
    }
}
