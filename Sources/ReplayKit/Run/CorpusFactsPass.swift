import Export
import Jobs

/// The pass over the whole corpus before a run that gathers what its places need to know beyond
/// their own threads (`CorpusFacts`): the agents routing's drawer offers, and when the person ran
/// the app, for push lines written at the next run.
///
/// Every file of the corpus is read, whatever part of it the run replays (a shard of a thread or
/// a file split, a `--limit`, a resume), so every process of one run gathers the same facts. It
/// reads outlines, as `replay flywheel` does: no text of a message becomes a `String`; of a thread
/// line, only the one-agent thread's name and `about` are kept (`DrawerAgents.Collector`, at
/// most 4,096 names), and of a message only the person's instants (8 bytes each,
/// `NextRuns`). A file it cannot read, or a bad line, is skipped here: the run's own read meets
/// it too, and counts and reports it there, once. Standard input cannot be read twice, so a
/// corpus holding `-` is not read here at all (`read` returns nothing gathered).
///
/// The cost is one outline read of the corpus, about what `replay flywheel` takes
/// (docs/performance.md), from the page cache the identity's hashing has just filled; a file
/// split's shard pays it over the whole corpus rather than its own files.
package enum CorpusFactsPass {
    /// The facts `wanted` of `files` (each held to its version in `versions`, as the run's reader
    /// holds it); nothing gathered when nothing is wanted or the corpus holds standard input.
    package static func read(_ files: [String], versions: [String: FileVersion] = [:], wanted: CorpusFacts.Wanted) -> CorpusFacts.Collector {
        var collector = CorpusFacts.Collector(wanted)
        guard wanted.any, !files.isEmpty, !files.contains("-") else { return collector }
        // A reader per file: one that cannot be opened is skipped alone, not the corpus with it.
        for file in files {
            guard let reader = try? CorpusReader(paths: [file], readAhead: true, expecting: versions, screens: .facts) else { continue }
            reader.forEachOutline { event in
                guard case .record(let record, _) = event else { return }
                switch record {
                case .header: break
                case .thread(let thread): collector.add(thread)
                case .message(let message):
                    collector.add(from: message.from, milliseconds: Self.milliseconds(of: message))
                }
            }
        }
        return collector
    }

    /// The instant of `message`'s `at` (`UTCInstant`), read from its bytes; nil when unreadable.
    static func milliseconds(of message: MessageOutline) -> Int64? {
        let read = message.withAtBytes { raw in
            raw.withMemoryRebound(to: UInt8.self) { Int(UTCInstant.milliseconds(bytes: $0) ?? Int64.min) }
        }
        return read == Int(Int64.min) ? nil : Int64(read)
    }
}
