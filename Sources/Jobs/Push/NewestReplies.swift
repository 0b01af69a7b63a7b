/// Each agent's newest messages with a screen, kept as a thread is read in time order: the
/// replies a batched push reads (`PushJob`), at hand without searching the thread again at
/// every push.
///
/// Only the newest `keep` of each agent are needed; up to twice as many are kept, so dropping
/// the older ones costs one step a message on average.
struct NewestReplies: Sendable {
    /// The most replies one lookup asks for.
    let keep: Int
    /// The indexes of each agent's messages with a screen, oldest first, the newest `keep` at least.
    private var byAgent: [String: [Int]] = [:]

    init(keep: Int) {
        self.keep = max(keep, 1)
    }

    /// Notes that the message at `index`, newer than every one added before, is `agent`'s and has a screen.
    mutating func add(_ index: Int, agent: String) {
        byAgent[agent, default: []].append(index)
        if let count = byAgent[agent]?.count, count > 2 * keep {
            byAgent[agent]?.removeFirst(count - keep)
        }
    }

    /// The indexes of `agent`'s newest `count` messages with a screen (at most `keep`), oldest first.
    func newest(_ count: Int, of agent: String) -> ArraySlice<Int> {
        precondition(count <= keep, "a lookup asks for at most the replies kept")
        return byAgent[agent]?.suffix(count) ?? []
    }
}
