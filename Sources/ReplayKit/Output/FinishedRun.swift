import Confinement
import Foundation

/// What makes a directory a finished run: its `manifest.json`, which a run writes last, there
/// and every entry as it records (`replay verify`'s check). A run stopped by anything (a full
/// disk, a kill, a signal) leaves none, so a reader that trusts nothing without it never takes
/// a partial run for a whole one: `replay merge` for each shard, `replay compare` for each run.
package enum FinishedRun {
    /// Why `directory` is not a finished run, in a few words; nil when it is.
    package static func problem(in directory: String) -> String? {
        let manifestPath = directory + "/" + RunManifest.fileName
        guard FileManager.default.fileExists(atPath: manifestPath) else {
            return "it has no \(RunManifest.fileName), which a run writes last: the run did not finish, or this is not a run's --out"
        }
        let recorded: RunManifest
        let now: RunManifest
        do throws(ConfinementError) {
            recorded = try RunManifest.read(manifestAt: manifestPath)
            now = try RunManifest.take(directory, excluding: [RunManifest.fileName])
        } catch {
            return "its \(RunManifest.fileName) cannot be checked: \(error.description)"
        }
        let differences = recorded.differences(from: now)
        guard differences.isEmpty else {
            return "it differs from its \(RunManifest.fileName) in \(differences.count) entr\(differences.count == 1 ? "y" : "ies") "
                + "since the run finished (replay verify \(directory) names them)"
        }
        return nil
    }
}
