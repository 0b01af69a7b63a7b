/// How the phone runs its model over time, for judging budgets as the phone would see them
/// (spec §7 and §10: one queue, a prewarm when a thread opens): how long a cold model takes to
/// load, how long an idle one stays loaded, and how long before a person's message the thread
/// was open (so its prewarm had begun).
///
/// Apple publishes none of these; the built-in figures are estimates that say so (`source`), and
/// a team that has measured its phones gives its own in a profiles file's `queue`.
public struct PhoneQueueModel: Sendable, Equatable {
    /// A cold model's load, before it can start on a request (and what a prewarm begins).
    public var coldStartMilliseconds: Double
    /// How long a loaded model stays loaded with nothing asked of it.
    public var idleUnloadMilliseconds: Double
    /// How long before a person's message their thread was open, its prewarm under way.
    public var prewarmLeadMilliseconds: Double
    /// Where the numbers come from.
    public var source: String

    public init(coldStartMilliseconds: Double, idleUnloadMilliseconds: Double, prewarmLeadMilliseconds: Double, source: String) {
        self.coldStartMilliseconds = coldStartMilliseconds
        self.idleUnloadMilliseconds = idleUnloadMilliseconds
        self.prewarmLeadMilliseconds = prewarmLeadMilliseconds
        self.source = source
    }
}
