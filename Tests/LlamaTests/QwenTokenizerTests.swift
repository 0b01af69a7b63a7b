import Corpus
import Engine
import Export
import Foundation
import Jobs
import Privacy
import Testing
import TestSupport
@testable import Llama

/// Qwen2.5-Coder-0.5B-Instruct's vocabulary (the opt-in model scripts/test installs), loaded once
/// for the suite, vocabulary only: with the native tokenizer, and without (llama.cpp's alone).
/// A missing file fails every test, naming the command that installs it.
private let qwenName = "qwen2.5-coder-0.5b"
private let qwenModels: Result<(native: LlamaModel, plain: LlamaModel), any Error> = Result {
    let path = try DefaultModel.file(forModelArgument: qwenName)
    return (try LlamaModel(path: path, vocabularyOnly: true, nativeTokenizer: true),
            try LlamaModel(path: path, vocabularyOnly: true, nativeTokenizer: false))
}

private func qwen() throws -> LlamaModel { try qwenModels.get().native }
private func qwenPlain() throws -> LlamaModel { try qwenModels.get().plain }

private func qwenNative() throws -> ByteLevelBPE {
    let model = try qwen()
    return try #require(model.nativeTokenizer, "no native tokenizer for Qwen2.5: \(model.nativeTokenizerUnavailable ?? "")")
}

/// The native tokenizer gives `llama_tokenize`'s ids for Qwen2.5 (pre-tokenizer "qwen2", a
/// vocabulary of 151,936 tokens, user-defined tokens found in plain words), and replay plans the
/// same prompts, sizes and cuts with it as with llama.cpp's tokenizer. Nothing is printed of a
/// text: a mismatch names its index and counts.
@Suite struct QwenTokenizerTests {
    @Test func qwensVocabularyGetsTheNativeTokenizer() throws {
        let model = try qwen()
        #expect(model.nativeTokenizerUnavailable == nil, "\(model.nativeTokenizerUnavailable ?? "")")
        let native = try qwenNative()
        #expect(native.preTokenizer == .qwen2)
        #expect(native.tables.wideMergeLookup != nil && native.tables.mergeLookup == nil, "ids past 65,534 need the wide table")
        #expect(native.wholePieceCount > 50_000)
        // The user-defined tokens are found in words; the control ones (<|im_start|>, <|endoftext|>, …) are not.
        let found = try #require(native.userDefinedTokens).tokens.map { String(decoding: $0.bytes, as: UTF8.self) }
        #expect(Set(found) == ["<tool_call>", "</tool_call>"])
        #expect(found.first == "</tool_call>", "llama.cpp looks for the longest first")
        let vocabulary = try #require(ByteLevelBPE.Vocabulary(model: model))
        #expect(vocabulary.preTokenizer == "qwen2" && ByteLevelBPE.unsupportedReason(vocabulary) == nil)
    }

