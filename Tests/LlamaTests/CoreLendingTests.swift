import Testing
@testable import Llama

/// `lending.judgeLent`, outside `#expect` (which cannot take a mutating call).
private func judge(_ lending: inout CoreLending, tokens: Int, nanoseconds: Double) -> Bool {
    lending.judgeLent(tokens: tokens, nanoseconds: nanoseconds)
}

/// A lane alone at a call's end keeps lent cores only while they are faster than its own thread.
@Suite struct CoreLendingTests {
    @Test(arguments: [(1, 1), (2, 2), (8, 8), (9, 9), (32, 9), (33, 10), (128, 10), (129, 11), (512, 11)])
    func evaluationsAreJudgedAgainstTheirOwnSize(tokens: Int, size: Int) {
        #expect(CoreLending.sizeClass(tokens) == size)
    }

    @Test func nothingIsLentBeforeTheLaneHasEvaluatedOnItsOwn() {
        var lending = CoreLending()
        #expect(!lending.canJudge)
        lending.recordOwn(tokens: 3, nanoseconds: 30_000_000)
        #expect(lending.canJudge)
    }

    @Test func eachEvaluationIsJudgedPerTokenAgainstItsSize() {
        var lending = CoreLending()
        // Own thread: 12 ms a token in steps of 4 tokens, 16 ms in steps of 2, 8 ms in 128-token chunks.
        lending.recordOwn(tokens: 4, nanoseconds: 48_000_000)
        lending.recordOwn(tokens: 2, nanoseconds: 32_000_000)
        lending.recordOwn(tokens: 128, nanoseconds: 1_024_000_000)
        #expect(judge(&lending, tokens: 4, nanoseconds: 36_000_000), "9 ms a token against 12")
        #expect(judge(&lending, tokens: 2, nanoseconds: 22_000_000), "11 against 16")
        #expect(judge(&lending, tokens: 100, nanoseconds: 500_000_000), "5 against 8")
        // 11.6 ms a token against 12 is a gain under 5%: a first strike, then a fast one clears it.
        #expect(judge(&lending, tokens: 4, nanoseconds: 46_400_000))
        #expect(judge(&lending, tokens: 4, nanoseconds: 36_000_000))
        #expect(!lending.withdrawn)
    }

    @Test func lendingEndsAtTheSecondSlowEvaluationInARow() {
        var lending = CoreLending()
        lending.recordOwn(tokens: 4, nanoseconds: 48_000_000)
        #expect(judge(&lending, tokens: 4, nanoseconds: 60_000_000), "one slow evaluation may be noise")
        #expect(!judge(&lending, tokens: 4, nanoseconds: 90_000_000), "the second in a row ends it")
        #expect(lending.withdrawn && !lending.canJudge)
        #expect(!judge(&lending, tokens: 4, nanoseconds: 1_000_000), "for the rest of the call")
    }

    @Test func aSizeNotYetSeenIsJudgedByTheNearestSeen() {
        var lending = CoreLending()
        lending.recordOwn(tokens: 300, nanoseconds: 2_400_000_000)  // 8 ms a token, class 11
        lending.recordOwn(tokens: 3, nanoseconds: 45_000_000)       // 15 ms a token, class 3
        #expect(judge(&lending, tokens: 60, nanoseconds: 420_000_000), "class 10 is nearest 11: 7 ms against 8")
        #expect(judge(&lending, tokens: 5, nanoseconds: 60_000_000), "class 5 is nearest 3: 12 ms against 15")
        #expect(judge(&lending, tokens: 60, nanoseconds: 540_000_000), "9 ms against 8: a first strike")
        #expect(!judge(&lending, tokens: 60, nanoseconds: 540_000_000))
    }
}
