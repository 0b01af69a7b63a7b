import Confinement
import Foundation

/// The rule for `--out`: a directory of the run's own, never one that other programs and people
/// write in, nor one that holds such a directory.
///
/// Everything beneath `--out` is what the sandbox lets the run write and what the audit scans; given
/// `/`, the home directory, a temporary directory or the working directory, the sandbox would allow
/// writes among files that are not the run's, and the audit would scan them all.
extension OutputDirectory {
    /// A directory `--out` may neither be nor hold, with what it is called in a sentence.
    struct Place: Sendable, Equatable {
        let name: String
        /// Resolved: absolute, without `.`, `..` or symbolic links.
        let path: String
    }

    /// Why `--out` is refused; exit 2, like any other usage error.
    enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// `given` resolves to `place` itself, or to a directory that holds it.
        case tooBroad(given: String, resolved: String, place: Place)

        var description: String {
            switch self {
            case let .tooBroad(given, resolved, place):
                let what = resolved == place.path ? "is \(place.name)" : "holds \(place.name) (\(place.path))"
                let suggestion = resolved == "/" ? "./replay-report" : resolved + "/replay-report"
                return "--out \(given) \(what): the run could write among files that are not its own."
                    + " Give it a directory of its own, such as \(suggestion) (created if missing)."
            }
        }
    }

    /// The refusal for `--out` as given, judged where `replay` runs; nil when it may be used.
    static func refusal(for given: String,
                        environment: [String: String] = ProcessInfo.processInfo.environment,
                        workingDirectory: String = FileManager.default.currentDirectoryPath) -> Refusal? {
        refusal(given: given, resolved: resolve(given, from: workingDirectory),
                places: places(environment: environment, workingDirectory: workingDirectory))
    }

    /// The rule itself, on resolved paths: `resolved` may be neither a place nor an ancestor of one.
    static func refusal(given: String, resolved: String, places: [Place]) -> Refusal? {
        for place in places where resolved == "/" || place.path == resolved || place.path.hasPrefix(resolved + "/") {
            return .tooBroad(given: given, resolved: resolved, place: place)
        }
        return nil
    }

    /// The shared directories, resolved: the root, the home directory, the temporary directories
    /// (`$TMPDIR` too), /dev/shm and the working directory.
    static func places(environment: [String: String], workingDirectory: String) -> [Place] {
        var places = [Place(name: "the root directory", path: "/")]
        if let home = environment["HOME"], !home.isEmpty {
            places.append(Place(name: "the home directory", path: resolve(home, from: workingDirectory)))
        }
        for temporary in ["/tmp", "/var/tmp", environment["TMPDIR"]].compactMap({ $0 }) where !temporary.isEmpty {
            places.append(Place(name: "a temporary directory", path: resolve(temporary, from: workingDirectory)))
        }
        places.append(Place(name: "the shared memory directory", path: resolve("/dev/shm", from: workingDirectory)))
        places.append(Place(name: "the working directory", path: resolve(workingDirectory, from: "/")))
        return places
    }

    /// `path` made absolute against `base`, with symbolic links resolved as far as it exists
    /// (`realpath`) and `.` and `..` taken lexically beyond: `--out` need not exist yet.
    package static func resolve(_ path: String, from base: String) -> String {
        let absolute = path.hasPrefix("/") ? path : base + "/" + path
        let components = absolute.split(separator: "/").map(String.init)
        var resolved = "/"
        var existing = 0
        for count in stride(from: components.count, through: 1, by: -1) {
            if let real = realpath("/" + components[..<count].joined(separator: "/"), nil) {
                resolved = String(cString: real)
                free(real)
                existing = count
                break
            }
        }
        for component in components[existing...] {
            switch component {
            case ".": continue
            case "..": resolved = resolved == "/" ? "/" : (resolved as NSString).deletingLastPathComponent
            default: resolved = resolved == "/" ? "/" + component : resolved + "/" + component
            }
        }
        return resolved
    }
}
