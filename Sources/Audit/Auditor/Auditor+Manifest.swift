import Privacy

extension Auditor {
    /// The manifest of the run's directory at the verdict: taken after the scan, so it lists what
    /// the scan judged, and written into `audit.sarif` so `replay verify` can tell later whether
    /// anything beneath the directory changed, went or came.
    ///
    /// An entry the audit found words in (an error-level finding located at it) is listed without
    /// its digest, and without its name unless the name is a plain token (which the findings show
    /// anyway): the manifest must not confirm a guess at what was caught. So is an entry whose name
    /// is not UTF-8, which the scan (walking names as strings) may not have read as it is.
    static func manifestAtVerdict(_ directory: String, findings: [AuditFinding], places: PlaceNames,
                                  into result: inout AuditResult) {
        let flagged = Set(findings.filter(\.rule.isError).compactMap(\.location))
        do {
            result.manifest = try RunManifest.take(directory) { path in
                guard let name = String(validating: path, as: UTF8.self) else { return true }
                return flagged.contains(places.show(directory + "/" + name))
            }
        } catch {
            result.problems.append(error)
        }
    }
}
