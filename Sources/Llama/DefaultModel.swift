import Foundation

/// Where the default model (SmolLM2-135M-Instruct, GGUF) is, once `scripts/setup` has installed it.
///
/// Looked up the same way scripts/setup and Package.swift find the cache: `REPLAY_MODEL` names
/// a file outright; otherwise the newest `smollm2-*` folder under
/// `${REPLAY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/replay}` holds it.
public enum DefaultModel {
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
