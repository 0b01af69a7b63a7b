import Foundation
import Privacy

/// The audited run's side of `replay audit`: plants the canary in the words that reach prompts,
/// counts the prompts that carry it, and leaves salted fingerprints of every model output for the
/// auditor, which then recognises outputs in what the run wrote without ever seeing them as text.
///
/// Only `replay audit` starts a process with the variables `fromEnvironment` reads; any other run
/// gets nil and nothing changes. Thread-safe: counts and fingerprints are kept under a lock.
///
/// What the hashes file holds (`finish`): a header line, the three counts, then one 16-hex-digit
/// digest per line (see `OutputFingerprint`). Never a word: the file is as safe to keep as the
/// report.
public final class AuditTap: @unchecked Sendable {
    /// The hashes file's name beneath the run's output directory.
    public static let hashesFileName = ".replay-audit-hashes"
    /// The first line of the hashes file.
    public static let header = "replay-audit-hashes/1"

    /// The canary planted in prompts (`AuditCanary.text`: eight words joined by spaces).
    public let canary: String
    /// Where `finish` writes the fingerprints and counts.
    public let hashesPath: String
    let fingerprint: OutputFingerprint

    private let lock = NSLock()
    private var prompts = 0
    private var promptsWithCanary = 0
    private var outputs = 0
    private var digests: Set<UInt64> = []

    /// A tap with this canary and salt writing to `hashesPath` (tests and `fromEnvironment`).
    public init(canary: String, salt: [UInt8], hashesPath: String) {
        self.canary = canary
        self.fingerprint = OutputFingerprint(salt: salt)
        self.hashesPath = hashesPath
    }

    /// The tap `replay audit` asked for, or nil when this process was not started by it.
    ///
    /// Reads `REPLAY_AUDIT_CANARY` (`AuditCanary.text`), `REPLAY_AUDIT_SALT` (hex) and
    /// `REPLAY_AUDIT_HASHES` (a file path beneath the run's output directory). Returns nil unless
    /// all three are valid.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> AuditTap? {
        guard let canary = environment[AuditEnvironment.canary].flatMap(AuditCanary.init(text:))?.text,
              let saltHex = environment[AuditEnvironment.salt], let salt = AuditSecret.bytes(fromHex: saltHex),
              let path = environment[AuditEnvironment.hashes], !path.isEmpty else { return nil }
        return AuditTap(canary: canary, salt: salt, hashesPath: path)
    }

    /// `text` with the canary appended as one more word (`" " + canary`).
    ///
    /// Call it on every text that goes into a prompt (screen words, person messages, member
    /// descriptions), after any decision that reads the text's end (a chips screen is eligible
    /// when its last `say` ends in "?"; decide that first). Appending keeps the canary through
    /// cuts that keep the end of the words (the 600-token input cap).
    public func plant(_ text: SealedText) -> SealedText {
        text.withUnsealedText { SealedText($0 + " " + canary) }
    }

    /// Counts a prompt as sent to the model, and whether the canary is in it.
    public func notePrompt(_ prompt: SealedText) {
        let carries = prompt.withUnsealedText { $0.contains(canary) }
        lock.lock()
        prompts += 1
        if carries { promptsWithCanary += 1 }
        lock.unlock()
    }

    /// Fingerprints a model output (never kept as text) and counts it. `isLabel`: the output only
    /// names something chosen from the corpus (a route answer), so its single words are not
    /// fingerprinted (see `OutputFingerprint`).
    public func record(output: SealedText, isLabel: Bool = false) {
        let new = output.withUnsealedText { fingerprint.digests(ofOutput: $0, isLabel: isLabel) }
        lock.lock()
        outputs += 1
        digests.formUnion(new)
        lock.unlock()
    }

    /// Prompts noted, prompts that carried the canary, outputs recorded.
    public var counts: (prompts: Int, promptsWithCanary: Int, outputs: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (prompts, promptsWithCanary, outputs)
    }

    /// The counts as the `audit` object of the run's report.
    public var reportCounts: AuditCounts {
        let counts = self.counts
        return AuditCounts(prompts: counts.prompts, promptsWithCanary: counts.promptsWithCanary, outputs: counts.outputs)
    }

    /// Writes the hashes file: header, counts and digests, never a word. Call once, at the end
    /// of the run: the file is created new, never replaced.
    public func finish() throws(ConfinementError) {
        lock.lock()
        var text = Self.header + "\n"
        text += "prompts \(prompts)\nprompts_with_canary \(promptsWithCanary)\noutputs \(outputs)\n"
        for digest in digests.sorted() { text += AuditHashes.hex(digest) + "\n" }
        lock.unlock()
        do {
            try ReportFile.create(hashesPath, text: text)
        } catch {
            throw .hashesNotWritten(path: hashesPath, reason: error.message)
        }
    }
}