    /// Written for the pre-tokenizer's rules and the vocabulary's added tokens: scripts, numbers
    /// of every length, contractions in capitals, line breaks and whitespace runs, and added
    /// tokens' text inside words. Team-written, never from a corpus.
    static let multilingual: [String] = [
        "日本語のテキストです。東京は２０２４年に晴れ、気温は３５度でした！",
        "中文分词测试：我们今天去北京，价格是123.45元。",
        "カタカナとひらがなと漢字が混ざった文、そしてEnglish words。",
        "한국어 텍스트를 토큰화합니다. 가격은 ₩12,000입니다.",
        "مرحبا بالعالم! هذا اختبار رقم ١٢٣٤٥ في السطر الأول.",
        "हिन्दी में परीक्षण: नमस्ते दुनिया, संख्या १२३ और 456।",
        "Привет, МИР! Ёжик в тумане — 42 раза.",
        "Ελληνικά: Καλημέρα κόσμε; Ναι.",
        "ภาษาไทยไม่มีช่องว่างระหว่างคำ",
        "עברית מימין לשמאל 123",
        "emoji 😀👍🏽👨‍👩‍👧🇫🇷❤️‍🔥 end 🎉🎉🎉",
        "7 42 123 2024 12345 123456 1234567 12345678 123456789 12345678901234567890 0.5 3.14159 -17 1,000,000 1e10 0x1F",
        "²³ ½ Ⅻ ① ٣ ۴ ߅ ௮ ໓",
        "IT'S MINE, WE'LL SEE, THEY'RE HERE, I'D GO, I'M IN, YOU'VE WON, DON'T STOP",
        "it's 'S 'T 'Re 'vE 'lL 'D 'M x'S Y'LL z'rE l'x 'q ''s '' 's's",
        "line\r\nbreaks\r\n\r\n\r\nand\n\n\nmore\r\r\n \n\t\n end\r",
        "symbols!\nthen;\r\n\r\nnext...\n\n(paren)\n",
        "spaces    between   words \t\t tabs  \u{3000}ideographic\u{00A0}nbsp   \u{2003}em ",
        "   leading and trailing   ",
        "\n\n\n",
        " ",
        "<|im_start|>user\nhello<|im_end|>\n<|im_start|>assistant\n",
        "text<|endoftext|>more <|endoftext|> <|fim_prefix|>code<|fim_suffix|><|fim_middle|>",
        "<tool_call>{\"name\": \"lookup\", \"arguments\": {\"q\": 1}}</tool_call> and </tool_call><tool_call>",
        "a<tool_call>b", "<tool_call", "tool_call>", "<<tool_call>>", "</tool_call></tool_call>", " <tool_call> ",
        "\n<tool_call>\n", "<tool_call><tool_call>", "x</tool_call", "</</tool_call>tool_call>",
        "func f(_ x: Int) -> Int {\n    return x * 42 // comment\n}\n\tlet y = [1, 2, 3]",
        "mixed日本語English123中文😀العربية",
        "e\u{301}te\u{301} cafe\u{301} \u{301}\u{301}",
        "\u{FFFD}\u{FEFF}\u{200B}\u{200D}\u{E000}\u{10FFFF}",
    ]

    @Test func multilingualAndTrickyTextsMatchLlama() throws {
        let model = try qwen(), tokenizers = everyMergePath(try qwenNative())
        let found = mismatches(Self.multilingual, model: model, tokenizers: tokenizers)
        #expect(found.isEmpty, "\(found.count) of \(Self.multilingual.count * 3) differ; first: \(found.first.map(String.init(describing:)) ?? "")")
    }

