internal import CZstd

/// A zstd-compressed file's decompressed bytes, through libzstd's streaming API.
///
/// Owns the one `ZSTD_DCtx` and a fixed output buffer (freed in `deinit`), so memory stays flat
/// whatever the corpus size. libzstd's `ZSTD_decompressStream` moves across concatenated and
/// skippable frames by itself; this class keeps feeding it and checks how the stream ended.
final class ZstdChunkSource: ChunkSource {
    private let file: InputFile
    private let context: OpaquePointer
    private let output: UnsafeMutableRawBufferPointer
    private var input = UnsafeRawBufferPointer(start: nil, count: 0)
    private var inputPosition = 0
    private var reachedEnd = false
    private var lastOutputWasFull = false
    /// `ZSTD_decompressStream`'s last result: 0 when a frame has just been completed.
    private var lastHint = 0
    private var failed = false
    private(set) var producedBytes = 0
    var storedBytes: Int { file.bytesRead }
    var name: String { file.name }
    var isCompressed: Bool { true }

    /// The stored-chunk size that suits libzstd (its recommended input size).
    static var recommendedInputSize: Int { ZSTD_DStreamInSize() }

    /// Takes over `file`; the context is created here and freed with the source.
    init(file: InputFile) {
        self.file = file
        guard let context = ZSTD_createDCtx() else {
            fatalError("libzstd could not allocate a decompression context (out of memory)")
        }
        self.context = context
        output = .allocate(byteCount: ZSTD_DStreamOutSize(), alignment: 16)
    }

    deinit {
        ZSTD_freeDCtx(context)
        output.deallocate()
    }

    func nextChunk() throws(ExportError) -> UnsafeRawBufferPointer? {
        if failed { return nil }
        while true {
            if inputPosition == input.count && !lastOutputWasFull {
                if reachedEnd {
                    if lastHint != 0 {
                        failed = true
                        throw .compressedDataIsTruncated(file: file.name, offset: file.bytesRead)
                    }
                    return nil
                }
                input = try file.readChunk()
                inputPosition = 0
                if input.isEmpty { reachedEnd = true }
                continue
            }
            var inBuffer = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: inputPosition)
            var outBuffer = ZSTD_outBuffer(dst: output.baseAddress, size: output.count, pos: 0)
            let result = ZSTD_decompressStream(context, &outBuffer, &inBuffer)
            inputPosition = inBuffer.pos
            if ZSTD_isError(result) != 0 {
                failed = true
                let offset = file.bytesRead - (input.count - inputPosition)
                throw .compressedDataIsCorrupt(
                    file: file.name, offset: offset, reason: String(cString: ZSTD_getErrorName(result)))
            }
            lastHint = result
            lastOutputWasFull = outBuffer.pos == outBuffer.size
            if outBuffer.pos > 0 {
                producedBytes += outBuffer.pos
                return UnsafeRawBufferPointer(start: output.baseAddress, count: outBuffer.pos)
            }
        }
    }
}
