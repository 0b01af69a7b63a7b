import Confinement
import Foundation
import Privacy

/// `replay verify DIR`: re-checks a directory against the manifest taken when it was finished,
/// so a file changed, removed or added since (by a process that outlived the run, or on the way
/// to an upload) is caught by whoever uploads it.
///
///     replay verify DIR
///
/// DIR is an audit's directory (its `audit.sarif` records the manifest of `DIR/run` at the
/// verdict) or a run's directory holding `manifest.json` (written last by a finished run). Every
/// entry beneath is walked again (names as bytes, links not followed) and compared by kind, size
/// and SHA-256. Exit 0 when all match; `verifyMismatch` naming each entry that changed, is
/// missing, is extra or cannot be vouched for; `input` when there is no usable manifest.
/// Contents are never printed, and an extra entry's name is not either (nothing checked it).
public enum VerifyCommand: Subcommand {
    public static let name = "verify"

    public static let usage = """
        usage: replay verify DIR

        Re-checks DIR against the manifest taken when it was finished: an audit's directory (the
        manifest of DIR/run recorded in DIR/audit.sarif at the verdict) or a run's directory
        holding manifest.json. Every entry is compared by kind, size and SHA-256; each one that
        changed, is missing or is extra is named. Contents are never printed.

        \(ExitCode.usageSection(ExitCode.verifyCodes) { $0.verifyMeaning })
        """

    public static func run(_ arguments: [String], _ context: CommandContext) -> ExitCode {
        run(arguments, diagnostics: context.diagnostics)
    }

    /// Runs `arguments` (after `verify`).
    public static func run(_ arguments: [String], diagnostics: (String) -> Void = RunCommand.standardError) -> ExitCode {
        if arguments.contains("-h") || arguments.contains("--help") {
            diagnostics(usage)
            return .success
        }
        guard arguments.count == 1, let directory = arguments.first, !directory.hasPrefix("-") || directory == "-" else {
            diagnostics("replay verify: give one directory\n\n" + usage)
            return .usage
        }
        let sarif = directory + "/" + RunManifest.sarifFileName
        let recorded: RunManifest
        let root: String
        let excluded: Set<String>
        do throws(ConfinementError) {
            if FileManager.default.fileExists(atPath: sarif) {
                recorded = try RunManifest.read(sarifAt: sarif)
                root = directory + "/run"
                excluded = []
            } else if FileManager.default.fileExists(atPath: directory + "/" + RunManifest.fileName) {
                recorded = try RunManifest.read(manifestAt: directory + "/" + RunManifest.fileName)
                root = directory
                excluded = [RunManifest.fileName]
            } else {
                diagnostics("replay verify: \(directory) holds neither \(RunManifest.sarifFileName) nor \(RunManifest.fileName): nothing to verify against")
                return .input
            }
        } catch {
            diagnostics("replay verify: \(error.description)")
            return .input
        }
        let now: RunManifest
        do throws(ConfinementError) {
            now = try RunManifest.take(root, excluding: excluded)
        } catch {
            diagnostics("replay verify: \(error.description)")
            return .input
        }
        let differences = recorded.differences(from: now)
        guard differences.isEmpty else {
            for difference in differences { diagnostics("replay verify: \(difference.description)") }
            diagnostics("replay verify: \(root) differs from its manifest in \(differences.count) entr\(differences.count == 1 ? "y" : "ies") (exit \(ExitCode.verifyMismatch.rawValue))")
            return .verifyMismatch
        }
        let files = recorded.entries.filter { $0.kind == .file }.count
        diagnostics("replay verify: \(root) is as its manifest records it: \(recorded.entries.count) entries, \(files) files")
        return .success
    }
}
