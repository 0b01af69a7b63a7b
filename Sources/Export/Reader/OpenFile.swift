/// The file the reader is in: its line splitter and the per-file state the contract needs.
final class OpenFile {
    /// The name used in locations and errors.
    let name: String
    let splitter: LineSplitter
    /// Whether the file is zstd-compressed (told by its magic number).
    let format: StoredFormat
    /// The id of the last valid `thread` line in this file; messages must belong to it.
    var openThread: String?
    /// Non-empty lines seen so far (an `export` line is valid only as the first).
    var nonEmptyLines = 0

    /// The chunk size for reading stored bytes: 128 KiB, or libzstd's recommended input size if larger.
    static let chunkSize = max(128 << 10, ZstdChunkSource.recommendedInputSize)

    /// Opens `path` and tells its format from its first four bytes.
    init(path: String) throws(ExportError) {
        let file = try InputFile(path: path, chunkSize: OpenFile.chunkSize)
        name = file.name
        format = StoredFormat.detect(try file.peek(4))
        let source: ChunkSource = format == .zstd ? ZstdChunkSource(file: file) : PlainChunkSource(file: file)
        splitter = LineSplitter(source: source)
    }
}
