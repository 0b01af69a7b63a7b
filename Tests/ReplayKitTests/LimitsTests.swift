import Foundation
import Llama
@testable import ReplayKit
import Testing
import TestSupport

/// The built binary under the limits a shared machine or a cluster sets: a 2 GiB address space
/// and 32 descriptors, with a writable descriptor inherited above that limit. It runs to its
/// end, sandboxed, or stops at once with a named error and a documented code: never a crash.
@Suite(.tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct LimitsTests {
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("corpora/sample.jsonl.zst").path

    /// `replay ARGUMENTS` run by bash (dash takes one-digit descriptors only) after `setup` (limits, inherited descriptors).
    static func run(_ setup: String, _ arguments: [String]) throws -> Subprocess {
        try Subprocess.run("/bin/bash", ["-c", setup + "\nexec \"$@\"", "bash", BuiltProducts.executable("replay")] + arguments, timeout: 900)
    }

    @Test(arguments: [true, false])
    func aTwoGigabyteAddressSpaceIsEnough(dryRun: Bool) throws {
        let model = try #require(DefaultModel.path(), "the default model is missing: run scripts/setup")
        let directory = try TemporaryDirectory(prefix: "limit-v")
        let out = directory.path("out")
        let run = try Self.run("ulimit -v 2097152", (dryRun ? ["--dry-run"] : ["--job", "chips"]) + ["--model", model, "--limit", "3", "--out", out, Self.sample])
        #expect(run.status == 0 && !run.signalled, "\(run.errors)")
        #expect(FileManager.default.fileExists(atPath: out + "/manifest.json"))
    }

    /// 32 descriptors, and one inherited open for writing at 200, above the limit (a parent with
    /// a higher limit left it): the sandbox closes it, since no later open can reuse that number.
    @Test func thirtyTwoDescriptorsAndOneInheritedAboveThem() throws {
        let directory = try TemporaryDirectory(prefix: "limit-n")
        let out = directory.path("out"), outside = directory.path("outside.txt")
        let run = try Self.run("exec 200>\"\(outside)\"\nulimit -n 32", ["--dry-run", "--limit", "20", "--out", out, Self.sample])
        #expect(run.status == 0 && !run.signalled, "\(run.errors)")
        #expect(FileManager.default.fileExists(atPath: out + "/manifest.json"))
        #expect((try? Data(contentsOf: URL(fileURLWithPath: outside)))?.isEmpty == true, "nothing was written through the inherited descriptor")
    }
}
