#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#endif
import Foundation
import Privacy

/// Where a run's key comes from, read (or, the per-user default, made) before confinement.
///
/// In order: `--run-key FILE` (or the config's `run_key`), else the file `REPLAY_RUN_KEY` names,
/// else the per-user key `${XDG_STATE_HOME:-$HOME/.local/state}/replay/run-key`, made on first use
/// with 32 bytes of kernel randomness, mode 0600, with `O_EXCL` (two processes starting together
/// both end up with the one that won). A key file holds 32 raw bytes or 64 hex digits and a
/// newline; one that others can write to is refused, since whoever can replace the key can make
/// two runs look like one. The cluster scripts make one key file per run beside it
/// (scripts/slurm/submit, the Kubernetes Secret), so every shard and the merge share it.
public enum RunKeyFile {
    /// Why no key could be had, naming the file: a usage error (exit 2), nothing ran.
    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    public static let environmentVariable = "REPLAY_RUN_KEY"

    /// The per-user key's path; nil without a home or state directory.
    static func defaultPath(_ environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/replay/run-key" }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return home + "/.local/state/replay/run-key"
    }

    /// The key a run uses: `explicit`, else `REPLAY_RUN_KEY`'s file, else the per-user key.
    /// A reader of states that were written before (`replay merge`, `replay compare`) passes
    /// `creating: false`: a per-user key made now could check nothing.
    public static func load(explicit: String?, environment: [String: String], creating: Bool = true) throws(Problem) -> RunKey {
        if let explicit { return try read(explicit, from: "--run-key") }
        if let named = environment[environmentVariable], !named.isEmpty { return try read(named, from: environmentVariable) }
        guard let path = defaultPath(environment) else {
            throw Problem(description: "no run key: give --run-key FILE or \(environmentVariable)=FILE (there is no HOME for the per-user key)")
        }
        guard creating || access(path, F_OK) == 0 else {
            throw Problem(description: "no run key: the states are checked under the key they were made with; "
                          + "give \(environmentVariable)=FILE naming the run's key file (there is no per-user key \(path))")
        }
        return try readOrCreate(path)
    }

    /// Reads the key file at `path`; `source` says where the path came from.
    public static func read(_ path: String, from source: String) throws(Problem) -> RunKey {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw Problem(description: "the run key file \(path) (from \(source)) cannot be read: \(SystemError.current.message)")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw Problem(description: "the run key file \(path) (from \(source)) is not a regular file")
        }
        guard info.st_mode & 0o022 == 0 else {
            throw Problem(description: "the run key file \(path) (from \(source)) can be written by others (mode \(String(info.st_mode & 0o777, radix: 8))): "
                          + "whoever can replace it can pass another run's states as this one's; chmod go-w it")
        }
        var contents = [UInt8](repeating: 0, count: 2 * RunKey.length + 2)
        var filled = 0
        while filled < contents.count {
            let got = contents.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            filled += got
        }
        guard let key = RunKey(fileContents: Array(contents.prefix(filled))) else {
            throw Problem(description: "the run key file \(path) (from \(source)) holds \(filled) bytes, not a key: "
                          + "32 random bytes (head -c 32 /dev/urandom) or 64 hex digits")
        }
        return key
    }

    /// Reads the per-user key, making it (and its directory, 0700) first if there is none.
    static func readOrCreate(_ path: String) throws(Problem) -> RunKey {
        // Made already (the usual case): read it, and touch nothing.
        if access(path, F_OK) == 0 { return try read(path, from: "the per-user key") }
        let directory = (path as NSString).deletingLastPathComponent
        var made = ""
        for component in directory.split(separator: "/") {
            made += "/" + component
            if mkdir(made, 0o700) != 0, errno != EEXIST {
                throw Problem(description: "the per-user run key's directory \(made) cannot be made: \(SystemError.current.message); give --run-key FILE")
            }
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if descriptor < 0 {
            guard errno == EEXIST else {
                throw Problem(description: "the per-user run key \(path) cannot be made: \(SystemError.current.message); give --run-key FILE")
            }
            // Another process made it; it may still be writing its 32 bytes.
            for _ in 0..<50 {
                if let key = try? read(path, from: "the per-user key") { return key }
                usleep(20_000)
            }
            return try read(path, from: "the per-user key")
        }
        var key = [UInt8](repeating: 0, count: RunKey.length)
        let random = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        let got = random >= 0 ? key.withUnsafeMutableBytes { Glibc.read(random, $0.baseAddress!, $0.count) } : -1
        if random >= 0 { close(random) }
        let written = got == RunKey.length ? key.withUnsafeBytes { write(descriptor, $0.baseAddress!, $0.count) } : -1
        close(descriptor)
        key = []
        guard written == RunKey.length else {
            unlink(path)
            throw Problem(description: "the per-user run key \(path) could not be written; give --run-key FILE")
        }
        return try read(path, from: "the per-user key")
    }
}
