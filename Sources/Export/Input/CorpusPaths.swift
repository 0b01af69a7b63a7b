#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Privacy

/// Turns the paths a person gave into the list of files to read, in order.
enum CorpusPaths {
    /// The file names a directory contributes: zstd shards and plain JSON Lines.
    static let shardSuffixes = [".jsonl.zst", ".jsonl"]

    /// Each path as given, except that a directory becomes its shard files in byte-wise name order.
    ///
    /// Directories are not searched recursively, and hidden files (a leading `.`) are left out
    /// so an editor's or a copier's temporary files are not read as shards. `-` is standard input.
    static func resolve(_ paths: [String]) throws(ExportError) -> [String] {
        guard !paths.isEmpty else { throw .corpusHasNoPaths }
        var files: [String] = []
        for path in paths {
            if path == "-" {
                files.append(path)
                continue
            }
            var info = stat()
            guard stat(path, &info) == 0 else {
                let code = errno
                if code == ENOENT || code == ENOTDIR { throw .pathDoesNotExist(path: path) }
                throw .pathIsNotReadable(path: path, reason: SystemError(code).message)
            }
            if info.st_mode & S_IFMT == S_IFDIR {
                files += try shards(in: path)
            } else {
                guard access(path, R_OK) == 0 else {
                    throw .pathIsNotReadable(path: path, reason: SystemError(errno).message)
                }
                files.append(path)
            }
        }
        return files
    }

    private static func shards(in directory: String) throws(ExportError) -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw .pathIsNotReadable(path: directory, reason: "the directory cannot be listed")
        }
        let chosen = names
            .filter { name in !name.hasPrefix(".") && shardSuffixes.contains { name.hasSuffix($0) } }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let separator = directory.hasSuffix("/") ? "" : "/"
        let files = chosen.map { directory + separator + $0 }.filter { file in
            var info = stat()
            return stat(file, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        }
        guard !files.isEmpty else { throw .directoryHasNoShards(path: directory) }
        return files
    }
}
