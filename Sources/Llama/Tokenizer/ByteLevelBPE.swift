/// A byte-level BPE tokenizer that gives exactly llama.cpp's token ids for plain words, tens of times faster.
///
/// Built only for a vocabulary it was proven on (`ByteLevelBPE.unsupportedReason`): GPT-2 style
/// byte-level BPE with the "smollm" (SmolLM2) or "qwen2" (Qwen2.5) pre-tokenizer. It follows
/// `llama_vocab::impl::tokenize`: cut the text around user-defined tokens (`UserDefinedTokens`),
/// split each fragment of words with the pre-tokenizer (`SmolLMPreTokenizer`,
/// `Qwen2PreTokenizer`), start each piece with one symbol per byte, then repeatedly merge the
/// adjacent pair of lowest rank (the leftmost of equals). It works on token ids, so no string is
/// made per candidate pair, and keeps no cache of words: the only tables are the vocabulary's.
final class ByteLevelBPE: Sendable {
    /// Ids from here on are symbols whose text is no token: llama.cpp then looks up each byte of
    /// the text as a token of its own and emits those it finds (usually none).
    let vocabularySize: Int32
    /// What each stand-in id (from `vocabularySize` on) emits.
    let standInTokens: [[Int32]]
    /// Pieces longer than this many bytes merge through a heap (O(n log n)) instead of scanning
    /// every pair per merge (O(n²), faster for the short pieces words make).
    let heapThreshold: Int
    /// Whether to look pieces up among whole pieces (tests turn it off to prove the merging alone).
    let looksUpWholePieces: Bool
    /// The pre-tokenizer that splits words into pieces.
    let preTokenizer: PreTokenizerKind
    /// The tokens llama.cpp finds in plain words before splitting them (nil: none, as in SmolLM2).
    let userDefinedTokens: UserDefinedTokens?
    /// The vocabulary's tables, shared by the variants tests make.
    let tables: Tables

    /// The tables the hot loop reads, as raw buffers: a tokenizer is shared by every planning
    /// thread, and reading Swift arrays out of it would retain and release them on each call,
    /// two threads bouncing the same reference counts between their caches.
    final class Tables: @unchecked Sendable {
        /// The symbol of each byte's GPT-2 stand-in character: its token, or a stand-in id past
        /// the vocabulary when it has none (SmolLM2 lacks a few control characters and bytes
        /// that valid UTF-8 never holds).
        let byteTokens: UnsafeMutablePointer<Int32>
        /// Each token's bytes as llama.cpp's `llama_token_to_piece` renders them, for cutting
        /// text; token `t` is `pieceBytes[pieceStarts[t]..<pieceStarts[t + 1]]`.
        let pieceBytes: UnsafeMutablePointer<UInt8>
        let pieceStarts: UnsafeMutablePointer<Int32>
        let pieceCount: Int
        /// The merges, in one of two tables: ids and ranks of 16 bits (SmolLM2) or of 18 (Qwen2.5).
        let merges: Merges
        /// The lookup of the table that holds the merges; the other is nil.
        let mergeLookup: BPEMergeTable.Lookup?
        let wideMergeLookup: WideBPEMergeTable.Lookup?
        /// Set once while the tokenizer is built (it needs the merging), never after.
        fileprivate(set) var wholePieces = WholePieceTable.none

        /// A vocabulary's merges, in the narrowest table that holds its ids and ranks.
        enum Merges {
            case narrow(BPEMergeTable)
            case wide(WideBPEMergeTable)
        }

        init(byteTokens: [Int32], merges: Merges, pieces: [[UInt8]]) {
            precondition(byteTokens.count == 256)
            self.byteTokens = .allocate(capacity: 256)
            self.byteTokens.initialize(from: byteTokens, count: 256)
            let total = pieces.reduce(0) { $0 + $1.count }
            pieceBytes = .allocate(capacity: max(1, total))
            pieceStarts = .allocate(capacity: pieces.count + 1)
            var at = 0
            for (index, piece) in pieces.enumerated() {
                pieceStarts[index] = Int32(at)
                (pieceBytes + at).initialize(from: piece, count: piece.count)
                at += piece.count
            }
            pieceStarts[pieces.count] = Int32(at)
            pieceCount = pieces.count
            self.merges = merges
            switch merges {
            case .narrow(let table):
                mergeLookup = table.lookup
                wideMergeLookup = nil
            case .wide(let table):
                mergeLookup = nil
                wideMergeLookup = table.lookup
            }
        }

