import Synchronization

/// A model's native tokenizer, built the first time it is asked for rather than when the model
/// loads, then read without a lock.
///
/// Building it (the vocabulary's texts and pieces, the merge table, the whole pieces) takes a
/// few hundred milliseconds for Qwen2.5's 151,936 tokens, and a model loaded only to say it is
/// there (a dry run, which sizes in the phone's tokens) never tokenizes a word: it then costs
/// nothing. Whichever thread asks first builds it while any other waits; after that, a read is
/// one atomic load, as cheap as the stored property it replaces on the tokenizing path.
final class NativeTokenizerSlot: @unchecked Sendable {
    /// The tokenizer, or why there is none (a vocabulary fact, never words).
    struct Built {
        var tokenizer: ByteLevelBPE?
        var unavailable: String?
    }

    private let ready: Atomic<Bool>
    private let building = Mutex<Void>(())
    /// Written once, under `building` and before `ready` is set; read only after `ready` is seen set.
    private var built: Built

    /// A slot whose tokenizer is built when first asked for.
    init() {
        ready = Atomic(false)
        built = Built()
    }

    /// A slot that holds `built` from the start (a tokenizer turned off).
    init(_ built: Built) {
        ready = Atomic(true)
        self.built = built
    }

    /// What the slot holds, building it with `build` if no call has yet.
    @inline(__always)
    func value(building build: () -> Built) -> Built {
        if ready.load(ordering: .acquiring) { return built }
        return building.withLock { _ in
            if !ready.load(ordering: .acquiring) {
                built = build()
                ready.store(true, ordering: .releasing)
            }
            return built
        }
    }
}
