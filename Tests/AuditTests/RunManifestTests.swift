@testable import Audit
@testable import Confinement
import Foundation
import Glibc
import Privacy
import Testing
import TestSupport

/// The manifest of a run's directory (`replay.manifest/1`): taken once, taken again, and every
/// way an adversary could change the directory in between is named; an untouched directory
/// shows no difference.
@Suite struct RunManifestTests {
    /// A directory like a finished run's: a few files, a sub-directory, an empty file.
    static func runDirectory() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory(prefix: "manifest")
        try directory.write("report.json", text: #"{"schema":"replay.report/1","corpus":{"threads":3}}"#)
        try directory.write("state.json", text: #"{"complete":true}"#)
        try directory.write("empty", [])
        try directory.makeDirectory("sub")
        try directory.write("sub/metrics.csv", text: "dimension,key,events\nall,all,3\n")
        return directory
    }

    static func take(_ directory: TemporaryDirectory) throws -> RunManifest { try RunManifest.take(directory.path) }

    static func changes(_ directory: TemporaryDirectory, after recorded: RunManifest) throws -> [ManifestDifference] {
        recorded.differences(from: try take(directory))
    }

    @Test func anUntouchedDirectoryShowsNoDifference() throws {
        let directory = try Self.runDirectory()
        let recorded = try Self.take(directory)
        #expect(recorded.entries.map { $0.encodedPath ?? "" } == ["empty", "report.json", "state.json", "sub", "sub/metrics.csv"])
        #expect(recorded.entries.first { $0.encodedPath == "report.json" }?.sha256
                == SHA256.hex(Array(#"{"schema":"replay.report/1","corpus":{"threads":3}}"#.utf8)))
        #expect(try Self.changes(directory, after: recorded).isEmpty)
        // Read back from both spellings, the same manifest.
        let file = try directory.write("manifest.json", text: recorded.json())
        #expect(try RunManifest.read(manifestAt: file) == recorded)
        #expect(try RunManifest.take(directory.path, excluding: ["manifest.json"]) == recorded)
    }

    @Test func aFileAddedAfterwardsIsExtraAndItsNameIsNotShown() throws {
        let directory = try Self.runDirectory()
        let recorded = try Self.take(directory)
        try directory.write("sub/mum_is_at_the_GP_now", text: "1")
        let found = try Self.changes(directory, after: recorded)
        #expect(found.map(\.change) == [.extra])
        #expect(found[0].description.contains("in sub"))
        #expect(!found[0].description.contains("mum"))
    }

    @Test func aFileRemovedIsMissing() throws {
        let directory = try Self.runDirectory()
        let recorded = try Self.take(directory)
        try FileManager.default.removeItem(atPath: directory.path("state.json"))
        #expect(try Self.changes(directory, after: recorded) == [ManifestDifference(shown: "state.json", change: .missing)])
    }

    @Test func aFileTruncatedOrGrownIsChanged() throws {
        let directory = try Self.runDirectory()
        let recorded = try Self.take(directory)
        #expect(truncate(directory.path("report.json"), 10) == 0)
        let found = try Self.changes(directory, after: recorded)
        #expect(found.count == 1 && found[0].shown == "report.json")
        #expect(found[0].description.contains("truncated to 10 bytes"))
        // Appended to, as the survivor in the issue did to run/report.json.
        let handle = try #require(FileHandle(forWritingAtPath: directory.path("state.json")))
        handle.seekToEndOfFile()
        handle.write(Data("x".utf8))
        try handle.close()
        #expect(try Self.changes(directory, after: recorded).map(\.shown) == ["report.json", "state.json"])
    }

    /// Changed in place, same size: only the digest can tell.
    @Test func aFileChangedInPlaceIsChanged() throws {
        let directory = try Self.runDirectory()
        let recorded = try Self.take(directory)
        try directory.write("report.json", text: #"{"schema":"replay.report/1","corpus":{"threads":4}}"#)
        let found = try Self.changes(directory, after: recorded)
        #expect(found == [ManifestDifference(shown: "report.json", change: .changed("its content changed in place (same size)"))])
    }

    /// A symbolic link swapped in for a file (to the same bytes elsewhere) is not the file.
    @Test func aSymlinkSwappedInIsChanged() throws {
        let directory = try Self.runDirectory()
        let recorded = try Self.take(directory)
        let elsewhere = try TemporaryDirectory(prefix: "manifest-elsewhere")
        let copy = try elsewhere.write("state.json", text: #"{"complete":true}"#)
        try FileManager.default.removeItem(atPath: directory.path("state.json"))
        try FileManager.default.createSymbolicLink(atPath: directory.path("state.json"), withDestinationPath: copy)
        let found = try Self.changes(directory, after: recorded)
        #expect(found == [ManifestDifference(shown: "state.json", change: .changed("it is a symbolic link now, a file in the manifest"))])
    }

    /// A FIFO swapped in for a file is named as such, and the walk does not block on it.
    @Test func aFIFOSwappedInIsChanged() throws {
        let directory = try Self.runDirectory()
        let recorded = try Self.take(directory)
        try FileManager.default.removeItem(atPath: directory.path("sub/metrics.csv"))
        #expect(mkfifo(directory.path("sub/metrics.csv"), 0o644) == 0)
        #expect(try Self.changes(directory, after: recorded)
                == [ManifestDifference(shown: "sub/metrics.csv", change: .changed("it is a FIFO, socket or device now, a file in the manifest"))])
    }

    /// A name of any bytes (a newline, an invalid UTF-8 byte, a `%`) is written percent-encoded
    /// and read back exactly, in both spellings.
    @Test func oddNamesRoundTripEncoded() throws {
        let directory = try Self.runDirectory()
        let name: [UInt8] = Array("a\nb".utf8) + [0xff, 0x25, 0x20] + Array("c".utf8)
        let made = (Array(directory.path.utf8) + [0x2f] + name + [0]).withUnsafeBufferPointer { path in
            path.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        }
        #expect(made >= 0)
        close(made)
        let recorded = try Self.take(directory)
        let entry = try #require(recorded.entries.first { $0.path == name })
        #expect(entry.encodedPath == "a%0Ab%FF%25%20c")
        #expect(RunManifest.decode("a%0Ab%FF%25%20c") == name)
        let file = try directory.write("manifest.json", text: recorded.json())
        #expect(try RunManifest.read(manifestAt: file) == recorded)
        #expect(try Self.changes(directory, after: recorded).map(\.change) == [.extra])   // the manifest file itself
    }

    @Test(arguments: ["", "/etc/passwd", "a/../b", "a//b", "%zz", "a b", "%0"])
    func aPathThatIsNotARelativeEncodedPathIsRefused(text: String) {
        #expect(RunManifest.decode(text) == nil)
    }

    /// The manifest edited: a digest changed shows as a difference; a broken or cut-short one is
    /// refused by name, never read as an empty manifest.
    @Test func anEditedManifestIsCaughtOrRefused() throws {
        let directory = try Self.runDirectory()
        let recorded = try Self.take(directory)
        var edited = recorded
        edited.entries[1].sha256 = String(repeating: "0", count: 64)
        #expect(try Self.changes(directory, after: edited).map(\.shown) == ["report.json"])
        let text = recorded.json()
        let cut = try directory.write("cut.json", text: String(text.prefix(text.count / 2)))
        #expect(throws: ConfinementError.self) { try RunManifest.read(manifestAt: cut) }
        let incomplete = try directory.write("incomplete.json", text: text.replacingOccurrences(of: #""complete": true"#, with: #""complete": false"#))
        #expect(throws: ConfinementError.self) { try RunManifest.read(manifestAt: incomplete) }
        let short = try directory.write("short.json", text: text.replacingOccurrences(of: recorded.entries[1].sha256!, with: "abc"))
        #expect(throws: ConfinementError.self) { try RunManifest.read(manifestAt: short) }
    }

    /// Each refusal names the file and what is wrong: the byte where JSON breaks, the entry
    /// whose digest is short, the key the type does not have (the manifest is read strictly).
    @Test func aRefusedManifestSaysWhy() throws {
        let directory = try Self.runDirectory()
        let recorded = try Self.take(directory)
        let text = recorded.json()
        func reason(_ damaged: String) throws -> String {
            let file = try directory.write("damaged.json", text: damaged)
            defer { try? FileManager.default.removeItem(atPath: file) }
            do {
                _ = try RunManifest.read(manifestAt: file)
                return "read"
            } catch {
                #expect(error.description.hasPrefix(file + " is not a usable manifest: "), "\(error.description)")
                return error.description
            }
        }
        #expect(try reason(String(text.prefix(40))).contains("not JSON at byte 40"))
        #expect(try reason(text.replacingOccurrences(of: recorded.entries[1].sha256!, with: "abc")).contains("entries[1]: its SHA-256 is not 64 hex digits"))
        #expect(try reason(text.replacingOccurrences(of: #""kind": "directory""#, with: #""kind": "directory", "note": 1"#))
                    .contains("}: a key this file's type does not have"))
        #expect(try reason(text.replacingOccurrences(of: #""complete": true"#, with: #""complete": false"#)).contains("complete: not true"))
        #expect(try reason(text.replacingOccurrences(of: "replay.manifest/1", with: "replay.manifest/2")).contains("schema"))
    }

    /// An entry the audit found words in keeps no digest (and, when its name is not a plain token,
    /// no name): the manifest never confirms a guess at what was caught. Verifying it says so.
    @Test func aFlaggedEntryIsWithheldAndSaidToBeUnverifiable() throws {
        let directory = try Self.runDirectory()
        try directory.write("leak one.txt", text: "words")
        let recorded = try RunManifest.take(directory.path) { path in path == Array("report.json".utf8) || path == Array("leak one.txt".utf8) }
        let report = try #require(recorded.entries.first { $0.path == Array("report.json".utf8) })
        #expect(report.sha256 == nil && report.withheld == .finding && report.bytes != nil)
        #expect(recorded.entries.contains { $0.path == nil && $0.withheld == .finding })
        #expect(!recorded.json().contains("leak"))
        let found = try Self.changes(directory, after: recorded)
        #expect(found.count == 2 && found.allSatisfy { if case .unverifiable = $0.change { true } else { false } })
    }
}

/// The manifest the auditor records at its verdict: walked before and after the scan, so an
/// entry that changed while it was scanned is a finding; an entry it found words in keeps no digest.
@Suite struct ManifestAtVerdictTests {
    @Test func aDirectoryUntouchedDuringTheScanGivesNoFinding() throws {
        let directory = try RunManifestTests.runDirectory()
        let before = try RunManifest.take(directory.path)
        var result = AuditResult()
        Auditor.manifestAtVerdict(directory.path, beforeScan: before, places: PlaceNames(salt: [1], allowedDirectory: directory.path), into: &result)
        #expect(result.findings.isEmpty && result.problems.isEmpty)
        #expect(result.manifest == before)
    }

    @Test func anEntryChangedDuringTheScanIsAFindingThatNamesNothing() throws {
        let directory = try RunManifestTests.runDirectory()
        let before = try RunManifest.take(directory.path)
        try directory.write("report.json", text: #"{"schema":"replay.report/1","corpus":{"threads":9}}"#)
        try directory.write("sub/late_words_here", text: "x")
        var result = AuditResult()
        Auditor.manifestAtVerdict(directory.path, beforeScan: before, places: PlaceNames(salt: [1], allowedDirectory: directory.path), into: &result)
        let finding = try #require(result.findings.first)
        #expect(finding.rule == .changedDuringScan && finding.rule.isError && finding.occurrences == 2)
        #expect(finding.message.contains("1 changed, 1 new"))
        #expect(!finding.message.contains("late_words") && !finding.message.contains("report.json"))
        #expect(result.verdict == .findings)
    }

    /// A name that is not plain tokens (a sentence with spaces, odd bytes) is not written into the
    /// verdict, as the findings never show one; the entry still verifies by kind, size and digest,
    /// and a change to it is still caught.
    @Test func anOddNameIsWithheldFromTheVerdictAndStillVerified() throws {
        let directory = try RunManifestTests.runDirectory()
        try directory.write("mum is at the GP now.txt", text: "12")
        var result = AuditResult()
        Auditor.manifestAtVerdict(directory.path, beforeScan: nil, places: PlaceNames(salt: [1], allowedDirectory: directory.path), into: &result)
        let manifest = try #require(result.manifest)
        let odd = try #require(manifest.entries.first { $0.path == nil })
        #expect(odd.withheld == .name && odd.sha256 == SHA256.hex(Array("12".utf8)))
        let sarif = manifest.sarifArtifacts.json() + manifest.json()
        #expect(!sarif.contains("mum") && !sarif.contains("GP"))
        #expect(manifest.differences(from: try RunManifest.take(directory.path)).isEmpty)
        try directory.write("mum is at the GP now.txt", text: "13")
        let changed = manifest.differences(from: try RunManifest.take(directory.path))
        #expect(changed.map(\.change) == [.extra, .missing])
        #expect(!changed.map(\.description).joined().contains("mum"))
    }

    /// The entry a finding is located at (as the verdict shows it) keeps its size, not its digest.
    @Test func anEntryTheScanCaughtKeepsNoDigest() throws {
        let directory = try RunManifestTests.runDirectory()
        var result = AuditResult()
        result.findings = [AuditFinding(rule: .canaryInOutput, message: "m", location: directory.path("state.json"))]
        Auditor.manifestAtVerdict(directory.path, beforeScan: nil, places: PlaceNames(salt: [1], allowedDirectory: directory.path), into: &result)
        let manifest = try #require(result.manifest)
        let state = try #require(manifest.entries.first { $0.encodedPath == "state.json" })
        #expect(state.sha256 == nil && state.withheld == .finding && state.bytes == 17)
        #expect(manifest.entries.filter { $0.kind == .file && $0.sha256 != nil }.count == 3)
    }
}
