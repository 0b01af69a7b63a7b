/// A file's JSON Lines bytes, chunk by chunk, whatever the file's storage (plain or zstd).
protocol ChunkSource: AnyObject {
    /// The next non-empty chunk of JSONL bytes, valid until the next call; `nil` at the end.
    func nextChunk() throws(ExportError) -> UnsafeRawBufferPointer?
    /// Stored bytes read so far (compressed for zstd, the same as `producedBytes` for plain files).
    var storedBytes: Int { get }
    /// JSONL bytes handed out so far.
    var producedBytes: Int { get }
    /// The name used in errors: the file's path as given, or `<stdin>`.
    var name: String { get }
    /// Whether the JSONL bytes are decompressed from the stored ones (offsets then differ).
    var isCompressed: Bool { get }
}

/// How a file is stored, told by its first bytes (never by its name).
enum StoredFormat: Sendable, Equatable {
    case plain
    case zstd

    /// zstd if `prefix` starts with the zstd frame magic or a skippable-frame magic, else plain.
    ///
    /// Frame magic 0xFD2FB528 and skippable magics 0x184D2A50…0x184D2A5F, all little-endian.
    static func detect(_ prefix: [UInt8]) -> StoredFormat {
        guard prefix.count >= 4 else { return .plain }
        if prefix[0] == 0x28, prefix[1] == 0xB5, prefix[2] == 0x2F, prefix[3] == 0xFD { return .zstd }
        if prefix[0] & 0xF0 == 0x50, prefix[1] == 0x2A, prefix[2] == 0x4D, prefix[3] == 0x18 { return .zstd }
        return .plain
    }
}

/// A plain `.jsonl` file: its chunks are the file's chunks.
final class PlainChunkSource: ChunkSource {
    private let file: InputFile
    private(set) var producedBytes = 0
    var storedBytes: Int { file.bytesRead }
    var name: String { file.name }
    var isCompressed: Bool { false }

    init(file: InputFile) { self.file = file }

    func nextChunk() throws(ExportError) -> UnsafeRawBufferPointer? {
        let chunk = try file.readChunk()
        if chunk.isEmpty { return nil }
        producedBytes += chunk.count
        return chunk
    }
}
