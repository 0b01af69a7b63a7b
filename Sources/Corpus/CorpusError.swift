/// Why writing a sample corpus failed; each case reads as a sentence naming what went wrong.
public enum CorpusError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The output path could not be opened for writing.
    case cannotOpenOutput(path: String, reason: String)
    /// Writing bytes to the output failed part-way.
    case cannotWriteOutput(path: String, reason: String)
    /// libzstd refused to set up or run the compressor.
    case compressionFailed(path: String, reason: String)
    /// `write` or `finish` was called on a writer that was already finished.
    case writerAlreadyFinished(path: String)

    /// The error as one sentence, naming the path.
    public var description: String {
        switch self {
        case let .cannotOpenOutput(path, reason):
            "Cannot open \(path) for writing: \(reason)."
        case let .cannotWriteOutput(path, reason):
            "Cannot write to \(path): \(reason)."
        case let .compressionFailed(path, reason):
            "Compressing \(path) with zstd failed: \(reason)."
        case let .writerAlreadyFinished(path):
            "The writer for \(path) was already finished, so nothing more can be written to it."
        }
    }
}
