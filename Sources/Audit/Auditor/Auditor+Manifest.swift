import Confinement
import Privacy

extension Auditor {
    /// The manifest of the run's directory at the verdict: taken after the scan, so it lists what
    /// the scan judged, and written into `audit.sarif` so `replay verify` can tell later whether
    /// anything beneath the directory changed, went or came.
    ///
    /// An entry the audit found words in (an error-level finding located at it) is listed without
    /// its digest, and without its name unless the name is a plain token (which the findings show
    /// anyway): the manifest must not confirm a guess at what was caught. So is an entry whose name
    /// is not UTF-8, which the scan (walking names as strings) may not have read as it is. Any
    /// other name that is not plain tokens (spaces, odd bytes, over 64 bytes a component) is
    /// recorded without the name, as the findings show such places only by a salted hash.
    ///
    /// `beforeScan`, the same walk taken just before the scan, must equal the one after it: an
    /// entry that changed, went or came meanwhile (something outside the traced tree still
    /// writing) is a `changed-during-scan` finding, since the scan may have read other bytes than
    /// the manifest now vouches for.
    static func manifestAtVerdict(_ directory: String, beforeScan: RunManifest?, places: PlaceNames,
                                  into result: inout AuditResult) {
        let flagged = Set(result.findings.filter(\.rule.isError).compactMap(\.location))
        do {
            let now = try RunManifest.take(directory)
            result.manifest = now.withholding { path in
                guard let name = String(validating: path, as: UTF8.self) else { return true }
                return flagged.contains(places.show(directory + "/" + name))
            }.withholdingOddNames()
            if let beforeScan {
                // Counted by kind of change, never named: a name could be what the scan caught.
                let changes = beforeScan.differences(from: now)
                if !changes.isEmpty {
                    var kinds: [String: Int] = [:]
                    for change in changes {
                        let kind = switch change.change {
                        case .changed: "changed"
                        case .missing: "gone"
                        case .extra: "new"
                        case .unverifiable: "unreadable"
                        }
                        kinds[kind, default: 0] += 1
                    }
                    let counts = kinds.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
                    result.findings.append(AuditFinding(
                        rule: .changedDuringScan,
                        message: "\(changes.count) entr\(changes.count == 1 ? "y" : "ies") of the run's directory changed while the audit scanned it (\(counts)): "
                            + "something outside the traced tree is still writing there.",
                        location: directory, occurrences: changes.count))
                }
            }
        } catch {
            result.problems.append(.manifest(error))
        }
    }
}
