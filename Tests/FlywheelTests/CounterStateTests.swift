import Foundation
import Privacy
import Testing
@testable import Flywheel

/// The counter in state files: every settled bucket, uncapped, read back to the same counter, so
/// halves read back from their state files still merge to the whole.
@Suite struct CounterStateTests {
    @Test func aCounterReadsBackExactly() throws {
        let directory = try TemporaryDirectory()
        let breaks = HandCorpus.jsonl(ContractCheckTests.byBuild + ContractCheckTests.cases.map(\.lines))
        for text in [HandCorpus.jsonl(), SyntheticCorpus.jsonl(threads: 120), breaks] {
            let counter = try HandCorpus.count(text, in: directory, name: "c-\(text.count).jsonl")
            let written = try ReportValueEncoder().encode(counter).exactJSON()
            let back = try ReportValueDecoder(userInfo: [.teamLabels: HandCorpus.labels]).decode(FlywheelCounter.self, from: ReportValue(parsingExactJSON: written))
            #expect(back == counter)
            #expect(try ReportValueEncoder().encode(back).exactJSON() == written)
            #expect(MetricsCSV.render(back) == MetricsCSV.render(counter))
            #expect(Dashboard.render(back) == Dashboard.render(counter))
            for check in Feature.contract.metrics {
                #expect(back.cell(check, .build, "2.4.0 (530)") == counter.cell(check, .build, "2.4.0 (530)"))
            }
            if text == breaks {
                // The contract checks' counts are in the state, so they survive it.
                #expect(back.cell(.contractRoutedNamed, .build, "2.4.0 (530)").numerator == 1)
                #expect(ContractCheckTests.checks.map { back.cell($0).numerator } == [6, 3, 3, 5, 8])
            }
        }
    }

    @Test(arguments: [0, 1, 2])
    func halvesReadBackMergeToTheWhole(_ split: Int) throws {
        let directory = try TemporaryDirectory()
        let whole = try HandCorpus.count(HandCorpus.jsonl(), in: directory, name: "whole.jsonl")
        let first = try HandCorpus.count(HandCorpus.jsonl(Array(HandCorpus.threads[..<split])), in: directory, name: "a.jsonl")
        let second = try HandCorpus.count(HandCorpus.jsonl(Array(HandCorpus.threads[split...])), in: directory, name: "b.jsonl")
        func reread(_ counter: FlywheelCounter) throws -> FlywheelCounter {
            try ReportValueDecoder(userInfo: [.teamLabels: HandCorpus.labels])
                .decode(FlywheelCounter.self, from: ReportValue(parsingExactJSON: ReportValueEncoder().encode(counter).exactJSON()))
        }
        let merged = try reread(first).merged(with: reread(second))
        #expect(merged == whole)
        #expect(MetricsDocument(merged).json() == MetricsDocument(whole).json())
    }

    /// A state's keys go through their dimension's rule again: a sentence put there by hand is hashed.
    @Test func keysAreLabelledAgainWhenRead() throws {
        let state = ReportValue.object([
            ("threads", .int(1)), ("messages", .int(1)),
            ("buckets", .array([.object([("dimension", .label("build")), ("key", .label("the quick brown fox")), ("events", .int(1)),
                                         ("metrics", .object([("chips.suggested", .array([.int(1), .int(1)]))]))])])),
        ])
        let counter = try ReportValueDecoder().decode(FlywheelCounter.self, from: state)
        #expect(counter.keys(.build).allSatisfy { ReportLabel.isHashed($0) })
        #expect(!MetricsCSV.render(counter).contains("quick"))
    }
}
