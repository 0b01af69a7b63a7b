/// The fixed counter names the jobs add to their metrics (docs/report-schema.md, "Per job"),
/// besides their output checks' rejections, their never rules (`never:`) and the draft kinds
/// (`kind:`, `expected:`). The jobs count by these, the suite reads them, and `replay audit`
/// admits a counter name in a result file only from `names`.
public enum JobCounter: String, Sendable, CaseIterable {
    /// Push: the newest reply's own line was kept for the push (the relay fallback).
    case relayLineKept = "relay_line_kept"
    /// Push: the replies had no words to sum up.
    case noWords = "no_words"
    /// Push: inputs joined from several replies.
    case batched
    /// Push: a line that passed but whose language has no check of its own.
    case unchecked
    /// Routing: the person named a member, so the model was not asked.
    case named
    /// Routing: a guess below the confidence floor, turned into the lead.
    case lowConfidence = "low_confidence"
    /// Routing: the model answered the lead.
    case answeredLead = "answered_lead"
    /// Routing's drawer: a first message of a one-agent thread the person started (spec §3).
    case drawerScanned = "drawer:scanned"
    /// Routing's drawer: that message names an agent offered with `@Name`, so the model was not asked.
    case drawerNamed = "drawer:named"
    /// Routing's drawer: the thread's agent is not among those offered (`DrawerAgents`), so the
    /// guess could not be right and the place is not judged.
    case drawerAgentNotOffered = "drawer:agent_not_offered"
    /// Routing's drawer: a guess at or below the confidence floor, so no agent was picked.
    case drawerLowConfidence = "drawer:low_confidence"
    /// Push in next-run mode: the push's own time could not be read, so no run is known after it.
    case nextRunNoTime = "next_run:no_time"
    /// Draft: the model chose to draft nothing.
    case noDraft = "no_draft"
    /// Any job: the stand-in model could not hold a prompt the phone's ceiling allows (by the
    /// phone's token estimate), so the place fell back `context_exceeded` because of the stand-in.
    case standInContextExceeded = "stand_in_context_exceeded"
    /// Any job, in the phone's queue (ReplayKit's `PhoneQueue`): the call waited for the model to load.
    case queueColdStart = "queue:cold_start"
    /// Any job, in the phone's queue: the call waited for an earlier call of its thread.
    case queueWaited = "queue:waited"
    /// Any job, in the phone's queue: the message had no readable `at`, so it was judged as by itself.
    case queueUntimed = "queue:untimed"

    /// Every fixed counter name: these, the push line's and the draft's rejections, and the
    /// counters of the places a job keeps apart (`CountedPlace`).
    public static let names = Set(allCases.map(\.rawValue) + PushLine.Rejection.allCases.map(\.rawValue)
        + Draft.Rejection.allCases.map(\.rawValue) + CountedPlace.allCases.flatMap(\.counterNames))
}
