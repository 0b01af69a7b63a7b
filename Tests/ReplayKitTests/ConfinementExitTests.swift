import Audit
import Confinement
import Foundation
import Testing
@testable import ReplayKit
@testable import Replay
import TestSupport

/// Where `--out` and the sandbox stop a run: an `--out` that cannot be created is a report that
/// cannot be written (5), and a kernel that cannot confine the run is 8, simulated by a
/// confinement that fails as such a kernel would.
@Suite(.serialized) struct ConfinementExitTests {
    /// A confinement that fails as it would on a kernel without Landlock ABI 4.
    static let kernelWithoutLandlock: Sandboxing.Confine = { _ throws(SandboxError) in
        throw SandboxError.landlockTooOld(abi: 3, needed: 4)
    }

    /// A made-up export of one thread.
    static let corpus = """
        {"type":"thread","id":"t1","agent":"Coach","locale":"en-US"}
        {"type":"message","thread":"t1","id":"m1","at":"2026-09-01T07:01:00Z","from":"Coach","screen":[{"say":"gamma delta?"}]}

        """

    /// Exit 8 says why and how to run anyway; with `--allow-unsandboxed` the run goes on and its
    /// report says it was not enforced.
    @Test func aKernelThatCannotSandboxIsExitEightUnlessAllowed() throws {
        let directory = try TemporaryDirectory(prefix: "exit-status")
        let corpus = try directory.write("c.jsonl", text: Self.corpus)
        var said = ""
        let refused = ReplayTool.main(["--dry-run", "--job", "chips", "--out", directory.path("refused"), corpus],
                                      diagnostics: { said += $0 + "\n" }, confinement: Self.kernelWithoutLandlock)
        #expect(refused == .sandboxUnavailable)
        #expect(said.contains("Landlock is ABI 3") && said.contains("--allow-unsandboxed"))
        #expect(!FileManager.default.fileExists(atPath: directory.path("refused/report.json")))

        let allowed = ReplayTool.main(["--dry-run", "--job", "chips", "--allow-unsandboxed", "--out", directory.path("allowed"), corpus],
                                      diagnostics: { _ in }, confinement: Self.kernelWithoutLandlock)
        #expect(allowed == .success)
        let json = try Data(contentsOf: URL(fileURLWithPath: directory.path("allowed/report.json")))
        let report = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let sandbox = try #require(report["sandbox"] as? [String: Any])
        #expect(sandbox["enforced"] as? Bool == false)
        #expect((sandbox["unsandboxed_reason"] as? String)?.contains("ABI 3") == true)
    }

    /// An `--out` that cannot be created is a report that cannot be written (5), said in a
    /// sentence naming the directory and the reason; not a kernel without a sandbox (8).
    @Test(arguments: ["file-in-the-way/out", "file-in-the-way"])
    func anOutThatCannotBeCreatedIsExitFive(out: String) throws {
        let directory = try TemporaryDirectory(prefix: "exit-status")
        let corpus = try directory.write("c.jsonl", text: Self.corpus)
        try directory.write("file-in-the-way", text: "")
        for command in [["--dry-run", "--job", "chips"], ["flywheel"]] {
            var said = ""
            let code = ReplayTool.main(command + ["--out", directory.path(out), corpus], diagnostics: { said += $0 + "\n" },
                                       confinement: Self.kernelWithoutLandlock)
            #expect(code == .output, "\(command.first!): exit \(code.rawValue)")
            #expect(said.hasPrefix("replay: the output directory \(directory.path(out)) cannot be created ("))
            #expect(said.contains(out.hasSuffix("/out") ? "Not a directory" : "File exists"))
            #expect(!said.contains("Error Domain") && !said.contains("kernel"))
        }
    }
}
