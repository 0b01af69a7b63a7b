import Export
import Privacy
@testable import Llama

// The harness the tokenizer suites share: the native tokenizer against llama.cpp's own
// (`LlamaModel.llamaTokenize`), text by text, reporting where they part by index and counts only.

/// Where two tokenizations of text number `index` part: counts and the first differing place only,
/// never the text or its ids (they would spell the words).
struct Mismatch: CustomStringConvertible {
    var index: Int
    var nativeCount: Int
    var llamaCount: Int
    var firstDifference: Int
    var description: String {
        "text #\(index): native \(nativeCount) tokens, llama.cpp \(llamaCount), first difference at token \(firstDifference)"
    }
}

/// Compares the native tokenizer (each merge path) with `llama_tokenize` on every text; returns the mismatches.
func mismatches(_ texts: [String], model: LlamaModel, tokenizers: [ByteLevelBPE]) -> [Mismatch] {
    mismatches(texts.map(SealedText.init), model: model, tokenizers: tokenizers)
}

func mismatches(_ texts: [SealedText], model: LlamaModel, tokenizers: [ByteLevelBPE]) -> [Mismatch] {
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
func everyMergePath(_ tokenizer: ByteLevelBPE) -> [ByteLevelBPE] {
    [tokenizer, tokenizer.lookingUpWholePieces(false).withHeapThreshold(1), tokenizer.lookingUpWholePieces(false).withHeapThreshold(.max)]
}

/// Cuts at `caps` of every text, from its tail (`lastTokens`) and from all its tokens: how
/// many were long enough to be taken from a tail, how many cut and how many of those had
/// their kept bytes' count given, and where the answers are wrong (index and counts).
func lastTokensMismatches(_ texts: [String], caps: [Int], tokenizer: ByteLevelBPE)
    -> (checked: Int, cuts: Int, counted: Int, wrong: [String]) {
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

/// Every text a corpus holds: messages, screens' words (each node's and the whole screen's).
func corpusTexts(_ path: String) throws -> [SealedText] {
    var languages: Set<String> = []
    return try corpusTexts(path, languages: &languages)
}

func corpusTexts(_ path: String, languages: inout Set<String>) throws -> [SealedText] {
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
