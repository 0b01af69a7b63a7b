import Corpus
import Foundation
import Privacy
@testable import ReplayKit
import Testing
import RunTestSupport
import TestSupport

/// Sentences written without spaces (joined by `- _ . / + :`, in camelCase, in shouting snake
/// case) put in every label of a generated corpus reach no file a run writes: the built `replay`
/// (a dry run with checkpoints, `replay flywheel`, two shards and their merge) and an in-process
/// run with a model that answers every job. Each file is searched for three consecutive words of
/// any sentence in any case (`ThreeWordScan`), and only counts are shown.
@Suite(.tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct SpelledLabelTests {
    /// A generated corpus with spelled sentences in every label, and how many of each kind of
    /// label it rewrote (so a test can check the sentences were read, not dropped as bad lines).
    struct SpelledCorpus {
        var text: String
        var threads = 0
        var unknownTypeLines = 0
        var orphanMessages = 0
        /// One spelled member name the route job can be answered with (a member of some group).
        var memberName = ""
    }

    /// `CorpusGenerator`'s threads, each label replaced by the next spelling: thread agents,
    /// group leads and members and every `from` and `meta.group.to` naming them (one spelling
    /// per name and thread, so the threads still hang together), every third thread's locale and
    /// some messages' `lang`, builds and
    /// models, a node of a spelled kind on every agent screen, a line of a spelled type after
    /// every thread, and a message whose thread id is spelled (a bad line that quotes it).
    static func spelledCorpus(threads: Int = 40, seed: UInt64 = 5) throws -> SpelledCorpus {
        let directory = try TemporaryDirectory(prefix: "spelled")
        let plain = directory.path("generated.jsonl")
        _ = try CorpusGenerator(threads: threads, seed: seed, maxExchanges: 3).write(to: plain)
        let spellings = SpelledSentence.all.map(\.text)
        var next = 0
        func spelling() -> String {
            defer { next += 1 }
            return spellings[next % spellings.count]
        }
        var result = SpelledCorpus(text: "")
        var names: [String: String] = [:]
        func renamed(_ name: String) -> String {
            if let spelled = names[name] { return spelled }
            let spelled = spelling()
            names[name] = spelled
            return spelled
        }
        var lines: [String] = []
        var threadID: String? = nil
        func closeThread() {
            guard let id = threadID else { return }
            lines.append(json(["type": spelling(), "thread": id]))
            result.unknownTypeLines += 1
            threadID = nil
        }
        for line in try String(contentsOfFile: plain, encoding: .utf8).split(separator: "\n") {
            guard var record = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
            switch record["type"] as? String {
            case "thread":
                closeThread()
                names = [:]
                threadID = record["id"] as? String
                result.threads += 1
                if let agent = record["agent"] as? String { record["agent"] = renamed(agent) }
                // Every third thread: a spelled locale is no language the model supports, so
                // the other threads' places are still asked.
                if result.threads % 3 == 0 { record["locale"] = spelling() }
                if var group = record["group"] as? [String: Any] {
                    if let lead = group["lead"] as? String { group["lead"] = renamed(lead) }
                    if let members = group["members"] as? [[String: Any]] {
                        group["members"] = members.map { member in
                            var copy = member
                            if let name = member["name"] as? String { copy["name"] = renamed(name) }
                            return copy
                        }
                    }
                    record["group"] = group
                    if result.memberName.isEmpty, let last = (group["members"] as? [[String: Any]])?.last?["name"] as? String {
                        result.memberName = last
                    }
                }
            case "message":
                if let from = record["from"] as? String, from != "person" { record["from"] = renamed(from) }
                if record["lang"] != nil || next % 7 == 0 { record["lang"] = spelling() }
                if var meta = record["meta"] as? [String: Any] {
                    if meta["build"] != nil { meta["build"] = spelling() }
                    if meta["model"] != nil { meta["model"] = spelling() }
                    if var group = meta["group"] as? [String: Any], let to = group["to"] as? String {
                        group["to"] = renamed(to)
                        meta["group"] = group
                    }
                    record["meta"] = meta
                }
                if var screen = record["screen"] as? [Any] {
                    screen.insert([spelling(): [String: Any]()], at: 0)
                    record["screen"] = screen
                }
            default:
                break
            }
            lines.append(json(record))
        }
        closeThread()
        for _ in 0..<3 {
            lines.append(json(["type": "message", "thread": spelling(), "id": "o1", "at": "2026-09-03T07:00:00Z", "from": "person", "text": "x"]))
            result.orphanMessages += 1
        }
        result.text = lines.joined(separator: "\n") + "\n"
        return result
    }

    static func json(_ object: [String: Any]) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]), as: UTF8.self)
    }

    /// The files under `directory` (every name, recursively), each with how many runs of it hold
    /// three consecutive words of a sentence.
    static func hits(under directory: String) throws -> [(file: String, hits: Int)] {
        let scan = ThreeWordScan()
        let names = try FileManager.default.subpathsOfDirectory(atPath: directory).sorted()
        return try names.compactMap { name in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory + "/" + name, isDirectory: &isDirectory), !isDirectory.boolValue else { return nil }
            let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
            return (name, scan.hits(in: String(decoding: data, as: UTF8.self)) + scan.hits(in: name))
        }
    }

    /// The sentences really are in the corpus, in every spelling, and the scan finds them there:
    /// without this, a clean result could mean the test put nothing in.
    @Test func theSpelledCorpusHoldsEverySpelling() throws {
        let corpus = try Self.spelledCorpus()
        let found = ThreeWordScan().hits(in: corpus.text)
        let every = SpelledSentence.all.allSatisfy { corpus.text.contains($0.text) }
        #expect(found > 100)
        #expect(every)
        #expect(corpus.threads == 40 && corpus.unknownTypeLines == 40 && !corpus.memberName.isEmpty)
    }

    /// The built binary, confined as in production: a dry run with checkpoints, `replay
    /// flywheel`, two shards and their merge, and a labels file of ordinary names.
    @Test func noSpelledSentenceReachesAnyFileOfTheBuiltReplay() throws {
        let directory = try TemporaryDirectory(prefix: "spelled")
        let corpus = try Self.spelledCorpus()
        let path = try directory.write("spelled.jsonl", text: corpus.text)
        let labels = try directory.write("labels.json", text: #"{"agents": ["Coach", "Sage"], "members": ["Penny"], "builds": ["2.5.0-beta"]}"#)
        let replay = BuiltProducts.executable("replay")
        let runs: [(name: String, arguments: [String])] = [
            ("dry", ["--dry-run", "--resume", "--checkpoint-every", "7", "--labels", labels, "--out", directory.path("dry"), path]),
            ("flywheel", ["flywheel", "--labels", labels, "--out", directory.path("flywheel"), path]),
            ("shard0", ["--dry-run", "--shard", "0/2", "--labels", labels, "--out", directory.path("shard0"), path]),
            ("shard1", ["--dry-run", "--shard", "1/2", "--labels", labels, "--out", directory.path("shard1"), path]),
            ("merged", ["merge", "--labels", labels, "--out", directory.path("merged"), directory.path("shard0"), directory.path("shard1")]),
        ]
        let scan = ThreeWordScan()
        for run in runs {
            let ended = try Subprocess.run(replay, run.arguments)
            // The dry runs and the merge end 0; the corpus's bad lines are counted, not fatal.
            #expect(ended.status == 0, "\(run.name) exited \(ended.status)")
            let spoken = scan.hits(in: ended.output) + scan.hits(in: ended.errors)
            #expect(spoken == 0, "\(run.name): \(spoken) places in its stdout or stderr")
            for (file, hits) in try Self.hits(under: directory.path(run.name)) {
                #expect(hits == 0, "\(run.name)/\(file): \(hits) places with three words of a sentence")
            }
        }
        let written = try FileManager.default.contentsOfDirectory(atPath: directory.path("dry"))
        for name in ["report.json", "report.md", "state.json", "junit.xml", "metrics.csv", "metrics.json", "dashboard.html", "checkpoint-000001.json"] {
            #expect(written.contains(name), "the dry run wrote no \(name)")
        }
        for name in ["metrics.csv", "metrics.json", "dashboard.html"] {
            #expect(FileManager.default.fileExists(atPath: directory.path("flywheel/" + name)), "replay flywheel wrote no \(name)")
        }
        // The sentences were read as labels: every thread, every line of a spelled type, the
        // orphans as bad lines, and spelled kinds, builds and models shown as hashes.
        let report = try StateFixtures.report(at: directory.path("dry/report.json"))
        #expect(report.at("corpus.threads") == .int(corpus.threads))
        #expect(report.at("corpus.bad_lines") == .int(corpus.orphanMessages))
        guard case .object(let types)? = report.at("corpus.unknown_types"), case .object(let nodes)? = report.at("corpus.unknown_nodes"),
              case .object(let builds)? = report.at("jobs.chips.by_build") else {
            Issue.record("no unknown types, nodes or builds in the report")
            return
        }
        #expect(types.reduce(0) { $0 + Int($1.1.doubleValue ?? 0) } == corpus.unknownTypeLines)
        #expect(!nodes.isEmpty && nodes.allSatisfy { ReportLabel.isHashed($0.0) || $0.0 == "(other)" })
        #expect(builds.count > 1 && builds.allSatisfy { ReportLabel.isHashed($0.0) || $0.0 == "(other)" || $0.0 == "unknown" })
        // The confined binary read the labels file (before confinement) and names it in its state.
        let digest = try #require(TeamLabels(agents: ["Coach", "Sage"], members: ["Penny"], builds: ["2.5.0-beta"]).digest)
        for run in ["dry", "shard0", "merged"] {
            let state = try String(contentsOfFile: directory.path(run + "/state.json"), encoding: .utf8)
            #expect(state.contains(digest), "\(run)/state.json does not name the labels file")
        }
        let merged = try StateFixtures.report(at: directory.path("merged/report.json"))
        #expect(StateFixtures.comparable(merged)["corpus"] == StateFixtures.comparable(report)["corpus"])
    }

    /// In process, with a model that answers every job (routing to a spelled member), so the
    /// answers' counters and quality slices are written too; through the same writers as a run.
    @Test func noSpelledSentenceReachesAnyFileOfAnAnsweredRun() throws {
        let corpus = try Self.spelledCorpus(threads: 30, seed: 8)
        let (directory, report) = try ReportLabelTests.replay(corpus.text, routeTo: corpus.memberName)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (file, hits) in try Self.hits(under: directory + "/out") {
            #expect(hits == 0, "\(file): \(hits) places with three words of a sentence")
        }
        #expect((report.at("jobs.route.asked")?.doubleValue ?? 0) > 0)
        #expect((report.at("jobs.chips.answered")?.doubleValue ?? 0) > 0)
        guard case .object(let counters)? = report.at("jobs.route.counters") else { Issue.record("no route counters"); return }
        let pairs = counters.map(\.0).filter { $0.hasPrefix("confusion:") }
        #expect(!pairs.isEmpty)
    }
}
