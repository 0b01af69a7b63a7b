/// The `export` line: which version of the format the file is written in, and how it was made.
public struct ExportHeader: Sendable {
    /// The format version; the reader delivers only version 1 (a file of another version is refused whole).
    public var version: Int
    /// When the export was made (as written, an ISO 8601 time), if given.
    public var created: String?
    /// Whether the exporter anonymised the threads, if it said.
    public var anonymised: Bool?

    /// A header; the defaults are the current version with nothing else said.
    public init(version: Int = 1, created: String? = nil, anonymised: Bool? = nil) {
        self.version = version
        self.created = created
        self.anonymised = anonymised
    }
}
