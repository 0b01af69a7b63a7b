import Dispatch
import Engine
import Privacy

/// A tokenizer that is still loading: a dry run reads its corpus while the model's vocabulary
/// loads on another thread, and the first call waits for it.
///
/// Loading the vocabulary (the GGUF's tokens and merges, then the byte-pair tables) takes about as
/// long as reading a long thread, and planning is the first stage that needs it: started together,
/// the two overlap. A load that fails leaves the approximate tokenizer and says why (`problem`),
/// as a missing model does.
final class DeferredTokenizer: ForwardingTokenizer, @unchecked Sendable {
    /// The tokenizer and why the model's could not be had (nil when it was).
    struct Loaded: Sendable {
        var tokenizer: any Tokenizer
        var problem: String?
    }

    private let done = DispatchGroup()
    /// Written once, before `done` is left; read only after waiting on it.
    private var value: Loaded?

    /// Starts `load` on another thread.
    init(loading load: @escaping @Sendable () throws -> any Tokenizer) {
        done.enter()
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            do {
                value = Loaded(tokenizer: try load(), problem: nil)
            } catch {
                value = Loaded(tokenizer: ApproximateTokenizer(), problem: "\(error)")
            }
            done.leave()
        }
    }

    /// One already loaded, or (with a problem) the approximate tokenizer in place of one.
    init(_ loaded: Loaded) {
        value = loaded
    }

    /// What was loaded, waiting for it.
    var loaded: Loaded {
        done.wait()
        return value!
    }

    /// The loaded tokenizer, waiting for it.
    var underlyingTokenizer: any Tokenizer { loaded.tokenizer }
}
