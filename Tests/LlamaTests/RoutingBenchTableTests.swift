import Engine
import Testing
@testable import ReplayBench

/// `replay-bench routing`'s arithmetic, on ten answered asks made up to reach every row:
/// baselines, the rule at each threshold, what it keeps, the reliability deciles. The Wilson
/// bounds were computed independently (Python, the score interval's formula with z = 1.959963984540054).
@Suite struct RoutingBenchTableTests {
    /// Member 0 is the lead. Six asks for member 1 answered right at 0.9; two for member 2
    /// answered member 1 at 0.35; one for the lead that the model gave to the lead; one for
    /// member 2 with no valid answer (the lead, as the app does).
    static let asks: [RoutingBench.Answered] =
        Array(repeating: .init(group: "g", label: 1, answer: 1, lead: 0, confidence: 0.9), count: 6)
        + Array(repeating: .init(group: "g", label: 2, answer: 1, lead: 0, confidence: 0.35), count: 2)
        + [.init(group: "g", label: 0, answer: 0, lead: 0, confidence: 0.6), .init(group: "g", label: 2, answer: nil, lead: 0, confidence: 1)]

    static let table = RoutingBench.table(asks, model: ModelInfo(name: "m", description: "m", path: "m", parameters: 1,
                                                                 contextPerSequence: 1, batchSize: 1), seconds: 1, generated: false)

    @Test(arguments: [
        "| always the most common member of the set | 60.0% [31.3, 83.2] (6/10) |",
        "| always the most common member of the ask's group | 60.0% [31.3, 83.2] (6/10) |",
        "| always the lead | 10.0% [1.8, 40.4] (1/10) |",
        // Off: 7 right (6 kept members, the lead's own ask); 8 member answers kept, 6 right.
        "| 0 (off) | 70.0% [39.7, 89.2] (7/10) | 0 | 75.0% [40.9, 92.9] (6/8) |",
        "| 0.3 | 70.0% [39.7, 89.2] (7/10) | 0 | 75.0% [40.9, 92.9] (6/8) |",
        // At 0.4 the two wrong answers at 0.35 go to the lead, which is wrong for them too.
        "| 0.4 | 70.0% [39.7, 89.2] (7/10) | 2 | 100.0% [61.0, 100.0] (6/6) |",
        "| 0.9 | 10.0% [1.8, 40.4] (1/10) | 8 | – |",
        "| 0.3–0.4 | 2 | 0.0% [0.0, 65.8] (0/2) |",
        "| 0.9–1.0 | 6 | 100.0% [61.0, 100.0] (6/6) |",
        "| 0.5–0.6 | 0 | – |",
        "No valid answer: 1; answered the lead itself: 1 (right 1).",
        "| unknown | 10 | 70.0% [39.7, 89.2] (7/10) | 70.0% [39.7, 89.2] (7/10) |",
    ])
    func theTableHoldsTheRow(row: String) {
        #expect(Self.table.contains(row), "\(Self.table)")
    }
}