    @Test func everyASCIICharacterInEveryContextMatchesLlama() throws {
        let model = try qwen(), tokenizers = everyMergePath(try qwenNative())
        let contexts: [(String, String)] = [("", ""), ("a", "b"), (" ", ""), ("", " "), ("  ", "x"), ("1", "2"), ("'", "s"),
                                            ("x'", "LL"), ("\n", "\n"), ("\r\n", ""), ("word ", " word"), ("\t \t", "  "),
                                            ("é", "漢"), ("<tool_call", ">"), ("!", "\r\n")]
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

    /// Drawn from every piece, and from the ASCII pieces alone: a text all of ASCII takes the
    /// splitter's ASCII path, one with any other byte the decoding path.
    @Test(arguments: [false, true])
    func randomTextsOfTrickyPiecesMatchLlama(asciiOnly: Bool) throws {
        let model = try qwen(), tokenizers = everyMergePath(try qwenNative())
        let pieces = TrickyTexts.qwenPieces.filter { piece in !asciiOnly || piece.allSatisfy { $0 < 0x80 } }
        var texts = TrickyTexts.random(3_000, of: pieces, upTo: 120, seed: asciiOnly ? 62 : 61)
        for length in [64, 500] {
            if !asciiOnly { texts.append(String(repeating: "漢字", count: length)) }
            texts.append(String(repeating: " ", count: length) + "x")
            texts.append(String(repeating: "\r\n", count: length) + "x")
            texts.append(String(repeating: "9", count: length))
            texts.append(String(repeating: "ab", count: length))
            texts.append(String(repeating: "!?", count: length) + "\n\n")
            texts.append(String(repeating: "<tool_call>", count: length))
        }
        #expect(texts.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } } == asciiOnly)
        let found = mismatches(texts, model: model, tokenizers: tokenizers)
        #expect(found.isEmpty, "\(found.count) of \(texts.count * 3) differ; first: \(found.first.map(String.init(describing:)) ?? "")")
    }

    /// Every scalar llama.cpp's table knows, next to letters, numbers, spaces and quotes (slow:
    /// llama.cpp's own tokenizer takes seconds over them).
    @Test(.tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out"))
    func everyCodePointMatchesLlama() throws {
        let model = try qwen(), tokenizer = try qwenNative()
        let texts = TrickyTexts.everyCodePoint
        let found = mismatches(texts, model: model, tokenizers: [tokenizer])
        #expect(texts.count > 4000)
        #expect(found.isEmpty, "\(found.count) of \(texts.count) differ; first: \(found.first.map(String.init(describing:)) ?? "")")
    }

    /// The sample's threads, each with its messages.
    static let threads: [ThreadSnapshot] = {
        let sample = BuiltProducts.packageRoot + "/corpora/sample.jsonl.zst"
        guard let reader = try? CorpusReader(paths: [sample]) else { return [] }
        var threads: [ThreadSnapshot] = []
        while let event = reader.next() {
            guard case .record(let record, _) = event else { continue }
            switch record {
            case .header: continue
            case .thread(let thread): threads.append(ThreadSnapshot(thread: thread, messages: []))
            case .message(let message): threads[threads.count - 1].messages.append(message)
            }
        }
        return threads
    }()

    /// The sample's first 100 threads (of 300) as replay plans them.
    @Test func theSamplesFirstThreadsAsPlannedMatchLlama() throws {
        #expect(Self.threads.count > 100)
        let (items, requests, cut) = try Self.expectPlannedAlike(Array(Self.threads.prefix(100)))
        #expect(items > 300 && requests > 300 && cut > 5, "\(items) items, \(requests) requests, \(cut) cut")
    }

    /// The whole sample as replay plans it (slow: llama.cpp's tokenizer over all of it).
    @Test(.tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out"))
    func theWholeSampleAsPlannedMatchesLlama() throws {
        let (items, requests, cut) = try Self.expectPlannedAlike(Self.threads)
        #expect(items > 1_000 && requests > 1_000 && cut > 20, "\(items) items, \(requests) requests, \(cut) cut")
    }

    /// Every text of `threads`, and every prompt the four jobs plan of them: the native
    /// tokenizer's ids are llama.cpp's, and planning with either tokenizer gives the same
    /// requests, prompt sizes, input sizes and cuts (the cuts take the native tokenizer's tail,
    /// `lastTokens`, and the sizes its joined counts). Returns how many items were planned, how
    /// many with a request, and how many had their input cut.
    private static func expectPlannedAlike(_ threads: [ThreadSnapshot]) throws -> (items: Int, requests: Int, cut: Int) {
        let model = try qwen(), plain = try qwenPlain(), native = try qwenNative()
        var texts: [SealedText] = []
        for thread in threads {
            for message in thread.messages {
                if let text = message.text { texts.append(text) }
                if let screen = message.screen {
                    texts.append(screen.words)
                    for node in screen.nodes { texts += node.words }
                }
            }
        }
        var items = 0, requests = 0, cut = 0
        var differing: [String] = []
        for kind in JobKind.allCases {
            let job = kind.job()
            for (threadIndex, thread) in threads.enumerated() {
                var nativeLedger = JobLedger(), plainLedger = JobLedger()
                let planned = job.plan(thread, tokenizer: model, ledger: &nativeLedger)
                let reference = job.plan(thread, tokenizer: plain, ledger: &plainLedger)
                guard planned.count == reference.count else {
                    differing.append("\(kind.rawValue), thread #\(threadIndex): \(planned.count) items, llama.cpp's \(reference.count)")
                    continue
                }
                for (index, (item, expected)) in zip(planned, reference).enumerated() {
                    items += 1
                    if item.inputWasCut { cut += 1 }
                    let same = item.request?.prompt == expected.request?.prompt
                        && item.request?.instructions == expected.request?.instructions
                        && item.promptTokens == expected.promptTokens && item.inputTokens == expected.inputTokens
                        && item.inputWasCut == expected.inputWasCut
                    if !same {
                        differing.append("\(kind.rawValue), thread #\(threadIndex), item #\(index): sizes "
                                         + "\(item.promptTokens ?? -1)/\(item.inputTokens)/\(item.inputWasCut), llama.cpp's "
                                         + "\(expected.promptTokens ?? -1)/\(expected.inputTokens)/\(expected.inputWasCut)")
                    }
                    guard let request = item.request else { continue }
                    requests += 1
                    texts.append(request.prompt)
                    texts.append(request.instructions)
                    if model.promptTokens(for: request) != plain.promptTokens(for: request) {
                        differing.append("\(kind.rawValue), thread #\(threadIndex), item #\(index): the whole request's tokens differ")
                    }
                }
            }
        }
        #expect(differing.isEmpty, "\(differing.count) of \(items) items differ; first: \(differing.first ?? "")")
        let found = mismatches(texts, model: model, tokenizers: everyMergePath(native))
        #expect(texts.count > 1_000)
        #expect(found.isEmpty, "\(found.count) of \(texts.count * 3) differ; first: \(found.first.map(String.init(describing:)) ?? "")")
        return (items, requests, cut)
    }

    /// Long texts of every piece, and runs where no piece always starts (the whole text is then
    /// tokenized) or where one starts at every code point: a cut taken from the tail keeps the
    /// whole text's last tokens. Texts holding a user-defined token are tokenized whole, their
    /// kept text left uncounted.
    @Test(arguments: [false, true])
    func aCutTakenFromTheTailKeepsTheLastTokensOfTheWhole(withUserDefinedTokens: Bool) throws {
        let userDefined: Set<[UInt32]> = [Array("<tool_call>".unicodeScalars.map(\.value)), Array("</tool_call>".unicodeScalars.map(\.value))]
        let pieces = TrickyTexts.qwenPieces.filter { withUserDefinedTokens || !userDefined.contains($0) }
        var texts = TrickyTexts.random(300, of: pieces, upTo: 1_500, seed: withUserDefinedTokens ? 72 : 71)
        for length in [100, 3_000] {
            texts += ["!?", " ", "漢字", "😀", "7", "ab ", "\n\n", "\r\n", "a  7", withUserDefinedTokens ? "<tool_call>x" : "<tool_x"]
                .map { String(repeating: $0, count: length) }
        }
        let (checked, cuts, counted, wrong) = lastTokensMismatches(texts, caps: [0, 1, 7, 50, 600], tokenizer: try qwenNative())
        #expect(checked > 800 && wrong.isEmpty, "\(wrong.count) of \(checked) cuts differ; first: \(wrong.first ?? "")")
        if withUserDefinedTokens {
            #expect(cuts > 1_000)
        } else {
            // Fewer than in words: a cut inside emoji and CJK characters often starts mid-character.
            #expect(counted * 3 > cuts, "\(counted) of \(cuts) cuts had their kept text counted")
        }
    }

    /// The Tokenizer protocol's answers (what a dry run reports), with the native tokenizer and
    /// with llama.cpp's alone: counts, cuts and whole requests' tokens.
    @Test func cuttingAndCountingGiveTheSameAnswersEitherWay() throws {
        let model = try qwen(), plain = try qwenPlain()
        var random = SplitMix64(seed: 15)
        let words = ["The", " cat", " sat", " on", " 12", " 2024", " mats", "!", " DON'T", " it's", " 日本語", " 😀", "\n\n", "\r\n",
                     " é", "  ", "'S", "<tool_call>", "</tool_call>", "<|im_end|>", "\u{FFFD}", "e\u{301}", " १२३", ".\n"]
        for _ in 0..<200 {
            var text = ""
            for _ in 0..<Int(random.next() % 200) { text += words[Int(random.next() % UInt64(words.count))] }
            let sealed = SealedText(text)
            #expect(model.tokenCount(of: sealed) == plain.tokenCount(of: sealed))
            for cap in [1, 7, 50, 600] {
                let a = model.suffix(of: sealed, maxTokens: cap), b = plain.suffix(of: sealed, maxTokens: cap)
                #expect(a.keptTokens == b.keptTokens && a.wasCut == b.wasCut && a.text == b.text)
                for cut in [a, b] where cut.textTokens != nil {
                    #expect(cut.textTokens == plain.tokenCount(of: cut.text))
                }
            }
            let request = GenerationRequest(instructions: SealedText("Answer briefly."), prompt: sealed, grammar: nil, maxOutputTokens: 8)
            let sameTokens = model.promptTokens(for: request) == plain.promptTokens(for: request)
            #expect(sameTokens, "the whole request's tokens differ")
            let key = try #require(RunKey(bytes: Array(repeating: 7, count: RunKey.length)))
            #expect(model.promptDigest(for: request, key: key) == plain.promptDigest(for: request, key: key))
        }
    }

    @Test func countingJoinedPartsFromKnownCountsEqualsCountingTheJoinedText() throws {
        // Parts that start and end in every way (line breaks, whitespace, quotes, digits, letters,
        // symbols, added tokens, nothing), joined by separators the sum applies to and ones it must not.
        let tokenizer = try qwenNative()
        let edges = ["", " ", "  ", "\n", "\n\n", "\r\n", "\t", "\u{3000}", "'", "'s", "'LL", "re", "1", "٣", "a", "é", "漢", "!",
                     "!\n", "😀", "\u{301}", ".", " x", "\tx", "<tool_call>", "</tool_call", "<"]
        let middles = ["", "word", "two words", "it's 12:30", "a\n\nb", "  spaced  out  ", "日本語のテキスト", "x'll", "end.\r\n"]
        var random = SplitMix64(seed: 43)
        func pick(_ list: [String]) -> String { list[Int(random.next() % UInt64(list.count))] }
        var checked = 0, summed = 0
        for separator in ["\n", "\r", "\n\n", " ", "\t", "\u{3000}", ":"] {
            for _ in 0..<1_500 {
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
        #expect(checked == 10_500 && summed > 4_000)
    }
}

/// How llama.cpp cuts words around user-defined tokens (`UserDefinedTokens`), on made-up tokens:
/// longest first, each searched from a fragment's start, and refused where its order is open.
@Suite struct UserDefinedTokensTests {
    private static func token(_ text: String, _ id: Int32) -> UserDefinedTokens.Token {
        UserDefinedTokens.Token(bytes: Array(text.utf8), id: id)
    }

    private static func fragments(_ text: String, _ tokens: UserDefinedTokens) -> [String] {
        var text = text
        return text.withUTF8 { bytes in
            tokens.fragments(of: bytes).map { fragment in
                switch fragment {
                case .words(let range): "words:" + String(decoding: bytes[range], as: UTF8.self)
                case .token(let id): "#\(id)"
                }
            }
        }
    }

    @Test func theLongestTokenIsTakenFirstWhereverItIs() throws {
        let tokens = try #require(UserDefinedTokens([Self.token("xa", 1), Self.token("abc", 2)]))
        // "abc" is looked for first, so "xa" never forms across it, though it starts earlier.
        #expect(Self.fragments("xabc", tokens) == ["words:x", "#2"])
        #expect(Self.fragments("xaxabcxa", tokens) == ["#1", "words:x", "#2", "#1"])
        #expect(Self.fragments("no token here", tokens) == ["words:no token here"])
        #expect(Self.fragments("", tokens) == [])
        var text = "a xa b"
        text.withUTF8 { #expect(tokens.occurs(in: $0)) }
        text = "a x a b"
        text.withUTF8 { #expect(!tokens.occurs(in: $0)) }
    }

    @Test func aTokenIsFoundFromTheLeftWithoutOverlapping() throws {
        let tokens = try #require(UserDefinedTokens([Self.token("aa", 5)]))
        #expect(Self.fragments("aaa", tokens) == ["#5", "words:a"])
        #expect(Self.fragments("aaaa", tokens) == ["#5", "#5"])
        #expect(Self.fragments(" aa aa ", tokens) == ["words: ", "#5", "words: ", "#5", "words: "])
    }

    @Test func tokensWhoseOrderLlamaLeavesOpenAreRefused() {
        #expect(UserDefinedTokens([Self.token("<ab", 1), Self.token("ab>", 2)]) == nil)
        #expect(UserDefinedTokens([Self.token("ab", 1), Self.token("ab", 2)]) == nil)
        #expect(UserDefinedTokens([Self.token("", 1)]) == nil)
        #expect(UserDefinedTokens([Self.token("<tool_call>", 1)], stripSpaces: true) == nil)
        #expect(UserDefinedTokens([]) == nil)
        // Of one length but unable to overlap: either order cuts alike.
        #expect(UserDefinedTokens([Self.token("<a>", 1), Self.token("<b>", 2)]) != nil)
    }
}
