import Confinement
import Foundation
import Privacy

/// `replay merge --out DIR SHARD_DIR...`: one report from the states of a sharded run's shards.
///
/// Reads each `SHARD_DIR/state.json`, checks they are shards of one run (the same corpus, options
/// and model, one split, every shard 0…N-1 exactly once) and adds them up (`RunState.merged`),
/// which gives exactly the counts one process would have over the whole corpus. It then writes
/// report.json, report.md, junit.xml, the flywheel's files and the merged state.json into DIR,
/// through the same code as a run, confined like a run (it may read anywhere and write only under
/// DIR), and ends as that one run would have: 0, 1 for an unmet `--fail-under` gate, 3 when the
/// corpus had a failed file or a `--strict` bad line, 4 when the model could not be loaded.
/// A shard that is missing, given twice, unreadable or of another run is an input error (3),
/// named by its directory; nothing is written then. Each shard's state.json is checked against
/// its digest under the run key (`StateDigest`) before a count of it is taken: one changed since
/// its shard wrote it, or made under another key, is such a shard. The key is read as a run reads
/// it, but never made: a per-user key made now could check nothing.
public enum MergeCommand: Subcommand {
    /// A merge writes what a run does.
    public static var documents: [any ResultDocument.Type] { RunCommand.documents }

    public static let name = "merge"

    /// A merge that cannot be made, in a sentence naming the shard directory.
    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    public static func run(_ arguments: [String], _ context: CommandContext) -> ExitCode {
        do throws(CommandStart.Stop) {
            let options = try CommandStart.mainOptions(arguments, diagnostics: context.diagnostics, parse: parse)
            return run(options, sandboxing: context.sandboxing, diagnostics: context.diagnostics)
        } catch {
            return error.exitCode
        }
    }

