import Foundation
import Testing
@testable import Audit
@testable import Confinement
import Privacy
import TestSupport

/// Output fingerprints: copies are recognised, ordinary report text is not, and nothing but
/// digests and counts reaches the hashes file.
@Suite struct FingerprintTests {
    let fingerprint = OutputFingerprint(salt: Array("salt-for-tests".utf8))
    let output = #"{"replies": ["Sounds good", "Not yet, sorry", "Can we do Friday instead?"]}"#

    func found(_ text: String) -> Bool {
        !fingerprint.matches(in: text, digests: fingerprint.digests(ofOutput: output)).isEmpty
    }

    @Test func twoWordChipIsRecognisedOnItsOwn() {
        #expect(found("Sounds good"))
        #expect(found("debug: chip=SOUNDS GOOD!"))
        #expect(found("not yet sorry"))
        #expect(found("log line: can we do friday"))
    }

    @Test func ordinaryReportTextIsNot() throws {
        #expect(!found("replies"))
        #expect(!found("good"))
        #expect(!found("replay: chips: 3 eligible of 9 scanned, 2 answered, 66.7% in budget on device"))
        #expect(!found(#"{"jobs": {"chips": {"fallbacks": {"time_budget": 1}, "answered_rate": 0.5}}, "replies": 3}"#))
        #expect(!found("sounds like a good plan"))
    }

    @Test func wordsAreFoldedAndApostrophesDropped() {
        let words = OutputFingerprint.words(of: "Don't — WAIT_for it, 12 Ünïcode")
        #expect(words.map(\.text) == ["dont", "wait_for", "it", "12", "ünïcode"])
        #expect(words.map(\.startsPhrase) == [true, true, false, true, false])
    }

    /// An output of the writers' own words standing alone ("Share", "Reply share") cannot be
    /// told from a report's labels, so it is not fingerprinted and a report printing them raises
    /// nothing; three words of an output are still caught whatever they are, and a word of its
    /// own ("Tomorrow") still is alone.
    @Test func anOutputOfTheWritersOwnWordsAloneIsNotFingerprinted() {
        #expect(OutputFingerprint.isWritersWord("share") && OutputFingerprint.isWritersWord("reply"))
        #expect(!OutputFingerprint.isWritersWord("tomorrow"))
        let output = #"{"replies": ["Share", "Reply share", "Share the reply", "Tomorrow"]}"#
        let digests = fingerprint.digests(ofOutput: output)
        let report = #"{"kind": "share", "label": "reply", "note": "reply share"}"#
        #expect(fingerprint.matches(in: report, digests: digests).isEmpty)
        #expect(fingerprint.matches(in: "x, share the reply, y", digests: digests).count == 1)
        #expect(fingerprint.matches(in: #"{"note": "tomorrow"}"#, digests: digests).count == 1)
    }

    /// A chip of one word that a report uses as a key ("Sandbox": the probe report's
    /// `"sandbox": {`) is not fingerprinted: a clean probe run whose model answered so once
    /// failed its audit on the report's own key.
    @Test func anOutputOfOneKeyOfAReportIsNotFingerprinted() {
        #expect(OutputFingerprint.isWritersWord("sandbox") && OutputFingerprint.isWritersWord("started"))
        let digests = fingerprint.digests(ofOutput: #"{"replies": ["Sandbox", "Started"]}"#)
        #expect(fingerprint.matches(in: #"{"sandbox": {"enforced": true}, "started": "2026"}"#, digests: digests).isEmpty)
    }

    @Test func saltChangesEveryDigest() {
        let other = OutputFingerprint(salt: Array("another".utf8))
        #expect(fingerprint.digests(ofOutput: output).isDisjoint(with: other.digests(ofOutput: output)))
    }

    @Test func tapPlantsCountsAndWritesOnlyDigests() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tap-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let canary = "legal winner thank year wave sausage worth useful"
        let environment = [AuditEnvironment.canary: canary, AuditEnvironment.salt: "abcd",
                           AuditEnvironment.hashes: directory + "/hashes"]
        let tap = try #require(AuditTap.fromEnvironment(environment))
        #expect(AuditTap.fromEnvironment([:]) == nil)
        let planted = tap.plant(SealedText("How was your run?"))
        tap.notePrompt(SealedText.joined([SealedText("Coach wrote:"), planted], separator: "\n"))
        tap.notePrompt(SealedText("no canary here"))
        tap.record(output: SealedText(output))
        #expect(tap.counts == (prompts: 2, promptsWithCanary: 1, outputs: 1))
        try tap.finish()
        let text = String(decoding: FileManager.default.contents(atPath: directory + "/hashes") ?? Data(), as: UTF8.self)
        #expect(!text.lowercased().contains("sounds"))
        #expect(!text.contains("winner") && !text.contains("sausage"))
        let hashes = try #require(AuditHashes.read(directory + "/hashes"))
        #expect(hashes.prompts == 2 && hashes.promptsWithCanary == 1 && hashes.outputs == 1)
        #expect(hashes.unreadableLines == 0)
        #expect(hashes.digests == OutputFingerprint(salt: [0xab, 0xcd]).digests(ofOutput: output))
    }
}

/// Scanning compressed files that the audit finds (its own run's, or others' in /tmp).
@Suite struct CompressedScanTests {
    let scanner = LeakScanner(canary: "legal winner thank year wave sausage worth useful", fingerprint: OutputFingerprint(salt: [1]), digests: [])

    /// A corrupt zstd file larger than a pipe makes `zstd -dc` stop reading at once; the scan
    /// must end with what it has, never with the auditor killed by SIGPIPE. In the run's own
    /// directory what could not be read whole is a finding (nothing cleared it); in a scan for
    /// the canary alone (others' files in /tmp) it is not.
    @Test func aCorruptCompressedFileEndsItsScanOnly() {
        var bytes: [UInt8] = [0x28, 0xb5, 0x2f, 0xfd] + [UInt8](repeating: 0xff, count: 8)
        bytes += (0..<(4 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 13) }
        #expect(scanner.findings(in: bytes, location: "corrupt.zst").map(\.rule) == [.unscannedEntry])
        #expect(scanner.findings(in: bytes, location: "corrupt.zst", canaryOnly: true).isEmpty)
    }

    @Test func theCanaryInsideAGzipFileIsFound() throws {
        let gzip = try Subprocess.run("/bin/gzip", ["-c"], input: Data("note legal winner thank year wave sausage worth useful\n".utf8))
        let findings = scanner.findings(in: Array(gzip.standardOutput), location: "x.gz")
        #expect(findings.map(\.rule) == [.canaryInOutput])
        #expect(findings.first?.message.contains("gzip-decompressed") == true)
    }
}
