import Audit
import Confinement
import Foundation
import Privacy
import ReplayKit

/// `replay audit`: runs a replay (or any command) under the auditor and turns its verdict into an
/// exit status (`ExitCode.auditCodes`): success when clean, findings, could-not-run, or usage.
///
///     replay audit [--out DIR] [REPLAY OPTIONS] CORPUS...
///     replay audit [--out DIR] probe injection [PROBE OPTIONS] CORPUS...
///     replay audit [--out DIR] -- COMMAND ARGS...
///
/// The first form runs this same executable as `replay --out DIR/run [REPLAY OPTIONS] CORPUS...`
/// (options are passed through as given, `--out` excepted); the second as `replay probe injection
/// --out DIR/run [PROBE OPTIONS] CORPUS...`, watched as a run is; the third audits any command, which
/// finds its directory in `REPLAY_AUDIT_OUT` (also set for replay). The verdict (`audit.sarif`,
/// `audit-junit.xml`) goes to DIR (default ./replay-audit); the summary to `diagnostics`.
public enum AuditCommand: Subcommand {
    public static let name = "audit"

    public static let usage = """
        usage: replay audit [--out DIR] [REPLAY OPTIONS] CORPUS...
               replay audit [--out DIR] probe injection [PROBE OPTIONS] CORPUS...
               replay audit [--out DIR] -- COMMAND ARGS...

        Runs replay (or COMMAND) under strace with a fresh canary planted in every prompt, then
        checks that nothing left the run: no network socket, no file written outside DIR/run, and
        neither the canary nor any model output in anything it wrote (files, stdout, stderr,
        temporary files). A replay run must also have been confined by the kernel sandbox.
        Every system call outside the audit's reviewed allow-list is a finding, the command's
        standard input is /dev/null (give a corpus as files, not -), and whatever of its process
        tree outlives it is killed before the scan and is a finding.

        --out DIR     the audit's directory (default ./replay-audit): audit.sarif, audit-junit.xml,
                      and the run's own output in DIR/run
        REPLAY OPTIONS are passed to replay as given (--limit N, --model PATH, --job, --batch,
                      --shard I/N to audit one shard of a sharded run, ...)
        PROBE OPTIONS are passed to replay probe injection as given: the injection probe is
                      audited as a run is, the canary planted before its attacks

        \(ExitCode.usageSection(ExitCode.auditCodes) { $0.auditMeaning })
        """

    public static func run(_ arguments: [String], _ context: CommandContext) -> ExitCode {
        run(arguments, diagnostics: context.diagnostics)
    }

    /// Runs `arguments` (after `audit`). `replayExecutable` is the replay to run for a corpus
    /// (default: this process's own executable).
    public static func run(_ arguments: [String], replayExecutable: String? = nil,
                           environment: [String: String] = ProcessInfo.processInfo.environment,
                           diagnostics: (String) -> Void = RunCommand.standardError) -> ExitCode {
        var auditDirectory = "replay-audit"
        var passed: [String] = []
        var command: [String]? = nil
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "-h", "--help":
                diagnostics(usage)
                return .success
            case "--out":
                guard let value = rest.popFirst() else {
                    diagnostics("replay audit: --out needs a value\n\n" + usage)
                    return .usage
                }
                auditDirectory = value
            case "--":
                command = Array(rest)
                rest = []
            default:
                passed.append(argument)
            }
        }
        let plan: Auditor.Plan
        if let command {
            guard passed.isEmpty else {
                diagnostics("replay audit: options before -- are for replay; with -- give only --out and the command\n\n" + usage)
                return .usage
            }
            guard !command.isEmpty else {
                diagnostics("replay audit: no command after --\n\n" + usage)
                return .usage
            }
            plan = Auditor.Plan(command: command, auditDirectory: auditDirectory, environment: environment)
        } else {
            guard passed.contains(where: { !$0.hasPrefix("-") || $0 == "-" }) else {
                diagnostics("replay audit: no corpus given\n\n" + usage)
                return .usage
            }
            guard let replay = replayExecutable ?? selfExecutable() else {
                diagnostics("replay audit: cannot find this executable (/proc/self/exe)")
                return .auditCouldNotRun
            }
            // The run key is read by the run; the per-user key, if it must be made, is made here,
            // outside the trace, so making it is not a write outside the run's directory.
            if !passed.contains("--run-key"), (environment[RunKeyFile.environmentVariable] ?? "").isEmpty {
                do {
                    _ = try RunKeyFile.load(explicit: nil, environment: environment)
                } catch {
                    diagnostics("replay audit: \(error.description)")
                    return .usage
                }
            }
            let child = auditDirectory + "/run"
            // A subcommand the audit watches as a run (its first words), else a run.
            let words = Self.auditedSubcommands.first { passed.starts(with: $0) } ?? []
            var replayPlan = Auditor.Plan(command: [replay] + words + ["--out", child] + passed.dropFirst(words.count),
                                          auditDirectory: auditDirectory, childDirectory: child, environment: environment,
                                          isReplay: true)
            // The labels the run is given (--labels, or its config's), read as the run reads them.
            if case .replay(let options)? = try? ArgumentParser.parse(["--out", child] + passed, environment: environment) {
                replayPlan.teamLabels = options.labels
            }
            replayPlan.documents = ReplayTool.documents
            plan = replayPlan
        }
        let result = Auditor.run(plan)
        let code = ExitCode(result.verdict)
        diagnostics(result.summary + "\nreplay audit: exit \(code.rawValue)")
        return code
    }

    /// The subcommands that plant the audit's canary and fingerprint their model's outputs as a
    /// run does, by the words that name them: the audit runs them as it runs a replay.
    static let auditedSubcommands: [[String]] = [["probe", "injection"]]

    /// The path of the running executable.
    static func selfExecutable() -> String? {
        let resolved = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        return resolved == "/proc/self/exe" ? nil : resolved
    }
}
