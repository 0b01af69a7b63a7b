import Jobs

/// Where an item is: its key, its thread, and its slices as the report shows them; what its
/// outcome carries besides the result.
struct ItemPlace: Sendable {
    var key: UInt64
    var thread: UInt64
    var build: String
    var model: String
    var locale: String

    /// The outcome of `result` at this place.
    func outcome(of result: ItemResult) -> ItemOutcome {
        ItemOutcome(result, key: key, thread: thread, build: build, model: model, locale: locale)
    }
}
