import Foundation
import Jobs
import Privacy
@testable import Compare
@testable import ReplayKit
@testable import Replay
import TestSupport

/// Item outcomes, tables and finished run directories for the tests of `replay compare`.
enum CompareFixtures {
    /// One item: asked and answered within budget unless told otherwise, its latencies whole ms.
    static func item(_ key: UInt64, thread: UInt64, job: JobKind = .chips, build: String = "2.3.0", model: String = "26.1",
                     asked: Bool = true, answered: Bool = true, fallback: FallbackReason? = nil,
                     hostMilliseconds: Int = 100, deviceMilliseconds: Int = 200, tokensIn: Int = 100, tokensOut: Int = 10,
                     quality: [String: Int] = [:], qualityAllAnswers: [String: Int] = [:]) -> ItemOutcome {
        ItemOutcome(key: key, thread: thread, job: job, build: build, model: model, asked: asked, answered: answered,
                    fallback: fallback, inputWasCut: false, inBudgetHost: asked ? answered : nil, inBudgetDevice: asked ? answered : nil,
                    hostMicroseconds: asked ? hostMilliseconds * 1000 : nil, deviceMicroseconds: asked ? deviceMilliseconds * 1000 : nil,
                    tokensIn: asked ? tokensIn : 0, tokensOut: asked ? tokensOut : 0, quality: quality, qualityAllAnswers: qualityAllAnswers)
    }

    /// 40 chips items in 10 threads of 4 (key thread·100 + j), every one asked; answered when
    /// j < 2; host latency (10·thread + j) ms; exact_match 1 where answered.
    static func baseItems() -> [ItemOutcome] {
        (1...10).flatMap { thread in
            (0..<4).map { j in
                item(UInt64(thread * 100 + j), thread: UInt64(thread), build: thread <= 5 ? "2.3.0" : "2.4.0",
                     answered: j < 2, fallback: j < 2 ? nil : .invalidOutput,
                     hostMilliseconds: 10 * thread + j, deviceMilliseconds: 20 * thread + j,
                     quality: ["exact_match": j < 2 ? 1_000_000_000 : 0])
            }
        }
    }

    /// The chips items that answer in BASE only (b = 3) and in NEW only (c = 9).
    static let answeredInBaseOnly: Set<UInt64> = [100, 200, 301]
    static let answeredInNewOnly: Set<UInt64> = Set((4...10).map { UInt64($0 * 100 + 2) }).union([103, 203])

    /// BASE with the discordant items flipped, host latency 5 ms more everywhere, 10 tokens more in.
    static func newItems() -> [ItemOutcome] {
        baseItems().map { old in
            var answered = old.answered
            if answeredInBaseOnly.contains(old.key) { answered = false }
            if answeredInNewOnly.contains(old.key) { answered = true }
            return item(old.key, thread: old.thread, build: old.build, answered: answered, fallback: answered ? nil : .invalidOutput,
                        hostMilliseconds: old.hostMicroseconds! / 1000 + 5, deviceMilliseconds: old.deviceMicroseconds! / 1000,
                        tokensIn: 110, quality: ["exact_match": answered ? 1_000_000_000 : 0])
        }
    }

    // MARK: - Run directories

    /// A tiny export: `threads` one-agent threads, each with a screen that asks (a chips item).
    static func corpus(threads: Int, salt: String = "") -> String {
        var lines = [#"{"type":"export","version":1}"#]
        for i in 0..<threads {
            lines.append(#"{"type":"thread","id":"t\#(i)\#(salt)","agent":"Coach","locale":"en-US"}"#)
            lines.append(#"{"type":"message","thread":"t\#(i)\#(salt)","id":"m1","at":"2026-09-01T07:00:00Z","from":"person","text":"alpha beta","meta":{"build":"2.3.0","model":"26.1"}}"#)
            lines.append(#"{"type":"message","thread":"t\#(i)\#(salt)","id":"m2","at":"2026-09-01T07:01:00Z","from":"Coach","screen":[{"say":"How was the run?"}]}"#)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A run key file for tests (fixed bytes, mode 0600).
    static func runKey(in directory: TemporaryDirectory, byte: UInt8 = 0x5a, name: String = "run.key") throws -> String {
        let path = try directory.write(name, [UInt8](repeating: byte, count: RunKey.length))
        chmod(path, 0o600)
        return path
    }

    /// A finished dry run of `corpus` into `out`, in process, under `key`.
    @discardableResult
    static func dryRun(_ corpus: String, out: String, key: String, extra: [String] = []) -> ExitCode {
        ReplayTool.main(["--dry-run", "--job", "chips", "--run-key", key, "--out", out] + extra + [corpus], diagnostics: { _ in }, sandboxed: false)
    }

    /// Makes `out`, a finished run's directory, hold `table` as its items.json.zst, and takes its
    /// manifest again, as a run that wrote them would have (a stand-in until runs write items).
    static func give(_ out: String, items table: ItemTable) throws {
        try? FileManager.default.removeItem(atPath: out + "/" + ItemTable.fileName)
        try FileManager.default.removeItem(atPath: out + "/manifest.json")
        try ReportFile.create(out + "/" + ItemTable.fileName, bytes: table.compressed())
        try OutputDirectory(out).saveManifest()
    }

    /// Runs `replay compare` in process with `arguments`, collecting what it says.
    static func compare(_ arguments: [String]) -> (code: ExitCode, said: String) {
        var said = ""
        let code = ReplayTool.main(["compare"] + arguments, diagnostics: { said += $0 + "\n" }, sandboxed: false)
        return (code, said)
    }
}
