import Confinement
import Privacy

/// How the verdict names a place the audited run chose: never in its own words.
///
/// A path outside the run's directory, a socket address or an oddly named file inside it was
/// picked by the run, so it could carry what the run meant to leak. The verdict shows such a
/// place as the directory the run was allowed plus a salted hash (`h:` and 12 hex digits of
/// SHA-256 over the audit's fresh salt and the place), which tells two places apart and matches
/// across one verdict's findings without saying what either is. Files beneath the run's directory
/// whose relative path is made of plain tokens (`report.json`, `sub/metrics.csv`) are shown as
/// they are, so a finding in the report still names the report.
public struct PlaceNames: Sendable {
    let salt: [UInt8]
    /// The run's directory, as the auditor made it (never the run's own words).
    public let allowedDirectory: String

    public init(salt: [UInt8], allowedDirectory: String) {
        self.salt = salt
        self.allowedDirectory = allowedDirectory
    }

    /// The salted hash of a place: `h:` and 12 hex digits.
    public func hash(_ place: String) -> String {
        var hasher = SHA256()
        hasher.update(salt)
        hasher.update([0x70])   // "p": places, apart from the output fingerprints' digests
        hasher.update(Array(place.utf8))
        return "h:" + String(hasher.finalizeHex().prefix(12))
    }

    /// How the verdict shows `path` (absolute).
    public func show(_ path: String) -> String {
        let prefix = allowedDirectory + "/"
        if path.hasPrefix(prefix) {
            let relative = path.dropFirst(prefix.count)
            if relative.split(separator: "/", omittingEmptySubsequences: false).allSatisfy(Self.isPlainToken) {
                return path
            }
            return allowedDirectory + "/(a name withheld, " + hash(path) + ")"
        }
        if path == allowedDirectory { return path }
        return "(outside " + allowedDirectory + ", " + hash(path) + ")"
    }

    /// How the verdict shows a socket address of `family`.
    public func show(address: String, family: String) -> String {
        address.isEmpty ? family : family + " address " + hash(family + " " + address)
    }

    /// A path component of letters, digits, `.`, `_` and `-`, 1 to 64 of them, not `..`.
    static func isPlainToken(_ component: Substring) -> Bool {
        guard (1...64).contains(component.utf8.count), component != "..", component != "." else { return false }
        return component.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5a).contains(byte) || (0x61...0x7a).contains(byte)
                || byte == 0x2e || byte == 0x5f || byte == 0x2d
        }
    }
}
