import Confinement
import Foundation
import Privacy

/// The steps a command that writes results takes before it reads anything: its arguments parsed
/// (or its usage printed), its run key loaded, the process confined to writing under `--out`.
///
/// `replay`, `replay merge`, `replay compare` and `replay suite run` take them through here, so
/// each step's diagnostics and exit codes are written once. A step that cannot be taken has
/// said why and throws `Stop` with the code the command ends with.
package enum CommandStart {
    /// A command ended by one of its opening steps, which has already told the user why (or, for
    /// `--help`, printed the usage).
    package struct Stop: Error {
        package let exitCode: ExitCode
    }

    /// A confined process: how, and its claim on `--out`, which the command holds to its end.
    package struct Confined {
        package let sandbox: SandboxReport
        package let claim: OutputDirectory.Claim?
    }

    /// The options `parse` reads from `arguments`. When it returns nil (`--help`) the usage is
    /// said (to `help`, else to `diagnostics`) and the command ends with 0; when it refuses them,
    /// the reason and the usage are printed after `command` ("replay compare") and the command
    /// ends with 2.
    package static func options<Options, Failure: Error & CustomStringConvertible>(
        _ arguments: [String], command: String, usage: String, diagnostics: (String) -> Void,
        help: ((String) -> Void)? = nil, parse: ([String]) throws(Failure) -> Options?
    ) throws(Stop) -> Options {
        let parsed: Options?
        do {
            parsed = try parse(arguments)
        } catch {
            diagnostics("\(command): \(error.description)\n\n\(usage)")
            throw Stop(exitCode: .usage)
        }
        guard let parsed else {
            if let help { help(usage) } else { diagnostics(usage) }
            throw Stop(exitCode: .success)
        }
        return parsed
    }

    /// The options of a subcommand documented in `replay --help` (merge, flywheel, corpus,
    /// prompts, profiles): a refusal is said with that usage (exit 2); `--help` prints it to
    /// stdout, as `replay --help` does, and ends the command with 0.
    package static func mainOptions<Options>(_ arguments: [String], diagnostics: (String) -> Void,
                                             parse: ([String]) throws(ArgumentParser.UsageError) -> Options?) throws(Stop) -> Options {
        try options(arguments, command: "replay", usage: ArgumentParser.usage, diagnostics: diagnostics, help: { print($0) }, parse: parse)
    }

    /// Why `out` (`--out`) cannot be used by a command that reads `directories` (`noun`: "run",
    /// "results"): it is one of them or inside one, which the command would change; nil when it
    /// is neither.
    package static func outIsRead(_ out: String, of directories: [String], noun: String) -> String? {
        let workingDirectory = FileManager.default.currentDirectoryPath
        let resolved = OutputDirectory.resolve(out, from: workingDirectory)
        for directory in directories {
            let read = OutputDirectory.resolve(directory, from: workingDirectory)
            if resolved == read || resolved.hasPrefix(read + "/") {
                return "--out \(out) is \(resolved == read ? "" : "inside ")the \(noun) directory \(directory), "
                    + "which it would change: give the comparison a directory of its own"
            }
        }
        return nil
    }

    /// The run key (`RunKeyFile.load`), read before confinement: `explicit` (`--run-key`), else
    /// `REPLAY_RUN_KEY`'s file, else the per-user key, which only a run (`creating`) may make. A
    /// key that cannot be had is named after `command` and ends the command with 2.
    package static func runKey(_ explicit: String?, creating: Bool, command: String, diagnostics: (String) -> Void) throws(Stop) -> RunKey {
        do {
            return try RunKeyFile.load(explicit: explicit, environment: ProcessInfo.processInfo.environment, creating: creating)
        } catch {
            diagnostics("\(command): \(error.description)")
            throw Stop(exitCode: .usage)
        }
    }

    /// The run key (`runKey`), then the process confined to `directory` (`confine`): in that
    /// order, since the per-user key may have to be made outside `--out`. A command that reads or
    /// writes states (a run, a merge, a comparison) takes both steps.
    package static func keyedAndConfined(_ directory: String, runKey explicit: String?, creatingKey: Bool, command: String,
                                         sandboxing: Sandboxing, allowUnsandboxed: Bool, keepingCheckpoints: Bool = false, force: Bool,
                                         diagnostics: (String) -> Void) throws(Stop) -> (key: RunKey, confined: Confined) {
        let key = try runKey(explicit, creating: creatingKey, command: command, diagnostics: diagnostics)
        return (key, try confine(directory, sandboxing: sandboxing, allowUnsandboxed: allowUnsandboxed, keepingCheckpoints: keepingCheckpoints,
                                 force: force, diagnostics: diagnostics))
    }

    /// Creates `directory`, takes it for this process and confines the process to writing there,
    /// with no network.
    ///
    /// A directory as broad as `/`, the home, a temporary or the working directory (or one holding
    /// any of them) is refused first, whether or not the run is sandboxed: beneath `--out` the run
    /// may write, and the audit scans everything there. A directory another process holds, or one
    /// holding a finished run (without `force`), is refused next (exit 2, `OutputDirectory.Claim`). A
    /// directory that cannot be created, cleared or written in is a result that cannot be written
    /// (exit 5), found before anything is replayed, not a kernel without a sandbox (exit 8).
    ///
    /// `keepingConnections` are loopback connections made before this call that stay usable
    /// (`SandboxPolicy.keptConnections`): only `replay suite run --endpoint` gives one.
    package static func confine(_ directory: String, sandboxing: Sandboxing, allowUnsandboxed: Bool,
                        keepingCheckpoints: Bool = false, keepingConnections: [Int32] = [], force: Bool,
                        diagnostics: (String) -> Void) throws(Stop) -> Confined {
        do {
            return try confined(directory, sandboxing: sandboxing, allowUnsandboxed: allowUnsandboxed,
                                keepingCheckpoints: keepingCheckpoints, keepingConnections: keepingConnections, force: force,
                                diagnostics: diagnostics)
        } catch {
            diagnostics("replay: \(error.description)")
            throw Stop(exitCode: error.exitCode)
        }
    }

    /// `confine`'s steps, each failure thrown for `confine` to print; warnings (an unlockable
    /// directory, `--allow-unsandboxed`) are printed as they come.
    private static func confined(_ directory: String, sandboxing: Sandboxing, allowUnsandboxed: Bool,
                                 keepingCheckpoints: Bool, keepingConnections: [Int32], force: Bool,
                                 diagnostics: (String) -> Void) throws(ConfineFailure) -> Confined {
        if let refusal = OutputDirectory.refusal(for: directory) { throw .outDirectoryRefused(refusal) }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .outDirectoryUnusable(directory: directory, problem: .cannotBeCreated(reason: RunCommand.systemReason(error)))
        }
        let claim: OutputDirectory.Claim?
        do {
            claim = try OutputDirectory.Claim.take(directory, force: force, warn: diagnostics)
        } catch {
            throw .outDirectoryClaimed(error)
        }
        // Once confined, the run can create files beneath `directory` but never remove or
        // replace one (so nothing written can be taken back before an audit scans it): an
        // earlier run's results are cleared now (its checkpoints too, unless this run resumes).
        do {
            try OutputDirectory(directory).prepare(keepingCheckpoints: keepingCheckpoints)
        } catch {
            throw .outDirectoryUnusable(directory: directory, problem: .cannotBeCleared(reason: error.message))
        }
        // A read-only or full file system is found now, not after the whole corpus was replayed.
        do {
            try OutputDirectory(directory).checkWritable()
        } catch {
            throw .outDirectoryUnusable(directory: directory, problem: .cannotBeWritten(reason: error.message))
        }
        guard sandboxing.enabled else {
            return Confined(sandbox: .unsandboxed(because: .landlockUnavailable(reason: "confinement skipped by the caller (in-process test)")),
                            claim: claim)
        }
        do {
            let absolute = URL(fileURLWithPath: directory).standardizedFileURL.path
            return Confined(sandbox: try sandboxing.confine(SandboxPolicy(writableDirectories: [absolute],
                                                                                   keptConnections: keepingConnections)), claim: claim)
        } catch {
            guard allowUnsandboxed else { throw .sandbox(error) }
            diagnostics("replay: running unsandboxed (--allow-unsandboxed): \(error.description)")
            return Confined(sandbox: .unsandboxed(because: error), claim: claim)
        }
    }
}
