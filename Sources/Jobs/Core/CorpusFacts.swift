import Export

/// What a place needs to know of the whole corpus rather than of its own thread, gathered
/// before the run in one pass over the corpus's outlines (no words but the agents' `about`
/// lines, which stay sealed): the agents routing's drawer offers, and when the app ran, for
/// push lines written at the next run.
///
/// The spec's boundary stands: a job still sees one thread's words (the drawer, the agents'
/// one-line descriptions, as a group's route sees its members'). These are facts about the
/// person, which the export spreads over threads. The same in every shard and every resume of
/// a run: each reads the whole corpus for them, whatever part it replays.
public struct CorpusFacts: Sendable, Equatable {
    /// The agents the drawer offers (`DrawerAgents`); none when not gathered.
    public var drawer: DrawerAgents
    /// When the person ran the app (`NextRuns`); none when not gathered.
    public var nextRuns: NextRuns

    public init(drawer: DrawerAgents = .none, nextRuns: NextRuns = .none) {
        self.drawer = drawer
        self.nextRuns = nextRuns
    }

    /// Nothing gathered: no drawer places, and no run after any push.
    public static let none = CorpusFacts()

    /// Which facts a run needs gathered.
    public struct Wanted: Sendable, Equatable {
        /// The drawer's agents: routing runs.
        public var drawer: Bool
        /// The app's runs: push runs in next-run mode.
        public var nextRuns: Bool

        public init(drawer: Bool, nextRuns: Bool) {
            self.drawer = drawer
            self.nextRuns = nextRuns
        }

        /// Whether any fact is wanted, so the corpus must be read once before the run.
        public var any: Bool { drawer || nextRuns }
    }

    /// Gathers the wanted facts as a corpus's thread lines and messages are read.
    public struct Collector: Sendable {
        public let wanted: Wanted
        public private(set) var agents = DrawerAgents.Collector()
        public private(set) var runs = NextRuns.Collector()

        public init(_ wanted: Wanted) {
            self.wanted = wanted
        }

        /// Takes a thread line.
        public mutating func add(_ thread: ThreadRecord) {
            if wanted.drawer { agents.add(thread) }
        }

        /// Takes a message by who sent it and when (`UTCInstant` of its `at`, nil when unreadable).
        public mutating func add(from: Sender, milliseconds: @autoclosure () -> Int64?) {
            if wanted.nextRuns, from == .person { runs.add(milliseconds: milliseconds()) }
        }

        /// The facts gathered.
        public var facts: CorpusFacts {
            CorpusFacts(drawer: wanted.drawer ? agents.agents : .none, nextRuns: wanted.nextRuns ? runs.runs : .none)
        }
    }
}

extension CorpusFacts: CustomReflectable {
    /// Empty: every fact gathered is the corpus's (the agents' names, the person's instants).
    public var customMirror: Mirror { Mirror(self, children: [:], displayStyle: .struct) }
}