        deinit {
            byteTokens.deallocate()
            pieceBytes.deallocate()
            pieceStarts.deallocate()
        }

        /// The bytes of `token` (a real token, below `pieceCount`).
        @inline(__always)
        func bytes(of token: Int32) -> UnsafeBufferPointer<UInt8> {
            let start = Int(pieceStarts[Int(token)]), end = Int(pieceStarts[Int(token) + 1])
            return UnsafeBufferPointer(start: pieceBytes + start, count: end - start)
        }
    }

    convenience init(byteTokens: [Int32], merges: Tables.Merges, vocabularySize: Int32, standInTokens: [[Int32]],
                     pieces: [[UInt8]], preTokenizer: PreTokenizerKind, userDefinedTokens: UserDefinedTokens?,
                     heapThreshold: Int = 48) {
        let tables = Tables(byteTokens: byteTokens, merges: merges, pieces: pieces)
        self.init(tables: tables, vocabularySize: vocabularySize, standInTokens: standInTokens,
                  heapThreshold: heapThreshold, looksUpWholePieces: true, preTokenizer: preTokenizer,
                  userDefinedTokens: userDefinedTokens)
        // Whole pieces are the tokens that merging their own bytes gives back (merging never
        // looks pieces up, so the table can be built by the tokenizer it belongs to).
        let scratch = UnsafeMutablePointer<UInt32>.allocate(capacity: 2 * WholePieceTable.maxLength)
        defer { scratch.deallocate() }
        let pairs = scratch, symbols = UnsafeMutableRawPointer(scratch + WholePieceTable.maxLength)
            .bindMemory(to: Int32.self, capacity: WholePieceTable.maxLength)
        tables.wholePieces = WholePieceTable(pieces: tables.bytes(of:), count: vocabularySize) { token, bytes in
            self.mergesToItself(token, bytes, symbols, pairs)
        }
    }

    /// Whether merging `bytes` (at most `WholePieceTable.maxLength`, in scratch `symbols` and
    /// `pairs` of that many) emits `token` alone.
    private func mergesToItself(_ token: Int32, _ bytes: UnsafeBufferPointer<UInt8>,
                                _ symbols: UnsafeMutablePointer<Int32>, _ pairs: UnsafeMutablePointer<UInt32>) -> Bool {
        let count: Int
        if let narrow = tables.mergeLookup {
            count = Self.mergeShort(bytes, 0, bytes.count, tables.byteTokens, narrow, symbols, pairs)
        } else if let wide = tables.wideMergeLookup {
            count = Self.mergeShort(bytes, 0, bytes.count, tables.byteTokens, wide, symbols, pairs)
        } else {
            return false
        }
        // What the symbols emit (a stand-in emits the one-byte tokens of its text) is [token].
        var emitted = 0, only: Int32 = -1
        for index in 0..<count {
            let symbol = symbols[index]
            if symbol < vocabularySize {
                emitted += 1
                only = symbol
            } else {
                let stand = standInTokens[Int(symbol - vocabularySize)]
                emitted += stand.count
                if let first = stand.first { only = first }
            }
        }
        return emitted == 1 && only == token
    }

    private init(tables: Tables, vocabularySize: Int32, standInTokens: [[Int32]], heapThreshold: Int, looksUpWholePieces: Bool,
                 preTokenizer: PreTokenizerKind, userDefinedTokens: UserDefinedTokens?) {
        self.tables = tables
        self.vocabularySize = vocabularySize
        self.standInTokens = standInTokens
        self.heapThreshold = heapThreshold
        self.looksUpWholePieces = looksUpWholePieces
        self.preTokenizer = preTokenizer
        self.userDefinedTokens = userDefinedTokens
    }

