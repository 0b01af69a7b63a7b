import Export
import Flywheel
import Privacy

/// `replay flywheel [--out DIR] [--labels FILE] CORPUS...`: from message metadata alone and
/// without a model, how often chips are used, routing guesses kept and drafts used: metrics.csv,
/// metrics.json and dashboard.html, confined to writing under `--out` as a run is.
public enum FlywheelCommand: Subcommand {
    public static var documents: [any ResultDocument.Type] { [MetricsDocument.self] }

    public static let name = "flywheel"

    /// What `replay flywheel` is told.
    struct Options: Equatable {
        var corpus: [String]
        var outputDirectory: String
        var allowUnsandboxed: Bool
        var labels: TeamLabels
        var force: Bool
    }

    public static func run(_ arguments: [String], _ context: CommandContext) -> ExitCode {
        let options: Options
        let confined: CommandStart.Confined
        do throws(CommandStart.Stop) {
            options = try CommandStart.mainOptions(arguments, diagnostics: context.diagnostics, parse: parse)
            confined = try CommandStart.confine(options.outputDirectory, sandboxing: context.sandboxing, allowUnsandboxed: options.allowUnsandboxed,
                                                force: options.force, diagnostics: context.diagnostics)
        } catch {
            return error.exitCode
        }
        defer { confined.claim?.release() }
        return count(corpus: options.corpus, outputDirectory: options.outputDirectory, labels: options.labels, diagnostics: context.diagnostics)
    }

    /// The options `arguments` (after `flywheel`) give; nil for `--help`.
    static func parse(_ arguments: [String]) throws(ArgumentParser.UsageError) -> Options? {
        var output = "replay-report"
        var corpus: [String] = []
        var allowUnsandboxed = false
        var force = false
        var labels = TeamLabels.none
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--allow-unsandboxed": allowUnsandboxed = true
            case "--force": force = true
            case "--out":
                guard let value = rest.popFirst() else { throw ArgumentParser.UsageError("--out needs a value") }
                output = value
            case "--labels":
                guard let value = rest.popFirst() else { throw ArgumentParser.UsageError("--labels needs a value") }
                labels = try LabelsFile.load(value)
            case "-h", "--help": return nil
            default:
                if argument.hasPrefix("-") && argument != "-" { throw ArgumentParser.UsageError("unknown option '\(argument)'") }
                corpus.append(argument)
            }
        }
        guard !corpus.isEmpty else { throw ArgumentParser.UsageError("no corpus given") }
        return Options(corpus: corpus, outputDirectory: output, allowUnsandboxed: allowUnsandboxed, labels: labels, force: force)
    }

    /// `replay flywheel`: metadata metrics and the dashboard, no model; names the team listed in
    /// `labels` shown as written, others hashed.
    static func count(corpus: [String], outputDirectory: String, labels: TeamLabels = .none, diagnostics: (String) -> Void) -> ExitCode {
        let reader: CorpusReader
        do {
            // Read ahead: reading, decompressing, splitting and parsing on the second core while
            // this one decodes and counts.
            reader = try CorpusReader(paths: corpus, readAhead: true)
        } catch {
            diagnostics("replay: \(error.description)")
            return .input
        }
        var counter = FlywheelCounter(listed: labels)
        var failures: [ExportError] = []
        // Outlines: the flywheel reads metadata, never words, so none are built.
        reader.forEachOutline { event in
            if case .fileFailed(let error) = event { failures.append(error) }
            counter.add(event)
        }
        do {
            try OutputDirectory(outputDirectory).saveFlywheel(counter)
            try OutputDirectory(outputDirectory).saveManifest()
        } catch {
            diagnostics("replay: \(error.description)")
            return .output
        }
        let stats = reader.stats
        diagnostics("replay: flywheel over \(stats.threads) threads, \(stats.messages) messages, \(stats.badLines) bad lines: "
                    + FlywheelFiles.names.map { outputDirectory + "/" + $0 }.joined(separator: ", "))
        for error in failures { diagnostics("replay: \(error.description)") }
        return failures.isEmpty ? .success : .input
    }
}
