import Corpus
import Export
import Foundation
import Jobs
import Testing
@testable import ReplayKit
@testable import Replay
import TestSupport

/// `--limit N` counts what was replayed: N threads, their messages, and the lines read up to
/// the record that ended the Nth thread, never the thread line after it.
@Suite(.serialized) struct ThreadLimitTests {
    static let generatedThreads = 40

    /// A generated corpus of 40 threads in `directory`.
    static func generated(in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("generated.jsonl.zst")
        _ = try CorpusGenerator(threads: generatedThreads, seed: 9).write(to: path)
        return path
    }

    /// What a reader had read just before the (n+1)th thread line, or all of it when there is none.
    static func readBefore(thread n: Int, of paths: [String]) throws -> CorpusStats {
        let reader = try CorpusReader(paths: paths)
        var before = reader.stats
        while let event = reader.next() {
            if case .record(.thread, _) = event, reader.stats.threads == n + 1 { return before }
            before = reader.stats
        }
        return reader.stats
    }

    static func run(_ paths: [String], limit: Int) -> ReplayTally {
        var options = ReplayOptions()
        options.corpus = paths
        options.dryRun = true
        options.threadLimit = limit
        options.flywheel = true
        return ReplayRunner(options: options, jobs: [ChipsJob()], model: nil, planningWorkers: 1).run()
    }

    @Test(arguments: [1, 2, 7, 30, 39, 40, 41, 100])
    func theCountsAreWhatWasReplayed(limit: Int) throws {
        let directory = try TemporaryDirectory(prefix: "thread-limit")
        let path = try Self.generated(in: directory)
        let tally = Self.run([path], limit: limit)
        let replayed = min(limit, Self.generatedThreads)
        #expect(tally.corpus.threads == replayed)
        #expect(tally.threadsReplayed == replayed)
        #expect(tally.flywheel?.threads == replayed)
        #expect(tally.stoppedAtLimit == (limit < Self.generatedThreads))
        #expect(tally.corpus == (try Self.readBefore(thread: replayed, of: [path])))
        let report = ReportBuilder(options: ReplayOptions(), tally: tally, model: nil, jobs: [ChipsJob()], seconds: 1, started: Date()).build()
        #expect(report.at("corpus.threads") == .int(replayed))
        #expect(report.at("corpus.messages") == .int(tally.corpus.messages))
    }

    /// A consumer that stops after the kth thread (`replay-bench model --requests`) is handed the
    /// threads `--limit k` hands on and the read counts the same, but it was no stop at the limit.
    @Test(arguments: [1, 2, 7, 39, 40])
    func aConsumerStopsWhereTheLimitWould(after k: Int) throws {
        let directory = try TemporaryDirectory(prefix: "thread-limit")
        let path = try Self.generated(in: directory)
        func read(limit: Int?, stopAfter: Int?) -> (threads: [String], tally: ReplayTally) {
            var options = ReplayOptions()
            options.corpus = [path]
            options.threadLimit = limit
            var threads: [String] = []
            let tally = ThreadSource(options: options).read(
                resume: nil,
                thread: { input in
                    threads.append(input.thread.thread.id)
                    return stopAfter.map { threads.count < $0 } ?? true
                },
                boundary: { _, _ in true }, progress: { _, _ in })
            return (threads, tally)
        }
        let limited = read(limit: k, stopAfter: nil)
        let stopped = read(limit: nil, stopAfter: k)
        #expect(stopped.threads.count == k)
        #expect(stopped.threads == limited.threads)
        #expect(stopped.tally.threadsReplayed == k)
        #expect(stopped.tally.corpus == limited.tally.corpus)
        #expect(stopped.tally.corpus == (try Self.readBefore(thread: k, of: [path])))
        #expect(stopped.tally.eventsRead == limited.tally.eventsRead)
        #expect(!stopped.tally.stoppedAtLimit)
        #expect(read(limit: nil, stopAfter: nil).threads.count == Self.generatedThreads)
    }

    /// The issue as reported: `--limit 30` over a larger corpus said 31 threads.
    @Test func limitThirtyReportsThirtyThreads() throws {
        let directory = try TemporaryDirectory(prefix: "thread-limit")
        let path = try Self.generated(in: directory)
        var said = ""
        let code = ReplayTool.main(["--dry-run", "--job", "chips", "--limit", "30", "--out", directory.path("out"), path],
                                   diagnostics: { said += $0 + "\n" }, sandboxed: false)
        #expect(code == .success)
        let json = try Data(contentsOf: URL(fileURLWithPath: directory.path("out/report.json")))
        let report = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let corpus = try #require(report["corpus"] as? [String: Any])
        #expect(corpus["threads"] as? Int == 30)
        #expect(corpus["threads_replayed"] as? Int == 30)
        #expect(corpus["messages"] as? Int == (try Self.readBefore(thread: 30, of: [path])).messages)
        #expect((report["run"] as? [String: Any])?["stopped_at_limit"] as? Bool == true)
        #expect(said.contains("replay: 30 threads"))
    }

    /// Bad lines are counted up to the end of the last replayed thread, and a limit met at a
    /// file's end does not count the next file.
    @Test(arguments: [(1, 1, 2, 1), (2, 1, 3, 2), (3, 2, 5, 3), (4, 2, 6, 3)])
    func badLinesAndFilesStopWithTheLastThread(limit: Int, files: Int, messages: Int, badLines: Int) throws {
        let directory = try TemporaryDirectory(prefix: "thread-limit")
        func thread(_ id: String, _ count: Int) -> String {
            #"{"type":"thread","id":"\#(id)","agent":"Coach"}"# + "\n" + (0..<count).map { n in
                #"{"type":"message","thread":"\#(id)","id":"m\#(n)","at":"2026-09-01T07:00:00Z","from":"person","text":"x"}"# + "\n"
            }.joined()
        }
        let first = try directory.write("1.jsonl", text: thread("t1", 2) + "not json\n" + thread("t2", 1) + "not json\n")
        let second = try directory.write("2.jsonl", text: #"{"type":"export","version":1}"# + "\n" + thread("t3", 2) + "not json\n" + thread("t4", 1))
        let tally = Self.run([first, second], limit: limit)
        #expect(tally.corpus.threads == min(limit, 4))
        #expect(tally.corpus.files == files)
        #expect(tally.corpus.messages == messages)
        #expect(tally.corpus.badLines == badLines)
        #expect(tally.corpus.records == min(limit, 4) + messages + (files == 2 ? 1 : 0))
    }
}
