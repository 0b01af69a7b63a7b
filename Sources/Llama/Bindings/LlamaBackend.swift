internal import CLlama
import Synchronization

/// llama.cpp's process-wide start-up, done once, with its log silenced.
///
/// llama.cpp logs to stderr by default, and a verbose log can echo what it is evaluating.
/// Nothing of a prompt may reach a log, so every message is dropped; only the count of
/// warnings and errors is kept, for diagnostics that carry no text.
enum LlamaBackend {
    private static let started = Mutex(false)
    private static let problems = Atomic<Int>(0)

    static func start() {
        started.withLock { started in
            guard !started else { return }
            llama_log_set({ level, _, _ in
                if level == GGML_LOG_LEVEL_ERROR || level == GGML_LOG_LEVEL_WARN {
                    LlamaBackend.problems.add(1, ordering: .relaxed)
                }
            }, nil)
            llama_backend_init()
            started = true
        }
    }

    /// Warnings and errors llama.cpp reported so far (their texts were dropped).
    static var problemCount: Int { problems.load(ordering: .relaxed) }
}
