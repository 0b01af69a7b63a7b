import Confinement
import Engine
import Export
import Flywheel
import Foundation
import Privacy

/// `replay [OPTIONS] CORPUS...`: a run, the command a line names when its first word names no
/// subcommand (`Subcommand`); also `--help` and `--version`.
public enum RunCommand {
    /// The JSON result files a run writes, by their types (`Subcommand.documents`).
    public static let documents: [any ResultDocument.Type] = [RunReport.self, MetricsDocument.self, ItemsDocument.self, RunManifest.self, RunState.self]

    /// Runs `arguments` (without the program name) and says which exit code it ends with.
    public static func run(_ arguments: [String], _ context: CommandContext) -> ExitCode {
        let diagnostics = context.diagnostics
        let command: ReplayCommand
        do throws(CommandStart.Stop) {
            command = try CommandStart.options(arguments, command: "replay", usage: ArgumentParser.usage, diagnostics: diagnostics) {
                arguments throws(ArgumentParser.UsageError) in try ArgumentParser.parse(arguments)
            }
        } catch {
            return error.exitCode
        }
        switch command {
        case .help:
            print(ArgumentParser.usage)
            return .success
        case .version:
            print("replay \(ArgumentParser.version)")
            return .success
        case .replay(let options):
            return replay(options, sandboxing: context.sandboxing, stop: context.stopRequest?() ?? StopRequest(), diagnostics: diagnostics)
        }
    }

    /// The C library's message for the errno beneath a Foundation file error ("Not a directory"),
    /// else the error as Foundation words it.
    package static func systemReason(_ error: any Error) -> String {
        if let underlying = (error as? CocoaError)?.underlying as NSError?, underlying.domain == NSPOSIXErrorDomain {
            return SystemError(Int32(underlying.code)).message
        }
        return (error as NSError).localizedDescription
    }

    /// Runs a parsed replay. `afterIdentity` is called once the corpus's identity is taken and
    /// before the model loads (tests edit the corpus there; a run passes nothing).
    public static func replay(_ options: ReplayOptions, sandboxing: Sandboxing, stop: StopRequest, diagnostics: (String) -> Void,
                       afterIdentity: () -> Void = {}) -> ExitCode {
        // A missing corpus is known at once: say so before spending seconds on the model.
        let files: [String]
        do {
            files = try CorpusReader(paths: options.corpus).files
        } catch {
            diagnostics("replay: \(error.description)")
            return .input
        }
        if options.resume, files.contains("-") {
            diagnostics("replay: --resume cannot continue over standard input (-), which cannot be read again: give the corpus as files")
            return .usage
        }
        // The run key, before confinement (the per-user key may have to be made outside --out);
        // then confined before the model starts any thread and before any record is read.
        let (key, confined): (RunKey, CommandStart.Confined)
        do throws(CommandStart.Stop) {
            (key, confined) = try CommandStart.keyedAndConfined(
                options.outputDirectory, runKey: options.runKeyPath, creatingKey: true, command: "replay", sandboxing: sandboxing,
                allowUnsandboxed: options.allowUnsandboxed, keepingCheckpoints: options.resume, force: options.force, diagnostics: diagnostics)
        } catch { return error.exitCode }
        defer { confined.claim?.release() }
        let session = RunSession(options, files: files, key: key, sandbox: confined.sandbox, afterIdentity: afterIdentity)
        if session.facts.wanted.drawer, files.contains("-") {
            diagnostics("replay: the drawer is not replayed over standard input (-): its agents are read from the whole corpus "
                        + "before the run, and standard input cannot be read twice")
        }
        // A run with the model (or with no model file at all) says now why it has none; a dry run
        // whose model file is being checked, once it is checked.
        let modelProblem = options.dryRun && session.model.path != nil ? nil : session.model.identity(diagnostics: diagnostics).unavailable
        if options.resume, let refused = session.resume(diagnostics: diagnostics) { return refused }
        let runner = ReplayRunner(options: options, jobs: session.jobs, model: session.model.engine,
                                  modelUnavailable: options.dryRun ? nil : modelProblem, tap: session.tap, showProgress: isatty(2) == 1,
                                  itemKeys: ItemKeys(key: key, fileDigests: session.identity.files.map(\.digest)), stop: stop)
        runner.expectedCorpus = session.expected
        let tally = runner.run(resume: session.resumePoint) { partial in
            session.saveCheckpoint(partial, stop: stop, diagnostics: diagnostics)
        }
        return session.end(tally, stop: stop, diagnostics: diagnostics)
    }

