/// The push notification sent for an agent's message.
public struct PushInfo: Sendable, Equatable {
    /// `"reply"`, `"handoff"` or `"quote"` (only `reply` gets a model-written line).
    public var kind: String
    /// How many unread replies the push covers ("5 new from Coach"); 1 when the export left it out.
    public var batch: Int

    /// A push.
    public init(kind: String, batch: Int = 1) {
        self.kind = kind
        self.batch = batch
    }
}
