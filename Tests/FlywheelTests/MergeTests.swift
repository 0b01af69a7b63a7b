import Foundation
import Testing
@testable import Flywheel

@Suite struct MergeTests {
    /// Split points between threads: the first `k` threads in one half, the rest in the other.
    @Test(arguments: 0...HandCorpus.threads.count)
    func halvesMergeToTheWhole(_ split: Int) throws {
        let directory = try TemporaryDirectory()
        let whole = try HandCorpus.count(HandCorpus.jsonl(), in: directory, name: "whole.jsonl")
        let first = try HandCorpus.count(HandCorpus.jsonl(Array(HandCorpus.threads[..<split])), in: directory, name: "a.jsonl")
        let second = try HandCorpus.count(HandCorpus.jsonl(Array(HandCorpus.threads[split...])), in: directory, name: "b.jsonl")
        let merged = first.merged(with: second)
        #expect(merged == whole)
        #expect(merged.cells() == whole.cells())
        #expect(second.merged(with: first) == whole)
        // The written outputs are the same bytes.
        #expect(MetricsCSV.render(merged) == MetricsCSV.render(whole))
        #expect(MetricsDocument(merged).json() == MetricsDocument(whole).json())
        #expect(Dashboard.render(merged) == Dashboard.render(whole))
    }

    /// The contract checks' counts merge like every other: threads that break the spec, split
    /// at every thread, add up to the whole, with the breaks in it.
    @Test func contractChecksMergeToTheWhole() throws {
        let directory = try TemporaryDirectory()
        let threads = ContractCheckTests.byBuild + ContractCheckTests.cases.map(\.lines)
        let whole = try HandCorpus.count(HandCorpus.jsonl(threads), in: directory, name: "whole.jsonl")
        #expect(ContractCheckTests.checks.map { whole.cell($0).numerator } == [6, 3, 3, 5, 8])
        for split in [1, 2, 9, threads.count - 1] {
            let first = try HandCorpus.count(HandCorpus.jsonl(Array(threads[..<split])), in: directory, name: "a\(split).jsonl")
            let second = try HandCorpus.count(HandCorpus.jsonl(Array(threads[split...])), in: directory, name: "b\(split).jsonl")
            let merged = first.merged(with: second)
            #expect(merged == whole)
            #expect(merged.cells() == whole.cells())
            #expect(MetricsCSV.render(merged) == MetricsCSV.render(whole))
            #expect(Dashboard.render(merged) == Dashboard.render(whole))
        }
    }

    @Test func aCounterDiffersWhenAThreadIsMissing() throws {
        let directory = try TemporaryDirectory()
        let whole = try HandCorpus.count(HandCorpus.jsonl(), in: directory, name: "whole.jsonl")
        let part = try HandCorpus.count(HandCorpus.jsonl(Array(HandCorpus.threads.dropLast(2))), in: directory, name: "part.jsonl")
        #expect(part != whole)
        #expect(FlywheelCounter().merged(with: whole) == whole)
    }
}
