/// The `export` line: which version of the format the file is written in, and how it was made.
public struct ExportHeader: Sendable {
    /// The format version; the reader delivers only version 1 (a file of another version is refused whole).
    public var version: Int = 1
    /// When the export was made (as written, an ISO 8601 time), if given.
    public var created: String?
    /// Whether the exporter anonymised the threads, if it said.
    public var anonymised: Bool?
}
