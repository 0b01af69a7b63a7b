import Foundation
import Glibc
import Testing
@testable import Audit
@testable import Confinement
import Privacy
import TestSupport

/// The content scan reads every compressed stream to its end and every name as bytes: the
/// canary packed by xz, bzip2 or zip under `replay audit --` is found, so is one after 64 MiB of
/// zeros in a zstd stream, and one in or under a name that is not UTF-8 or past `PATH_MAX`; and
/// the same programs writing no canary pass.
@Suite(.serialized, .tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct DecompressedScanTests {
    /// Shell commands run under `replay audit --`, each leaving one compressed file in the run's
    /// directory with the canary inside (`$REPLAY_AUDIT_CANARY`, `$REPLAY_AUDIT_OUT`).
    static let packed: [(String, String)] = [
        ("xz", #"printf 'note %s end\n' "$REPLAY_AUDIT_CANARY" | xz > "$REPLAY_AUDIT_OUT/note.xz""#),
        ("bzip2", #"printf 'note %s end\n' "$REPLAY_AUDIT_CANARY" | bzip2 > "$REPLAY_AUDIT_OUT/note.bz2""#),
        ("zip", #"cd "$REPLAY_AUDIT_OUT" && printf 'note %s end\n' "$REPLAY_AUDIT_CANARY" | zip -q -9 note.zip -"#),
        ("zip member name", #"cd "$REPLAY_AUDIT_OUT" && mkdir -p ../pack && cd ../pack && printf 'x' > "n$REPLAY_AUDIT_CANARY" && zip -q -9 "$REPLAY_AUDIT_OUT/note.zip" "n$REPLAY_AUDIT_CANARY""#),
        ("gzip inside xz inside bzip2", #"printf 'note %s end\n' "$REPLAY_AUDIT_CANARY" | gzip | xz | bzip2 > "$REPLAY_AUDIT_OUT/note.bz2""#),
        ("xz inside a zip", #"cd "$REPLAY_AUDIT_OUT" && printf 'note %s end\n' "$REPLAY_AUDIT_CANARY" | xz | zip -q -0 note.zip -"#),
        ("zstd after 64 MiB of zeros", #"{ head -c 67108864 /dev/zero; printf '%s' "$REPLAY_AUDIT_CANARY"; } | zstd -q -1 > "$REPLAY_AUDIT_OUT/zeros.zst""#),
    ]

    static func audit(_ script: String) -> (result: AuditResult, root: String) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("compressed-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let result = Auditor.run(command: ["/bin/sh", "-c", script], outDirectory: root + "/audit", timeLimit: 600)
        return (result, root)
    }

    @Test(arguments: packed.map(\.0))
    func canaryInACompressedFileIsFound(_ name: String) throws {
        let script = try #require(Self.packed.first { $0.0 == name }?.1)
        let (result, root) = Self.audit(script)
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(result.problems.isEmpty, "\(result.problems)")
        let canary = result.findings.filter { $0.rule == .canaryInOutput }
        #expect(!canary.isEmpty, "\(name): \(result.findings.map(\.message))")
        #expect(canary.contains { $0.message.contains("decompressed contents") || $0.message.contains("names of the zip members") })
        #expect(!result.findings.contains { $0.rule == .unscannedEntry })
    }

    /// The same tools writing no canary raise nothing: the decompressed scan cries no wolf.
    @Test func cleanCompressedFilesPass() throws {
        let script = #"cd "$REPLAY_AUDIT_OUT" && printf 'counts 1 2 3\n' | xz > a.xz && printf 'counts\n' | bzip2 > b.bz2 && { head -c 70000000 /dev/zero; echo done; } | zstd -q -1 > c.zst"#
        let (result, root) = Self.audit(script)
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(result.problems.isEmpty, "\(result.problems)")
        #expect(result.errors.isEmpty, "\(result.findings.map(\.message))")
    }

    /// A zip inside a stream cannot be read from a pipe: said, not passed over.
    @Test func aZipInsideAStreamIsAFinding() throws {
        let (result, root) = Self.audit(#"cd "$REPLAY_AUDIT_OUT" && printf 'x' > a.txt && zip -q - a.txt | gzip > packed.gz && rm a.txt"#)
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(result.findings.contains { $0.rule == .unscannedEntry && $0.message.contains("zip") }, "\(result.findings.map(\.message))")
    }

    /// A truncated stream cannot be cleared by any scan: it is a finding, not silence.
    @Test func aStreamTheToolCannotFinishIsAFinding() throws {
        let directory = try TemporaryDirectory(prefix: "truncated")
        let full = try Subprocess.run(tool: "xz", ["-c"], input: Data(repeating: 0x61, count: 100_000))
        try directory.write("cut.xz", Array(full.standardOutput.prefix(full.standardOutput.count / 2)))
        let scanner = LeakScanner(canary: try #require(AuditCanary.random()).text, fingerprint: OutputFingerprint(salt: [1]), digests: [])
        let scan = scanner.scan(directory: directory.path, places: PlaceNames(salt: [2], allowedDirectory: directory.path))
        #expect(scan.findings.contains { $0.rule == .unscannedEntry })
    }

    // MARK: Names as bytes

    static func scanner(_ canary: String) -> LeakScanner {
        LeakScanner(canary: canary, fingerprint: OutputFingerprint(salt: [1]), digests: [])
    }

    @Test func canaryInAFileWhoseNameIsNotUTF8IsFound() throws {
        let canary = try #require(AuditCanary.random()).text
        let directory = try TemporaryDirectory(prefix: "bytes-name")
        let name: [UInt8] = Array((directory.path + "/").utf8) + [0x6e, 0xff, 0xfe, 0x2e, 0x74]
        let descriptor = DirectoryEntries.withCString(name) { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o600) }
        try #require(descriptor >= 0)
        _ = Array(canary.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        // FileManager's walk cannot reach it; the byte walk can.
        let scan = Self.scanner(canary).scan(directory: directory.path, places: PlaceNames(salt: [2], allowedDirectory: directory.path))
        #expect(scan.findings.contains { $0.rule == .canaryInOutput })
        #expect(scan.sources == 1)
    }

    @Test func canaryInANameThatIsNotUTF8IsFound() throws {
        let canary = try #require(AuditCanary.random()).text
        let directory = try TemporaryDirectory(prefix: "bytes-name")
        let name: [UInt8] = Array((directory.path + "/").utf8) + [0xff] + Array(canary.utf8) + [0xfe]
        let descriptor = DirectoryEntries.withCString(name) { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o600) }
        try #require(descriptor >= 0)
        close(descriptor)
        let scan = Self.scanner(canary).scan(directory: directory.path, places: PlaceNames(salt: [2], allowedDirectory: directory.path))
        let finding = try #require(scan.findings.first { $0.rule == .canaryInOutput })
        #expect(finding.message.contains("the name of an entry"))
        #expect(finding.location?.contains(canary) == false)
    }

    @Test func canaryBeyondPathMaxIsFound() throws {
        let canary = try #require(AuditCanary.random()).text
        let directory = try TemporaryDirectory(prefix: "deep")
        let current = try #require(DeepDirectory.make(beneath: directory.path, levels: 18))
        let file = openat(current, "deep.txt", O_WRONLY | O_CREAT | O_EXCL, 0o600)
        _ = Array(canary.utf8).withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
        close(file)
        close(current)
        let scan = Self.scanner(canary).scan(directory: directory.path, places: PlaceNames(salt: [2], allowedDirectory: directory.path))
        #expect(scan.findings.contains { $0.rule == .canaryInOutput })
        #expect(!scan.findings.contains { $0.rule == .unscannedEntry })
        // TemporaryDirectory's removal cannot reach past PATH_MAX either: take the tree down by descriptor.
        Self.removeTree(directory.path)
    }

    /// A clean replay run's directory scanned by bytes: nothing.
    @Test func cleanReplayDirectoryScansClean() throws {
        let run = ReplayResultRun.dry
        let directory = try #require(run.directory, Comment(rawValue: run.failure ?? ""))
        let canary = try #require(AuditCanary.random()).text
        let scan = Self.scanner(canary).scan(directory: directory, places: PlaceNames(salt: [2], allowedDirectory: directory))
        #expect(scan.findings.isEmpty, "\(scan.findings.map(\.message))")
        #expect(scan.sources >= 7)
    }

    /// Removes `path` and everything beneath it, directory by directory (`unlinkat`), whatever its depth.
    static func removeTree(_ path: String) {
        func remove(_ parent: Int32, _ name: [CChar]) {
            let child = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
            if child >= 0, let stream = fdopendir(child) {
                var names: [[CChar]] = []
                while let record = readdir(stream) {
                    let entry = withUnsafeBytes(of: record.pointee.d_name) { Array($0.bindMemory(to: CChar.self).prefix { $0 != 0 }) + [0] }
                    if entry != [0x2e, 0] && entry != [0x2e, 0x2e, 0] { names.append(entry) }
                }
                for entry in names { remove(dirfd(stream), entry) }
                closedir(stream)
                _ = unlinkat(parent, name, AT_REMOVEDIR)
            } else {
                _ = unlinkat(parent, name, 0)
            }
        }
        let parent = open((path as NSString).deletingLastPathComponent, O_RDONLY | O_DIRECTORY)
        remove(parent, Array((path as NSString).lastPathComponent.utf8CString))
        close(parent)
    }
}
