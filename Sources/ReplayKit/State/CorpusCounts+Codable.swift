import Export
import Privacy

/// A state's `corpus` block: the corpus's counts and the notes a report quotes.
///
/// Unknown kinds are sorted in display order when written, and read back through the kind rule
/// with the team's list (`decoder.teamLabels`); a bad line's reason through the reason rule.
extension CorpusCounts: Codable {
    enum CodingKeys: String, CodingKey {
        case files, lines, records, threads, messages
        case badLines = "bad_lines"
        case unknownTypes = "unknown_types"
        case unknownNodes = "unknown_nodes"
        case compressedBytes = "compressed_bytes"
        case bytes
        case threadsReplayed = "threads_replayed"
        case stoppedAtLimit = "stopped_at_limit"
        case stoppedAtAnotherShardsBadLine = "stopped_at_another_shards_bad_line"
        case errors
        case badLineSamples = "bad_line_samples"
        case fatal
    }

    public func encode(to encoder: any Encoder) throws {
        func counts(_ dictionary: [String: Int]) -> ResultMap<KindLabel, Int> {
            ResultMap(dictionary.sorted { ReportLabel.precedes($0.key, $1.key) }.map { (KindLabel($0.key), $0.value) })
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(stats.files, forKey: .files)
        try container.encode(stats.lines, forKey: .lines)
        try container.encode(stats.records, forKey: .records)
        try container.encode(stats.threads, forKey: .threads)
        try container.encode(stats.messages, forKey: .messages)
        try container.encode(stats.badLines, forKey: .badLines)
        try container.encode(counts(stats.unknownTypes), forKey: .unknownTypes)
        try container.encode(counts(stats.unknownNodes), forKey: .unknownNodes)
        try container.encode(stats.compressedBytes, forKey: .compressedBytes)
        try container.encode(stats.decompressedBytes, forKey: .bytes)
        try container.encode(threadsReplayed, forKey: .threadsReplayed)
        try container.encode(stoppedAtLimit, forKey: .stoppedAtLimit)
        try container.encode(stoppedAtAnotherShardsBadLine, forKey: .stoppedAtAnotherShardsBadLine)
        try container.encode(errors, forKey: .errors)
        try container.encode(badLineSamples, forKey: .badLineSamples)
        try container.encode(fatal, forKey: .fatal)
    }

    public init(from decoder: any Decoder) throws {
        let listed = decoder.teamLabels
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var stats = CorpusStats()
        stats.files = try container.decode(Int.self, forKey: .files)
        stats.lines = try container.decode(Int.self, forKey: .lines)
        stats.records = try container.decode(Int.self, forKey: .records)
        stats.threads = try container.decode(Int.self, forKey: .threads)
        stats.messages = try container.decode(Int.self, forKey: .messages)
        stats.badLines = try container.decode(Int.self, forKey: .badLines)
        for (name, n) in try container.decode(ResultMap<KindLabel, Int>.self, forKey: .unknownTypes).pairs {
            stats.unknownTypes[ReportLabel(kind: name.text, listed: listed).text, default: 0] += n
        }
        for (name, n) in try container.decode(ResultMap<KindLabel, Int>.self, forKey: .unknownNodes).pairs {
            stats.unknownNodes[ReportLabel(kind: name.text, listed: listed).text, default: 0] += n
        }
        stats.compressedBytes = try container.decode(Int.self, forKey: .compressedBytes)
        stats.decompressedBytes = try container.decode(Int.self, forKey: .bytes)
        self.init(
            stats: stats, threadsReplayed: try container.decode(Int.self, forKey: .threadsReplayed),
            stoppedAtLimit: try container.decode(Bool.self, forKey: .stoppedAtLimit),
            stoppedAtAnotherShardsBadLine: try container.decode(Bool.self, forKey: .stoppedAtAnotherShardsBadLine),
            errors: try container.decode([FileNote].self, forKey: .errors),
            badLineSamples: try container.decode([BadLineNote].self, forKey: .badLineSamples),
            fatal: try container.decode(FatalNote?.self, forKey: .fatal))
    }
}