    /// How many pieces merge into one token whole (for tests: the shortcut is in use).
    var wholePieceCount: Int { tables.wholePieces.count }

    /// The same tokenizer with whole pieces looked up (the default) or not: every piece merged.
    func lookingUpWholePieces(_ lookUp: Bool) -> ByteLevelBPE {
        ByteLevelBPE(tables: tables, vocabularySize: vocabularySize, standInTokens: standInTokens,
                     heapThreshold: heapThreshold, looksUpWholePieces: lookUp, preTokenizer: preTokenizer,
                     userDefinedTokens: userDefinedTokens)
    }

    /// The same tokenizer with another heap threshold (tests prove both merge paths).
    func withHeapThreshold(_ threshold: Int) -> ByteLevelBPE {
        ByteLevelBPE(tables: tables, vocabularySize: vocabularySize, standInTokens: standInTokens,
                     heapThreshold: threshold, looksUpWholePieces: looksUpWholePieces, preTokenizer: preTokenizer,
                     userDefinedTokens: userDefinedTokens)
    }

    // MARK: Tokenizing

    /// The tokens of `text`, as `llama_tokenize(vocab, text, add_special: false, parse_special: false)`.
    func tokens(of text: String) -> [Int32] {
        var tokens = TokenList()
        encode(text, into: &tokens)
        return tokens.tokens
    }

    /// How many tokens `text` has: `tokens(of:).count` without keeping them.
    func count(of text: String) -> Int {
        var counter = TokenCounter()
        encode(text, into: &counter)
        return counter.count
    }

    /// Where finished tokens go: a list, or only their number.
    protocol Sink {
        mutating func reserve(_ count: Int)
        mutating func append(_ token: Int32)
        mutating func append(contentsOf tokens: [Int32])
    }

    struct TokenList: Sink {
        var tokens: [Int32] = []
        mutating func reserve(_ count: Int) { tokens.reserveCapacity(tokens.count + count) }
        mutating func append(_ token: Int32) { tokens.append(token) }
        mutating func append(contentsOf tokens: [Int32]) { self.tokens += tokens }
    }

    struct TokenCounter: Sink {
        var count = 0
        mutating func reserve(_ count: Int) {}
        mutating func append(_ token: Int32) { count += 1 }
        mutating func append(contentsOf tokens: [Int32]) { count += tokens.count }
    }

    /// Tokenizes `text` into `sink`.
    @inline(__always)
    func encode<Output: Sink>(_ text: String, into sink: inout Output) {
        var text = text
        text.withUTF8 { encode(utf8: $0, into: &sink) }
    }

    /// Tokenizes valid UTF-8 `bytes` into `sink`.
    func encode<Output: Sink>(utf8 bytes: UnsafeBufferPointer<UInt8>, into sink: inout Output) {
        guard !bytes.isEmpty else { return }
        // A text holding a user-defined token is cut around it first, each fragment of words
        // tokenized alone (llama.cpp's `tokenizer_st_partition`); most hold none.
        if userDefinedTokens?.occurs(in: bytes) == true, let fragments = userDefinedTokens?.fragments(of: bytes) {
            for fragment in fragments {
                switch fragment {
                case .words(let range): encodeWords(UnsafeBufferPointer(rebasing: bytes[range]), into: &sink)
                case .token(let token): sink.append(token)
                }
            }
            return
        }
        encodeWords(bytes, into: &sink)
    }

