import Dispatch

/// Whether the run's model can answer, or why not, possibly still being checked: a dry run reads
/// its corpus while the model file's metadata is checked on another thread, and the first
/// question waits for it.
///
/// Sizes are the phone's in every run, so the model's own tokenizer never sizes anything here; a
/// run without a usable model estimates nothing in its tokens (`ModelIdentity.approximateTokens`
/// says so exactly when there is a problem).
final class ModelAvailability: @unchecked Sendable {
    private let done = DispatchGroup()
    /// Written once, before `done` is left; read only after waiting on it.
    private var value: String??

    /// Starts `check` on another thread; what it throws is the problem.
    init(checking check: @escaping @Sendable () throws -> Void) {
        done.enter()
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            do {
                try check()
                value = .some(nil)
            } catch {
                value = .some("\(error)")
            }
            done.leave()
        }
    }

    /// Known already: nil when the model loaded, else why it did not.
    init(problem: String?) {
        value = .some(problem)
    }

    /// Why the model cannot answer (nil when it can), waiting for the check.
    var problem: String? {
        done.wait()
        return value!
    }
}
