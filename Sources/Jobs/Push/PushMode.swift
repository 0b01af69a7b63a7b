/// Where a push's line is written (spec §4, "Unknown until tried"): in the notification service
/// extension, as the spec plans; or, when the extension cannot call the model, at the next app
/// run, where the line becomes the thread's last-message line in the agent list.
///
/// The raw value is `--push-mode`'s, and what report.json and a state say.
public enum PushMode: String, Sendable, CaseIterable, Codable {
    /// The extension asks the model when the push arrives: the spec's plan, and the default.
    case `extension`
    /// No model in the extension: the relay's line stays on the lock screen, and the line is
    /// written when the person next runs the app (`NextRuns`); a push the person never runs the
    /// app after is never written (`FallbackReason.noNextRun`).
    case nextRun = "next-run"
}
