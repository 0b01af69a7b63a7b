import Foundation
import Privacy

/// The manifest as a file of its own (`manifest.json`, schema `replay.manifest/1`) and as SARIF
/// 2.1.0's `artifacts` (in `audit.sarif`): one list, two spellings, read back into the same type.
extension RunManifest {
    /// The `replay.manifest/1` document; `"complete": true` last, so a file cut short is no manifest.
    public var value: ReportValue {
        .object([
            ("schema", .label(Self.schema)),
            ("entries", .array(entries.map { entry in
                var fields: [(String, ReportValue)] = [("path", entry.encodedPath.map { .label($0) } ?? .null),
                                                       ("kind", .label(entry.kind.rawValue))]
                if entry.kind == .file || entry.kind == .symlink {
                    fields.append(("bytes", entry.bytes.map { .int($0) } ?? .null))
                    fields.append(("sha256", entry.sha256.map { .label($0) } ?? .null))
                }
                if let withheld = entry.withheld { fields.append(("withheld", .label(withheld))) }
                return .object(fields)
            })),
            ("complete", .bool(true)),
        ])
    }

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
            if let withheld = entry.withheld { properties.append(("withheld", .label(withheld))) }
            fields.append(("properties", .object(properties)))
            return .object(fields)
        })
    }

    /// The SARIF base id the artifacts' URIs are relative to: the run's directory (`DIR/run`).
    public static let sarifBaseID = "RUN"

    /// Reads a `replay.manifest/1` file; the error names the file and what is wrong, with the
    /// byte offset when the JSON itself is broken.
    public static func read(manifestAt path: String) throws(ConfinementError) -> RunManifest {
        let object = try jsonObject(at: path)
        guard object["schema"] as? String == schema else {
            throw .manifestMalformed(path: path, reason: "its schema is not \(schema)")
        }
        guard object["complete"] as? Bool == true else {
            throw .manifestMalformed(path: path, reason: "it does not end with \"complete\": true (cut short?)")
        }
        guard let list = object["entries"] as? [[String: Any]] else {
            throw .manifestMalformed(path: path, reason: "it has no entries array")
        }
        var entries: [Entry] = []
        for (index, item) in list.enumerated() {
            entries.append(try entry(item, path: path, index: index,
                                     uri: item["path"] as? String, bytes: item["bytes"], digest: item["sha256"],
                                     kind: item["kind"] as? String, withheld: item["withheld"] as? String))
        }
        return RunManifest(entries: entries)
    }

    /// Reads the manifest an audit recorded in its SARIF (`runs[0].artifacts`); an error when the
    /// SARIF holds none (an audit made before manifests, or one that could not run).
    public static func read(sarifAt path: String) throws(ConfinementError) -> RunManifest {
        let object = try jsonObject(at: path)
        guard let run = (object["runs"] as? [[String: Any]])?.first else {
            throw .manifestMalformed(path: path, reason: "it has no runs")
        }
        guard (run["properties"] as? [String: Any])?["manifest"] as? String == schema,
              let list = run["artifacts"] as? [[String: Any]] else {
            throw .manifestMalformed(path: path, reason: "it records no \(schema) manifest (runs[0].artifacts): the audit did not reach its verdict, or is older")
        }
        var entries: [Entry] = []
        for (index, item) in list.enumerated() {
            let properties = item["properties"] as? [String: Any] ?? [:]
            var uri = (item["location"] as? [String: Any])?["uri"] as? String
            if let text = uri, text.hasSuffix("/") { uri = String(text.dropLast()) }
            if item["location"] != nil, (item["location"] as? [String: Any])?["uriBaseId"] as? String != sarifBaseID {
                throw .manifestMalformed(path: path, reason: "artifact \(index) is not relative to \(sarifBaseID)")
            }
            entries.append(try entry(item, path: path, index: index, uri: uri, bytes: item["length"],
                                     digest: (item["hashes"] as? [String: Any])?["sha-256"],
                                     kind: properties["kind"] as? String, withheld: properties["withheld"] as? String))
        }
        return RunManifest(entries: entries)
    }

    private static func entry(_ item: [String: Any], path: String, index: Int, uri: String?, bytes: Any?, digest: Any?,
                              kind: String?, withheld: String?) throws(ConfinementError) -> Entry {
        guard let kind = kind.flatMap(Kind.init(rawValue:)) else {
            throw .manifestMalformed(path: path, reason: "entry \(index) has no kind of \(Kind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var decoded: [UInt8]? = nil
        if let uri {
            guard let bytes = decode(uri) else {
                throw .manifestMalformed(path: path, reason: "entry \(index)'s path is not a relative, percent-encoded path")
            }
            decoded = bytes
        } else if withheld == nil {
            throw .manifestMalformed(path: path, reason: "entry \(index) has no path and says no reason it was withheld")
        }
        let size = (bytes as? NSNumber)?.intValue
        if kind == .file || kind == .symlink, size == nil || size! < 0 {
            throw .manifestMalformed(path: path, reason: "entry \(index) has no size")
        }
        let hex = digest as? String
        if let hex, hex.count != 64 || !hex.utf8.allSatisfy({ hexValue($0) != nil }) {
            throw .manifestMalformed(path: path, reason: "entry \(index)'s SHA-256 is not 64 hex digits")
        }
        if kind == .file || kind == .symlink, hex == nil, withheld == nil {
            throw .manifestMalformed(path: path, reason: "entry \(index) has no SHA-256 and says no reason it was withheld")
        }
        return Entry(path: decoded, kind: kind, bytes: kind == .file || kind == .symlink ? size : nil, sha256: hex?.lowercased(), withheld: withheld)
    }

    private static func jsonObject(at path: String) throws(ConfinementError) -> [String: Any] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .manifestUnreadable(path: path, reason: "it is missing or cannot be read")
        }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data)
        } catch {
            let offset = (error as NSError).userInfo["NSJSONSerializationErrorIndex"] as? Int
            throw .manifestMalformed(path: path, reason: "it is not JSON" + (offset.map { " (at byte \($0))" } ?? ""))
        }
        guard let object = parsed as? [String: Any] else { throw .manifestMalformed(path: path, reason: "it is not a JSON object") }
        return object
    }
}
