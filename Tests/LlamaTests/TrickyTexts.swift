/// Texts made to reach every rule of the smollm pre-tokenizer, for tests that compare two ways of
/// tokenizing: generated, never read from a corpus.
enum TrickyTexts {
    /// Pieces the pre-tokenizer treats specially (as scalars), drawn at random into texts.
    static let pieces: [[UInt32]] = [
        [0x20], [0x20, 0x20], [0x20, 0x20, 0x20, 0x20], [0x09], [0x0A], [0x0D, 0x0A], [0x0B], [0x0C], [0xA0], [0x85],
        [0x3000], [0x2028], [0x202F], [0x1680],                                  // whitespace, ASCII and not
        [0x27], [0x27, 0x73], [0x27, 0x74], [0x27, 0x72, 0x65], [0x27, 0x76, 0x65], [0x27, 0x6D], [0x27, 0x6C, 0x6C],
        [0x27, 0x64], [0x27, 0x53], [0x27, 0x4C, 0x4C], [0x2019, 0x73],          // contractions, and near misses
        [0x30], [0x31, 0x32, 0x33], [0x39, 0x39, 0x39, 0x39], [0x663], [0xB2], [0x216B], [0x2460], [0xFF11],   // numbers
        [0x68, 0x65, 0x6C, 0x6C, 0x6F], [0x54, 0x68, 0x65], [0x61], [0x49], [0x57, 0x6F, 0x72, 0x6C, 0x64],
        [0x63, 0x61, 0x66, 0x65, 0x301], [0xE9], [0xDF], [0x130], [0x3A3, 0x3C9], [0x416, 0x436],             // letters, marks
        [0x65E5, 0x672C, 0x8A9E], [0x3072, 0x3089, 0x304C, 0x306A], [0x30AB, 0x30BF], [0xD55C, 0xAD6D], [0x4E00],
        [0x627, 0x644, 0x639], [0x939, 0x93F, 0x902], [0xE01, 0xE32], [0x5D0, 0x5D1],                       // CJK, other scripts
        [0x1F600], [0x1F44D, 0x1F3FD], [0x1F468, 0x200D, 0x1F469, 0x200D, 0x1F467], [0x1F1EB, 0x1F1F7], [0x2764, 0xFE0F],
        [0x2E], [0x2C], [0x21], [0x3F], [0x2026], [0x2014], [0x22], [0x28], [0x29], [0x40], [0x23], [0x24], [0x5F],
        [0x3002], [0xFF01], [0x7E], [0x60], [0x5C], [0x7C], [0x3C, 0x7C, 0x69, 0x6D, 0x5F, 0x65, 0x6E, 0x64, 0x7C, 0x3E],
        [0x00], [0x04], [0x06], [0x13], [0x14], [0x16], [0x1D], [0x7F], [0x80], [0x9F],                    // controls (some have no token)
        [0xFFFD], [0xFFFF], [0xFEFF], [0xE000], [0x10FFFF], [0x40000], [0x80000], [0xE0001], [0x200B], [0x301],
    ]

    /// `pieces` and what Qwen2.5's tokenizer treats specially besides: line breaks after symbols
    /// and in whitespace runs, contractions in capitals, long numbers (each digit a piece), and
    /// its added tokens (user-defined ones llama.cpp finds in plain words, control ones it does
    /// not), whole, cut short and doubled.
    static let qwenPieces: [[UInt32]] = pieces + [
        [0x0D], [0x0A, 0x0A], [0x0D, 0x0A, 0x0D, 0x0A], [0x20, 0x0A], [0x0A, 0x20], [0x09, 0x0A, 0x20], [0x21, 0x0A],
        [0x2E, 0x0D, 0x0A], [0x3000, 0x0A], [0x0A, 0x3000],
        [0x27, 0x52, 0x45], [0x27, 0x56, 0x65], [0x27, 0x44], [0x27, 0x4D], [0x27, 0x54], [0x49, 0x54, 0x27, 0x53],
        [0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x30], [0x30, 0x2E, 0x35], [0x663, 0x664],
        scalars("<tool_call>"), scalars("</tool_call>"), scalars("<tool_call"), scalars("tool_call>"), scalars("</tool_"),
        scalars("<|im_start|>"), scalars("<|im_end|>"), scalars("<|endoftext|>"), scalars("<|fim_prefix|>"), scalars("<|"), scalars("|>"),
        [0x3C], [0x3E], [0x2F],
    ]

    /// A string's scalars, for writing pieces as text.
    private static func scalars(_ string: String) -> [UInt32] { string.unicodeScalars.map(\.value) }

    /// `count` texts of 1 to `maxPieces` pieces drawn from `pieces`, the same for the same seed.
    static func random(_ count: Int, of pieces: [[UInt32]] = pieces, upTo maxPieces: Int, seed: UInt64) -> [String] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            var scalars: [UInt32] = []
            for _ in 0..<Int(random.next() % UInt64(maxPieces) + 1) { scalars += pieces[Int(random.next() % UInt64(pieces.count))] }
            return text(scalars)
        }
    }

    /// Every scalar once, 256 to a text, each after one of a few neighbours, so that each
    /// category llama.cpp's table assigns is seen next to letters, numbers, spaces and quotes.
    static let everyCodePoint: [String] = {
        let neighbours: [[UInt32]] = [[], [0x20], [0x61], [0x31], [0x27], [0x20, 0x20], [0x0A], [0x3000], [0x301]]
        var texts: [String] = []
        var scalars: [UInt32] = []
        for value in UInt32(0)...0x10FFFF where Unicode.Scalar(value) != nil {
            scalars += neighbours[Int(value) % neighbours.count]
            scalars.append(value)
            if scalars.count >= 256 {
                texts.append(text(scalars))
                scalars.removeAll(keepingCapacity: true)
            }
        }
        texts.append(text(scalars))
        return texts
    }()

    /// A text as a Swift string from scalars (all valid: Swift strings are always valid UTF-8).
    static func text(_ scalars: [UInt32]) -> String {
        var string = String.UnicodeScalarView()
        for value in scalars { if let scalar = Unicode.Scalar(value) { string.append(scalar) } }
        return String(string)
    }
}

/// A small seeded generator, so a failure names a text by its index and the run can be repeated.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
