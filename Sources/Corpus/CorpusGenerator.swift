/// Generates a realistic, anonymised-looking sample export: the same seed always gives byte-identical output.
///
/// For tests, demos, benchmarks and the bundled sample corpus. The corpus is built to exercise
/// everything the four on-device jobs and the flywheel read: chip-eligible screens and chip
/// replies (`via: "suggested"`), group routing in all its forms, pushes with batches, offline
/// messages with and without draftable requests, several app builds and model versions, six
/// locales, and the legal oddities (unknown node kinds and line types). Threads are composed one
/// at a time from (seed, index), so memory stays flat however many are asked for.
public struct CorpusGenerator: Sendable {
    /// How many threads the corpus holds.
    public let threads: Int
    /// The seed every word and number is drawn from.
    public let seed: UInt64
    /// The most exchanges (a person's message and its answer) a thread may have; nil for the
    /// realistic long tail (up to 100). A cap keeps a sample small enough to replay through a
    /// real model in minutes.
    public let maxExchanges: Int?

    /// A generator for `threads` threads (negative counts as zero) from `seed`.
    public init(threads: Int, seed: UInt64, maxExchanges: Int? = nil) {
        self.threads = max(0, threads)
        self.seed = seed
        self.maxExchanges = maxExchanges.map { max(1, $0) }
    }

    /// The export's first line; `created` is fixed by the corpus's date window, not by the clock.
    static var headerLine: String {
        var json = JSONBuilder()
        json.beginObject()
        json.field("type", "export")
        json.field("version", 1)
        json.field("created", ThreadComposer.created.iso8601)
        json.field("anonymised", true)
        json.endObject()
        return json.text
    }

    /// Writes the export (header line first) to `path`: zstd when it ends in ".zst", plain JSONL otherwise, "-" = stdout.
    public func write(to path: String) throws(CorpusError) -> CorpusSummary {
        let writer = try ZstdWriter(path: path)
        var summary = CorpusSummary()
        try writer.write(line: CorpusGenerator.headerLine)
        summary.lines += 1
        let composer = ThreadComposer(seed: seed, maxExchanges: maxExchanges)
        for index in 0 ..< threads {
            let thread = composer.compose(index: index)
            for line in thread.lines { try writer.write(line: line) }
            summary.add(thread)
        }
        try writer.finish()
        return summary
    }

    /// Calls `body` with each JSONL line (without "\n"), in order: for tests and for streaming into other sinks.
    public func forEachLine(_ body: (String) throws -> Void) rethrows {
        try body(CorpusGenerator.headerLine)
        let composer = ThreadComposer(seed: seed, maxExchanges: maxExchanges)
        for index in 0 ..< threads {
            for line in composer.compose(index: index).lines { try body(line) }
        }
    }

    /// The counts `write(to:)` would return, without writing anything.
    public func summary() -> CorpusSummary {
        var summary = CorpusSummary(lines: 1)
        let composer = ThreadComposer(seed: seed, maxExchanges: maxExchanges)
        for index in 0 ..< threads { summary.add(composer.compose(index: index)) }
        return summary
    }
}

extension CorpusSummary {
    mutating func add(_ thread: ThreadComposer.Thread) {
        threads += 1
        if thread.isGroup { groupThreads += 1 }
        agentMessages += thread.agentMessages
        personMessages += thread.personMessages
        messages += thread.agentMessages + thread.personMessages
        lines += thread.lines.count
        unknownLines += thread.unknownLines
        unknownNodes += thread.unknownNodes
    }
}
