import Audit
import Confinement
import Engine
import Foundation
import Testing
@testable import ReplayKit
@testable import Replay
import TestSupport

/// One `ExitCode` owns every exit status: each code has a run that ends with it, and `--help`,
/// `replay audit --help` and the README's two exit tables say what the type says.
@Suite(.serialized, .tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct ExitStatusTests {
    /// A made-up export: two one-agent threads, one screen that asks.
    static let corpus = """
        {"type":"export","version":1}
        {"type":"thread","id":"t1","agent":"Coach","locale":"en-US"}
        {"type":"message","thread":"t1","id":"m1","at":"2026-09-01T07:00:00Z","from":"person","text":"alpha beta"}
        {"type":"message","thread":"t1","id":"m2","at":"2026-09-01T07:01:00Z","from":"Coach","screen":[{"say":"gamma delta?"}]}
        {"type":"thread","id":"t2","agent":"Sage","locale":"en-US"}
        {"type":"message","thread":"t2","id":"m1","at":"2026-09-01T08:00:00Z","from":"person","text":"epsilon"}

        """

    /// A command that must end with `code`, run in process: every code is reachable, 5 and 8 included.
    @Test(arguments: ExitCode.allCases)
    func eachCodeHasARunThatEndsWithIt(code: ExitCode) throws {
        let directory = try TemporaryDirectory(prefix: "exit-status")
        let corpus = try directory.write("c.jsonl", text: Self.corpus)
        let out = directory.path("out")
        var said = ""
        func replay(_ arguments: [String], sandboxed: Bool = false,
                    confinement: @escaping Sandboxing.Confine = Sandbox.confine) -> ExitCode {
            ReplayTool.main(arguments, diagnostics: { said += $0 + "\n" }, sandboxed: sandboxed, confinement: confinement)
        }
        let got: ExitCode
        switch code {
        case .success:
            got = replay(["--dry-run", "--job", "chips", "--out", out, corpus])
        case .thresholdsNotMet:
            got = replay(["--dry-run", "--job", "chips", "--fail-under", "chips.scanned=1000000", "--out", out, corpus])
        case .usage:
            got = replay(["--limit", "x", corpus])
            #expect(replay(["--dry-run", "--out", "/", corpus]) == .usage)
        case .input:
            let other = try directory.write("v2.jsonl", text: #"{"type":"export","version":2}"# + "\n")
            got = replay(["--dry-run", "--job", "chips", "--out", out, corpus, other])
        case .model:
            got = replay(["--model", directory.path("no-model.gguf"), "--job", "chips", "--out", out, corpus])
        case .output:
            let file = try directory.write("a-file", text: "")
            got = replay(["--dry-run", "--job", "chips", "--out", file + "/out", corpus])
        case .auditFindings:
            got = replay(["audit", "--out", out, "--", BuiltProducts.executable("LeakyFixtures"), "unsandboxed"])
        case .auditCouldNotRun:
            got = replay(["audit", "--out", out, "--", directory.path("no-such-command")])
        case .verifyMismatch:
            // An audit's run directory changed after the verdict.
            #expect(replay(["audit", "--out", out, "--", BuiltProducts.executable("LeakyFixtures"), "clean"]) == .success)
            #expect(replay(["verify", out]) == .success)
            try directory.write("out/run/added-after-the-verdict", text: "1")
            got = replay(["verify", out])
        case .sandboxUnavailable:
            got = replay(["--dry-run", "--job", "chips", "--out", out, corpus], sandboxed: true, confinement: ConfinementExitTests.kernelWithoutLandlock)
        case .stopped:
            // Asked to stop before the first thread line (as a signal would): nothing kept, no report.
            let stop = StopRequest()
            stop.raise()
            got = ReplayTool.main(["--dry-run", "--job", "chips", "--resume", "--out", out, corpus],
                                  diagnostics: { said += $0 + "\n" }, sandboxed: false, stopRequest: { stop })
            #expect(said.contains("nothing kept yet"), "\(said)")
            #expect(!FileManager.default.fileExists(atPath: out + "/report.json"))
        }
        #expect(got == code, "exit \(got.rawValue), expected \(code.rawValue)")
        #expect(!said.isEmpty)
    }

    // MARK: - What the usage texts and the README say

    /// The rows of the markdown table whose header line is `header`, as (first cell, second cell),
    /// with code spans' backticks removed.
    static func tableRows(in markdown: String, header: String) -> [(String, String)] {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0 == header }) else { return [] }
        var rows: [(String, String)] = []
        for line in lines[(start + 2)...] {
            guard line.hasPrefix("| "), line.hasSuffix(" |") else { break }
            let cells = line.dropFirst(2).dropLast(2)
            guard let bar = cells.range(of: " | ") else { break }
            rows.append((String(cells[..<bar.lowerBound]), cells[bar.upperBound...].replacingOccurrences(of: "`", with: "")))
        }
        return rows
    }

    static var readme: String {
        (try? String(contentsOfFile: BuiltProducts.packageRoot + "/README.md", encoding: .utf8)) ?? ""
    }

    @Test func replayUsageListsEveryCodeWithItsMeaning() {
        let entries = UsageText.exitEntries(ArgumentParser.usage)
        #expect(entries.map(\.0) == ExitCode.allCases.map(\.rawValue))
        #expect(entries.map(\.1) == ExitCode.allCases.map(\.meaning))
        #expect(ArgumentParser.usage.split(separator: "\n").allSatisfy { $0.count <= 110 })
    }

    @Test func auditUsageListsEveryCodeTheAuditEndsWith() {
        let entries = UsageText.exitEntries(AuditCommand.usage)
        #expect(entries.map(\.0) == ExitCode.auditCodes.map(\.rawValue))
        #expect(entries.map(\.1) == ExitCode.auditCodes.map { $0.auditMeaning ?? "" })
        #expect(ExitCode.auditCodes.allSatisfy { $0.auditMeaning != nil })
        #expect(ExitCode.allCases.filter { $0.auditMeaning != nil } .count == ExitCode.auditCodes.count)
        #expect(ExitCode(AuditResult.Verdict.clean) == .success)
        #expect(ExitCode(AuditResult.Verdict.findings) == .auditFindings)
        #expect(ExitCode(AuditResult.Verdict.couldNotRun) == .auditCouldNotRun)
    }

    @Test func verifyUsageListsEveryCodeVerifyEndsWith() {
        let entries = UsageText.exitEntries(VerifyCommand.usage)
        #expect(entries.map(\.0) == ExitCode.verifyCodes.map(\.rawValue))
        #expect(entries.map(\.1) == ExitCode.verifyCodes.map { $0.verifyMeaning ?? "" })
        #expect(ExitCode.allCases.filter { $0.verifyMeaning != nil }.count == ExitCode.verifyCodes.count)
    }

    @Test func readmeExitTableIsTheExitCodes() {
        let rows = Self.tableRows(in: Self.readme, header: "| code | meaning |")
        #expect(rows.map(\.0) == ExitCode.allCases.map { String($0.rawValue) })
        for (row, code) in zip(rows, ExitCode.allCases) {
            #expect(row.1 == code.meaning, "README's row for exit \(code.rawValue)")
        }
    }

    @Test func readmeAuditExitTableIsTheAuditCodes() {
        let rows = Self.tableRows(in: Self.readme, header: "| exit | meaning |")
        #expect(rows.map(\.0) == ExitCode.auditCodes.map { String($0.rawValue) })
        for (row, code) in zip(rows, ExitCode.auditCodes) {
            #expect(row.1 == code.auditMeaning, "README's audit row for exit \(code.rawValue)")
        }
    }

    /// The README's usage block is the synopsis `replay --help` prints.
    @Test func readmeUsageBlockIsTheSynopsis() throws {
        let readme = Self.readme
        let section = try #require(readme.range(of: "## Using it\n\n```\n"))
        let end = try #require(readme.range(of: "\n```", range: section.upperBound..<readme.endIndex))
        let block = readme[section.upperBound..<end.lowerBound].split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let synopsis = ArgumentParser.usage.components(separatedBy: "\n\n")[0].split(separator: "\n").map {
            $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "usage: ", with: "")
        }
        #expect(block == synopsis)
    }
}
