/// The file the reader is in: its lines (split and parsed) and the per-file state the contract needs.
final class OpenFile {
    /// The name used in locations and errors.
    let name: String
    let lines: LineSource
    /// Whether the file is zstd-compressed (told by its magic number).
    let format: StoredFormat
    // Unchecked exclusivity, as `CorpusReader`'s own: the reader updates these for every line.
    /// The id of the last valid `thread` line in this file; messages must belong to it.
    @exclusivity(unchecked) var openThread: String?
    /// Non-empty lines seen so far (an `export` line is valid only as the first).
    @exclusivity(unchecked) var nonEmptyLines = 0
    /// Records delivered from this file: a file with lines and none is not an export.
    @exclusivity(unchecked) var records = 0
    /// Whether the file was refused whole (another export version): nothing more of it is read.
    @exclusivity(unchecked) var isRefused = false

    /// The chunk size for reading stored bytes: 128 KiB, or libzstd's recommended input size if larger.
    static let chunkSize = max(128 << 10, ZstdChunkSource.recommendedInputSize)

    /// Opens `path` and tells its format from its first four bytes.
    ///
    /// A name ending in `.zst` promises zstd: a file that does not start with a frame (a gzip
    /// file, an error page saved under that name) is refused here rather than read as text, which
    /// would count every line of it as bad and call the run a success.
    ///
    /// Lines are parsed into `tape`. With `readAhead`, a regular file's lines are read, split and
    /// parsed on a thread of their own (`ReadAheadLineSource`); standard input and pipes are read
    /// on the caller's thread, since a reader stopped early must be able to stop the producer,
    /// whose read of a pipe could wait for ever.
    ///
    /// A file that is not `expected` (when given) fails at its opening (`InputFile`).
    init(path: String, tape: TokenTape, readAhead: Bool = false, expected: FileVersion? = nil) throws(ExportError) {
        let file = try InputFile(path: path, chunkSize: OpenFile.chunkSize, expected: expected)
        name = file.name
        let prefix = try file.peek(4)
        format = StoredFormat.detect(prefix)
        if path.hasSuffix(".zst") && format != .zstd {
            throw .compressedFileIsNotZstd(file: name, leadingBytes: LeadingBytes(prefix))
        }
        let isRegularFile = file.isRegularFile
        let stored: ChunkSource = format == .zstd ? ZstdChunkSource(file: file) : PlainChunkSource(file: file)
        let splitter = LineSplitter(source: stored)
        lines = readAhead && isRegularFile ? ReadAheadLineSource(splitter) : ParsingLineSource(splitter, tape: tape)
    }
}
