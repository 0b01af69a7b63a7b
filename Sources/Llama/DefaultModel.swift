import Foundation

/// Where the models `scripts/setup` installs are: the default (SmolLM2-135M-Instruct, GGUF) and
/// the opt-in ones a team names with `--model NAME` (`scripts/setup --model NAME` installs them).
///
/// Looked up the same way scripts/setup and Package.swift find the cache,
/// `${REPLAY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/replay}`: `REPLAY_MODEL` names the default
/// file outright, otherwise the newest `smollm2-*` folder holds it; an opt-in model is
/// `models/NAME.gguf` there.
public enum DefaultModel {
    /// The names `--model` takes besides a path: the default model's and the opt-in models
    /// scripts/setup installs (its `--model` list, pinned in scripts/deps.env).
    public static let installableNames = ["smollm2-135m", "qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b"]

    /// The file `--model VALUE` means: an installed model's file when VALUE is one of
    /// `installableNames` and no file of that name exists here, else VALUE as a path.
    /// Throws, naming the command that installs it, when VALUE names a model not installed.
    public static func file(forModelArgument value: String) throws(ModelNotInstalled) -> String {
        guard installableNames.contains(value), !FileManager.default.fileExists(atPath: value) else { return value }
        let installed = value == installableNames[0] ? path() : cacheDirectory + "/models/" + value + ".gguf"
        guard let installed, FileManager.default.fileExists(atPath: installed) else { throw ModelNotInstalled(name: value) }
        return installed
    }

    /// `--model NAME` named a model scripts/setup installs, but it is not installed here.
    public struct ModelNotInstalled: Error, Sendable, CustomStringConvertible {
        public let name: String
        public var description: String {
            "--model \(name): that model is not installed here; install it with scripts/setup --deps-only --model \(name)"
        }
    }

    /// The cache folder scripts/setup fills.
    public static var cacheDirectory: String {
        let environment = ProcessInfo.processInfo.environment
        if let cache = environment["REPLAY_CACHE"], !cache.isEmpty { return cache }
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.cache")
        return base + "/replay"
    }

    /// The default model's path, or nil when it is not installed.
    public static func path() -> String? {
        if let explicit = ProcessInfo.processInfo.environment["REPLAY_MODEL"], !explicit.isEmpty {
            return explicit
        }
        let files = FileManager.default
        guard let folders = try? files.contentsOfDirectory(atPath: cacheDirectory) else { return nil }
        for folder in folders.filter({ $0.hasPrefix("smollm2-") }).sorted().reversed() {
            let root = cacheDirectory + "/" + folder
            guard let walker = files.enumerator(atPath: root) else { continue }
            while let item = walker.nextObject() as? String {
                if item.hasSuffix(".gguf") { return root + "/" + item }
            }
        }
        return nil
    }
}