    /// Tokenizes valid UTF-8 `bytes` that hold no user-defined token into `sink`.
    private func encodeWords<Output: Sink>(_ bytes: UnsafeBufferPointer<UInt8>, into sink: inout Output) {
        guard !bytes.isEmpty else { return }
        sink.reserve(bytes.count / 2 + 8)
        // One scratch block (on the stack when small): each piece's symbols and their pairs'
        // merges, then the splitter's code points (both splitters need the same).
        let splitterBytes = SmolLMPreTokenizer.scratchBytes(for: bytes.count)
        withUnsafeTemporaryAllocation(byteCount: bytes.count * 8 + splitterBytes, alignment: 8) { block in
            let scratch = block.baseAddress!
            let pairs = scratch.bindMemory(to: UInt32.self, capacity: bytes.count)
            let symbols = (scratch + bytes.count * 4).bindMemory(to: Int32.self, capacity: bytes.count)
            let splitter = scratch + bytes.count * 8
            // One specialization per pre-tokenizer and merge table: the split and the merges
            // are inlined into the loop, as when there was only one of each.
            if let narrow = tables.mergeLookup {
                switch preTokenizer {
                case .smollm: encode(bytes, pairs, symbols, splitter, SmolLMPreTokenizer.self, narrow, into: &sink)
                case .qwen2: encode(bytes, pairs, symbols, splitter, Qwen2PreTokenizer.self, narrow, into: &sink)
                }
            } else if let wide = tables.wideMergeLookup {
                switch preTokenizer {
                case .smollm: encode(bytes, pairs, symbols, splitter, SmolLMPreTokenizer.self, wide, into: &sink)
                case .qwen2: encode(bytes, pairs, symbols, splitter, Qwen2PreTokenizer.self, wide, into: &sink)
                }
            }
        }
    }

    @inline(__always)
    private func encode<Output: Sink, Splitter: PreTokenizer, Merges: MergeLookup>(
        _ bytes: UnsafeBufferPointer<UInt8>, _ pairs: UnsafeMutablePointer<UInt32>, _ symbols: UnsafeMutablePointer<Int32>,
        _ splitter: UnsafeMutableRawPointer, _ preTokenizer: Splitter.Type, _ lookup: Merges, into sink: inout Output
    ) {
        let longPiece = heapThreshold
        let wholeLength = looksUpWholePieces ? WholePieceTable.maxLength : 0
        withExtendedLifetime(tables) {
            let byteTokens = tables.byteTokens, whole = tables.wholePieces.lookup
            let tables = self.tables
            Splitter.split(bytes, scratch: splitter) { start, end in
                let length = end - start
                if length == 1 {
                    emit(byteTokens[Int(bytes[start])], &sink)
                } else if length <= wholeLength, let token = whole.token(bytes, start, end, tables.bytes(of:)) {
                    sink.append(token)
                } else if length <= longPiece {
                    let count = Self.mergeShort(bytes, start, end, byteTokens, lookup, symbols, pairs)
                    for index in 0..<count { emit(symbols[index], &sink) }
                } else {
                    mergeLong(bytes, start, end, lookup, &sink)
                }
            }
        }
    }

    /// Merges one piece by scanning its pairs for the lowest rank before every merge; leaves the
    /// result in `symbols` and returns how many there are.
    @inline(__always)
    private static func mergeShort<Merges: MergeLookup>(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int,
                                                        _ byteTokens: UnsafeMutablePointer<Int32>, _ merges: Merges,
                                                        _ symbols: UnsafeMutablePointer<Int32>, _ pairs: UnsafeMutablePointer<UInt32>) -> Int {
        var count = end - start
        for index in 0..<count { symbols[index] = byteTokens[Int(bytes[start + index])] }
        for index in 0..<(count - 1) { pairs[index] = merges.rankedMerge(symbols[index], symbols[index + 1]) }
        while count > 1 {
            // The lowest rank wins; among equal ranks (the same pair twice) the leftmost, as
            // llama.cpp's queue orders by (rank, left).
            var best = 0
            var lowest = pairs[0]
            var index = 1
            while index < count - 1 {
                if pairs[index] < lowest {
                    lowest = pairs[index]
                    best = index
                }
                index += 1
            }
            guard lowest != UInt32.max else { break }
            symbols[best] = merges.token(lowest)
            count -= 1
            index = best + 1
            while index < count {
                symbols[index] = symbols[index + 1]
                pairs[index - 1] = pairs[index]
                index += 1
            }
            if best > 0 { pairs[best - 1] = merges.rankedMerge(symbols[best - 1], symbols[best]) }
            if best < count - 1 { pairs[best] = merges.rankedMerge(symbols[best], symbols[best + 1]) }
        }
        return count
    }

