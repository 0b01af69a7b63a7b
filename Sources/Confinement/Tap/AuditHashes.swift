import Foundation
import Privacy

/// The hashes file as the auditor reads it back: the child's counts and output digests.
public struct AuditHashes: Sendable, Equatable {
    public var prompts = 0
    public var promptsWithCanary = 0
    public var outputs = 0
    public var digests: Set<UInt64> = []
    /// Lines that were neither a count nor a digest (the file is scanned like any other, too).
    public var unreadableLines = 0

    public init() {}

    /// Parses the file at `path`; nil when it does not exist or lacks the header.
    public static func read(_ path: String) -> AuditHashes? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
        guard lines.first == Substring(AuditTap.header) else { return nil }
        var hashes = AuditHashes()
        for line in lines.dropFirst() {
            let parts = line.split(separator: " ")
            if parts.count == 2, let value = Int(parts[1]) {
                switch parts[0] {
                case "prompts": hashes.prompts = value
                case "prompts_with_canary": hashes.promptsWithCanary = value
                case "outputs": hashes.outputs = value
                default: hashes.unreadableLines += 1
                }
            } else if parts.count == 1, line.count == 16, let digest = UInt64(line, radix: 16) {
                hashes.digests.insert(digest)
            } else {
                hashes.unreadableLines += 1
            }
        }
        return hashes
    }

    /// A digest as 16 lowercase hex digits.
    public static func hex(_ digest: UInt64) -> String {
        let text = String(digest, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
