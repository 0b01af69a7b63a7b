import CZstd

/// zstd over bytes in memory, for the one result that is written compressed (`ItemTable`).
///
/// The reader's zstd (Export) streams a corpus from a file and the generator's (Corpus) streams
/// one to a file; a result is small enough to be compressed and read back whole.
enum ZstdBytes {
    /// A problem in a compressed result, as zstd names it.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// `bytes` as one zstd frame at level 3, zstd's default (a table of small numbers and hashes,
    /// which higher levels hardly shrink further), its content size in the header.
    static func compress(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: ZSTD_compressBound(bytes.count))
        let written = bytes.withUnsafeBytes { source in
            out.withUnsafeMutableBytes { sink in
                ZSTD_compress(sink.baseAddress, sink.count, source.baseAddress, source.count, 3)
            }
        }
        precondition(ZSTD_isError(written) == 0, "zstd cannot fail on a buffer of its own bound")
        out.removeSubrange(written...)
        return out
    }

    /// The bytes of every frame in `bytes`, streamed (a frame need not state its size).
    static func decompress(_ bytes: [UInt8]) throws(Failure) -> [UInt8] {
        guard let context = ZSTD_createDCtx() else { throw Failure(description: "zstd cannot allocate a context") }
        defer { ZSTD_freeDCtx(context) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: ZSTD_DStreamOutSize())
        var failure: Failure? = nil
        var lastResult = 0
        bytes.withUnsafeBytes { source in
            var input = ZSTD_inBuffer(src: source.baseAddress, size: source.count, pos: 0)
            while input.pos < input.size || lastResult > 0 {
                let (result, produced) = chunk.withUnsafeMutableBytes { sink -> (Int, Int) in
                    var output = ZSTD_outBuffer(dst: sink.baseAddress, size: sink.count, pos: 0)
                    let result = ZSTD_decompressStream(context, &output, &input)
                    return (result, output.pos)
                }
                if ZSTD_isError(result) != 0 {
                    failure = Failure(description: "not zstd, or damaged at byte \(input.pos): " + String(cString: ZSTD_getErrorName(result)))
                    return
                }
                out += chunk[..<produced]
                lastResult = result
                if input.pos == input.size && produced == 0 && result > 0 {
                    failure = Failure(description: "the zstd stream ends inside a frame (at byte \(input.size))")
                    return
                }
            }
        }
        if let failure { throw failure }
        if bytes.isEmpty { throw Failure(description: "it is empty") }
        return out
    }
}
