import Export
import Privacy

/// The agents the drawer's switcher offers (spec §3, "The drawer"): the person's agents, each
/// with its name and the one line of what it is for, in the order the prompt lists them.
///
/// The export has no person id, so "the person's agents" is a fact of the whole corpus, taken as
/// one person's: every agent of its one-agent threads, the `maximumCount` with the most threads
/// (ties by name, so the set depends on the corpus and never on the order its files are read
/// in), each with the first non-empty `about` met in reading order. It is gathered before the
/// run by a pass over every thread line (`Collector`), and the same in every shard.
///
/// Names are kept as the corpus spells them, for the prompt and to compare with a thread's
/// agent; they leave memory only as the route job's counters do, through `ReportLabel`. The
/// `about` lines are words: sealed, never written.
public struct DrawerAgents: Sendable, Equatable {
    /// One agent the drawer offers.
    public struct Agent: Sendable, Equatable {
        public var name: String
        /// What it is for (its profile line), or empty when no thread of it has one.
        public var about: SealedText

        public init(name: String, about: SealedText = .empty) {
            self.name = name
            self.about = about
        }
    }

    /// The agents offered, most threads first.
    public var agents: [Agent]

    /// The most agents offered: the prompt stays the size of a large group's (the labelled
    /// routing set's groups have six to eight members), so a drawer guess stays within routing's
    /// 400 ms on the phones of the built-in profiles, while every agent of a person with a dozen
    /// is still offered. An agent beyond it is not a choice, and its threads are counted
    /// `drawer:agent_not_offered`.
    public static let maximumCount = 12

    /// The agents, in the order given; each name once (the first kept).
    public init(_ agents: [Agent]) {
        var seen: Set<String> = []
        self.agents = agents.filter { !$0.name.isEmpty && seen.insert($0.name).inserted }
    }

    /// No agent: a run without the drawer (a corpus read once, from standard input; a suite).
    public static let none = DrawerAgents([])

    /// The names offered, in order.
    public var names: [String] { agents.map(\.name) }

    /// Whether the drawer has a choice to make: two agents or more.
    public var isUsable: Bool { Route.choices(members: names, withLead: false).count >= 2 }

    /// Gathers the agents of one-agent threads as a corpus is read, in bounded memory: at most
    /// `trackedNames` distinct names are counted (the first met), so a corpus of millions of
    /// invented names cannot grow it; any later new name is only counted in `untracked`.
    public struct Collector: Sendable {
        /// Distinct names counted at most.
        public static let trackedNames = 4096

        private var threads: [String: Int] = [:]
        private var about: [String: SealedText] = [:]
        /// One-agent threads whose agent was met after `trackedNames` others, not counted.
        public private(set) var untracked = 0

        public init() {}

        /// Counts `thread` when it is a one-agent thread.
        public mutating func add(_ thread: ThreadRecord) {
            guard thread.group == nil, let name = thread.agent, !name.isEmpty else { return }
            guard threads[name] != nil || threads.count < Self.trackedNames else {
                untracked += 1
                return
            }
            threads[name, default: 0] += 1
            if about[name] == nil, let line = thread.about, !line.isEmpty { about[name] = line }
        }

        /// The agents the drawer offers: the `maximumCount` with the most threads, ties by name.
        public var agents: DrawerAgents {
            let ranked = threads.sorted { $0.value != $1.value ? $0.value > $1.value : Array($0.key.utf8).lexicographicallyPrecedes($1.key.utf8) }
            return DrawerAgents(ranked.prefix(DrawerAgents.maximumCount).map { Agent(name: $0.key, about: about[$0.key] ?? .empty) })
        }
    }
}

extension DrawerAgents: CustomReflectable {
    /// Empty: the agents' names are the corpus's words, shown only through the label rule.
    public var customMirror: Mirror { Mirror(self, children: [:], displayStyle: .struct) }
}

extension DrawerAgents.Agent: CustomReflectable {
    /// Empty: an agent's name is the corpus's, shown only through the label rule.
    public var customMirror: Mirror { Mirror(self, children: [:], displayStyle: .struct) }
}
