import Foundation
import Replay
import Testing
@testable import Audit
@testable import Confinement
import Privacy
import TestSupport

/// `ResultSchemaCheck` on a run's item outcomes (`items.json.zst`, `replay.items/1`) and on
/// `replay compare`'s results: well-formed files pass with zero findings; words in a label's
/// slot, a string where a number belongs, or anything a writer does not write is a finding that
/// never repeats what it found.
@Suite(.serialized, .tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct ItemsAndCompareSchemaTests {
    static let sentence = "Tell mum the surgery moved to Friday"

    /// A table as `ItemTable.json` writes it: three items in two threads, one hashed build.
    static func itemsJSON(answered: Bool = true, build: String = "#h:0a1b2c3d", hostMicroseconds: String = "100000",
                          keys: [String] = ["0000000000000001", "0000000000000002", "0000000000000003"],
                          buildIndex: Int = 1, extraColumn: String = "", spaced: Bool = false, count: Int = 3) -> String {
        let jobs = #"["chips","route","push","draft"]"#
        let fallbacks = #"["context_exceeded","engine_failure","invalid_output","model_unavailable","time_budget","unsupported_language"]"#
        let rules = #"["chips_wrong_language","chips_agent_voice","push_advice","push_greeting","push_speaks_for_agent","draft_expert_question","route_outside_group"]"#
        var text = #"{"schema":"replay.items/1","count":\#(count),"jobs":\#(jobs),"fallbacks":\#(fallbacks),"never_rules":\#(rules),"#
        text += #""threads":["00000000000000a1","00000000000000b2"],"builds":["2.3.0","\#(build)"],"models":["26.1"],"locales":["en-GB"],"#
        text += #""columns":{"key":["\#(keys.joined(separator: "\",\""))"],"thread":[0,0,1],"job":[0,0,1],"build":[0,0,\#(buildIndex)],"#
        text += #""model":[0,0,0],"locale":[0,0,0],"flags":[\#(answered ? 27 : 1),1,0],"fallback":[0,3,5],"host_us":[\#(hostMicroseconds),200000,0],"#
        text += #""device_us":[150000,250000,0],"tokens_in":[120,130,0],"tokens_out":[10,12,0],"violations":[\#(answered ? 0 : 2),0,0],\#(extraColumn)"#
        text += #""quality":{"best_f1":[500000000,null,null]},"quality_all_answers":{}}}"# + "\n"
        return spaced ? text.replacingOccurrences(of: #""count":"#, with: #""count": "#) : text
    }

    /// Writes `json`, zstd-compressed, as `name` in `directory`.
    static func writeItems(_ json: String, to directory: String, name: String = "items.json.zst") throws {
        let packed = try Subprocess.run(tool: "zstd", ["-q", "-c"], input: Data(json.utf8))
        try? FileManager.default.removeItem(atPath: directory + "/" + name)
        try packed.standardOutput.write(to: URL(fileURLWithPath: directory + "/" + name))
    }

    /// Takes `directory`'s manifest again, as a run that wrote what it holds now would have.
    static func remakeManifest(_ directory: String) throws {
        try? FileManager.default.removeItem(atPath: directory + "/manifest.json")
        try RunManifest.take(directory, excluding: ["manifest.json"]).json()
            .write(toFile: directory + "/manifest.json", atomically: false, encoding: .utf8)
    }

    static func findings(_ directory: String) -> [AuditFinding] {
        ResultSchemaCheck.check(directory: directory, knownPaths: [ReplayResultRun.corpus], documents: ReplayTool.documents)
    }

    @Test func wellFormedItemsAndTheirSegmentsPass() throws {
        let copy = try ReplayResultRun.dry.copy()
        try Self.writeItems(Self.itemsJSON(), to: copy.path)
        try Self.writeItems(Self.itemsJSON(), to: copy.path, name: "checkpoint-000001.items.json.zst")
        let findings = Self.findings(copy.path)
        #expect(findings.isEmpty, "\(findings.map(\.message))")
    }

    /// One way a crafted items file differs from what `ItemTable` writes.
    enum Crafted: String, CaseIterable, Sendable {
        case sentenceAsBuild, stringWhereANumberBelongs, whiteSpace, indexBeyondItsList, outOfOrder, moreValuesThanItems
        case extraColumnOfTokenIDs, notZstd, keyNotHex, badSegmentName
    }

    @Test(arguments: Crafted.allCases)
    func craftedItemsAreFound(_ crafted: Crafted) throws {
        let copy = try ReplayResultRun.dry.copy()
        var expected = "items.json.zst"
        switch crafted {
        case .sentenceAsBuild:
            try Self.writeItems(Self.itemsJSON(build: Self.sentence), to: copy.path)
            expected = "items.json.zst, at builds[1]: a string that is not a build label its rule keeps, or a hashed one."
        case .stringWhereANumberBelongs:
            try Self.writeItems(Self.itemsJSON(hostMicroseconds: "\"31337\""), to: copy.path)
            expected = "items.json.zst, at columns.host_us[0]: expected an integer."
        case .whiteSpace:
            try Self.writeItems(Self.itemsJSON(spaced: true), to: copy.path)
            expected = "items.json.zst holds bytes its writer does not write"
        case .indexBeyondItsList:
            try Self.writeItems(Self.itemsJSON(buildIndex: 7), to: copy.path)
            expected = "items.json.zst, at columns.build[2] is not an index below 2."
        case .outOfOrder:
            try Self.writeItems(Self.itemsJSON(keys: ["0000000000000002", "0000000000000001", "0000000000000003"]), to: copy.path)
            expected = "its items are not in canonical order (thread, key, job) at item 1."
        case .moreValuesThanItems:
            try Self.writeItems(Self.itemsJSON(count: 2), to: copy.path)
            expected = "3 values for 2 items."
        case .extraColumnOfTokenIDs:
            try Self.writeItems(Self.itemsJSON(extraColumn: #""prompt":[31337,4711,1999],"#), to: copy.path)
            expected = "items.json.zst, at columns{13}: a key this file's type does not have."
        case .notZstd:
            try Self.itemsJSON().write(toFile: copy.path("items.json.zst"), atomically: false, encoding: .utf8)
            expected = "items.json.zst does not start with a zstd frame"
        case .keyNotHex:
            try Self.writeItems(Self.itemsJSON(keys: ["0000000000000001", "0000000000000002", "Tell-mum-surgery"]), to: copy.path)
            expected = "items.json.zst, at columns.key[2]: a string that is not 16 lowercase hex digits."
        case .badSegmentName:
            try Self.writeItems(Self.itemsJSON(), to: copy.path, name: "checkpoint-1.items.json.zst")
            expected = "A file replay does not write"
        }
        let findings = Self.findings(copy.path)
        #expect(findings.contains { $0.message.contains(expected) }, "\(crafted): \(findings.map(\.message))")
        for finding in findings {
            let text = ResultSchemaCheckTests.ownWords(of: finding, in: copy.path)
            #expect(!text.contains("mum") && !text.contains("31337") && !text.contains("Friday"), "a finding repeats what it found")
        }
    }

    /// Two runs of the sample with items; `replay compare` over them, sandboxed as a user runs it.
    static func comparison(in work: TemporaryDirectory, gates: [String] = []) throws -> String {
        for (name, answered) in [("base", true), ("new", false)] {
            let run = work.path(name)
            try FileManager.default.createDirectory(atPath: run, withIntermediateDirectories: false)
            let source = try #require(ReplayResultRun.dry.directory)
            for file in try FileManager.default.contentsOfDirectory(atPath: source) where file != "items.json.zst" {
                try FileManager.default.copyItem(atPath: source + "/" + file, toPath: run + "/" + file)
            }
            try writeItems(itemsJSON(answered: answered), to: run)
            try remakeManifest(run)
        }
        let out = work.path("compare")
        let ended = try Subprocess.run(BuiltProducts.executable("replay"),
                                       ["compare", "--out", out] + gates.flatMap { ["--fail-if-worse", $0] } + [work.path("base"), work.path("new")],
                                       timeout: 600)
        #expect(ended.status == (gates.isEmpty ? 0 : 1), "replay compare: exit \(ended.status): \(String(decoding: ended.standardError, as: UTF8.self))")
        return out
    }

    @Test(arguments: [[], ["chips.answered=0.1", "chips.latency.host.p95=5", "route.tokens.out=1"]])
    func aComparisonsResultsHaveZeroFindings(gates: [String]) throws {
        let work = try TemporaryDirectory(prefix: "compare-results")
        let out = try Self.comparison(in: work, gates: gates)
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: out))
        #expect(names == ["compare.json", "compare.md", "compare.html", "junit.xml", "manifest.json"])
        let findings = Self.findings(out)
        #expect(findings.isEmpty, "\(findings.map(\.message))")
    }

    /// One way of tampering with a comparison's results.
    enum Tamper: String, CaseIterable, Sendable {
        case sentenceAsBuildSlice, stringWhereANumberBelongs, unknownMetric, sentenceInMarkdown, sentenceInHTML, gateNamedBySentence
    }

    @Test(arguments: Tamper.allCases)
    func tamperedComparisonResultsAreFound(_ tamper: Tamper) throws {
        let work = try TemporaryDirectory(prefix: "compare-tamper")
        let out = try Self.comparison(in: work, gates: ["chips.answered=0.1"])
        let expected: String
        switch tamper {
        case .sentenceAsBuildSlice:
            try ResultSchemaCheckTests.editJSON(out + "/compare.json") { value in
                value = ResultSchemaCheckTests.renamingFirstKey(value, at: ["jobs", "chips", "by_build"], to: Self.sentence)
            }
            expected = "compare.json, at jobs.chips.by_build{0}: a key that is not a build label"
        case .stringWhereANumberBelongs:
            try ResultSchemaCheckTests.editJSON(out + "/compare.json") { value in
                value = ResultSchemaCheckTests.setting(value, at: ["jobs", "chips", "join", "paired"], to: .label("31337"))
            }
            expected = "compare.json, at jobs.chips.join.paired: expected an integer."
        case .unknownMetric:
            try ResultSchemaCheckTests.editJSON(out + "/compare.json") { value in
                value = ResultSchemaCheckTests.setting(value, at: ["jobs", "chips", "overall", "metrics", "mum_is_at_the_GP"], to: .int(1))
            }
            expected = "compare.json, at jobs.chips.overall.metrics{"
        case .sentenceInMarkdown:
            try ResultSchemaCheckTests.append("\n\(Self.sentence)\n", to: out + "/compare.md")
            expected = "compare.md, line"
        case .sentenceInHTML:
            let page = try String(contentsOfFile: out + "/compare.html", encoding: .utf8)
            try page.replacingOccurrences(of: "</footer>", with: "<p>\(Self.sentence)</p></footer>")
                .write(toFile: out + "/compare.html", atomically: false, encoding: .utf8)
            expected = "compare.html, line"
        case .gateNamedBySentence:
            let junit = try String(contentsOfFile: out + "/junit.xml", encoding: .utf8)
            try junit.replacingOccurrences(of: "chips.answered not worse by", with: "chips.mum_is_at_the_GP not worse by")
                .write(toFile: out + "/junit.xml", atomically: false, encoding: .utf8)
            expected = "junit.xml, line 4: not a test case of a gate."
        }
        let findings = Self.findings(out)
        #expect(findings.contains { $0.message.contains(expected) }, "\(tamper): \(findings.map(\.message))")
        for finding in findings {
            let text = ResultSchemaCheckTests.ownWords(of: finding, in: out)
            #expect(!text.contains("mum") && !text.contains("31337") && !text.contains("Friday"), "a finding repeats what it found")
        }
    }

    @Test func aCompareCommandLinesRunsAreItsPathsAndItsOptionValuesAreNot() {
        let known = ResultSchemaCheck.knownPaths(replayCommand: ["/usr/bin/replay", "compare", "--out", "/w/c", "--fail-if-worse", "chips.answered=0.1",
                                                                 "--seed", "7", "runs/a", "runs/b"], workingDirectory: "/w")
        #expect(known.isSuperset(of: ["runs/a", "/w/runs/a", "runs/b", "/w/runs/b"]))
        #expect(!known.contains { $0.contains("chips.answered") || $0.hasSuffix("7") || $0.hasSuffix("/c") })
    }
}
