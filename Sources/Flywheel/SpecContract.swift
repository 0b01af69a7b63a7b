import Export

/// What the export of an app that kept the on-device spec must show, as checks of one person
/// message: the `contract.*` metrics.
///
/// The usage metrics count what `meta` says; these ask whether it could say it. Each check is
/// taken over the person messages that carry what it checks (the rows the app writes), and a
/// place that breaks the rule is a hit:
///
/// - `contract.chip_not_offered` (spec §2): a message sent from a chip (`via == "suggested"`)
///   must directly follow a chip-eligible agent screen (`Screen.isChipEligible`): chips show
///   only under a screen that asks in words with nothing to tap.
/// - `contract.routed_named` (spec §3): a group message with `group.routed` must not name a
///   member (`Mention`, the rule `route.named` uses): an `@name` always wins, the model is not asked.
/// - `contract.ticks_not_offline` (spec §5): a message with `draft_ticks` must have been sent
///   offline: drafts show only then.
/// - `contract.meta_extra_key` (spec §9, §10): `meta` holds only the keys the format defines
///   (`MessageMeta.hasUndefinedKey`); only the fact is counted, never the key or its value.
/// - `contract.meta_off_spec`: the keys it defines hold only the values the spec allows
///   (`holdsValueOffSpec`).
///
/// Counts only: nothing here keeps or returns a value it looked at (`ModelVerdicts` keeps the
/// last model version, a metadata label like the counter's own).
enum SpecContract {
    /// Whether `message`'s `meta` holds a value the spec does not allow: `via` other than
    /// "suggested" or "typed" (spec §2, the format); `group.routed` other than "on-device" (§3);
    /// `group.to` that is not, exactly, the name of one of `members` (the thread's group; none
    /// outside a group, where `group` means nothing); or `model` that is not a version number
    /// (`isModelVersion`, §1), decided through `models`. `build` is the app's own free-form
    /// build string in the format, so it is not checked.
    ///
    /// Takes the outline, not its `meta`: handing `meta` over copied it, six fields, per message.
    static func holdsValueOffSpec(_ message: MessageOutline, members: [String], models: inout ModelVerdicts) -> Bool {
        if let via = message.meta.via, via != "suggested", via != "typed" { return true }
        if let routed = message.meta.groupRouted, routed != "on-device" { return true }
        if let to = message.meta.groupTo, !members.contains(to) { return true }
        if let model = message.meta.model, !models.isVersion(model) { return true }
        return false
    }

    /// Whether `model` is a version number as the spec writes them ("26.0", "26.4", "27.0"): 1
    /// to 4 numbers of 1 to 9 ASCII digits joined by dots.
    static func isModelVersion(_ model: String) -> Bool {
        var digits = 0, numbers = 1
        for byte in model.utf8 {
            if byte &- UInt8(ascii: "0") < 10 {
                digits += 1
                guard digits <= 9 else { return false }
            } else if byte == UInt8(ascii: "."), digits > 0, numbers < 4 {
                digits = 0
                numbers += 1
            } else {
                return false
            }
        }
        return digits > 0
    }

    /// `isModelVersion` of the last model asked about, remembered: a corpus has a few model
    /// versions and most messages repeat the last one.
    struct ModelVerdicts: Sendable {
        private var last: String?
        private var lastIsVersion = false

        /// `SpecContract.isModelVersion(model)`.
        mutating func isVersion(_ model: String) -> Bool {
            if let last, last == model { return lastIsVersion }
            last = model
            lastIsVersion = SpecContract.isModelVersion(model)
            return lastIsVersion
        }
    }
}
