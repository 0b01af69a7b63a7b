/// A reusable, growable buffer of tokens that the parser writes through a pointer.
///
/// An `[JSONToken]` passed `inout` cost a uniqueness check, a capacity check through the
/// array's storage and an exclusivity check per token, a large share of parsing; here the
/// parser keeps the pointer and the capacity in locals and calls `grow` only when full. One
/// tape belongs to one reader (or one test); its memory is kept between lines.
final class TokenTape {
    /// The first token.
    private(set) var base: UnsafeMutablePointer<JSONToken>
    /// Tokens the buffer holds room for.
    private(set) var capacity: Int
    /// Tokens written by the last parse.
    var count = 0

    /// An empty tape with room for `capacity` tokens.
    init(capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// The tokens written, valid until the next parse into this tape.
    var tokens: UnsafeBufferPointer<JSONToken> { UnsafeBufferPointer(start: base, count: count) }

    /// Doubles the room, keeping the first `count` tokens. A tape grown past 1 Mi tokens by one
    /// huge line gives the room back at the next `reset`.
    func grow() {
        let larger = UnsafeMutablePointer<JSONToken>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
    }

    /// Empties the tape for the next line.
    func reset() {
        count = 0
        if capacity > 1 << 20 {
            base.deallocate()
            capacity = 256
            base = .allocate(capacity: capacity)
        }
    }
}
