internal import CZstd

/// Streams bytes to a file as one zstd frame (path ends in ".zst") or as they are (any other path; "-" = stdout).
///
/// Memory stays fixed whatever is written: input is gathered in one buffer of
/// `ZSTD_CStreamInSize()` bytes and handed to `ZSTD_compressStream2` whenever it fills, and each
/// compressed chunk goes straight to the file. Call `finish()` to end the frame and close the
/// file; a writer dropped without `finish()` leaves a truncated frame, which `zstd -d` reports.
/// The `ZSTD_CCtx` is owned here alone and freed in `deinit`.
public final class ZstdWriter {
    /// The output path as given.
    public let path: String
    /// Whether the output is zstd-compressed (the path ends in ".zst").
    public let isCompressed: Bool

    private let file: OutputFile
    private let context: OpaquePointer?
    private let input: UnsafeMutableRawBufferPointer
    private let output: UnsafeMutableRawBufferPointer
    private var filled = 0
    private var finished = false

    /// Opens `path` for writing; `level` is the zstd compression level (ignored for plain output).
    public init(path: String, level: Int = 3) throws(CorpusError) {
        self.path = path
        isCompressed = path.hasSuffix(".zst")
        file = try OutputFile(path: path)
        if isCompressed {
            guard let context = ZSTD_createCCtx() else {
                throw .compressionFailed(path: path, reason: "cannot create a compression context")
            }
            self.context = context
            input = .allocate(byteCount: ZSTD_CStreamInSize(), alignment: 16)
            output = .allocate(byteCount: ZSTD_CStreamOutSize(), alignment: 16)
            try check(ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, Int32(clamping: level)))
            try check(ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1))
        } else {
            context = nil
            input = .allocate(byteCount: 1 << 17, alignment: 16)
            output = .allocate(byteCount: 0, alignment: 16)
        }
    }

    deinit {
        if let context { ZSTD_freeCCtx(context) }
        input.deallocate()
        output.deallocate()
    }

    /// Writes raw bytes.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(CorpusError) {
        guard !finished else { throw .writerAlreadyFinished(path: path) }
        var offset = 0
        while offset < bytes.count {
            let count = min(bytes.count - offset, input.count - filled)
            UnsafeMutableRawBufferPointer(rebasing: input[filled ..< filled + count])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset ..< offset + count]))
            filled += count
            offset += count
            if filled == input.count { try flush(ending: false) }
        }
    }

    /// Writes `line`'s UTF-8 followed by "\n".
    public func write(line: String) throws(CorpusError) {
        var line = line
        // withUTF8 only rethrows untyped errors, so the typed error travels out in a Result.
        let written = line.withUTF8 { bytes in
            Result { () throws(CorpusError) in try write(UnsafeRawBufferPointer(bytes)) }
        }
        try written.get()
        let newline: [UInt8] = [0x0A]
        let ended = newline.withUnsafeBytes { bytes in
            Result { () throws(CorpusError) in try write(bytes) }
        }
        try ended.get()
    }

    /// Ends the zstd frame, writes what is buffered and closes the file; nothing may be written after.
    public func finish() throws(CorpusError) {
        guard !finished else { throw .writerAlreadyFinished(path: path) }
        try flush(ending: true)
        finished = true
        try file.close()
    }

    /// Hands the gathered input to the file, compressing it when the output is zstd.
    private func flush(ending: Bool) throws(CorpusError) {
        defer { filled = 0 }
        guard let context else {
            try file.write(UnsafeRawBufferPointer(rebasing: input[0 ..< filled]))
            return
        }
        var source = ZSTD_inBuffer(src: input.baseAddress, size: filled, pos: 0)
        while true {
            var sink = ZSTD_outBuffer(dst: output.baseAddress, size: output.count, pos: 0)
            let remaining = ZSTD_compressStream2(context, &sink, &source, ending ? ZSTD_e_end : ZSTD_e_continue)
            try check(remaining)
            if sink.pos > 0 { try file.write(UnsafeRawBufferPointer(rebasing: output[0 ..< sink.pos])) }
            let done = ending ? remaining == 0 : source.pos == source.size
            if done { return }
        }
    }

    private func check(_ code: Int) throws(CorpusError) {
        if ZSTD_isError(code) != 0 {
            throw .compressionFailed(path: path, reason: String(cString: ZSTD_getErrorName(code)))
        }
    }
}
