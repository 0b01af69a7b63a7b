import Export

/// Decides which shard counts each line, so that the shards' corpus counts add up to one run's.
///
/// Every shard of a thread split reads the same lines in the same order, so a rule over that
/// order gives each line exactly one shard: a thread line and its messages belong to the shard of
/// the thread's id; a bad line to the shard of the last thread line before it in its file (it
/// falls in that thread), else to the file's; the export line, lines of unknown type (which the
/// reader counts without an event), failed files, bytes and files opened belong to the file's
/// shard, which is shard 0 in a thread split (every shard reads every byte; one counts them) and
/// the shard itself in a file split (it reads only its own files). With one shard this is the
/// reader's own count.
///
/// The file's share is what the reader counted minus what the events explain: exact whatever the
/// reader counts between events, and the same in a resumed run, which starts from the reader's
/// count after the lines it skipped (`begin`).
struct CorpusAccounting {
    let shard: ShardSpec
    /// Whether this shard counts the file-level share (see the type's documentation).
    let countsFiles: Bool
    /// What this shard's own events added.
    private(set) var own = CorpusStats()
    /// What every event added, whoever's.
    private var everyEvent = CorpusStats()
    /// The reader's count when counting began (after a resumed run's skipped lines).
    private var baseline = CorpusStats()
    /// Files the reader had opened at the last event: a new file resets `context`.
    private var filesOpened = 0
    /// The shard of the last thread line in the current file, else the file's.
    private var context: Int

    init(shard: ShardSpec) {
        self.shard = shard
        countsFiles = shard.by == .file || shard.index == 0
        context = Self.fileShard(shard)
    }

    /// The shard that counts the file-level share of a file in a split.
    private static func fileShard(_ shard: ShardSpec) -> Int { shard.by == .file ? shard.index : 0 }

    /// Starts counting from the reader's count `stats` (everything before is another run's).
    mutating func begin(at stats: CorpusStats) {
        baseline = stats
        filesOpened = stats.files
    }

    /// The shard `event` belongs to; `filesOpened` is the reader's count of files just after it.
    mutating func owner(of event: SourceEvent, filesOpened files: Int) -> Int {
        if files != filesOpened {
            filesOpened = files
            context = Self.fileShard(shard)
        }
        switch event {
        case .thread(let thread):
            context = shard.by == .file ? shard.index : shard.owner(ofThread: thread.id)
            return context
        case .message, .outline, .badLine:
            return context
        case .header, .fileFailed:
            return Self.fileShard(shard)
        }
    }

    /// Counts `event` for `owner`. In place, field by field: every shard of a thread split
    /// counts every event of the corpus.
    mutating func count(_ event: SourceEvent, owner: Int) {
        Self.add(event, to: &everyEvent)
        if owner == shard.index { Self.add(event, to: &own) }
    }

    /// What `event` adds to the reader's counts (the lines of unknown type before it aside).
    private static func add(_ event: SourceEvent, to stats: inout CorpusStats) {
        switch event {
        case .header:
            stats.lines += 1
            stats.records += 1
        case .thread:
            stats.lines += 1
            stats.records += 1
            stats.threads += 1
        case .message(let message):
            stats.lines += 1
            stats.records += 1
            stats.messages += 1
            for kind in message.screen?.unknownKinds ?? [] { stats.unknownNodes[kind, default: 0] += 1 }
        case .outline(let outline):
            // Another shard's message: its unknown nodes are that shard's, and counted here
            // only so that they are not taken for the file's share.
            stats.lines += 1
            stats.records += 1
            stats.messages += 1
            for kind in outline.unknownKinds { stats.unknownNodes[kind, default: 0] += 1 }
        case .badLine:
            stats.lines += 1
            stats.badLines += 1
        case .fileFailed:
            break
        }
    }

    /// This shard's counts, given the reader's count now.
    func stats(reader: CorpusStats) -> CorpusStats {
        countsFiles ? own.adding(reader.subtracting(baseline).subtracting(everyEvent)) : own
    }
}

extension CorpusStats {
    /// Both counts added, field by field.
    func adding(_ other: CorpusStats) -> CorpusStats {
        combined(with: other, sign: 1)
    }

    /// `other` taken away, field by field; names whose count becomes 0 are dropped.
    func subtracting(_ other: CorpusStats) -> CorpusStats {
        combined(with: other, sign: -1)
    }

    private func combined(with other: CorpusStats, sign: Int) -> CorpusStats {
        var sum = self
        sum.files += sign * other.files
        sum.lines += sign * other.lines
        sum.records += sign * other.records
        sum.threads += sign * other.threads
        sum.messages += sign * other.messages
        sum.badLines += sign * other.badLines
        sum.compressedBytes += sign * other.compressedBytes
        sum.decompressedBytes += sign * other.decompressedBytes
        for (name, n) in other.unknownTypes { sum.unknownTypes[name, default: 0] += sign * n }
        for (name, n) in other.unknownNodes { sum.unknownNodes[name, default: 0] += sign * n }
        sum.unknownTypes = sum.unknownTypes.filter { $0.value != 0 }
        sum.unknownNodes = sum.unknownNodes.filter { $0.value != 0 }
        return sum
    }
}