    /// Why a checkpoint cannot be resumed by this run, in a few words; nil when it can.
    static func resumeProblem(_ checkpoint: RunState, identity: CorpusIdentity, options: StateOptions, model: ModelIdentity,
                              shard: ShardSpec) -> String? {
        if let difference = checkpoint.corpusIdentity.difference(from: identity) { return difference }
        let options = checkpoint.options.differences(from: options)
        if !options.isEmpty { return "its options differ (\(options.joined(separator: ", ")))" }
        if let difference = checkpoint.model.difference(from: model) { return difference }
        let facts = checkpoint.shard
        if facts.count != shard.count || facts.by != shard.by || facts.indexes != [shard.index] {
            return "it is of shard \(facts.indexes.map(String.init).joined(separator: ",")) of \(facts.count) by \(facts.by.rawValue), not \(shard.text) by \(shard.by.rawValue)"
        }
        if checkpoint.toolVersion != ArgumentParser.version { return "it was made by replay \(checkpoint.toolVersion)" }
        return nil
    }

    /// Writes a state's report, flywheel files, state.json and junit.xml, prints the summary and
    /// the gates' verdicts, and says how the run ends: as a run's exit status, for a run and a merge alike.
    static func finish(_ state: RunState, thresholds: [Threshold], output: OutputDirectory, tap: AuditTap?,
                       diagnostics: (String) -> Void) -> ExitCode {
        let report = ReportBuilder(state: state).report
        do {
            try output.saveResults(of: state, report: report)
        } catch {
            diagnostics("replay: cannot write the report to \(output.path): \(error.description)")
            return .output
        }
        diagnostics(summary(report, directory: output.path))
        if let tap {
            do {
                try tap.finish()
            } catch {
                diagnostics("replay: cannot write the audit fingerprints: \(error.description)")
                return .output
            }
        }
        let verdicts = thresholds.flatMap { $0.judge(report, listed: state.options.labels) }
        do {
            try output.saveJUnit(verdicts)
        } catch {
            diagnostics("replay: cannot write junit.xml: \(error.description)")
            return .output
        }
        // Last: the manifest that marks the run finished (replay verify checks it).
        do {
            try output.saveManifest()
        } catch {
            diagnostics("replay: cannot write the run's manifest: \(error.description)")
            return .output
        }
        var code = ExitCode.success
        if let fatal = state.corpus.fatal {
            diagnostics("replay: \(fatal.message)")
            code = .input
        }
        for error in state.corpus.errors { diagnostics("replay: \(error.message)") }
        if !state.corpus.errors.isEmpty { code = .input }
        if state.model.unavailable != nil && code == .success { code = .model }
        if !verdicts.isEmpty {
            let unmet = verdicts.filter { !$0.met }
            for verdict in verdicts { diagnostics("replay: gate \(verdict.line)") }
            if code == .success && !unmet.isEmpty { code = .thresholdsNotMet }
            diagnostics(unmet.isEmpty
                ? "replay: verdict: all \(verdicts.count) gates met"
                : "replay: verdict: \(unmet.count) of \(verdicts.count) gates not met" + (code == .thresholdsNotMet ? " (exit 1)" : " (exit \(code.rawValue): an error comes first)"))
        }
        return code
    }

    /// The few lines printed at the end: counts and rates only.
    static func summary(_ report: RunReport, directory: String) -> String {
        var lines = ["replay: \(report.corpus.threads) threads, \(report.corpus.messages) messages, \(report.corpus.badLines) bad lines"]
        if let version = report.run.profiles.asModelVersion {
            lines.append("replay: upgrade preview: every place replayed as model version \(version.text) would run it")
        }
        for (kind, job) in report.jobs.pairs {
            let m = job.overall
            var line = "replay: \(kind.rawValue): \(m.eligible) eligible of \(m.scanned) scanned"
            if report.run.mode == .replay {
                line += ", \(m.answered) answered"
                if let device = m.inBudget.device { line += String(format: ", %.1f%% in budget on device", device * 100) }
                if let queued = m.inBudget.queued { line += String(format: " (%.1f%% in its queue)", queued * 100) }
                if let host = m.inBudget.host { line += String(format: ", %.1f%% on this host", host * 100) }
            }
            lines.append(line)
        }
        if report.shard.count > 1 {
            let shards = report.shard.index.map { "shard \($0) of \(report.shard.count)" } ?? "\(report.shard.count) shards merged"
            lines.append("replay: \(shards) by \(report.shard.by.rawValue), \(report.shard.threadsSkipped) threads skipped as other shards'")
        }
        lines.append("replay: report in \(directory)/report.json and report.md")
        return lines.joined(separator: "\n")
    }

    /// The size of a file in bytes, 0 when it cannot be read.
    ///
    /// With stat(2): Foundation's attributes also look up the owner's name, which asks nscd
    /// over a UNIX socket the sandbox (rightly) refuses.
    package static func fileSize(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    public static func standardError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
