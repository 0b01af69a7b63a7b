/// One JSON value on a parse tape: what it is and where its bytes are in the line.
///
/// A line parses into a flat array of tokens in document order (a container, then its children;
/// an object's children alternate key, value), so parsing allocates nothing per value and the
/// record decoder turns only the fields it uses into Swift strings.
struct JSONToken: Sendable {
    /// The JSON type of a token.
    enum Kind: UInt8, Sendable {
        case null, `false`, `true`, number, string, array, object
    }

    var kind: Kind
    /// For strings: the string holds at least one escape. For numbers: written as an integer
    /// (no fraction, no exponent).
    var flag: Bool
    /// Strings: the byte after the opening quote. Numbers: the first byte. Others: the first byte.
    var start: Int32
    /// Strings: the bytes between the quotes. Numbers: the number's bytes. Containers: 1.
    var length: Int32
    /// The index of the token after this value and everything inside it.
    var next: Int32
    /// Containers: the number of elements (arrays) or members (objects). Otherwise 0.
    var count: Int32
}
