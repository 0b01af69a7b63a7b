import Corpus
import Foundation
import Privacy
@testable import ReplayKit
@testable import Replay
@testable import Export
import Testing
import RunTestSupport
import TestSupport

/// `--labels FILE` (and the config's `labels`): the team's names shown as written in every file,
/// a bad file refused with its name and what is wrong, and shards, resumes and merges that must
/// share one list.
@Suite struct TeamLabelsTests {
    static let listText = #"{"agents": ["Coach", "Sage"], "members": ["Penny", "Sage"], "builds": ["2.5.0-beta"], "kinds": ["chart"]}"#

    // MARK: - Reading the file

    @Test func theFileIsReadForEveryCommandThatPrintsLabels() throws {
        let directory = try TemporaryDirectory(prefix: "labels")
        let path = try directory.write("labels.json", text: Self.listText)
        let expected = TeamLabels(agents: ["Coach", "Sage"], members: ["Penny", "Sage"], builds: ["2.5.0-beta"], kinds: ["chart"])
        guard case .replay(let options) = try ArgumentParser.parse(["--labels", path, "c.jsonl"]) else { Issue.record("not a replay"); return }
        #expect(options.labels == expected)
        #expect(try FlywheelCommand.parse(["--labels", path, "c.jsonl"])
                == FlywheelCommand.Options(corpus: ["c.jsonl"], outputDirectory: "replay-report", allowUnsandboxed: false, labels: expected, force: false))
        let merge = try #require(try MergeCommand.parse(["--labels", path, "s0", "s1"]))
        #expect(merge.labels == expected && merge.shardDirectories == ["s0", "s1"])
        guard case .replay(let plain) = try ArgumentParser.parse(["c.jsonl"]) else { return }
        #expect(plain.labels == .none)
    }

    @Test func theConfigNamesTheFileAndTheFlagWins() throws {
        let directory = try TemporaryDirectory(prefix: "labels")
        let first = try directory.write("first.json", text: #"{"agents": ["Coach"]}"#)
        let second = try directory.write("second.json", text: #"{"agents": ["Sage"]}"#)
        let config = try directory.write("replay.json", text: #"{"device": "iphone15pro", "labels": "\#(first)"}"#)
        guard case .replay(let fromConfig) = try ArgumentParser.parse(["--config", config, "c.jsonl"]),
              case .replay(let fromFlag) = try ArgumentParser.parse(["--config", config, "--labels", second, "c.jsonl"]) else {
            Issue.record("not a replay")
            return
        }
        #expect(fromConfig.labels.agents == ["Coach"])
        #expect(fromFlag.labels.agents == ["Sage"])
        let bad = try directory.write("bad.json", text: #"{"labels": 3}"#)
        #expect(throws: ArgumentParser.UsageError("\(bad): 'labels' must be the path of a labels file (see --labels)")) {
            try ArgumentParser.parse(["--config", bad, "c.jsonl"])
        }
    }

    /// Each bad file is a usage error naming the file and, for an entry, its key and index; an
    /// entry's own text is never repeated (it could be anything).
    @Test(arguments: [
        (#"["Coach"]"#, "is not a JSON object"),
        ("{", "is not a JSON object"),
        (#"{"agent": ["Coach"]}"#, "has an unknown key 'agent' (agents, members, builds, models, kinds are allowed)"),
        (#"{"agents": "Coach"}"#, ": 'agents' must be an array of strings"),
        (#"{"members": ["Penny", 7]}"#, ": members[1] is not a string"),
        (#"{"agents": ["Coach", ""]}"#, ": agents[1] cannot be listed: it is empty"),
        (##"{"builds": ["#h:0000beef"]}"##, ": builds[0] cannot be listed: it has the shape of a hashed label (#h: and 8 hex digits)"),
        (#"{"agents": ["Tell mum\u0000the surgery"]}"#, ": agents[0] cannot be listed: it holds a control, format or line-breaking character (U+0)"),
        (#"{"kinds": ["(other)"]}"#, ": kinds[0] cannot be listed: '(other)' is one of the report's own labels"),
        (#"{"agents": ["Coach"], "members": [], "agents": ["Tell mum the surgery"]}"#, ": 'agents' is given twice"),
    ])
    func aBadFileIsAUsageErrorNamingItAndWhatIsWrong(_ text: String, _ problem: String) throws {
        let directory = try TemporaryDirectory(prefix: "labels")
        let path = try directory.write("labels.json", text: text)
        do {
            _ = try ArgumentParser.parse(["--labels", path, "c.jsonl"])
            Issue.record("accepted")
        } catch {
            #expect(error.description.hasPrefix("the labels file \(path)"))
            #expect(error.description.contains(problem))
            #expect(!error.description.contains("surgery"))
        }
        var said = ""
        let code = ReplayTool.main(["--labels", path, "--out", directory.path("out"), "c.jsonl"], diagnostics: { said += $0 }, sandboxed: false)
        #expect(code == .usage)
        #expect(said.contains(path))
        #expect(!FileManager.default.fileExists(atPath: directory.path("out")))   // nothing ran
    }

    @Test func aMissingOrHugeFileIsAUsageError() throws {
        let directory = try TemporaryDirectory(prefix: "labels")
        let missing = directory.path("none.json")
        #expect(throws: ArgumentParser.UsageError("cannot read the labels file \(missing)")) {
            try ArgumentParser.parse(["flywheel", "--labels", missing, "c.jsonl"])
        }
        let huge = try directory.write("huge.json", text: #"{"agents": [""# + String(repeating: "a", count: 1 << 20) + #""]}"#)
        #expect(throws: ArgumentParser.UsageError("the labels file \(huge) is larger than 1024 KiB: it should list names, not hold a corpus")) {
            try ArgumentParser.parse(["merge", "--labels", huge, "s0"])
        }
    }

    // MARK: - What stays readable

    /// The team's names and the export's version shapes are shown as written in every file; the
    /// same corpus without the list shows the names as hashes, and the versions still as written.
    @Test func listedNamesAndVersionShapesStayReadableInEveryFile() throws {
        let corpus = ReportLabelTests.corpus([:])
        let list = TeamLabels(agents: ["Coach"], members: ["Penny"], kinds: ["chart"])
        let (directory, report) = try ReportLabelTests.replay(corpus, routeTo: "Penny", labels: list)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(report.at("jobs.chips.by_build")?["2.3.0 (512)"] != nil)
        #expect(report.at("jobs.route.by_model")?["26.4"] != nil)
        #expect(report.at("jobs.route.counters")?["confusion:Penny->Penny"] == .int(1))
        #expect(report.at("corpus.unknown_nodes.chart") == .int(1))
        let files = try Self.texts(in: directory + "/out")
        #expect(files["metrics.csv"]?.contains(",agent,Coach,") == true)
        #expect(files["metrics.json"]?.contains(#""key": "Coach""#) == true)
        #expect(files["report.md"]?.contains(#"2.3.0 \(512\)"#) == true && files["report.md"]?.contains("Penny") == true)
        #expect(files["dashboard.html"]?.contains("2.3.0 (512)") == true)
        #expect(files["state.json"]?.contains(try #require(list.digest)) == true)

        let (plainDirectory, plain) = try ReportLabelTests.replay(corpus, routeTo: "Penny")
        defer { try? FileManager.default.removeItem(atPath: plainDirectory) }
        #expect(plain.at("jobs.chips.by_build")?["2.3.0 (512)"] != nil)
        #expect(plain.at("jobs.route.counters")?["confusion:Penny->Penny"] == nil)
        let plainFiles = try Self.texts(in: plainDirectory + "/out")
        for (name, text) in plainFiles {
            #expect(!text.contains("Coach") && !text.contains("Penny"), "\(name) shows a name nobody listed")
        }
    }

    static func texts(in directory: String) throws -> [String: String] {
        var texts: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            let path = directory + "/" + name
            if name.hasSuffix(".json.zst") {
                // The item tables (items.json.zst, a checkpoint's segment): checked as the JSON they hold.
                let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
                texts[name] = try ItemTable(compressed: bytes, name: name).json()
            } else {
                texts[name] = try String(contentsOfFile: path, encoding: .utf8)
            }
        }
        return texts
    }

    // MARK: - Shards, resume and merge share one list

    @Test func aMergeNeedsTheShardsList() throws {
        let directory = try TemporaryDirectory(prefix: "labels-merge")
        let corpus = try directory.write("c.jsonl", text: StateFixtures.messy(threads: 12))
        let list = try directory.write("labels.json", text: Self.listText)
        let other = try directory.write("other.json", text: #"{"agents": ["Coach"]}"#)
        func shard(_ spec: String, _ name: String, _ labels: String?) -> String {
            let out = directory.path(name)
            let run = ShardMergeTests.replay(["--dry-run", "--job", "chips", "--shard", spec, "--out", out]
                                             + (labels.map { ["--labels", $0] } ?? []) + [corpus])
            #expect(run.code == .success, "\(run.said)")
            return out
        }
        let s0 = shard("0/2", "s0", list), s1 = shard("1/2", "s1", list), s1other = shard("1/2", "s1-other", other)
        func merge(_ dirs: [String], _ labels: String?) -> (code: ExitCode, said: String) {
            ShardMergeTests.replay(["merge", "--out", directory.path("merged-" + UUID().uuidString)] + (labels.map { ["--labels", $0] } ?? []) + dirs)
        }
        let same = merge([s0, s1], list)
        #expect(same.code == .success, "\(same.said)")
        let without = merge([s0, s1], nil)
        #expect(without.code == .usage)
        #expect(without.said.contains("ran with a --labels file") && without.said.contains("give replay merge the same --labels file"))
        let another = merge([s0, s1], other)
        #expect(another.code == .usage && another.said.contains("ran with another --labels file"))
        // Shards of two lists are not shards of one run.
        let mixed = merge([s0, s1other], list)
        #expect(mixed.code == .input && mixed.said.contains("--labels"), "\(mixed.said)")
        // Shards without a list merge only without one.
        let p0 = shard("0/2", "p0", nil), p1 = shard("1/2", "p1", nil)
        #expect(merge([p0, p1], nil).code == .success)
        let given = merge([p0, p1], list)
        #expect(given.code == .usage && given.said.contains("ran without --labels"))
    }

    @Test func aResumeWithAnotherListIsRefused() throws {
        let directory = try TemporaryDirectory(prefix: "labels-resume")
        let corpus = try directory.write("c.jsonl", text: StateFixtures.messy(threads: 12))
        let list = try directory.write("labels.json", text: Self.listText)
        let out = directory.path("out")
        let first = ShardMergeTests.replay(["--dry-run", "--job", "chips", "--resume", "--checkpoint-every", "2", "--labels", list, "--out", out, corpus])
        #expect(first.code == .success, "\(first.said)")
        // As if it had been killed before its manifest: a finished run is not resumed.
        try FileManager.default.removeItem(atPath: out + "/manifest.json")
        let again = ShardMergeTests.replay(["--dry-run", "--job", "chips", "--resume", "--checkpoint-every", "2", "--out", out, corpus])
        #expect(again.code == .usage)
        #expect(again.said.contains("its options differ (--labels)"), "\(again.said)")
        let same = ShardMergeTests.replay(["--dry-run", "--job", "chips", "--resume", "--checkpoint-every", "2", "--labels", list, "--out", out, corpus])
        #expect(same.code == .success && same.said.contains("resuming after"), "\(same.said)")
    }

    /// A state names its list by digest only; a state of another list read back keeps no name.
    @Test func aStateReadWithAnotherListKeepsNoName() throws {
        let list = TeamLabels(agents: ["Coach"], members: ["Penny"])
        var options = StateFixtures.options([])
        options.labels = list
        let jobs = options.jobs.map { RunJobs.job($0, labels: list) }
        var state = RunState(tally: ReplayTally(), options: StateOptions(options, jobs: jobs), corpusIdentity: CorpusIdentity(files: []),
                             model: .none, timing: Timing(started: "2026-01-01T00:00:00Z", seconds: 1))
        state.ledgers[.route, default: .init()].overall.counters["confusion:Penny->lead"] = 2
        let text = state.stateJSON(key: StateFixtures.key)
        #expect(!text.contains("\"Coach\""))
        let same = try RunState(stateJSON: text, key: StateFixtures.key, labels: list)
        #expect(same.options.labels == list)
        #expect(same.ledgers[.route]?.overall.counters["confusion:Penny->lead"] == 2)
        let other = try RunState(stateJSON: text, key: StateFixtures.key)
        #expect(other.options.labels.digest == list.digest && other.options.labels.members.isEmpty)
        #expect(other.ledgers[.route]?.overall.counters["confusion:Penny->lead"] == nil)
        #expect(other.options.differences(from: StateOptions(options, jobs: jobs)).isEmpty)
        var unlisted = options
        unlisted.labels = .none
        #expect(StateOptions(unlisted, jobs: jobs).differences(from: same.options) == ["--labels"])
    }
}

/// The vocabulary a kind label may come from is the reader's own: every kind it knows, so no
/// known kind is ever counted as unknown under a hash, and nothing the format does not define.
@Suite struct ExportVocabularyTests {
    @Test func theKindsAreTheFormatsLineTypesAndNodeKinds() {
        let nodeKinds = Set(NodeKind.allCases.map(\.rawValue))
        #expect(ExportVocabulary.kinds == nodeKinds.union(["export", "thread", "message"]))
    }

    /// Every field path the reader quotes keeps its shape: the ones its reasons name.
    @Test(arguments: ["group.members", "meta.draft_ticks[3]", "screen[0].card.title", "screen[1].stat.value", "screen[2].list.items[4]",
                      "screen[3].choose.options[0]", "screen[4].picture.url", "push.batch", "meta.group.to"])
    func theReadersFieldPathsPass(_ path: String) {
        #expect(ReportLabel(id: path).text == path)
    }
}
