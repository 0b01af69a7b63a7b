import Synchronization

/// The process's label salt, behind a lock: random at first, then the salt of the corpus a run reads.
///
/// Sharded runs, a resumed run and the merge of their states must hash a label the same way, or a
/// build written as a sentence would be counted under one hash per process and the merged counts
/// would split. A salt drawn from the run key and the corpus's bytes (`RunKey.labelSalt`) gives
/// every process of one run the same salt while staying a secret: it is never written, and no one
/// without the run key can compute it, however well they guess the corpus, so a hash cannot be
/// checked against guesses. Runs over different corpora get different salts and cannot be linked
/// by their hashes.
extension LabelSalt {
    /// Where `run` reads from: 16 random bytes until `useForThisProcess` chooses another, and
    /// whether `run` has been read (after which the salt never changes).
    static let processSalt = Mutex((salt: LabelSalt(bytes: (0..<16).map { _ in UInt8.random(in: .min ... .max) }), used: false))

    /// The process's salt, which from now on cannot change.
    static func useProcessSalt() -> LabelSalt {
        processSalt.withLock { state in
            state.used = true
            return state.salt
        }
    }

    /// Makes `salt` the one every label of this process is hashed with, if no label has been
    /// made yet; returns whether it did.
    ///
    /// A salt that changed after the first label would split one value's counts under two
    /// hashes, so it is chosen once, before any label: `replay` does so as soon as it knows its
    /// corpus. In a process that has made labels already (tests running many runs side by side)
    /// the call changes nothing, and every run of that process shares its one salt.
    @discardableResult
    public static func useForThisProcess(_ salt: LabelSalt) -> Bool {
        processSalt.withLock { state in
            guard !state.used else { return false }
            state.salt = salt
            return true
        }
    }

    /// The domain a corpus salt's MAC is fed first (`RunKey.mac`), before the corpus's bytes.
    public static let domain = "replay.label-salt/2"
}
