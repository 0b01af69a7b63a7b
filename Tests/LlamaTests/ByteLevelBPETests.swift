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

/// Where two tokenizations of text number `index` part: counts and the first differing place only,
/// never the text or its ids (they would spell the words).
private struct Mismatch: CustomStringConvertible {
    var index: Int
    var nativeCount: Int
    var llamaCount: Int
    var firstDifference: Int
    var description: String {
        "text #\(index): native \(nativeCount) tokens, llama.cpp \(llamaCount), first difference at token \(firstDifference)"
    }
}

/// Compares the native tokenizer (each merge path) with `llama_tokenize` on every text; returns the mismatches.
private func mismatches(_ texts: [String], model: LlamaModel, tokenizers: [ByteLevelBPE]) -> [Mismatch] {
    mismatches(texts.map(SealedText.init), model: model, tokenizers: tokenizers)
}

private func mismatches(_ texts: [SealedText], model: LlamaModel, tokenizers: [ByteLevelBPE]) -> [Mismatch] {
    var found: [Mismatch] = []
    for (index, sealed) in texts.enumerated() {
        sealed.withUnsealedText { text in
            let expected = model.llamaTokenize(text)
            for tokenizer in tokenizers {
                let got = tokenizer.tokens(of: text)
                guard got != expected else { continue }
                let first = zip(got, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(got.count, expected.count)
                found.append(Mismatch(index: index, nativeCount: got.count, llamaCount: expected.count, firstDifference: first))
            }
        }
    }
    return found
}

/// The native tokenizer as used (whole pieces looked up), and with every piece merged by
/// scanning, or by the heap.
private func everyMergePath(_ tokenizer: ByteLevelBPE) -> [ByteLevelBPE] {
    [tokenizer, tokenizer.lookingUpWholePieces(false).withHeapThreshold(1), tokenizer.lookingUpWholePieces(false).withHeapThreshold(.max)]
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
        let (checked, cuts, counted, wrong) = try lastTokensMismatches(texts.map { $0.withUnsealedText { $0 } }, caps: [50, 600])
        #expect(checked > 1_000 && wrong.isEmpty, "\(wrong.count) of \(checked) cuts differ; first: \(wrong.first ?? "")")
        // Most cuts start at a character, and their kept text's count comes without counting it all.
        #expect(counted * 10 > cuts * 9, "\(counted) of \(cuts) cuts had their kept text counted")
    }

    /// Cuts at `caps` of every text, from its tail (`lastTokens`) and from all its tokens: how
    /// many were long enough to be taken from a tail, how many cut and how many of those had
    /// their kept bytes' count given, and where the answers are wrong (index and counts).
    private func lastTokensMismatches(_ texts: [String], caps: [Int]) throws
        -> (checked: Int, cuts: Int, counted: Int, wrong: [String]) {
        let tokenizer = try native()
        var checked = 0, cuts = 0, counted = 0
        var wrong: [String] = []
        for (index, text) in texts.enumerated() {
            let all = tokenizer.tokens(of: text)
            for cap in caps {
                let tail = tokenizer.lastTokens(of: text, maxTokens: cap)
                if text.utf8.count > ByteLevelBPE.tailBytesPerToken * cap + 16 { checked += 1 }
                if tail.tokens != Array(all.suffix(cap)) || tail.wasCut != (all.count > cap) {
                    wrong.append("text #\(index), cap \(cap): \(tail.tokens.count) tokens kept (cut: \(tail.wasCut)) of \(all.count)")
                }
                // The kept bytes' own count, when given, is what tokenizing them alone gives.
                let keptAlone = tail.bytes.withUnsafeBufferPointer { bytes in
                    var counter = ByteLevelBPE.TokenCounter()
                    tokenizer.encode(utf8: bytes, into: &counter)
                    return counter.count
                }
                if let given = tail.keptTextTokens, given != keptAlone {
                    wrong.append("text #\(index), cap \(cap): kept bytes counted \(given), alone \(keptAlone)")
                }
                if tail.wasCut { cuts += 1 }
                if tail.wasCut, tail.keptTextTokens != nil { counted += 1 }
            }
        }
        return (checked, cuts, counted, wrong)
    }

    /// Long texts of every piece, and runs where no piece always starts (the whole text is then
    /// tokenized) or where one starts at every code point.
    @Test func aCutTakenFromTheTailKeepsTheLastTokensOfTheWhole() throws {
        var texts = TrickyTexts.random(800, upTo: 1_500, seed: 41)
        for length in [100, 3_000] {
            texts += ["!?", " ", "漢字", "😀", "7", "ab ", "\n\n"].map { String(repeating: $0, count: length) }
        }
        let (checked, cuts, counted, wrong) = try lastTokensMismatches(texts, caps: [0, 1, 7, 50, 600])
        #expect(checked > 2_500 && wrong.isEmpty, "\(wrong.count) of \(checked) cuts differ; first: \(wrong.first ?? "")")
        // Fewer than in words: a cut inside emoji and CJK characters often starts mid-character.
        #expect(counted * 3 > cuts, "\(counted) of \(cuts) cuts had their kept text counted")
    }

    @Test func aVocabularyOfAnotherKindGetsNoNativeTokenizer() throws {
        let model = try model()
        let vocabulary = try #require(ByteLevelBPE.Vocabulary(model: model))
        #expect(ByteLevelBPE.unsupportedReason(vocabulary) == nil)
        var other = vocabulary
        for pre in ["llama3", "gpt-2", "qwen2", "default", ""] {
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
        other = vocabulary
        other.hasUserDefinedTokens = true
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

/// Every text a corpus holds: messages, screens' words (each node's and the whole screen's).
private func corpusTexts(_ path: String) throws -> [SealedText] {
    var languages: Set<String> = []
    return try corpusTexts(path, languages: &languages)
}

private func corpusTexts(_ path: String, languages: inout Set<String>) throws -> [SealedText] {
    let reader = try CorpusReader(paths: [path])
    var texts: [SealedText] = []
    while let event = reader.next() {
        guard case .record(.message(let message), _) = event else { continue }
        if let language = message.lang { languages.insert(language) }
        if let text = message.text { texts.append(text) }
        if let screen = message.screen {
            texts.append(screen.words)
            for node in screen.nodes { texts += node.words }
        }
    }
    return texts
}