    /// The options `arguments` (after `merge`) give; nil for `--help`.
    static func parse(_ arguments: [String]) throws(ArgumentParser.UsageError) -> MergeOptions? {
        var options = MergeOptions()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "-h", "--help": return nil
            case "--allow-unsandboxed": options.allowUnsandboxed = true
            case "--force": options.force = true
            case "--out":
                guard let value = rest.popFirst() else { throw ArgumentParser.UsageError("--out needs a value") }
                options.outputDirectory = value
            case "--run-key":
                guard let value = rest.popFirst() else { throw ArgumentParser.UsageError("--run-key needs a value") }
                options.runKeyPath = value
            case "--labels":
                guard let value = rest.popFirst() else { throw ArgumentParser.UsageError("--labels needs a value") }
                options.labels = try LabelsFile.load(value)
            case "--fail-under", "--fail-over":
                guard let text = rest.popFirst() else { throw ArgumentParser.UsageError("\(argument) needs a value") }
                do throws(GateKey.Problem) {
                    options.thresholds.append(try Threshold(parsing: text, bound: argument == "--fail-under" ? .atLeast : .atMost))
                } catch {
                    throw ArgumentParser.UsageError("\(argument) takes JOB.KEY=NUMBER or JOB[SLICE].KEY=NUMBER, such as chips.in_budget.device=0.9, not '\(text)': \(error)")
                }
            case "--":
                options.shardDirectories += rest
                rest = []
            default:
                if argument.hasPrefix("-") { throw ArgumentParser.UsageError("unknown option '\(argument)' for replay merge") }
                options.shardDirectories.append(argument)
            }
        }
        guard !options.shardDirectories.isEmpty else { throw ArgumentParser.UsageError("replay merge needs the shards' directories") }
        return options
    }


    static func run(_ options: MergeOptions, sandboxing: Sandboxing, diagnostics: (String) -> Void) -> ExitCode {
        let out = OutputDirectory.resolve(options.outputDirectory, from: FileManager.default.currentDirectoryPath)
        for directory in options.shardDirectories where OutputDirectory.resolve(directory, from: FileManager.default.currentDirectoryPath) == out {
            diagnostics("replay merge: --out \(options.outputDirectory) is also a shard directory (\(directory)), whose state.json it would clear: "
                        + "give the merge a directory of its own")
            return .usage
        }
        // The run key, before confinement: every shard's state is checked under it, and the merged
        // state is sealed with it.
        let (key, confined): (RunKey, CommandStart.Confined)
        do throws(CommandStart.Stop) {
            (key, confined) = try CommandStart.keyedAndConfined(
                options.outputDirectory, runKey: options.runKeyPath, creatingKey: false, command: "replay merge", sandboxing: sandboxing,
                allowUnsandboxed: options.allowUnsandboxed, force: options.force, diagnostics: diagnostics)
        } catch { return error.exitCode }
        defer { confined.claim?.release() }
        var merged: RunState
        do {
            merged = try merge(try options.shardDirectories.map { directory throws(Problem) in (directory, try read(directory, key: key, labels: options.labels)) })
        } catch {
            diagnostics("replay merge: \(error.description)")
            return .input
        }
        if let problem = labelsProblem(merged.options.labels, given: options.labels, shard: options.shardDirectories[0]) {
            diagnostics("replay merge: \(problem)")
            return .usage
        }
        merged.sandbox = confined.sandbox
        merged.audit = nil
        diagnostics("replay merge: \(options.shardDirectories.count) states, shards 0-\(merged.shard.count - 1) of \(merged.shard.count) by \(merged.shard.by.rawValue)")
        return RunCommand.finish(merged, thresholds: options.thresholds, output: OutputDirectory(options.outputDirectory, key: key), tap: nil,
                                 diagnostics: diagnostics)
    }

    /// Why the merge's `--labels` cannot merge shards whose states name `shards` (read with the
    /// merge's list, `TeamLabels.matching`), in a sentence; nil when it is their list.
    ///
    /// The shards kept the names of their list as written and hashed the others; a merge with
    /// another list would hash what they kept (or keep nothing they hashed), so it must be given
    /// the same file. Only digests are compared and named, never a list's entries.
    static func labelsProblem(_ shards: TeamLabels, given: TeamLabels, shard directory: String) -> String? {
        guard shards.digest != given.digest else { return nil }
        guard let theirs = shards.digest else {
            return "the shards (\(directory) and the rest) ran without --labels: merge them without --labels too"
        }
        guard let mine = given.digest else {
            return "the shards (\(directory) and the rest) ran with a --labels file (SHA-256 \(theirs.prefix(12))): give replay merge the same --labels file"
        }
        return "the shards (\(directory) and the rest) ran with another --labels file (SHA-256 \(theirs.prefix(12)), not \(mine.prefix(12))): give replay merge the shards' file"
    }

    /// The state in `directory`/state.json, checked under `key`, its labels put through their
    /// rules with the merge's list.
    static func read(_ directory: String, key: RunKey, labels: TeamLabels = .none) throws(Problem) -> RunState {
        let path = directory + "/" + OutputDirectory.stateFileName
        guard FileManager.default.fileExists(atPath: path) else {
            throw Problem(description: "\(directory) has no \(OutputDirectory.stateFileName): its shard did not finish, or this is not a shard's --out")
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw Problem(description: "\(path) cannot be read as UTF-8 text")
        }
        var state: RunState
        do {
            state = try RunState(stateJSON: text, key: key, labels: labels)
        } catch .madeUnderAnotherRunKey {
            throw Problem(description: "\(directory) is not a shard of this run: its \(OutputDirectory.stateFileName) "
                          + "was made under another run key (REPLAY_RUN_KEY or the per-user key) than the merge's: the shards and their merge must share one key file")
        } catch .unreadable(let problem) {
            throw Problem(description: "\(path) is not a replay state: \(problem.description)")
        } catch {
            throw Problem(description: "\(path) is refused: \(error.description)")
        }
        // The items, which a shard writes before its state: a state without them is not a finished shard.
        let itemsPath = directory + "/" + ItemTable.fileName
        guard let data = FileManager.default.contents(atPath: itemsPath) else {
            throw Problem(description: "\(directory) has no \(ItemTable.fileName): its shard did not finish, or it was made by an older replay")
        }
        do {
            state.items = try ItemTable(compressed: [UInt8](data), name: itemsPath).items
        } catch {
            throw Problem(description: "\(itemsPath) is not an item table: \(error.description)")
        }
        // Whole state and items, and the shard finished: nothing is trusted without its manifest.
        if let problem = FinishedRun.problem(in: directory) {
            throw Problem(description: "\(directory) is not a finished shard: \(problem)")
        }
        return state
    }

    /// The states, named by their directories, added up; a problem names the directory.
    static func merge(_ states: [(directory: String, state: RunState)]) throws(Problem) -> RunState {
        guard let (firstDirectory, first) = states.first else { throw Problem(description: "no shard directory given") }
        var owner: [Int: String] = [:]
        for (directory, state) in states {
            if state.toolVersion != first.toolVersion {
                throw Problem(description: "\(directory) was written by replay \(state.toolVersion), \(firstDirectory) by \(first.toolVersion)")
            }
            if state.shard.count != first.shard.count || state.shard.by != first.shard.by {
                throw Problem(description: "\(directory) is a shard of \(state.shard.count) by \(state.shard.by.rawValue), "
                              + "\(firstDirectory) of \(first.shard.count) by \(first.shard.by.rawValue)")
            }
            // Every file hashed whole by the shard that replays it, and the shards' views alike.
            if let file = state.corpusIdentity.unvouchedFile(replayed: state.shard.replays(file:)) {
                throw Problem(description: "\(directory) replayed corpus file \(file + 1) (\(state.corpusIdentity.files[file].path)) without hashing "
                              + "every byte of it (a state of an older replay, which hashed only the first and last MiB of a large file): "
                              + "its counts cannot be vouched for, run that shard again")
            }
            if let difference = first.corpusIdentity.difference(fromShard: state.corpusIdentity) {
                throw Problem(description: "\(directory) is not over the corpus of \(firstDirectory): \(difference)")
            }
            let options = first.options.differences(from: state.options)
            if !options.isEmpty {
                throw Problem(description: "\(directory) ran with other options than \(firstDirectory) (\(options.joined(separator: ", ")))")
            }
            if let difference = first.model.difference(from: state.model) {
                throw Problem(description: "\(directory) ran another model than \(firstDirectory): \(difference)")
            }
            if state.checkpoint != nil {
                throw Problem(description: "\(directory)'s state is a checkpoint, not a finished shard")
            }
            for index in state.shard.indexes {
                if let other = owner[index] {
                    throw Problem(description: "shard \(index) of \(first.shard.count) is given twice: \(other) and \(directory)")
                }
                owner[index] = directory
            }
        }
        let missing = (0..<first.shard.count).filter { owner[$0] == nil }
        if !missing.isEmpty {
            throw Problem(description: "shard\(missing.count == 1 ? "" : "s") \(missing.map(String.init).joined(separator: ", ")) of \(first.shard.count) "
                          + "\(missing.count == 1 ? "is" : "are") missing: the directories given hold shards "
                          + owner.keys.sorted().map(String.init).joined(separator: ", "))
        }
        return states.map(\.state).sorted { $0.shard.lowestIndex < $1.shard.lowestIndex }.dropFirst().reduce(
            states.map(\.state).min { $0.shard.lowestIndex < $1.shard.lowestIndex }!) { $0.merged(with: $1) }
    }
}

/// What `replay merge` is told: the shards' directories and where the merged report goes.
public struct MergeOptions: Sendable, Equatable {
    public var outputDirectory = "replay-report"
    /// The shards' `--out` directories, each holding its `state.json`.
    public var shardDirectories: [String] = []
    /// CI gates on the merged report.
    public var thresholds: [Threshold] = []
    public var allowUnsandboxed = false
    /// `--force`: replace a finished run in `outputDirectory`.
    public var force = false
    /// The team's labels (`--labels FILE`): the same list as the shards', whose states name it by
    /// its digest, so names are kept and hashed as the shards did.
    public var labels = TeamLabels.none
    /// The run's key file; nil for `REPLAY_RUN_KEY`'s, else the per-user key (the merge never
    /// makes one: it could check nothing). Each shard's state carries its digest under the run
    /// key, which the merge checks, and the merged state carries its own.
    public var runKeyPath: String?

    public init() {}
}
