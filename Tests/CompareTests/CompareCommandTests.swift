import Foundation
import Privacy
import Testing
@testable import Compare
@testable import ReplayKit
@testable import Replay
import TestSupport

/// `replay compare` end to end in process, over real dry runs of tiny corpora given item tables
/// made here: what it refuses (named), what it writes, and how it exits.
@Suite(.serialized) struct CompareCommandTests {
    typealias F = CompareFixtures

    /// Two finished runs of one corpus under one key, holding the known tables, in `work`.
    static func knownRuns(in work: TemporaryDirectory) throws -> (base: String, new: String) {
        let key = try F.runKey(in: work)
        let corpus = try work.write("c.jsonl", text: F.corpus(threads: 3))
        let base = work.path("base"), new = work.path("new")
        #expect(F.dryRun(corpus, out: base, key: key) == .success)
        #expect(F.dryRun(corpus, out: new, key: key) == .success)
        try F.give(base, items: ItemTable(F.baseItems()))
        try F.give(new, items: ItemTable(F.newItems()))
        return (base, new)
    }

    @Test func writesItsFilesAndAManifestThatVerifies() throws {
        let work = try TemporaryDirectory(prefix: "compare-writes")
        let (base, new) = try Self.knownRuns(in: work)
        let out = work.path("cmp")
        let (code, said) = F.compare(["--run-key", work.path("run.key"), "--out", out, base, new])
        #expect(code == .success, "\(said)")
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: out))
        #expect(names == ["compare.json", "compare.md", "compare.html", "junit.xml", "manifest.json"])
        #expect(ReplayTool.main(["verify", out], diagnostics: { _ in }, sandboxed: false) == .success)
        let text = try String(contentsOfFile: out + "/compare.json", encoding: .utf8)
        let json = try ReportValue(parsingExactJSON: text)
        #expect(json["schema"] == .label("replay.compare/1"))
        let document = try ReportValueDecoder(strict: true).decode(CompareDocument.self, from: json)
        #expect(try ReportValueEncoder().encode(document).json() == text, "the file is its type: read strictly and written again, the same")
        let chips = try #require(document.jobs[.chips])
        #expect(chips.join.paired == 40)
        #expect(document.method.bootstrap.seed == Int(CompareOptions.defaultSeed))
        #expect(document.base.directory.text == OutputDirectory.resolve(base, from: "/"))
        let metrics = Dictionary(uniqueKeysWithValues: chips.overall.metrics.pairs.map { ($0.key.mapKey, $0.value) })
        #expect(metrics["answered"]?.discordant == CompareDocument.Metric.Discordant(baseOnly: 3, newOnly: 9))
        #expect(metrics["tokens.in"]?.verdict == .worse, "metric keys are one JSON key each")
        #expect(json.at("jobs.chips.overall.metrics.tokens.in.verdict") == nil)
        #expect(document.gates.isEmpty)
        let junit = try String(contentsOfFile: out + "/junit.xml", encoding: .utf8)
        #expect(junit.contains(#"<testsuites tests="1" failures="0">"#) && junit.contains(#"name="compared"/>"#))
        let md = try String(contentsOfFile: out + "/compare.md", encoding: .utf8)
        #expect(md.contains("## Job: chips") && md.contains("### App build 2.4.0") && md.contains("| answered | share | 50% | 65% | +15 pp |"))
        let html = try String(contentsOfFile: out + "/compare.html", encoding: .utf8)
        #expect(html.contains("<svg class=\"forest\"") && !html.lowercased().contains("<script"))
        #expect(said.contains("chips: 40 items paired, 0 in BASE only, 0 in NEW only"))
        // The seed is stated, and another one changes only the bootstrap.
        let other = work.path("cmp-seed")
        #expect(F.compare(["--run-key", work.path("run.key"), "--seed", "7", "--out", other, base, new]).code == .success)
        let seeded = try ReportValueDecoder(strict: true).decode(
            CompareDocument.self, from: ReportValue(parsingExactJSON: String(contentsOfFile: other + "/compare.json", encoding: .utf8)))
        #expect(seeded.method.bootstrap.seed == 7)
    }

    @Test func gatesExitOneWhenAnyFailsWithOneJUnitCaseEach() throws {
        let work = try TemporaryDirectory(prefix: "compare-gates")
        let (base, new) = try Self.knownRuns(in: work)
        let out = work.path("cmp")
        let (code, said) = F.compare(["--run-key", work.path("run.key"), "--out", out, "--fail-if-worse", "chips.answered=0.02", "--fail-if-worse", "chips.tokens.in=5",
                                      "--fail-if-worse", "chips.latency.host.p95=6", base, new])
        #expect(code == .thresholdsNotMet, "\(said)")
        #expect(said.contains("replay compare: gate chips.answered: lower 95% bound"))
        #expect(said.contains("replay compare: gate chips.tokens.in: upper 95% bound 10 >= 5"))
        #expect(said.contains("verdict: 1 of 3 gates failed (exit 1)"))
        let junit = try String(contentsOfFile: out + "/junit.xml", encoding: .utf8)
        #expect(junit.contains(#"<testsuites tests="3" failures="1">"#))
        #expect(junit.contains(#"<testcase classname="replay.chips" name="chips.answered not worse by 0.02"/>"#))
        #expect(junit.contains(#"<testcase classname="replay.chips" name="chips.tokens.in not worse by 5">"#))
        let gated = try ReportValueDecoder(strict: true).decode(
            CompareDocument.self, from: ReportValue(parsingExactJSON: String(contentsOfFile: out + "/compare.json", encoding: .utf8)))
        #expect(gated.gates.map(\.bound) == [.lower, .upper, .upper] && gated.gates.map(\.passed) == [true, false, true])
        let passing = F.compare(["--run-key", work.path("run.key"), "--out", work.path("pass"), "--fail-if-worse", "chips.answered=0.02", base, new])
        #expect(passing.code == .success && passing.said.contains("verdict: all 1 gates passed"))
    }

    @Test func anUnknownGateKeyIsAUsageErrorBeforeAnythingRuns() throws {
        let work = try TemporaryDirectory(prefix: "compare-unknown")
        let (code, said) = F.compare(["--out", work.path("cmp"), "--fail-if-worse", "chips.speed=1", work.path("a"), work.path("b")])
        #expect(code == .usage)
        #expect(said.contains("speed is not a metric of chips") && said.contains("Valid keys for chips: asked, answered"))
        #expect(!FileManager.default.fileExists(atPath: work.path("cmp")))
    }

    @Test func runsOverDifferentCorporaAreRefusedNamingBoth() throws {
        let work = try TemporaryDirectory(prefix: "compare-corpora")
        let key = try F.runKey(in: work)
        let one = try work.write("one.jsonl", text: F.corpus(threads: 3)), two = try work.write("two.jsonl", text: F.corpus(threads: 3, salt: "x"))
        let a = work.path("a"), b = work.path("b")
        F.dryRun(one, out: a, key: key)
        F.dryRun(two, out: b, key: key)
        try F.give(a, items: ItemTable(F.baseItems()))
        try F.give(b, items: ItemTable(F.baseItems()))
        let (code, said) = F.compare(["--run-key", work.path("run.key"), "--out", work.path("cmp"), a, b])
        #expect(code == .input)
        #expect(said.contains("\(a) and \(b) are not runs over the same corpus") && said.contains("corpus file 1 differs in size or digest"))
        #expect(!FileManager.default.fileExists(atPath: work.path("cmp/compare.json")))
    }

    @Test func runsUnderDifferentRunKeysAreRefused() throws {
        let work = try TemporaryDirectory(prefix: "compare-keys")
        let corpus = try work.write("c.jsonl", text: F.corpus(threads: 2))
        let a = work.path("a"), b = work.path("b")
        F.dryRun(corpus, out: a, key: try F.runKey(in: work, byte: 1, name: "one.key"))
        F.dryRun(corpus, out: b, key: try F.runKey(in: work, byte: 2, name: "two.key"))
        try F.give(a, items: ItemTable(F.baseItems()))
        try F.give(b, items: ItemTable(F.baseItems()))
        let (code, said) = F.compare(["--run-key", work.path("one.key"), "--out", work.path("cmp"), a, b])
        #expect(code == .input)
        #expect(!said.contains("\(a) is not"), "\(said)")
        #expect(said.contains("\(b) is not a finished run to compare: its state.json was made under another run key than this comparison's"), "\(said)")
        // Under neither key, the first run is refused.
        let neither = F.compare(["--run-key", try F.runKey(in: work, byte: 3, name: "three.key"), "--out", work.path("cmp-neither"), a, b])
        #expect(neither.code == .input && neither.said.contains("\(a) is not a finished run to compare: its state.json was made under another run key"))
    }

    /// One way a directory is not a finished run with items.
    enum Unfinished: String, CaseIterable, Sendable {
        case noSuchDirectory, noManifest, changedSinceTheManifest, noItems, corruptItems, anAuditsDirectory
    }

    @Test(arguments: Unfinished.allCases)
    func aDirectoryThatIsNotAFinishedRunIsRefusedNamingIt(_ way: Unfinished) throws {
        let work = try TemporaryDirectory(prefix: "compare-unfinished")
        let (base, new) = try Self.knownRuns(in: work)
        let expected: String
        switch way {
        case .noSuchDirectory:
            try FileManager.default.removeItem(atPath: new)
            expected = "there is no such directory"
        case .noManifest:
            try FileManager.default.removeItem(atPath: new + "/manifest.json")
            expected = "it has no manifest.json, which a run writes last"
        case .changedSinceTheManifest:
            try work.write("new/report.md", text: "edited\n")
            expected = "it differs from its manifest.json in 1 entry since the run finished (replay verify \(new) names them)"
        case .noItems:
            try FileManager.default.removeItem(atPath: new + "/" + ItemTable.fileName)
            try FileManager.default.removeItem(atPath: new + "/manifest.json")
            try OutputDirectory(new).saveManifest()
            expected = "it has no items.json.zst"
        case .corruptItems:
            try FileManager.default.removeItem(atPath: new + "/" + ItemTable.fileName)
            try FileManager.default.removeItem(atPath: new + "/manifest.json")
            try ReportFile.create(new + "/" + ItemTable.fileName, bytes: ZstdBytes.compress(Array(#"{"schema":"replay.items/1","count":"x"}"#.utf8)))
            try OutputDirectory(new).saveManifest()
            expected = "its items.json.zst:"
        case .anAuditsDirectory:
            try FileManager.default.removeItem(atPath: new + "/manifest.json")
            try work.write("new/audit.sarif", text: "{}\n")
            expected = "it is an audit's directory; compare the run inside it"
        }
        let (code, said) = F.compare(["--run-key", work.path("run.key"), "--out", work.path("cmp"), base, new])
        #expect(code == .input, "\(said)")
        #expect(said.contains("replay compare: \(new) is not a finished run to compare: \(expected)"), "\(said)")
    }

    @Test func anOutDirectoryThatIsOrIsInsideARunIsAUsageError() throws {
        let work = try TemporaryDirectory(prefix: "compare-out")
        let (base, new) = try Self.knownRuns(in: work)
        for out in [base, new, new + "/cmp", base + "/./"] {
            let (code, said) = F.compare(["--run-key", work.path("run.key"), "--out", out, base, new])
            #expect(code == .usage, "\(out)")
            #expect(said.contains("which it would change: give the comparison a directory of its own"))
        }
        #expect(ReplayTool.main(["verify", new], diagnostics: { _ in }, sandboxed: false) == .success)
    }

    @Test func theCommandLineIsChecked() {
        #expect(F.compare(["--out", "x", "only-one"]).said.contains("needs two run directories"))
        #expect(F.compare(["--out", "x", "a", "b", "c"]).code == .usage)
        #expect(F.compare(["--seed", "-1", "a", "b"]).said.contains("--seed takes a whole number"))
        #expect(F.compare(["--frobnicate", "a", "b"]).said.contains("unknown option '--frobnicate' for replay compare"))
        #expect(F.compare(["--help"]).code == .success)
        #expect(F.compare(["--help"]).said.contains("usage: replay compare"))
    }

    @Test func compareUsageListsEveryCodeItEndsWith() {
        let entries = UsageText.exitEntries(CompareCommand.usage)
        #expect(entries.map(\.0) == ExitCode.compareCodes.map(\.rawValue))
        #expect(entries.map(\.1) == ExitCode.compareCodes.map { $0.compareMeaning ?? "" })
        #expect(ExitCode.allCases.filter { $0.compareMeaning != nil }.count == ExitCode.compareCodes.count)
        #expect(CompareCommand.usage.split(separator: "\n").allSatisfy { $0.count <= 110 })
    }
}
