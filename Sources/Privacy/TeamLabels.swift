/// The labels a team allows into reports as written (`replay --labels FILE`): its agents' and
/// group members' names, and builds, model versions and node kinds or line types that are names
/// rather than numbers.
///
/// A corpus field is free text, so no shape rule can tell a name from a sentence joined by `_`
/// or written in camelCase (`mum_is_at_the_GP_now`, `TellMumTheSurgeryMoved`). Only a list the
/// team wrote can: a listed value is shown as it is, anything else of its kind is hashed
/// (`ReportLabel`). The list is the team's configuration, not corpus text; a report shows a
/// listed name only where the corpus holds it.
///
/// `digest` names the list in `state.json`, so the shards of one run, a resumed run and their
/// merge can be checked to have hashed and kept the same labels: with another list, one value
/// would be counted under its name in one shard and under its hash in another.
public struct TeamLabels: Sendable, Hashable {
    /// Names kept where a thread's agent is shown: a one-agent thread's `agent`, a group's
    /// `lead`, an agent message's `from` (the flywheel's agent dimension).
    public let agents: Set<String>
    /// Names kept where a group member is shown: routing's `confusion:<actual>-><guessed>`
    /// counters (`group.members[].name`, `meta.group.to`, and the model's answer).
    public let members: Set<String>
    /// App builds (`meta.build`) kept besides the version shapes `ReportLabel` keeps anyway.
    public let builds: Set<String>
    /// Model versions (`meta.model`) kept besides the version shapes.
    public let models: Set<String>
    /// Unknown node kinds and line types kept besides the export format's own vocabulary.
    public let kinds: Set<String>
    /// Hex SHA-256 of the list in a canonical form (every entry, sorted, under its kind), nil for
    /// no list; or, for a list read back from a state file whose list this process does not
    /// hold, that state's digest (see `unheld`).
    public let digest: String?

    /// No list: every name is hashed, and builds, models and kinds pass by shape only.
    public static let none = TeamLabels()

    /// The longest entry a list may hold, in Unicode scalars.
    public static let maximumEntryLength = 64
    /// The file's keys, in the order the canonical form and the documentation use.
    public static let keys = ["agents", "members", "builds", "models", "kinds"]

    /// A list of the given entries. Check each entry with `problem(with:)` first: this keeps
    /// whatever it is given.
    public init(agents: Set<String> = [], members: Set<String> = [], builds: Set<String> = [], models: Set<String> = [],
                kinds: Set<String> = []) {
        let all = [agents, members, builds, models, kinds]
        var digest: String? = nil
        if all.contains(where: { !$0.isEmpty }) {
            var hasher = SHA256()
            hasher.update(Array("replay.labels/1\u{0}".utf8))
            for (key, entries) in zip(Self.keys, all) {
                hasher.update(Array(key.utf8) + [0])
                for entry in entries.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                    hasher.update(Array(entry.utf8) + [0])
                }
                hasher.update([1])
            }
            digest = hasher.finalizeHex()
        }
        self.init(agents: agents, members: members, builds: builds, models: models, kinds: kinds, digest: digest)
    }

    /// A list this process does not hold, known only by `digest` (a state written with a
    /// `--labels` file other than this run's): it keeps nothing, so reading such a state hashes
    /// every name, and its digest differs from this run's, so the difference is reported.
    public init(unheld digest: String) {
        self.init(agents: [], members: [], builds: [], models: [], kinds: [], digest: digest)
    }

    private init(agents: Set<String>, members: Set<String>, builds: Set<String>, models: Set<String>, kinds: Set<String>,
                 digest: String?) {
        self.agents = agents
        self.members = members
        self.builds = builds
        self.models = models
        self.kinds = kinds
        self.digest = digest
    }

    /// Whether the team gave no list.
    public var isEmpty: Bool { digest == nil }

    /// This list if `digest` is its own, else a list known only by `digest` (`unheld`); `.none`
    /// when `digest` is nil and this list is empty. For reading a state back with this run's list.
    public func matching(_ digest: String?) -> TeamLabels {
        if digest == self.digest { return self }
        return digest.map(TeamLabels.init(unheld:)) ?? .none
    }

    /// Why `entry` cannot be listed, in a few words; nil when it can.
    ///
    /// An entry must be a label a report can show: not empty, at most `maximumEntryLength`
    /// scalars, no control or line-breaking characters (a report.md table or a CSV row would
    /// break), no surrounding white space (labels are trimmed before they are looked up), and not
    /// the shape of a hash or one of the fixed labels (`unknown`, `(other)`), which it would
    /// pose as.
    public static func problem(with entry: String) -> String? {
        if entry.isEmpty { return "it is empty" }
        if entry.unicodeScalars.count > maximumEntryLength { return "it is longer than \(maximumEntryLength) characters" }
        if let first = entry.unicodeScalars.first, let last = entry.unicodeScalars.last,
           first.properties.isWhitespace || last.properties.isWhitespace {
            return "it begins or ends with white space"
        }
        for scalar in entry.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse:
                return "it holds a control, format or line-breaking character (U+\(String(scalar.value, radix: 16, uppercase: true)))"
            default:
                continue
            }
        }
        if ReportLabel.isHashed(entry) { return "it has the shape of a hashed label (#h: and 8 hex digits)" }
        if entry == ReportLabel.unknown.text || entry == ReportLabel.other.text { return "'\(entry)' is one of the report's own labels" }
        return nil
    }
}
