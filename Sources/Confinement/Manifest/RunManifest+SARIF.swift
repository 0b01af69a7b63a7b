import Foundation
import Privacy

/// The manifest as SARIF 2.1.0's `artifacts` (in `audit.sarif`): the same entries as
/// `manifest.json` in SARIF's own fields, read back into the same type.
extension RunManifest {
    /// The SARIF `artifacts` array: each entry's `location` (its encoded path under the base id
    /// `RUN`, the run's directory), `length` and `hashes: {"sha-256": …}`, with `properties.kind`
    /// (and `properties.withheld`) for what SARIF has no field of its own for.
    public var sarifArtifacts: ReportValue {
        .array(entries.map { entry in
            var fields: [(String, ReportValue)] = []
            if let path = entry.encodedPath {
                fields.append(("location", .object([("uri", .label(path + (entry.kind == .directory ? "/" : ""))),
                                                    ("uriBaseId", .label(Self.sarifBaseID))])))
            }
            if let bytes = entry.bytes { fields.append(("length", .int(bytes))) }
            if let digest = entry.sha256 { fields.append(("hashes", .object([("sha-256", .label(digest))]))) }
            var properties: [(String, ReportValue)] = [("kind", .label(entry.kind.rawValue))]
            if let withheld = entry.withheld { properties.append(("withheld", .label(withheld.rawValue))) }
            fields.append(("properties", .object(properties)))
            return .object(fields)
        })
    }

    /// The SARIF base id the artifacts' URIs are relative to: the run's directory (`DIR/run`).
    public static let sarifBaseID = "RUN"

    /// Reads the manifest an audit recorded in its SARIF (`runs[0].artifacts`); an error when the
    /// SARIF holds none (an audit made before manifests, or one that could not run).
    public static func read(sarifAt path: String) throws(ConfinementError) -> RunManifest {
        func malformed(_ reason: String) -> ConfinementError { .manifestMalformed(path: path, reason: reason) }
        func text(_ value: ReportValue?) -> String? { if case .label(let text)? = value { text } else { nil } }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .manifestUnreadable(path: path, reason: "it is missing or cannot be read")
        }
        let sarif: ReportValue
        do { sarif = try ReportValue(parsingExactJSON: String(decoding: data, as: UTF8.self)) } catch { throw malformed(error.description) }
        guard case .array(let runs)? = sarif["runs"], let run = runs.first else { throw malformed("it has no runs") }
        guard run["properties"]?["manifest"] == .label(schema), case .array(let list)? = run["artifacts"] else {
            throw malformed("it records no \(schema) manifest (runs[0].artifacts): the audit did not reach its verdict, or is older")
        }
        var entries: [Entry] = []
        for (index, item) in list.enumerated() {
            let location = item["location"]
            if let location, location["uriBaseId"] != .label(sarifBaseID) { throw malformed("artifact \(index) is not relative to \(sarifBaseID)") }
            var uri = text(location?["uri"])
            if let directory = uri, directory.hasSuffix("/") { uri = String(directory.dropLast()) }
            guard let kind = text(item["properties"]?["kind"]).flatMap(Kind.init(rawValue:)) else {
                throw malformed("entry \(index) has no kind of \(Kind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            var bytes: Int? = nil
            if case .int(let length)? = item["length"] { bytes = length }
            do {
                entries.append(try Entry(encodedPath: uri, kind: kind, bytes: bytes, sha256: text(item["hashes"]?["sha-256"]),
                                         withheld: text(item["properties"]?["withheld"]).flatMap(Withheld.init(rawValue:))))
            } catch {
                throw malformed("entry \(index): \(error.description)")
            }
        }
        return RunManifest(entries: entries)
    }
}
