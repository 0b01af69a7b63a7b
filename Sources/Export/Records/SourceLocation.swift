/// Where a line came from: the file (as named to the reader, or `<stdin>`) and its 1-based line number.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file's path as given (or as found in a corpus directory); `<stdin>` for standard input.
    public let file: String
    /// The 1-based line number in that file, counting empty lines too.
    public let line: Int

    /// `file:line`, the form editors and terminals link to.
    public var description: String { "\(file):\(line)" }
}
