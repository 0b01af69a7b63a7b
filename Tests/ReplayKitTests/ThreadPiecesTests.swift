import Engine
import Export
import Foundation
import Jobs
import Llama
import Privacy
import Testing
@testable import ReplayKit
import TestSupport

/// A dry run plans a long thread in pieces while it reads the rest (`ThreadAssembler.piece()`),
/// and counts exactly what planning whole threads counts: over the sample with every thread of
/// three messages or more in pieces, over one long thread, at a bad line that stops the run
/// inside a thread (`--strict`), and at the thread limit. Items are compared in the canonical
/// order the items table writes (a piece's items come job by job, like a thread's).
@Suite(.tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct ThreadPiecesTests {
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("corpora/sample.jsonl.zst").path

    /// The pieces of one thread of `count` varied messages, taken after every message, then the rest.
    static func pieces(count: Int, firstPiece: Int?) -> (pieces: [ThreadAssembler.Assembled], rest: ThreadAssembler.Assembled) {
        let thread = VariedThread.make(messages: count, seed: 3, group: true)
        var assembler = ThreadAssembler(firstPiece: firstPiece)
        _ = assembler.take(.thread(thread.thread))
        var pieces: [ThreadAssembler.Assembled] = []
        for message in thread.messages {
            #expect(assembler.take(.message(message)) == nil)
            if let piece = assembler.piece() { pieces.append(piece) }
        }
        return (pieces, assembler.finish()!)
    }

    @Test func piecesCoverTheThreadInOrderEachEndingBeforeAPersonMessageItHolds() {
        let count = 20_000
        let (pieces, rest) = Self.pieces(count: count, firstPiece: 1000)
        #expect(pieces.count >= 8)
        var next = 0
        for piece in pieces {
            #expect(piece.places.lowerBound == next && !piece.places.isEmpty)
            #expect(piece.thread.messages.count > piece.places.upperBound)
            #expect(piece.thread.messages[piece.places.upperBound].from == .person)
            next = piece.places.upperBound
        }
        #expect(pieces.first.map { $0.thread.messages.count >= 1000 } == true)
        #expect(rest.places == next..<count && rest.thread.messages.count == count)
        // Linear: every piece's pass over what was read before it, all together, a few times the thread.
        #expect(pieces.reduce(0) { $0 + $1.thread.messages.count } <= 6 * count)
        // What is left when the reading ends is a small part of the thread.
        #expect(rest.places.count <= count / 4)
    }

    @Test func withoutAFirstPieceAThreadIsHandedOnWhole() {
        let (pieces, rest) = Self.pieces(count: 5_000, firstPiece: nil)
        #expect(pieces.isEmpty && rest.places == 0..<5_000)
    }

    @Test func theNextThreadStartsItsPiecesAgain() {
        var assembler = ThreadAssembler(firstPiece: 100)
        let first = VariedThread.make(messages: 400, seed: 4, group: true)
        _ = assembler.take(.thread(first.thread))
        for message in first.messages {
            _ = assembler.take(.message(message))
            _ = assembler.piece()
        }
        var second = VariedThread.make(messages: 400, seed: 5, group: true)
        second.thread.id = "g2"
        let done = assembler.take(.thread(second.thread))
        #expect(done?.thread.messages.count == 400 && done?.places.upperBound == 400 && done!.places.lowerBound > 0)
        var firstPiece: ThreadAssembler.Assembled? = nil
        for message in second.messages {
            _ = assembler.take(.message(message))
            if firstPiece == nil { firstPiece = assembler.piece() }
        }
        #expect(firstPiece?.places.lowerBound == 0 && firstPiece?.thread.thread.id == "g2")
        #expect(assembler.completed == 1)
    }

    /// The sample's messages as one group thread `copies` times over (ids kept apart, builds
    /// alternating), with the line `bad` (if given) after its `badAfter`th message.
    static func longThread(copies: Int, bad: String? = nil, badAfter: Int = 0, in directory: TemporaryDirectory) throws -> String {
        let lines = String(decoding: try ZstdBytes.decompress(Array(try Data(contentsOf: URL(fileURLWithPath: sample)))), as: UTF8.self)
            .split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let header = lines.first { $0["type"] as? String == "export" }!
        let group = lines.first { $0["type"] as? String == "thread" && $0["group"] != nil }!
        let id = group["id"] as! String
        var out = [header, group]
        var written = 0, persons = 0
        for copy in 0..<copies {
            for var message in lines where message["type"] as? String == "message" {
                message["thread"] = id
                message["id"] = "c\(copy)-\(message["id"] as! String)"
                // Each person message of another build than the one before: an agent message
                // counted under its previous person message instead of its next is counted wrong.
                if message["from"] as? String == "person" {
                    var meta = message["meta"] as? [String: Any] ?? [:]
                    meta["build"] = persons % 2 == 0 ? "2.4.0 (530)" : "2.5.0 (601)"
                    message["meta"] = meta
                    persons += 1
                }
                out.append(message)
                written += 1
                if written == badAfter, let bad { out.append(["bad": bad]) }
            }
        }
        let text = out.map { object -> String in
            if let bad = object["bad"] as? String { return bad }
            return String(decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
        }.joined(separator: "\n") + "\n"
        return try directory.write("long.jsonl", Array(text.utf8))
    }

    static func run(_ options: ReplayOptions, firstPiece: Int?, tokenizer: any Tokenizer) -> (report: String, items: [ItemOutcome]) {
        let jobs = JobKind.allCases.map { RunJobs.job($0) }
        let runner = ReplayRunner(options: options, jobs: jobs, model: nil, planningWorkers: 2)
        runner.firstPiece = firstPiece
        let tally = runner.run()
        let built = ReportBuilder(options: options, tally: tally, model: nil, jobs: jobs, seconds: 0, started: Date(timeIntervalSince1970: 0)).build()
        return (ReportValue.object([("corpus", built["corpus"]!), ("jobs", built["jobs"]!)]).json(), tally.items)
    }

    static func tokenizer() throws -> any Tokenizer {
        try LlamaModel(path: try #require(DefaultModel.path(), "run scripts/setup first"), vocabularyOnly: true)
    }

    @Test func theSampleInPiecesCountsWhatItCountsWhole() throws {
        var options = ReplayOptions()
        options.corpus = [Self.sample]
        options.dryRun = true
        let tokenizer = try Self.tokenizer()
        let whole = Self.run(options, firstPiece: nil, tokenizer: tokenizer)
        let pieces = Self.run(options, firstPiece: 3, tokenizer: tokenizer)
        #expect(whole.items.count > 1000)
        #expect(pieces.report == whole.report)
        #expect(ItemTable(pieces.items) == ItemTable(whole.items))   // in the canonical order the table writes
    }

    @Test(arguments: [false, true])
    func aLongThreadInPiecesCountsWhatItCountsWhole(limited: Bool) throws {
        let directory = try TemporaryDirectory()
        var options = ReplayOptions()
        options.corpus = [try Self.longThread(copies: 4, in: directory), Self.sample]
        options.dryRun = true
        if limited { options.threadLimit = 40 }
        let tokenizer = try Self.tokenizer()
        let whole = Self.run(options, firstPiece: nil, tokenizer: tokenizer)
        for first in [200, 2 * Planner.rangeMessages] {
            let pieces = Self.run(options, firstPiece: first, tokenizer: tokenizer)
            #expect(pieces.report == whole.report)
            #expect(ItemTable(pieces.items) == ItemTable(whole.items))   // in the canonical order the table writes
        }
        #expect(whole.items.count > 4000)
    }

    /// A bad line inside the long thread stops a strict run there: the thread is not replayed, so
    /// neither are the pieces of it already planned.
    @Test func aStrictRunStoppedInsideAThreadKeepsNoneOfItsPieces() throws {
        let directory = try TemporaryDirectory()
        var options = ReplayOptions()
        options.corpus = [try Self.longThread(copies: 3, bad: "{not json", badAfter: 4000, in: directory)]
        options.dryRun = true
        options.strict = true
        let tokenizer = try Self.tokenizer()
        let whole = Self.run(options, firstPiece: nil, tokenizer: tokenizer)
        let pieces = Self.run(options, firstPiece: 200, tokenizer: tokenizer)
        #expect(pieces.report == whole.report)
        #expect(ItemTable(pieces.items) == ItemTable(whole.items))   // in the canonical order the table writes
        #expect(whole.items.isEmpty)
    }
}
