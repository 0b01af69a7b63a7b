import Jobs

/// A corpus's threads as a run reads them, whole and with their screens' nodes, for a feature that
/// changes a thread before planning it (`replay probe injection` plants words among an agent's):
/// the same reader, the same thread assembly and the same bad-line rules as a run
/// (`ThreadSource`), with nothing planned or asked. At most `threads` threads; the counts of what
/// was read (bad lines included) come back with them.
public enum CorpusSnapshots {
    /// The reason the corpus could not be read, in a sentence naming the file.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The threads read, and how many lines were bad (each counted, the rest read on).
    public struct Read: Sendable {
        public var threads: [ThreadSnapshot]
        public var badLines: Int
    }

    /// The first `threads` threads of `corpus` (every thread when nil).
    public static func read(_ corpus: [String], threads limit: Int?) throws(Failure) -> Read {
        var options = ReplayOptions()
        options.corpus = corpus
        options.threadLimit = limit
        let source = ThreadSource(options: options, screens: .nodes)
        if let failure = source.failure { throw Failure(description: failure) }
        var snapshots: [ThreadSnapshot] = []
        let tally = source.read(resume: nil, thread: { input in
            if !input.piece { snapshots.append(input.thread) }
            return true
        }, boundary: { _, _ in true }, progress: { _, _ in })
        if case .input(let failure) = tally.fatal { throw Failure(description: "\(failure)") }
        return Read(threads: snapshots, badLines: tally.corpus.badLines)
    }
}