    /// Appends a finished symbol: its token, or for a stand-in what llama.cpp's byte fallback finds.
    @inline(__always)
    private func emit<Output: Sink>(_ symbol: Int32, _ sink: inout Output) {
        if symbol < vocabularySize {
            sink.append(symbol)
        } else {
            sink.append(contentsOf: standInTokens[Int(symbol - vocabularySize)])
        }
    }

    /// A candidate merge in the heap: ordered by rank, then by the left symbol's place.
    private struct Candidate {
        var key: UInt64   // rankedMerge << 32 | left
        var right: Int32
        var leftToken: Int32
        var rightToken: Int32
        var merged: Int32
    }

    /// Merges one long piece as llama.cpp does: a queue of candidate pairs, stale ones skipped.
    private func mergeLong<Output: Sink, Merges: MergeLookup>(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int,
                                                              _ lookup: Merges, _ sink: inout Output) {
        let byteTokens = tables.byteTokens
        let count = end - start
        var symbols = [Int32](repeating: 0, count: count)
        var next = [Int32](repeating: -1, count: count)
        var previous = [Int32](repeating: -1, count: count)
        var alive = [Bool](repeating: true, count: count)
        for index in 0..<count {
            symbols[index] = byteTokens[Int(bytes[start + index])]
            next[index] = index + 1 < count ? Int32(index + 1) : -1
            previous[index] = Int32(index - 1)
        }
        var heap: [Candidate] = []
        heap.reserveCapacity(count)
        func push(_ left: Int32, _ right: Int32) {
            guard left >= 0, right >= 0 else { return }
            let merge = lookup.rankedMerge(symbols[Int(left)], symbols[Int(right)])
            guard merge != UInt32.max else { return }
            heap.append(Candidate(key: UInt64(merge) << 32 | UInt64(left), right: right,
                                  leftToken: symbols[Int(left)], rightToken: symbols[Int(right)], merged: lookup.token(merge)))
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard heap[child].key < heap[parent].key else { break }
                heap.swapAt(child, parent)
                child = parent
            }
        }
        func pop() -> Candidate? {
            guard let top = heap.first else { return nil }
            let last = heap.removeLast()
            if !heap.isEmpty {
                heap[0] = last
                var parent = 0
                while true {
                    let left = 2 * parent + 1, right = left + 1
                    var smallest = parent
                    if left < heap.count, heap[left].key < heap[smallest].key { smallest = left }
                    if right < heap.count, heap[right].key < heap[smallest].key { smallest = right }
                    guard smallest != parent else { break }
                    heap.swapAt(parent, smallest)
                    parent = smallest
                }
            }
            return top
        }
        for index in 0..<(count - 1) { push(Int32(index), Int32(index + 1)) }
        while let candidate = pop() {
            let left = Int(candidate.key & 0xFFFF_FFFF), right = Int(candidate.right)
            // Stale unless both symbols are still there, unchanged and side by side.
            guard alive[left], alive[right], next[left] == candidate.right,
                  symbols[left] == candidate.leftToken, symbols[right] == candidate.rightToken else { continue }
            symbols[left] = candidate.merged
            alive[right] = false
            next[left] = next[right]
            if next[right] >= 0 { previous[Int(next[right])] = Int32(left) }
            push(previous[left], Int32(left))
            push(Int32(left), next[left])
        }
        var index: Int32 = 0
        while index >= 0 {
            emit(symbols[Int(index)], &sink)
            index = next[Int(index)]
        }
    }

    // MARK: Text of tokens

    /// The bytes `tokens` stand for, as `llama_token_to_piece` renders them one by one.
    func bytes<Tokens: Sequence>(of tokens: Tokens) -> [UInt8] where Tokens.Element == Int32 {
        var bytes: [UInt8] = []
        withExtendedLifetime(tables) {
            for token in tokens where token >= 0 && Int(token) < tables.pieceCount {
                bytes += tables.bytes(of: token)
            }
        }
        return bytes
    }
}
