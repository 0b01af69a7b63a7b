/// A kind of place a job's report keeps apart from its other places: routing's drawer (spec §3,
/// the one place outside a group where the model picks an agent).
///
/// Its places are counted with the job's (`eligible`, `asked`, `answered`…) and, besides, under
/// counters of their own named by the raw value (`counters(for:)`), so every slice of a report
/// (by build, model version, locale) separates them without a dimension of its own.
public enum CountedPlace: String, Sendable, CaseIterable {
    /// The drawer's agent switcher: the first message of a one-agent thread the person started.
    case drawer

    /// The counter names of one such place's result, the same for every place kind:
    /// `<place>:eligible`, `<place>:asked`, `<place>:answered` (a valid answer within the budget on
    /// the device), `<place>:in_budget_host` (the same by this host's clock).
    public func counters(for result: ItemResult) -> [String] {
        var names = [rawValue + ":eligible"]
        if result.asked { names.append(rawValue + ":asked") }
        if result.answered { names.append(rawValue + ":answered") }
        if result.inBudgetHost == true { names.append(rawValue + ":in_budget_host") }
        return names
    }

    /// Every counter name `counters(for:)` can give.
    public var counterNames: [String] { ["eligible", "asked", "answered", "in_budget_host"].map { rawValue + ":" + $0 } }
}
