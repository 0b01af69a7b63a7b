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

    @Test func aCounterDiffersWhenAThreadIsMissing() throws {
        let directory = try TemporaryDirectory()
        let whole = try HandCorpus.count(HandCorpus.jsonl(), in: directory, name: "whole.jsonl")
        let part = try HandCorpus.count(HandCorpus.jsonl(Array(HandCorpus.threads.dropLast(2))), in: directory, name: "part.jsonl")
        #expect(part != whole)
        #expect(FlywheelCounter().merged(with: whole) == whole)
    }
}
