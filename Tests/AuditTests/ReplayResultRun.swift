import Foundation
import Testing
import TestSupport

/// A real `replay` run's `--out` over a few threads of the sample corpus, made once per test
/// process and copied for each test that tampers with it.
///
/// The dry run covers checkpoints (`--resume --checkpoint-every 2`), gates met and unmet and the
/// flywheel; the model run covers answers, latencies and quality. Every job runs in both.
struct ReplayResultRun: Sendable {
    /// The run's `--out`; nil with why when the run failed.
    let directory: String?
    let failure: String?

    static let corpus = BuiltProducts.packageRoot + "/corpora/sample.jsonl.zst"

    static let dry = ReplayResultRun(arguments: [
        "--dry-run", "--limit", "6", "--resume", "--checkpoint-every", "2", "--flywheel",
        "--fail-under", "chips.in_budget.device=0.5", "--fail-under", "route.accuracy=0.1",
        "--fail-under", "chips.quality_all_answers.exact_match.mean=0.01", "--fail-under", "push.tokens.in=0",
    ], name: "dry")
    static let model = ReplayResultRun(arguments: [
        "--limit", "3", "--fail-under", "chips.in_budget.device=0.5", "--fail-under", "push.well_formed=0.1",
    ], name: "model")

    /// One folder for this process's runs, removed when the test process exits.
    static let root: String = {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("result-runs-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: ReplayResultRun.root) }
        return root
    }()

    init(arguments: [String], name: String) {
        let replay = BuiltProducts.executable("replay")
        let directory = Self.root + "/" + name
        do {
            guard FileManager.default.isExecutableFile(atPath: replay) else { throw Missing(what: replay) }
            let ended = try Subprocess.run(replay, arguments + ["--out", directory, Self.corpus], timeout: 900)
            // 0, or 1 for the gates this run leaves unmet on purpose.
            guard ended.status == 0 || ended.status == 1, !ended.signalled else { throw Missing(what: "a run (exit \(ended.status))") }
            self.directory = directory
            failure = nil
        } catch {
            self.directory = nil
            failure = "replay \(name) run: \(error)"
        }
    }

    struct Missing: Error, CustomStringConvertible {
        var what: String
        var description: String { "no \(what)" }
    }

    /// A fresh copy of the run's directory, for one test to change; removed with the returned object.
    func copy() throws -> TemporaryDirectory {
        let source = try #require(directory, Comment(rawValue: failure ?? "no run"))
        let copy = try TemporaryDirectory(prefix: "result-copy")
        for name in try FileManager.default.contentsOfDirectory(atPath: source) {
            try FileManager.default.copyItem(atPath: source + "/" + name, toPath: copy.path(name))
        }
        return copy
    }
}
