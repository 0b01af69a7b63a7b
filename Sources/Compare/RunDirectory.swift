import Confinement
import Foundation
import Privacy
import ReplayKit

/// A finished run's `--out` (a run's or a merge's), as `replay compare` reads it: its state and
/// its items, after its manifest has been verified.
///
/// Finished means the run wrote `manifest.json` last and nothing changed since (`replay verify`
/// would pass), and it holds `state.json` and `items.json.zst`: a run that was killed, is still
/// running, or was edited after it ended is refused, naming what is missing or differs. The
/// manifest is not keyed (whoever edits a file can take it again), so `state.json`'s own digest
/// under the run key is checked too.
public struct RunDirectory: Sendable {
    /// As given on the command line (diagnostics name it so).
    public var given: String
    /// Absolute, links resolved: what compare.json records.
    public var path: String
    public var state: RunState
    public var items: ItemTable

    /// Reads and checks the run in `directory`; its state.json must check under `key`.
    public static func read(_ directory: String, key: RunKey) throws(CompareError) -> RunDirectory {
        func refuse(_ because: String) -> CompareError { .notAFinishedRun(directory: directory, because: because) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw refuse("there is no such directory")
        }
        let manifestPath = directory + "/" + RunManifest.fileName
        if !FileManager.default.fileExists(atPath: manifestPath), FileManager.default.fileExists(atPath: directory + "/" + RunManifest.sarifFileName) {
            throw refuse("it is an audit's directory; compare the run inside it, \(directory)/run")
        }
        if let problem = FinishedRun.problem(in: directory) { throw refuse(problem) }
        let recorded: RunManifest
        do throws(ConfinementError) {
            recorded = try RunManifest.read(manifestAt: manifestPath)
        } catch {
            throw refuse("its \(RunManifest.fileName) cannot be checked: \(error.description)")
        }
        let listed = Set(recorded.entries.compactMap { $0.kind == .file ? $0.path : nil })
        for name in [OutputDirectory.stateFileName, ItemTable.fileName] where !listed.contains(Array(name.utf8)) {
            throw refuse(name == ItemTable.fileName
                ? "it has no \(name): the run kept no item outcomes (a replay older than replay.items/1)"
                : "it has no \(name)")
        }
        let state: RunState
        guard let text = try? String(contentsOfFile: directory + "/" + OutputDirectory.stateFileName, encoding: .utf8) else {
            throw refuse("its \(OutputDirectory.stateFileName) cannot be read as UTF-8 text")
        }
        do {
            state = try RunState(stateJSON: text, key: key)
        } catch .madeUnderAnotherRunKey {
            throw refuse("its \(OutputDirectory.stateFileName) was made under another run key than this comparison's "
                         + "(--run-key, REPLAY_RUN_KEY or the per-user key): compare runs made under one key file, with that key")
        } catch .unreadable(let problem) {
            throw refuse("its \(OutputDirectory.stateFileName) is not a replay state: \(problem.description)")
        } catch {
            throw refuse("its \(OutputDirectory.stateFileName) is refused: \(error.description)")
        }
        if state.checkpoint != nil { throw refuse("its \(OutputDirectory.stateFileName) is a checkpoint, not a finished run's state") }
        let items: ItemTable
        do {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/" + ItemTable.fileName)))
            items = try ItemTable(compressed: bytes, name: ItemTable.fileName)
        } catch let error as StateFormatError {
            throw refuse("its \(error.description)")
        } catch {
            throw refuse("its \(ItemTable.fileName) cannot be read")
        }
        return RunDirectory(given: directory, path: OutputDirectory.resolve(directory, from: FileManager.default.currentDirectoryPath),
                            state: state, items: items)
    }

    /// Why `base` and `new` are not runs over one corpus under one run key, in a sentence; nil
    /// when they are: the same files in the same order, each of the same size and keyed digest of
    /// every byte.
    /// Paths are not compared (a corpus may be mounted elsewhere). Without one run key the item
    /// keys cannot agree, whatever the corpus.
    public static func corpusDifference(base: RunDirectory, new: RunDirectory) -> String? {
        let a = base.state.corpusIdentity, b = new.state.corpusIdentity
        guard a.isComplete, b.isComplete else {
            return "\(a.isComplete ? new.given : base.given) read standard input (or a file it could not read whole), which has no identity to compare"
        }
        guard let check = a.runKeyCheck, check == b.runKeyCheck else {
            return "they were made under different run keys (--run-key, REPLAY_RUN_KEY or the per-user key), "
                + "so the same place has different item keys in each: replay both under one key file"
        }
        guard a.files.count == b.files.count else {
            return "\(base.given) read \(a.files.count) corpus file\(a.files.count == 1 ? "" : "s"), \(new.given) \(b.files.count)"
        }
        for (index, (x, y)) in zip(a.files, b.files).enumerated() {
            if x.hashed != .whole || y.hashed != .whole {
                return "corpus file \(index + 1) was not hashed whole in \((x.hashed != .whole ? base : new).given) (a state of an older replay, "
                    + "which hashed only the first and last MiB of a large file), so its bytes cannot be compared: replay it again"
            }
            if x.bytes != y.bytes || x.digest != y.digest {
                return "corpus file \(index + 1) differs in size or digest (\(x.path) in \(base.given), \(y.path) in \(new.given))"
            }
        }
        return nil
    }
}
