import Confinement
import Foundation
import Privacy

/// What changed in the temporary directories while the audited command ran.
///
/// A second net behind the trace (which names every file the command wrote): entries of each
/// temporary directory are noted before the run; afterwards, new or changed regular files at the
/// top, files in new directories (recursively), and recently changed files one level inside
/// changed directories are scanned for the canary. Other processes write there too (other audits
/// among them, with the same common words as this run's outputs), so these files are searched
/// for this run's canary alone, which nothing else can know.
struct TemporarySweep: Sendable {
    struct Stamp: Equatable, Sendable {
        var inode: UInt64
        var seconds: Int
        var nanoseconds: Int
        var size: Int64
        var isDirectory: Bool
    }

    let directories: [String]
    let skipping: [String]
    let before: [String: Stamp]
    let started: Int

    init(directories: [String], skipping: [String]) {
        self.directories = directories
        self.skipping = skipping.map(Auditor.canonical)
        var before: [String: Stamp] = [:]
        for directory in directories {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
                let path = directory + "/" + name
                if let stamp = Self.stamp(path) { before[path] = stamp }
            }
        }
        self.before = before
        started = Int(time(nil)) - 1
    }

    static func stamp(_ path: String) -> Stamp? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return Stamp(inode: UInt64(info.st_ino), seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec),
                     size: Int64(info.st_size), isDirectory: info.st_mode & S_IFMT == S_IFDIR)
    }

    /// Regular files that appeared or changed, at most `limit`.
    func changedFiles(limit: Int) -> [String] {
        var found: [String] = []
        let owner = getuid()
        func consider(_ path: String) {
            guard found.count < limit, !skipping.contains(where: { path == $0 || path.hasPrefix($0 + "/") }) else { return }
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == owner,
                  Int(info.st_mtim.tv_sec) >= started else { return }
            found.append(path)
        }
        for directory in directories {
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted() {
                let path = directory + "/" + name
                guard let now = Self.stamp(path), skipping.allSatisfy({ path != $0 }) else { continue }
                let old = before[path]
                if old == now { continue }
                if !now.isDirectory {
                    consider(path)
                } else if old == nil {
                    guard let walker = FileManager.default.enumerator(atPath: path) else { continue }
                    while found.count < limit, let relative = walker.nextObject() as? String { consider(path + "/" + relative) }
                } else {
                    for inner in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] { consider(path + "/" + inner) }
                }
            }
        }
        return found
    }
}
