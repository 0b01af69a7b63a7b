/// Why the llama.cpp engine could not start or work: its model file, its context, a job's grammar.
///
/// Llama's own type, not the interface's: every case is about loading a GGUF file into llama.cpp
/// or setting it up, which a `LanguageModel` in general knows nothing of. The interface itself
/// throws nothing; what goes wrong with one request is its `GenerationOutcome.Failure`.
public enum LlamaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The model file does not exist or cannot be read.
    case modelFileUnreadable(path: String, reason: String)
    /// The file is not a GGUF model.
    case notAGGUFFile(path: String)
    /// llama.cpp refused to load the model.
    case modelFailedToLoad(path: String)
    /// The file's metadata names no architecture or holds no vocabulary.
    case modelHasNoVocabulary(path: String)
    /// llama.cpp could not make an inference context of the asked size.
    case contextFailedToStart(contextSize: Int, sequences: Int)
    /// The model carries no chat template, so instructions and prompts cannot be framed.
    case modelHasNoChatTemplate(path: String)
    /// A grammar did not parse; a programming error in the job that built it.
    case grammarRejected(root: String)

    public var description: String {
        switch self {
        case let .modelFileUnreadable(path, reason): "the model file \(path) cannot be read: \(reason)"
        case let .notAGGUFFile(path): "the model file \(path) is not a GGUF file (no GGUF magic)"
        case let .modelFailedToLoad(path): "llama.cpp could not load the model \(path)"
        case let .modelHasNoVocabulary(path): "the model file \(path) names no architecture or holds no vocabulary"
        case let .contextFailedToStart(size, sequences): "llama.cpp could not start a context of \(size) tokens for \(sequences) sequences"
        case let .modelHasNoChatTemplate(path): "the model \(path) has no chat template"
        case let .grammarRejected(root): "a job's output grammar did not parse (root '\(root)')"
        }
    }
}
