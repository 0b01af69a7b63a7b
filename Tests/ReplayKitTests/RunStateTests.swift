import Foundation
import Jobs
import Privacy
@testable import ReplayKit
import Testing
import RunTestSupport
import TestSupport

/// A run is a value that merges: shards' states add up associatively, commutatively and exactly,
/// and a state written down reads back to the same value.
@Suite struct RunStateTests {
    @Test func mergeIsAssociativeAndCommutativeOnRealStates() throws {
        let directory = try TemporaryDirectory(prefix: "run-state")
        let paths = try StateFixtures.corpus(in: directory)
        let (a, b, c) = (StateFixtures.state(paths, shard: ShardSpec(index: 0, count: 3)),
                         StateFixtures.state(paths, shard: ShardSpec(index: 1, count: 3)),
                         StateFixtures.state(paths, shard: ShardSpec(index: 2, count: 3)))
        #expect(a.corpus.stats.threads > 0 && b.corpus.stats.threads > 0 && c.corpus.stats.threads > 0)
        let left = a.merged(with: b).merged(with: c)
        #expect(left == a.merged(with: b.merged(with: c)))
        #expect(left == c.merged(with: a).merged(with: b))
        #expect(a.merged(with: b) == b.merged(with: a))
        #expect(left.shard.indexes == [0, 1, 2])
        #expect(left.threadsSkipped == 0)
        #expect(a.threadsSkipped == b.corpus.stats.threads + c.corpus.stats.threads)
        // And it is what one process counts.
        let whole = StateFixtures.state(paths)
        #expect(StateFixtures.comparable(left) == StateFixtures.comparable(whole))
    }

    @Test func aStateReadsBackExactly() throws {
        let directory = try TemporaryDirectory(prefix: "run-state")
        let paths = try StateFixtures.corpus(in: directory)
        let shard = StateFixtures.state(paths, shard: ShardSpec(index: 1, count: 2))
        let merged = shard.merged(with: StateFixtures.state(paths, shard: ShardSpec(index: 0, count: 2)))
        var checkpoint = StateFixtures.state(paths, dryRun: true)
        checkpoint.checkpoint = Checkpoint(sequence: 7, eventsRead: 123)
        for state in [shard, merged, checkpoint] {
            let text = state.stateJSON(key: StateFixtures.key)
            let back = try RunState(stateJSON: text, key: StateFixtures.key)
            var withoutItems = state
            withoutItems.items = []   // items are written beside the state (items.json.zst), not in it
            #expect(!state.items.isEmpty)
            #expect(back == withoutItems)
            #expect(back.stateJSON(key: StateFixtures.key) == text)
        }
        // Fractions and sums survive to the bit: the quality tallies and latency sums are integers.
        let quality = try #require(merged.ledgers[.chips]?.overall.quality["best_f1"])
        #expect(quality.count > 0)
    }

    @Test func aStateCutShortIsNotAState() throws {
        let directory = try TemporaryDirectory(prefix: "run-state")
        let paths = try StateFixtures.corpus(in: directory)
        let state = StateFixtures.state(paths, dryRun: true)
        let text = state.stateJSON(key: StateFixtures.key)
        // Cut within the state, within its digest, and in its closing brace: none reads whole.
        for cut in [text.count / 3, text.count - 30, text.count - 3] {
            #expect {
                try RunState(stateJSON: String(text.prefix(cut)), key: StateFixtures.key)
            } throws: { error in
                guard case .unreadable? = error as? StateIntegrityError else { return false }
                return true
            }
        }
        let noMarker = state.unsealedJSON().replacingOccurrences(of: "\"complete\": true", with: "\"complete\": false")
        #expect(throws: StateFormatError("it is incomplete (no \"complete\": true at its end)")) { try RunState(unsealedJSON: noMarker) }
    }

    /// A state holds nothing its types do not read: a key added anywhere, even one no count
    /// depends on, is refused, named by its object and place (never spelled), and so is a derived number that disagrees with the
    /// counts it is derived from.
    @Test func aStateWithAKeyItsTypesDoNotHaveIsRefusedByPath() throws {
        let directory = try TemporaryDirectory(prefix: "run-state")
        let text = StateFixtures.state(try StateFixtures.corpus(in: directory), dryRun: true).unsealedJSON()
        #expect(try RunState(unsealedJSON: text).corpus.stats.threads > 0)
        let extra = text.replacingOccurrences(of: "\"threads_replayed\": ", with: "\"note\": 1,\n    \"threads_replayed\": ")
        #expect(extra != text)
        #expect(throws: StateFormatError("corpus{10}: a key this file's type does not have")) { try RunState(unsealedJSON: extra) }
        let skipped = text.replacingOccurrences(of: "\"threads_skipped\": 0", with: "\"threads_skipped\": 5")
        #expect(skipped != text)
        #expect(throws: StateFormatError("shard.threads_skipped: not the threads read less those counted")) { try RunState(unsealedJSON: skipped) }
    }

    /// A checkpoint followed by the rest of the run, resumed from its place, is the whole run.
    @Test(arguments: [1, 4, 9])
    func aCheckpointContinuedIsTheWholeRun(every: Int) throws {
        let directory = try TemporaryDirectory(prefix: "run-state")
        let paths = try StateFixtures.corpus(in: directory)
        var checkpoints: [RunState] = []
        let whole = StateFixtures.state(paths, every: every) { checkpoints.append($0) }
        #expect(checkpoints.count >= 2)
        for (index, checkpoint) in checkpoints.enumerated() where index % 3 == 0 {
            let place = try #require(checkpoint.checkpoint)
            let rest = StateFixtures.state(paths, resume: ReplayRunner.ResumePoint(eventsRead: place.eventsRead,
                                                                                    threadsReplayed: checkpoint.corpus.threadsReplayed))
            #expect(StateFixtures.comparable(checkpoint.continued(with: rest)) == StateFixtures.comparable(whole), "from checkpoint \(index + 1)")
        }
    }
}
