import Testing
@testable import Llama

/// A scored request's choices: each token predicted once, by a row made as the plain engine makes
/// it, with fewer tokens evaluated when choices start alike.
@Suite struct ChoicePlanTests {
    /// Worked by hand: `a x y z e`, `a x y w e` and `a q e` share `a`; the first two share `x y`
    /// beyond it, and `a q e` has one own token before its last.
    @Test func choicesThatStartAlikeShareTheirRows() {
        let (a, e, q, x, y, z, w): (Int32, Int32, Int32, Int32, Int32, Int32, Int32) = (1, 2, 3, 5, 6, 7, 8)
        let choices = [[a, x, y, z, e], [a, x, y, w, e], [a, q, e]]
        let plan = ChoicePlan(choices: choices, sharing: true)
        #expect(plan.shared == 1)
        #expect(plan.evaluations == [
            // `q` alone, as the plain engine evaluates it: its row predicts `e` of `a q e`.
            .init(choice: 2, from: 1, count: 1, predicts: [[2]]),
            // `x y z`: the rows after `x` and `y` serve both long choices, the one after `z` the first.
            .init(choice: 0, from: 1, count: 3, predicts: [[0, 1], [0, 1], [0]]),
            // `y w`, keeping `x`: two rows, as in the plain engine's evaluation of `x y w`; `y`'s row is not needed again.
            .init(choice: 1, from: 2, count: 2, predicts: [[], [1]]),
        ])
        #expect(plan.tokens == 6)
        let plain = ChoicePlan(choices: choices, sharing: false)
        #expect(plain.evaluations == [
            .init(choice: 2, from: 1, count: 1, predicts: [[2]]),
            .init(choice: 0, from: 1, count: 3, predicts: [[0], [0], [0]]),
            .init(choice: 1, from: 1, count: 3, predicts: [[1], [1], [1]]),
        ])
        #expect(plain.tokens == 7)
    }

    /// Choices with nothing beyond their first own token need no evaluation after the shared ones.
    @Test func shortChoicesNeedNoEvaluation() {
        #expect(ChoicePlan(choices: [[1, 2], [1, 3], [1]], sharing: true).evaluations.isEmpty)
        #expect(ChoicePlan(choices: [[4, 2], [5, 2]], sharing: true).evaluations.map(\.count) == [1, 1])
        #expect(ChoicePlan(choices: [], sharing: true).evaluations.isEmpty)
    }

    /// Random sets of choices over a small alphabet (so they share often), checked by replaying
    /// each plan on a simulated sequence.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func everyTokenIsPredictedOnceByARowThePlainEngineWouldMake(seed: UInt64) {
        var generator = SplitMix(state: seed)
        for _ in 0..<300 {
            let opening = (0..<Int.random(in: 0...3, using: &generator)).map { _ in Int32(9) }
            let choices = (0..<Int.random(in: 1...8, using: &generator)).map { _ in
                opening + (0..<Int.random(in: 0...6, using: &generator)).map { _ in Int32.random(in: 1...3, using: &generator) }
            }
            let plain = ChoicePlan(choices: choices, sharing: false)
            let shared = ChoicePlan(choices: choices, sharing: true)
            check(shared, choices, sharing: true)
            check(plain, choices, sharing: false)
            #expect(shared.tokens <= plain.tokens)
        }
    }

    /// Replays `plan` on a sequence of cells, each marked with whether its evaluation held one row
    /// of its sequence, and checks what makes its answers the plain engine's.
    private func check(_ plan: ChoicePlan, _ choices: [[Int32]], sharing: Bool) {
        let shared = plan.shared
        let alone = choices.map { $0.count - 1 - shared == 1 }
        var predicted = choices.map { _ in [Int]() }
        var cells: [(token: Int32, single: Bool)] = []
        for evaluation in plan.evaluations {
            let choice = choices[evaluation.choice]
            #expect(evaluation.from >= shared && evaluation.from + evaluation.count == choice.count - 1)
            #expect(evaluation.predicts.count == evaluation.count)
            // One row only for a choice of one own token, which the plain engine evaluates alone too.
            #expect((evaluation.count == 1) == alone[evaluation.choice])
            cells.removeLast(max(0, cells.count - (evaluation.from - shared)))
            // The cells kept are this choice's tokens, made by evaluations of two rows or more.
            #expect(cells.count == evaluation.from - shared)
            #expect(cells.map(\.token) == Array(choice[shared ..< evaluation.from]))
            #expect(cells.allSatisfy { !$0.single })
            cells += choice[evaluation.from ..< evaluation.from + evaluation.count].map { ($0, evaluation.count == 1) }
            for (row, served) in evaluation.predicts.enumerated() {
                let k = evaluation.from + row
                for j in served {
                    // A row serves a choice of the same kind whose tokens so far are the row's.
                    #expect(alone[j] == alone[evaluation.choice])
                    #expect(Array(choices[j][...k]) == Array(choice[...k]))
                    #expect(sharing || j == evaluation.choice)
                    predicted[j].append(k + 1)
                }
            }
        }
        // Every token after a choice's first own one, once and in order.
        for (j, choice) in choices.enumerated() {
            #expect(predicted[j] == Array(min(shared + 1, choice.count) ..< choice.count))
        }
        if !sharing {
            #expect(plan.evaluations.allSatisfy { $0.from == shared })
        }
    }
}

/// SplitMix64 (Steele, Lea and Flood 2014): a seeded generator, so each argument is the same case every run.
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
