import Foundation
import Llama
import Glibc
import Replay
import Testing
@testable import Audit
@testable import Confinement
import Privacy
import TestSupport

/// `ResultSchemaCheck` on real `replay` runs: a clean run's directory passes with zero findings,
/// dry and with the model; each way of hiding words or token ids in it is a finding that names
/// the file and place, never the text.
@Suite(.serialized, .tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct ResultSchemaCheckTests {
    /// Words planted by the tampering; no finding may repeat them.
    static let sentenceWords = ["Tell", "mum", "surgery", "Friday", "GP"]

    @Test(arguments: ["dry", "model"])
    func cleanRunHasZeroFindings(run name: String) throws {
        let run = name == "dry" ? ReplayResultRun.dry : ReplayResultRun.model
        let directory = try #require(run.directory, Comment(rawValue: run.failure ?? ""))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
        // The run wrote what it should, or the check proves little.
        #expect(Set(["report.json", "report.md", "junit.xml", "state.json", "metrics.csv", "metrics.json", "dashboard.html"])
            .isSubset(of: Set(names)))
        if name == "dry" { #expect(names.contains("checkpoint-000001.json")) }
        let findings = ResultSchemaCheck.check(directory: directory, knownPaths: [ReplayResultRun.corpus], documents: ReplayTool.documents)
        #expect(findings.isEmpty, "\(findings.map(\.message))")
    }

    /// The whole sample (300 threads, dry, checkpoints every 100): many labels, hashed ones,
    /// capped dimensions with their `(other)`, weeks, confusion pairs; still zero findings.
    @Test func cleanRunOverTheWholeSampleHasZeroFindings() throws {
        let work = try TemporaryDirectory(prefix: "whole-sample")
        let ended = try Subprocess.run(BuiltProducts.executable("replay"), ["--dry-run", "--resume", "--checkpoint-every", "100",
                                                                             "--out", work.path("out"), ReplayResultRun.corpus], timeout: 900)
        #expect(ended.status == 0, "exit \(ended.status)")
        let findings = ResultSchemaCheck.check(directory: work.path("out"), knownPaths: [ReplayResultRun.corpus], documents: ReplayTool.documents)
        #expect(findings.isEmpty, "\(findings.map(\.message))")
    }

    /// A corpus with bad lines, an unknown line type and a truncated second file, given by
    /// relative paths: the reasons, input errors and paths the report then holds are the
    /// writers' words and the run's own paths, so still zero findings.
    @Test func cleanRunOverAFlawedCorpusHasZeroFindings() throws {
        let work = try TemporaryDirectory(prefix: "flawed-corpus")
        let sample = try Subprocess.run(tool: "zstd", ["-dc", ReplayResultRun.corpus])
        var lines = String(decoding: sample.standardOutput, as: UTF8.self).split(separator: "\n").prefix(40).joined(separator: "\n") + "\n"
        lines += #"{"type":"message","thread":"t_9","id":"m_x","at":"2026-06-16T21:39:12Z","from":"person","text":"hi"}"# + "\n"
        lines += "not json\n"
        lines += #"{"type":"poll","x":1}"# + "\n"
        lines += #"{"type":"message","thread":"t_1","id":"m_2","from":"# + "\n"
        try FileManager.default.createDirectory(atPath: work.path("in"), withIntermediateDirectories: false)
        try work.write("in/a.jsonl", Array(lines.utf8))
        let packed = try Subprocess.run(tool: "zstd", ["-q", "-c"], input: Data(lines.utf8))
        try work.write("in/b.jsonl.zst", Array(packed.standardOutput.prefix(packed.standardOutput.count / 2)))
        let ended = try Subprocess.run(BuiltProducts.executable("replay"), ["--dry-run", "--out", "out", "in/a.jsonl", "in/b.jsonl.zst"],
                                       directory: work.path, timeout: 600)
        #expect(ended.status == 3, "a truncated file is an input error: exit \(ended.status)")
        let report = try String(contentsOfFile: work.path("out/report.json"), encoding: .utf8)
        #expect(report.contains("bad_line_samples") && report.contains("\"unknown_types\": {\n"))
        let findings = ResultSchemaCheck.check(directory: work.path("out"), knownPaths: ["in/a.jsonl", "in/b.jsonl.zst"], documents: ReplayTool.documents)
        #expect(findings.isEmpty, "\(findings.map(\.message))")
        // Given the directory instead, its files pass as paths beneath it that exist.
        let byDirectory = ResultSchemaCheck.check(directory: work.path("out"), knownPaths: ["in"], workingDirectory: work.path, documents: ReplayTool.documents)
        #expect(byDirectory.isEmpty, "\(byDirectory.map(\.message))")
        // A path beneath it that names no file is no path of the run.
        #expect(!ResultText.isPath("in/Tell-mum-the-surgery", context: ResultText.Context(knownPaths: ["in"], workingDirectory: work.path)))
    }

    /// A model that cannot be loaded: the report says why, in the engine's words and the
    /// path it was given, and the run exits 4; still zero findings.
    @Test func cleanRunWithoutAModelHasZeroFindings() throws {
        let work = try TemporaryDirectory(prefix: "no-model")
        let model = work.path("missing.gguf")
        let ended = try Subprocess.run(BuiltProducts.executable("replay"), ["--model", model, "--limit", "2", "--out", work.path("out"),
                                                                             ReplayResultRun.corpus], timeout: 600)
        #expect(ended.status == 4, "exit \(ended.status)")
        let findings = ResultSchemaCheck.check(directory: work.path("out"), knownPaths: [ReplayResultRun.corpus, model], documents: ReplayTool.documents)
        #expect(findings.isEmpty, "\(findings.map(\.message))")
    }

    /// With the team's `--labels`, its agents show as written; the check, given the same list,
    /// keeps them, and without it finds them (a name no rule keeps on its own).
    @Test func theTeamsListedNamesPassWithTheTeamsList() throws {
        let work = try TemporaryDirectory(prefix: "team-labels")
        let agents: Set<String> = ["Atlas", "Chef", "Coach", "Fern", "Juno", "Penny", "Sage", "Tutor"]
        let list = #"{"agents": ["# + agents.sorted().map { "\"\($0)\"" }.joined(separator: ", ") + "]}\n"
        let labels = try work.write("labels.json", Array(list.utf8))
        let ended = try Subprocess.run(BuiltProducts.executable("replay"), ["--dry-run", "--flywheel", "--limit", "6", "--labels", labels,
                                                                             "--out", work.path("out"), ReplayResultRun.corpus], timeout: 600)
        #expect(ended.status == 0, "exit \(ended.status)")
        let metrics = try String(contentsOfFile: work.path("out/metrics.csv"), encoding: .utf8)
        #expect(metrics.contains(",agent,Coach,") || metrics.contains(",agent,Sage,"), "the run showed a listed agent")
        let known: Set<String> = [ReplayResultRun.corpus, labels]
        let withList = ResultSchemaCheck.check(directory: work.path("out"), knownPaths: known, teamLabels: TeamLabels(agents: agents), documents: ReplayTool.documents)
        #expect(withList.isEmpty, "\(withList.map(\.message))")
        let withoutList = ResultSchemaCheck.check(directory: work.path("out"), knownPaths: known, documents: ReplayTool.documents)
        #expect(!withoutList.isEmpty)
    }

    /// Two shards and their merge: every directory `replay` and `replay merge` write passes.
    @Test func shardsAndTheirMergeHaveZeroFindings() throws {
        let work = try TemporaryDirectory(prefix: "shards")
        let replay = BuiltProducts.executable("replay")
        for shard in ["0/2", "1/2"] {
            let out = work.path("s" + shard.prefix(1))
            let ended = try Subprocess.run(replay, ["--dry-run", "--limit", "4", "--shard", shard, "--out", out, ReplayResultRun.corpus], timeout: 600)
            #expect(ended.status == 0)
        }
        let merged = try Subprocess.run(replay, ["merge", "--out", work.path("merged"), "--fail-under", "chips.eligible=1",
                                                 work.path("s0"), work.path("s1")], timeout: 600)
        #expect(merged.status == 0, "replay merge: exit \(merged.status)")
        for name in ["s0", "s1", "merged"] {
            let findings = ResultSchemaCheck.check(directory: work.path(name), knownPaths: [ReplayResultRun.corpus], documents: ReplayTool.documents)
            #expect(findings.isEmpty, "\(name): \(findings.map(\.message))")
        }
    }

    /// Under `replay audit` the run's directory also holds the audit's hashes file and marker,
    /// and its report an `audit` block: a clean audited run still has zero findings, fallbacks
    /// injected by job and by topic included (`run.inject_fallbacks` with its scopes).
    @Test(arguments: [["--dry-run", "--limit", "2"], ["--limit", "1", "--inject-fallbacks", "refusal=0.05,guardrail=health:0.2,rate_limit=push:0.3"]])
    func cleanAuditedRunHasZeroFindings(options: [String]) throws {
        let replay = BuiltProducts.executable("replay")
        let directory = try TemporaryDirectory(prefix: "audited-run")
        let ended = try Subprocess.run(replay, ["audit", "--out", directory.path] + options + [ReplayResultRun.corpus], timeout: 900)
        #expect(ended.status == 0, "replay audit: exit \(ended.status)")
        let run = directory.path("run")
        #expect(FileManager.default.fileExists(atPath: run + "/" + AuditTap.hashesFileName))
        let findings = ResultSchemaCheck.check(directory: run, knownPaths: [ReplayResultRun.corpus], documents: ReplayTool.documents)
        #expect(findings.isEmpty, "\(findings.map(\.message))")
    }

    /// The model's name is the GGUF's: a spaced sentence of tokens there is a finding, its
    /// own name (words of its file's name, pieces with digits) is not.
    @Test func aSentenceAsTheModelsNameIsFound() throws {
        let copy = try ReplayResultRun.model.copy()
        try Self.editJSON(copy.path("report.json")) { report in
            report = Self.setting(report, at: ["model", "name"], to: .label("Tell mum the surgery moved to Friday"))
        }
        let findings = ResultSchemaCheck.check(directory: copy.path, knownPaths: [ReplayResultRun.corpus], documents: ReplayTool.documents)
        #expect(findings.map(\.message).contains("report.json, at model.name: a string that is not a model's name from its file."))
        #expect(!findings.contains { $0.message.contains("mum") })
        let context = ResultText.Context(knownPaths: [], modelWords: ResultText.modelWords(ofFile: "/m/Qwen2.5-0.5B-Instruct-Q4_K_M.gguf"))
        #expect(ResultText.modelText.admits("Qwen2.5 0.5B Instruct", context: context))
        #expect(ResultText.modelText.admits("qwen2 494M Q4_K - Medium", context: context))
        #expect(!ResultText.modelText.admits("Instruct mum now", context: context))
        #expect(!ResultText.modelText.admits("surgery1 moved2 Friday3", context: context))
    }

    /// A completion manifest in `replay.manifest/1`'s shape (issue 18) passes; one that names a
    /// file by a sentence, or carries an extra key, does not.
    @Test(arguments: [false, true])
    func aManifestIsCheckedAgainstItsShape(tampered: Bool) throws {
        let copy = try ReplayResultRun.dry.copy()
        var entries: [ReportValue] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: copy.path).sorted() {
            let bytes = try #require(FileManager.default.contents(atPath: copy.path(name)))
            entries.append(.object([("path", .label(name)), ("kind", .label("file")), ("bytes", .int(bytes.count)),
                                    ("sha256", .label(SHA256.hex([UInt8](bytes))))]))
        }
        if tampered {
            entries.append(.object([("path", .label("Tell mum the surgery moved")), ("kind", .label("file")), ("note", .int(1))]))
        }
        let manifest = ReportValue.object([("schema", .label("replay.manifest/1")), ("entries", .array(entries)), ("complete", .bool(true))])
        try manifest.json().write(toFile: copy.path("manifest.json"), atomically: false, encoding: .utf8)
        let findings = ResultSchemaCheck.check(directory: copy.path, knownPaths: [ReplayResultRun.corpus], documents: ReplayTool.documents)
        if tampered {
            // The first thing unlike the type: the name no writer writes, by its place.
            #expect(findings.count == 1 && findings[0].message.hasSuffix("].path: a string that is not the name of a file replay writes."),
                    "\(findings.map(\.message))")
            #expect(!findings.contains { $0.message.contains("mum") })
        } else {
            #expect(findings.isEmpty, "\(findings.map(\.message))")
        }
    }

    /// The paths the lead's wiring passes: corpus arguments, `--model` and `--config`, as given
    /// and absolute; never an option's other values.
    @Test func knownPathsAreTheCommandLinesPaths() {
        let known = ResultSchemaCheck.knownPaths(
            replayCommand: ["/usr/bin/replay", "--out", "/w/run", "--limit", "2", "--model", "m.gguf", "--fail-under", "chips.eligible=1",
                            "--dry-run", "corpora/a.jsonl.zst", "--", "-odd.jsonl"],
            workingDirectory: "/w")
        #expect(known == ["m.gguf", "/w/m.gguf", "corpora/a.jsonl.zst", "/w/corpora/a.jsonl.zst", "-odd.jsonl", "/w/-odd.jsonl"])
        // The probe's words are not paths; its attack set and prompt set are.
        let probe = ResultSchemaCheck.knownPaths(
            replayCommand: ["/usr/bin/replay", "probe", "injection", "--out", "/w/run", "--attacks", "a.json", "--prompts", "/p.json",
                            "--fail-over", "injection.chips=0.05", "c.jsonl"],
            workingDirectory: "/w")
        #expect(probe == ["a.json", "/w/a.json", "/p.json", "c.jsonl", "/w/c.jsonl"])
    }

    /// A model named as scripts/setup installed it is known as the file the run resolved it to,
    /// whose own name in its metadata ("Qwen2.5 Coder 0.5B Instruct AWQ") a report may then carry.
    @Test func anInstalledModelsNameIsItsFile() throws {
        let file = try #require(try? DefaultModel.file(forModelArgument: "qwen2.5-coder-0.5b"),
                                "Qwen2.5-Coder-0.5B is missing: scripts/setup --deps-only --model qwen2.5-coder-0.5b")
        let known = ResultSchemaCheck.knownPaths(replayCommand: ["/usr/bin/replay", "--model", "qwen2.5-coder-0.5b", "c.jsonl"],
                                                 workingDirectory: "/w")
        #expect(known.contains(file))
        #expect(GGUFMetadata.generalName(ofFile: file)?.hasPrefix("Qwen2.5 Coder 0.5B Instruct") == true)
        #expect(GGUFMetadata.generalName(ofFile: "/etc/hostname") == nil)
    }

    /// One way of tampering with a clean run's directory.
    enum Tamper: String, CaseIterable, Sendable {
        case extraFile
        case unknownKeyInReport
        case unknownKeyDeepInState
        case spacedSentenceAsBuild
        case sentenceJoinedByDashesAsBuild
        case sentenceJoinedByUnderscoresAsAgent
        case camelCaseSentenceAsKind
        case sentenceJoinedByUnderscoresAsCounter
        case sentenceJoinedByDashesAsMode
        case sentenceJoinedByDashesInReportMarkdown
        case sentenceInDashboard
        case sentenceAsMetricsCSVKey
        case numberFieldHoldingString
        case tokenIDsAsJSONArrayInExtraFile
        case tokenIDsAsCSVInExtraFile
        case tokenIDsInExtraKey
        case tokenIDsAsExtraCSVColumns
        case buildLabelAsAWeek
        case tokenIDsInTheHashesFile
        case digestsOutOfOrderInTheHashesFile
        case whiteSpaceInReport
        case escapedLetterInState
        case bytesAfterTheEndOfMetrics
        case gateNamedBySentenceInJUnit
        case nonUTF8Name
        case pathLongerThanPathMax
        case subdirectory
        case symbolicLink
    }

    /// A prompt's token ids, as a program would write them (any ids: the check never reads them as such).
    static let tokenIDs: [Int] = (0..<200).map { 1000 + ($0 * 7919) % 30000 }

    @Test(arguments: Tamper.allCases)
    func tamperingIsFound(_ tamper: Tamper) throws {
        let copy = try ReplayResultRun.dry.copy()
        let directory = copy.path
        try Self.apply(tamper, in: directory)
        let findings = ResultSchemaCheck.check(directory: directory, knownPaths: [ReplayResultRun.corpus], documents: ReplayTool.documents)
        #expect(!findings.isEmpty, "\(tamper) was not found")
        #expect(findings.allSatisfy { $0.rule == .unexpectedResultContent })
        for finding in findings {
            let text = Self.ownWords(of: finding, in: directory)
            #expect(!Self.sentenceWords.contains { text.contains($0) }, "a finding repeats the planted words")
            #expect(!text.contains("31337") && !text.contains(String(Self.tokenIDs[1])), "a finding repeats the planted ids")
        }
        switch tamper {
        case .nonUTF8Name: #expect(findings.contains { $0.message.contains("not UTF-8") })
        case .pathLongerThanPathMax: #expect(findings.contains { $0.message.contains("PATH_MAX") })
        case .unknownKeyDeepInState: #expect(findings.contains { $0.message.contains("state.json, at jobs.chips.ledger.overall") })
        case .numberFieldHoldingString: #expect(findings.contains { $0.message.contains("report.json, at corpus.threads: expected an integer") })
        default: break
        }
    }

    // MARK: Tampering

    static func apply(_ tamper: Tamper, in directory: String) throws {
        let files = FileManager.default
        let ids = tokenIDs.map(String.init)
        switch tamper {
        case .extraFile:
            try Data("notes\n".utf8).write(to: URL(fileURLWithPath: directory + "/notes.txt"))
        case .unknownKeyInReport:
            try editJSON(directory + "/report.json") { report in
                guard case .object(var fields) = report else { return }
                fields.append(("note", .int(1)))
                report = .object(fields)
            }
        case .unknownKeyDeepInState:
            try editJSON(directory + "/state.json", exact: true) { state in
                state = setting(state, at: ["jobs", "chips", "ledger", "overall", "remark"], to: .bool(true))
            }
        case .spacedSentenceAsBuild:
            try editJSON(directory + "/report.json") { report in
                report = renamingFirstKey(report, at: ["jobs", "chips", "by_build"], to: "Tell mum the surgery moved to Friday")
            }
        case .sentenceJoinedByDashesAsBuild:
            try editJSON(directory + "/report.json") { report in
                report = renamingFirstKey(report, at: ["jobs", "chips", "by_build"], to: "Tell-mum-the-surgery-moved-to-Friday")
            }
        case .sentenceJoinedByUnderscoresAsAgent:
            try append("chips.suggested,agent,mum_is_at_the_GP_now,1,2,0.500000,0.100000,0.900000\n", to: directory + "/metrics.csv")
        case .camelCaseSentenceAsKind:
            try editJSON(directory + "/report.json") { report in
                report = setting(report, at: ["corpus", "unknown_types", "TellMumTheSurgeryMovedToFriday"], to: .int(1))
            }
        case .sentenceJoinedByUnderscoresAsCounter:
            try editJSON(directory + "/report.json") { report in
                report = setting(report, at: ["jobs", "push", "counters", "mum_is_at_the_GP_now"], to: .int(1))
            }
        case .sentenceJoinedByDashesAsMode:
            try editJSON(directory + "/report.json") { report in
                report = setting(report, at: ["run", "mode"], to: .label("Tell-mum-the-surgery-moved-to-Friday"))
            }
        case .sentenceJoinedByDashesInReportMarkdown:
            try append("\nTell-mum-the-surgery-moved-to-Friday\n", to: directory + "/report.md")
        case .sentenceInDashboard:
            let path = directory + "/dashboard.html"
            let page = try String(contentsOfFile: path, encoding: .utf8)
            try page.replacingOccurrences(of: "</footer>", with: "<p>mum is at the GP now</p></footer>")
                .write(toFile: path, atomically: false, encoding: .utf8)
        case .sentenceAsMetricsCSVKey:
            try append("chips.suggested,agent,\"Tell mum the surgery moved to Friday\",1,2,0.500000,0.100000,0.900000\n",
                       to: directory + "/metrics.csv")
        case .numberFieldHoldingString:
            try editJSON(directory + "/report.json") { report in
                report = setting(report, at: ["corpus", "threads"], to: .label("31337"))
            }
        case .tokenIDsAsJSONArrayInExtraFile:
            try Data(("[" + ids.joined(separator: ",") + "]\n").utf8).write(to: URL(fileURLWithPath: directory + "/tokens.json"))
        case .tokenIDsAsCSVInExtraFile:
            try Data((ids.joined(separator: ",") + "\n").utf8).write(to: URL(fileURLWithPath: directory + "/prompt.csv"))
        case .tokenIDsInExtraKey:
            try editJSON(directory + "/state.json", exact: true) { state in
                state = setting(state, at: ["corpus", "prompt_tokens"], to: .array(tokenIDs.map { .int($0) }))
            }
        case .tokenIDsAsExtraCSVColumns:
            try append("chips.suggested,all,all,1,6,0.166667,0.030053,0.563503," + ids.joined(separator: ",") + "\n",
                       to: directory + "/metrics.csv")
        case .buildLabelAsAWeek:
            // A label that passes some rule, under a dimension whose rule it fails.
            try append("chips.suggested,week,Tell_mum,1,2,0.500000,0.100000,0.900000\n", to: directory + "/metrics.csv")
        case .tokenIDsInTheHashesFile:
            let text = AuditTap.header + "\nprompts 1\nprompts_with_canary 1\noutputs 1\n" + ids.joined(separator: " ") + "\n"
            try Data(text.utf8).write(to: URL(fileURLWithPath: directory + "/" + AuditTap.hashesFileName))
        case .digestsOutOfOrderInTheHashesFile:
            // Ids packed as digests would come in the order of the prompt, not sorted.
            let text = AuditTap.header + "\nprompts 1\nprompts_with_canary 1\noutputs 1\n00000000000f1a2b\n0000000000000c3d\n"
            try Data(text.utf8).write(to: URL(fileURLWithPath: directory + "/" + AuditTap.hashesFileName))
        case .whiteSpaceInReport:
            let path = directory + "/report.json"
            let text = try String(contentsOfFile: path, encoding: .utf8)
            // Bits in white space: two spaces after a colon where the writer puts one.
            try text.replacingOccurrences(of: "\"threads\": ", with: "\"threads\":  ").write(toFile: path, atomically: false, encoding: .utf8)
        case .escapedLetterInState:
            let path = directory + "/state.json"
            let text = try String(contentsOfFile: path, encoding: .utf8)
            try text.replacingOccurrences(of: "\"replay.state/1\"", with: "\"\\u0072eplay.state/1\"").write(toFile: path, atomically: false, encoding: .utf8)
        case .bytesAfterTheEndOfMetrics:
            try append("\n\n \t\n", to: directory + "/metrics.json")
        case .gateNamedBySentenceInJUnit:
            let path = directory + "/junit.xml"
            let text = try String(contentsOfFile: path, encoding: .utf8)
            try text.replacingOccurrences(of: "  </testsuite>", with: "    <testcase classname=\"replay.chips\" name=\"chips.mum_is_at_the_GP_now >= 1\"/>\n  </testsuite>")
                .write(toFile: path, atomically: false, encoding: .utf8)
        case .nonUTF8Name:
            let name: [UInt8] = Array((directory + "/").utf8) + [0x72, 0x65, 0xff, 0xfe, 0x2e, 0x6a, 0x73, 0x6f, 0x6e]
            let descriptor = DirectoryEntries.withCString(name) { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o600) }
            try #require(descriptor >= 0)
            close(descriptor)
        case .pathLongerThanPathMax:
            // Seventeen directories of 250 characters: no path call reaches the last, openat does.
            let current = try #require(DeepDirectory.make(beneath: directory, levels: 17))
            let file = openat(current, "report.json", O_WRONLY | O_CREAT | O_EXCL, 0o600)
            close(file)
            close(current)
        case .subdirectory:
            try files.createDirectory(atPath: directory + "/extra", withIntermediateDirectories: false)
            try Data("{}\n".utf8).write(to: URL(fileURLWithPath: directory + "/extra/report.json"))
        case .symbolicLink:
            try files.removeItem(atPath: directory + "/junit.xml")
            try files.createSymbolicLink(atPath: directory + "/junit.xml", withDestinationPath: "/etc/hostname")
        }
    }

    static func append(_ text: String, to path: String) throws {
        let handle = try #require(FileHandle(forWritingAtPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
    }

    /// Rewrites a JSON result with `edit`, in its writer's layout, so only the edit differs.
    static func editJSON(_ path: String, exact: Bool = false, _ edit: (inout ReportValue) -> Void) throws {
        var value = try ReportValue(parsingExactJSON: String(contentsOfFile: path, encoding: .utf8))
        edit(&value)
        try files(value, exact: exact).write(toFile: path, atomically: false, encoding: .utf8)
    }

    static func files(_ value: ReportValue, exact: Bool) -> String { exact ? value.exactJSON() : value.json() }

    /// A finding's message and location with the parts that are random by design taken out: the
    /// run's own directory (a UUID) and a withheld name's keyed hash. Either may hold any run of
    /// hex digits, so a planted id like 8919 can turn up in them by chance (about once in fifty
    /// runs of this suite); what is left is every word the check itself chose to write.
    static func ownWords(of finding: AuditFinding, in directory: String) -> String {
        let text = finding.message + " " + (finding.location ?? "")
        return text.replacingOccurrences(of: directory, with: "<run>")
            .replacingOccurrences(of: #"h:[0-9a-f]{12}"#, with: "h:<hash>", options: .regularExpression)
    }

    /// `value` with the value at `path` set (added as the object's last key when absent).
    static func setting(_ value: ReportValue, at path: [String], to new: ReportValue) -> ReportValue {
        guard let key = path.first else { return new }
        guard case .object(var fields) = value else { return value }
        if let index = fields.firstIndex(where: { $0.0 == key }) {
            fields[index].1 = setting(fields[index].1, at: Array(path.dropFirst()), to: new)
        } else {
            fields.append((key, setting(.object([]), at: Array(path.dropFirst()), to: new)))
        }
        return .object(fields)
    }

    /// `value` with the first key of the object at `path` renamed.
    static func renamingFirstKey(_ value: ReportValue, at path: [String], to name: String) -> ReportValue {
        guard let key = path.first else {
            guard case .object(var fields) = value, !fields.isEmpty else { return value }
            fields[0].0 = name
            return .object(fields)
        }
        guard case .object(var fields) = value, let index = fields.firstIndex(where: { $0.0 == key }) else { return value }
        fields[index].1 = renamingFirstKey(fields[index].1, at: Array(path.dropFirst()), to: name)
        return .object(fields)
    }
}
