import Foundation
import Testing
@testable import Corpus
import TestSupport

/// The generated lines of a corpus, in order.
func corpusLines(threads: Int, seed: UInt64) -> [String] {
    var lines: [String] = []
    CorpusGenerator(threads: threads, seed: seed).forEachLine { lines.append($0) }
    return lines
}

@Suite("Corpus generator")
struct CorpusGeneratorTests {
    @Test("the same seed gives byte-identical lines; another seed gives others", arguments: [UInt64(1), 42, 0xDEAD_BEEF_CAFE])
    func determinism(seed: UInt64) {
        let first = corpusLines(threads: 120, seed: seed)
        let second = corpusLines(threads: 120, seed: seed)
        let other = corpusLines(threads: 120, seed: seed &+ 1)
        let identical = first == second
        let differs = first != other
        #expect(identical)
        #expect(differs)
        #expect(first.count > 120)
    }

    @Test("a thread's content depends only on the seed and its index, not on how many threads there are")
    func prefixStable() {
        let short = corpusLines(threads: 40, seed: 9)
        let long = corpusLines(threads: 80, seed: 9)
        let isPrefix = long.starts(with: short)
        #expect(isPrefix)
    }

    @Test("written files are byte-identical for a seed, compressed or not", arguments: ["corpus.jsonl", "corpus.jsonl.zst"])
    func filesAreIdentical(name: String) throws {
        let directory = try TemporaryDirectory()
        let a = directory.path("a-" + name)
        let b = directory.path("b-" + name)
        let first = try CorpusGenerator(threads: 150, seed: 77).write(to: a)
        let second = try CorpusGenerator(threads: 150, seed: 77).write(to: b)
        #expect(first == second)
        let bytesA = try Data(contentsOf: URL(fileURLWithPath: a))
        let bytesB = try Data(contentsOf: URL(fileURLWithPath: b))
        let same = bytesA == bytesB
        #expect(same)
        #expect(bytesA.count > 1_000)
    }

    @Test("every line is valid JSON with the format's fields; messages follow their thread in time order", arguments: [UInt64(3), 2026])
    func validity(seed: UInt64) {
        let lines = corpusLines(threads: 300, seed: seed)
        let facts = CorpusFacts(lines: lines)
        #expect(facts.problems.isEmpty, "\(facts.problems)")
        #expect(facts.threads == 300)
        #expect(facts.unresolvedPlaceholders == 0)
        #expect(facts.wrongResponder == 0)
    }

    @Test("the summary matches the lines forEachLine gives")
    func summaryMatchesLines() {
        let generator = CorpusGenerator(threads: 250, seed: 5)
        var lines: [String] = []
        generator.forEachLine { lines.append($0) }
        let facts = CorpusFacts(lines: lines)
        let summary = generator.summary()
        #expect(summary.lines == lines.count)
        #expect(summary.threads == facts.threads)
        #expect(summary.groupThreads == facts.groupThreads)
        #expect(summary.agentMessages == facts.agentMessages)
        #expect(summary.personMessages == facts.personMessages)
        #expect(summary.messages == facts.agentMessages + facts.personMessages)
        #expect(summary.unknownLines == facts.unknownLines)
        #expect(summary.unknownNodes == facts.unknownNodes)
    }

    @Test("forEachLine streams: a body that throws stops it at once, even for a huge corpus")
    func forEachLineStreams() {
        struct Enough: Error {}
        var seen = 0
        #expect(throws: Enough.self) {
            try CorpusGenerator(threads: 100_000_000, seed: 1).forEachLine { _ in
                seen += 1
                if seen == 50 { throw Enough() }
            }
        }
        #expect(seen == 50)
    }

    @Test("zero and negative thread counts give only the header")
    func empty() {
        let none = corpusLines(threads: 0, seed: 1) == [CorpusFacts.header]
        let negative = corpusLines(threads: -3, seed: 1) == [CorpusFacts.header]
        #expect(none)
        #expect(negative)
    }
}
