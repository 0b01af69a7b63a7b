/// The fields of a message's free-form `meta` that mean something to the jobs.
public struct MessageMeta: Sendable, Equatable {
    /// `"suggested"` when the person tapped a reply chip; `"typed"` or absent otherwise.
    public var via: String?
    /// `meta.group.to`: the member the message went to.
    public var groupTo: String?
    /// `meta.group.routed`: `"on-device"` when that was the phone's guess, sent as the pill said.
    public var groupRouted: String?
    /// Sent with no signal, after waiting in the outbox.
    public var offline: Bool
    /// Indices of draft items the person ticked before the agent answered.
    public var draftTicks: [Int]?
    /// The app build that sent it.
    public var build: String?
    /// The on-device model version (`"26.0"`, `"26.4"`, `"27.0"`).
    public var model: String?
    /// Whether `meta`, or `meta.group`, held a key the format gives no meaning to (anything but
    /// `via`, `group`, `offline`, `draft_ticks`, `build`, `model`; in `group`, anything but `to`
    /// and `routed`). Only that it did: the key's name may itself be words, so neither the name
    /// nor what it held is kept. The flywheel's contract check `contract.meta_extra_key` counts it.
    public var hasUndefinedKey: Bool

    /// Whether the person sent it by tapping a reply chip.
    public var sentFromChip: Bool { via == "suggested" }

    /// Metadata; the defaults say nothing.
    ///
    /// The values are taken over (`consuming`), not copied: the decoder makes one of these for
    /// every message, and borrowed parameters cost a retain of each string here and a release
    /// of it in the caller.
    public init(via: consuming String? = nil, groupTo: consuming String? = nil, groupRouted: consuming String? = nil,
                offline: Bool = false, draftTicks: consuming [Int]? = nil, build: consuming String? = nil,
                model: consuming String? = nil, hasUndefinedKey: Bool = false) {
        self.via = via
        self.groupTo = groupTo
        self.groupRouted = groupRouted
        self.offline = offline
        self.draftTicks = draftTicks
        self.build = build
        self.model = model
        self.hasUndefinedKey = hasUndefinedKey
    }
}
