import Foundation
import Privacy

/// The manifest as a file of its own (`manifest.json`, schema `replay.manifest/1`): its one type,
/// which the run encodes and `read(manifestAt:)` (and the auditor) decode strictly.
///
/// `{"schema", "entries": [{"path", "kind", "bytes", "sha256", "withheld"}], "complete": true}`:
/// `path` is the percent-encoded path or null when withheld; `bytes` and `sha256` (each maybe
/// null) only for a file or a symbolic link; `withheld` only when set; `"complete": true` last, so
/// a file cut short is no manifest.
extension RunManifest: ResultDocument {
    public static func isFileName(_ name: String) -> Bool { name == fileName }

    enum CodingKeys: String, CodingKey { case schema, entries, complete }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        _ = try container.decode(SchemaName<Self>.self, forKey: .schema)
        let entries = try container.decode([Entry].self, forKey: .entries)
        guard try container.decode(Bool.self, forKey: .complete) else {
            throw StateFormatError(at: container.codingPath + [CodingKeys.complete], "not true: the manifest was cut short")
        }
        self.init(entries: entries)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(SchemaName<Self>(), forKey: .schema)
        try container.encode(entries, forKey: .entries)
        try container.encode(true, forKey: .complete)
    }


    /// Reads a `replay.manifest/1` file strictly; the error names the file and what is wrong, with
    /// the byte offset when the JSON itself is broken.
    public static func read(manifestAt path: String) throws(ConfinementError) -> RunManifest {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .manifestUnreadable(path: path, reason: "it is missing or cannot be read")
        }
        do {
            let value = try ReportValue(parsingExactJSON: String(decoding: data, as: UTF8.self))
            return try ReportValueDecoder(strict: true).decode(RunManifest.self, from: value)
        } catch {
            throw .manifestMalformed(path: path, reason: error.description)
        }
    }
}

extension RunManifest.Entry: Codable {
    enum CodingKeys: String, CodingKey { case path, kind, bytes, sha256, withheld }

    /// Whether the entry has a size and a digest to record: a file's, or a link's target's.
    var carriesDigest: Bool { kind == .file || kind == .symlink }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let path = try container.decodeIfPresent(ResultFileName.self, forKey: .path)
        let kind = try container.decode(RunManifest.Kind.self, forKey: .kind)
        func ifThere<T: Decodable>(_ type: T.Type, _ key: CodingKeys) throws -> T? {
            container.contains(key) ? try container.decodeIfPresent(type, forKey: key) : nil
        }
        let bytes = try ifThere(Int.self, .bytes), sha256 = try ifThere(SHA256Hex.self, .sha256)
        let withheld = container.contains(.withheld) ? try container.decode(RunManifest.Withheld.self, forKey: .withheld) : nil
        do {
            try self.init(encodedPath: path?.text, kind: kind, bytes: bytes, sha256: sha256?.text, withheld: withheld)
        } catch {
            throw StateFormatError(at: decoder.codingPath, error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(encodedPath.map { ResultFileName($0) }, forKey: .path)
        try container.encode(kind, forKey: .kind)
        if carriesDigest {
            try container.encode(bytes, forKey: .bytes)
            try container.encode(sha256.map { SHA256Hex($0) }, forKey: .sha256)
        }
        if let withheld { try container.encode(withheld, forKey: .withheld) }
    }

    /// An entry as a manifest spells it (either spelling); the error says what is wrong with it.
    init(encodedPath: String?, kind: RunManifest.Kind, bytes: Int?, sha256: String?,
         withheld: RunManifest.Withheld?) throws(StateFormatError) {
        var decoded: [UInt8]? = nil
        if let encodedPath {
            guard let path = RunManifest.decode(encodedPath) else { throw StateFormatError("its path is not a relative, percent-encoded path") }
            decoded = path
        } else if withheld == nil {
            throw StateFormatError("it has no path and says no reason it was withheld")
        }
        self.init(path: decoded, kind: kind, withheld: withheld)
        if carriesDigest {
            guard let bytes, bytes >= 0 else { throw StateFormatError("it has no size") }
            self.bytes = bytes
        }
        if let sha256, sha256.count != 64 || !sha256.utf8.allSatisfy({ RunManifest.hexValue($0) != nil }) {
            throw StateFormatError("its SHA-256 is not 64 hex digits")
        }
        if carriesDigest, sha256 == nil, withheld == nil {
            throw StateFormatError("it has no SHA-256 and says no reason it was withheld")
        }
        self.sha256 = sha256?.lowercased()
    }
}
