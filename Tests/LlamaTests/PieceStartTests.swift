import Testing
import TestSupport
@testable import Llama

/// `PreTokenizer.pieceStart` of each pre-tokenizer (smollm, qwen2): at every place it names, the
/// tail from there splits alone into the whole text's pieces after it, and the head before it into
/// the whole's pieces before it. A cut's tokens are taken in chunks between such places, so a
/// wrong one would change its ids.
@Suite struct PieceStartTests {
    /// The pieces `bytes` split into, as byte ranges.
    private static func pieces(_ bytes: UnsafeBufferPointer<UInt8>, from offset: Int = 0, to end: Int? = nil,
                               _ kind: PreTokenizerKind) -> [Range<Int>] {
        var found: [Range<Int>] = []
        let part = UnsafeBufferPointer(rebasing: bytes[offset..<(end ?? bytes.count)])
        let add = { (start: Int, end: Int) in found.append((offset + start)..<(offset + end)) }
        switch kind {
        case .smollm: SmolLMPreTokenizer.split(part, piece: add)
        case .qwen2: Qwen2PreTokenizer.split(part, piece: add)
        }
        return found
    }

    private static func pieceStart(_ kind: PreTokenizerKind, in bytes: UnsafeBufferPointer<UInt8>, from: Int, before end: Int) -> Int? {
        switch kind {
        case .smollm: SmolLMPreTokenizer.pieceStart(in: bytes, from: from, before: end)
        case .qwen2: Qwen2PreTokenizer.pieceStart(in: bytes, from: from, before: end)
        }
    }

    /// Every place `pieceStart` names in each text, in order.
    private static func places(_ text: String, _ kind: PreTokenizerKind = .smollm) -> [Int] {
        var text = text
        return text.withUTF8 { bytes in
            var places: [Int] = []
            var from = 0
            while let place = pieceStart(kind, in: bytes, from: from, before: bytes.count) {
                places.append(place)
                from = place + 1
            }
            return places
        }
    }

    /// How many places were named in `texts`, and at how many the tail's or the head's pieces were not the whole's.
    private static func check(_ texts: [String], _ kind: PreTokenizerKind) -> (places: Int, wrong: Int) {
        var places = 0, wrong = 0
        for text in texts {
            var copy = text
            copy.withUTF8 { bytes in
                let whole = pieces(bytes, kind)
                for place in Self.places(text, kind) {
                    places += 1
                    if pieces(bytes, from: place, kind) != whole.filter({ $0.lowerBound >= place })
                        || pieces(bytes, to: place, kind) != whole.filter({ $0.upperBound <= place }) {
                        wrong += 1
                    }
                }
            }
        }
        return (places, wrong)
    }

    @Test(arguments: [false, true], PreTokenizerKind.allCases)
    func theTailAndTheHeadAtEveryPlaceNamedSplitAsTheWholeDoes(asciiOnly: Bool, kind: PreTokenizerKind) {
        let all = kind == .qwen2 ? TrickyTexts.qwenPieces : TrickyTexts.pieces
        let pieces = all.filter { piece in !asciiOnly || piece.allSatisfy { $0 < 0x80 } }
        let texts = TrickyTexts.random(1_500, of: pieces, upTo: 120, seed: asciiOnly ? 32 : 31)
        let (places, wrong) = Self.check(texts, kind)
        #expect(places > 30_000 && wrong == 0, "\(kind): \(wrong) of \(places) places split otherwise than the whole")
    }

    /// Every category llama.cpp's table assigns, next to letters, numbers, spaces and quotes (slow:
    /// each of some 450,000 places splits its tail and head again).
    @Test(.tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out"),
          arguments: PreTokenizerKind.allCases)
    func everyCodePointNextToItsNeighboursToo(kind: PreTokenizerKind) {
        let (places, wrong) = Self.check(TrickyTexts.everyCodePoint, kind)
        #expect(places > 400_000 && wrong == 0, "\(kind): \(wrong) of \(places) places split otherwise than the whole")
    }

    /// Hand-checked: a letter then anything but a letter, and either side of a digit. Never the
    /// text's start, nor inside a run of letters, symbols or spaces.
    @Test(arguments: [
        ("ab cd", [2]), ("don't", [3]), ("x'll", [1]), ("a1b", [1, 2]), ("12", [1]), ("a\nb", [1]), ("hi, you", [2]),
        ("日本語。", [9]), ("é!", [2]), ("!?!?", []), ("   ", []), ("漢字漢字", []), ("😀😀", []), ("", []), ("a", []),
        (" a", []), ("a ", [1]),
    ])
    func placesOfSmallTexts(text: String, expected: [Int]) {
        #expect(Self.places(text) == expected)
    }

    /// Hand-checked for qwen2: a letter then anything but a letter, after a number, and before
    /// one unless whitespace comes first (two spaces keep the last for the number only when it follows).
    @Test(arguments: [
        ("ab cd", [2]), ("don't", [3]), ("x'll", [1]), ("a1b", [1, 2]), ("12", [1]), ("a\nb", [1]), ("hi, you", [2]),
        ("日本語。", [9]), ("é!", [2]), ("!?!?", []), ("   ", []), ("漢字漢字", []), ("😀😀", []), ("", []), ("a", []),
        (" a", []), ("a ", [1]), ("a  5", [1]), ("!5", [1]), ("5!", [1]), (" 5", []), ("\n5", []), ("a.\r\nb", [1]),
    ])
    func qwen2PlacesOfSmallTexts(text: String, expected: [Int]) {
        #expect(Self.places(text, .qwen2) == expected)
    }

    @Test func placesAreLookedForBeforeTheEndGivenOnly() {
        var text = "ab cd ef"
        text.withUTF8 { bytes in
            #expect(SmolLMPreTokenizer.pieceStart(in: bytes, from: 0, before: 6) == 2)
            #expect(SmolLMPreTokenizer.pieceStart(in: bytes, from: 3, before: 6) == 5)
            #expect(SmolLMPreTokenizer.pieceStart(in: bytes, from: 3, before: 5) == nil)
            #expect(SmolLMPreTokenizer.pieceStart(in: bytes, from: 0, before: 2) == nil)
        }
    }
}
