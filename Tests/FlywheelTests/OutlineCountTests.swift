import Foundation
import Testing
import Export
import Privacy
@testable import Flywheel
import TestSupport

/// The flywheel reads outlines (`CorpusReader.nextOutline()`) and remembers labels by raw value;
/// its counts must be those of full records counted one label at a time.
@Suite(.tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct OutlineCountTests {
    /// Counts `paths` from full records (the reader's `next()`, the path the replay takes).
    static func fullCount(_ paths: [String]) throws -> FlywheelCounter {
        let reader = try CorpusReader(paths: paths)
        var counter = FlywheelCounter()
        while let event = reader.next() { counter.add(event) }
        return counter
    }

    static func expectSameCounts(_ paths: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> FlywheelCounter {
        let full = try fullCount(paths)
        let outlined = FlywheelCounter.count(try CorpusReader(paths: paths))
        let readAhead = FlywheelCounter.count(try CorpusReader(paths: paths, readAhead: true))
        #expect(outlined == full, sourceLocation: sourceLocation)
        #expect(readAhead == full, sourceLocation: sourceLocation)
        #expect(outlined.cells() == full.cells(), sourceLocation: sourceLocation)
        #expect(try ReportValueEncoder().encode(outlined).json() == ReportValueEncoder().encode(full).json(), sourceLocation: sourceLocation)
        #expect(MetricsDocument(outlined.capped()).json() == MetricsDocument(full.capped()).json(), sourceLocation: sourceLocation)
        return full
    }

    @Test func sampleCorpusCountsTheSameFromOutlines() throws {
        let counter = try Self.expectSameCounts([BuiltProducts.packageRoot + "/corpora/sample.jsonl.zst"])
        #expect(counter.messages > 1000)
        #expect(counter.cell(.chipsSuggested).denominator > 0)
        #expect(counter.cell(.routeLead).denominator > 0)
        // The generator keeps the spec: a clean run raises no alarm, and every check checked something.
        for check in Feature.contract.metrics {
            #expect(counter.cell(check).numerator == 0, "\(check.name)")
            #expect(counter.cell(check).denominator > 0, "\(check.name)")
        }
        let html = Dashboard.render(counter)
        #expect(html.contains(#"<p class="verdict ok""#) && !html.contains(#"alarm""#))
    }

    @Test func handAndSyntheticCorporaCountTheSameFromOutlines() throws {
        let directory = try TemporaryDirectory()
        _ = try Self.expectSameCounts([try directory.write("hand.jsonl", text: HandCorpus.jsonl())])
        let synthetic = try Self.expectSameCounts([try directory.write("synthetic.jsonl", text: SyntheticCorpus.jsonl(threads: 400))])
        #expect(synthetic.threads == 400)
    }

    /// More distinct builds, models, agents and days than the label memory holds, so it starts
    /// over mid-run, with values that pass and values that are hashed: every key is the
    /// `ReportLabel` of its raw value, and every message is counted under its own.
    @Test func labelMemoryStartingOverChangesNoCount() throws {
        let distinct = LabelSlots.capacity + 300
        var lines = [#"{"type":"export","version":1}"#]
        for index in 0..<distinct {
            let build = index % 3 == 0 ? "build \(index) with words" : "9.\(index).0 (\(index))"
            let agent = index % 5 == 0 ? "Agent \(index)" : "Agent\(index)"
            let day = String(format: "%04d-01-0%dT10:00:00Z", 2000 + index % 900, 1 + index % 7)
            lines.append(#"{"type":"thread","id":"t\#(index)","agent":"\#(agent)","locale":"x\#(index % 26)-QQ"}"#)
            lines.append(#"{"type":"message","thread":"t\#(index)","id":"a","at":"\#(day)","from":"\#(agent)","screen":[{"say":"Well?"}]}"#)
            lines.append(#"{"type":"message","thread":"t\#(index)","id":"p","at":"\#(day)","from":"person","meta":{"build":"\#(build)","model":"m\#(index)","via":"suggested"}}"#)
            // Index 1's build again, far from its first use, sent offline so it is counted.
            lines.append(#"{"type":"message","thread":"t\#(index)","id":"q","at":"\#(day)","from":"person","meta":{"build":"9.1.0 (1)","model":"m1","offline":true}}"#)
        }
        let directory = try TemporaryDirectory()
        let counter = try Self.expectSameCounts([try directory.write("many.jsonl", text: lines.joined(separator: "\n") + "\n")])
        #expect(counter.cell(.chipsSuggested).denominator == distinct)
        #expect(counter.cell(.chipsSuggested).numerator == distinct)
        for index in [0, 1, 2, 3, 4, 5, distinct - 1] {
            let build = index % 3 == 0 ? "build \(index) with words" : "9.\(index).0 (\(index))"
            let label = ReportLabel(build: build).text
            #expect(counter.cell(.chipsSuggested, .build, label).denominator == 1)
            #expect(counter.cell(.draftUsed, .build, label).denominator == (index == 1 ? distinct : 0))
        }
        #expect(counter.cell(.draftUsed).denominator == distinct)
        // Distinct labels, not values: two of thousands of hashed names may share a 32-bit hash
        // under this process's salt (about 1 run in 450 at 4,396 names), and then count as one.
        #expect(Set(counter.keys(.agent)).count == Set((0..<distinct).map { index in
            ReportLabel(agent: index % 5 == 0 ? "Agent \(index)" : "Agent\(index)").text }).count)
        #expect(counter.keys(.model).count == Set((0..<distinct).map { ReportLabel(model: "m\($0)").text }).count)
    }
}
