/// The bucket slots of raw metadata values the counter has already labelled: per dimension, the
/// last raw value and a bounded map, and per day its week.
///
/// `ReportLabel`'s rules (and the hash for a value that fails them) ran for every message's
/// build, model and agent; a corpus has a handful of distinct values, so each is labelled once.
/// These are metadata labels (builds, model versions, locales, agent names), never words, and
/// they live only in memory, in the counter.
struct LabelSlots: Sendable {
    /// The most raw values remembered per dimension; the map starts over beyond it, so a corpus
    /// of ever-new builds cannot grow memory.
    static let capacity = 4096

    private var build = SlotCache<String>()
    private var model = SlotCache<String>()
    private var locale = SlotCache<String>()
    private var agent = SlotCache<String>()
    /// Per day (days since 1970), its week's slot.
    private var weeks = SlotCache<Int>()

    /// The remembered slot of `raw` under `dimension`, if any.
    mutating func slot(_ dimension: MetricDimension, _ raw: String?) -> Int? {
        switch dimension {
        case .build: return build.slot(raw)
        case .model: return model.slot(raw)
        case .locale: return locale.slot(raw)
        case .agent: return agent.slot(raw)
        case .overall, .week: return nil
        }
    }

    /// Remembers that `raw` under `dimension` is counted in `slot`.
    mutating func remember(_ dimension: MetricDimension, _ raw: String?, _ slot: Int) {
        switch dimension {
        case .build: build.remember(raw, slot)
        case .model: model.remember(raw, slot)
        case .locale: locale.remember(raw, slot)
        case .agent: agent.remember(raw, slot)
        case .overall, .week: break
        }
    }

    /// The remembered week slot of `day` (days since 1970; nil for an unreadable timestamp).
    mutating func weekSlot(_ day: Int?) -> Int? { weeks.slot(day) }

    /// Remembers that `day`'s week is counted in `slot`.
    mutating func rememberWeek(_ day: Int?, _ slot: Int) { weeks.remember(day, slot) }
}

/// One dimension's remembered raw values (or days): the last one (most messages repeat it), the
/// slot of a missing value, and a bounded map.
private struct SlotCache<Key: Hashable & Sendable>: Sendable {
    private var last: Key?? = .none
    private var lastSlot = 0
    private var missingSlot: Int?
    private var slots: [Key: Int] = [:]

    mutating func slot(_ raw: Key?) -> Int? {
        if let last, last == raw { return lastSlot }
        guard let slot = raw.map({ slots[$0] }) ?? missingSlot else { return nil }
        last = .some(raw)
        lastSlot = slot
        return slot
    }

    mutating func remember(_ raw: Key?, _ slot: Int) {
        last = .some(raw)
        lastSlot = slot
        guard let raw else {
            missingSlot = slot
            return
        }
        if slots.count >= LabelSlots.capacity { slots.removeAll(keepingCapacity: true) }
        slots[raw] = slot
    }
}
