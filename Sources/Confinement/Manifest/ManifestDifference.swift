/// One way a directory differs from its manifest, as `replay verify` names it.
///
/// Names recorded in the manifest were seen by the audit, and are shown percent-encoded (no byte
/// of a name can reach a terminal raw). An entry that appeared since was never scanned, so its
/// name could carry anything: it is described by kind, size and the directory it is in, never by
/// its name. Contents are never shown, only whether they changed.
public struct ManifestDifference: Sendable, Equatable, CustomStringConvertible {
    public enum Change: Sendable, Equatable {
        /// It is there, but not as it was: how, in words (kind, size, content).
        case changed(String)
        /// The manifest lists it and it is gone.
        case missing
        /// It is there and the manifest does not list it.
        case extra
        /// The manifest cannot vouch for it: why (its digest or name was withheld).
        case unverifiable(String)
    }

    /// How the entry is named in the message.
    public var shown: String
    public var change: Change

    public init(shown: String, change: Change) {
        self.shown = shown
        self.change = change
    }

    public var description: String {
        switch change {
        case .changed(let how): "changed: \(shown): \(how)"
        case .missing: "missing: \(shown) is gone since the manifest was taken"
        case .extra: "extra: \(shown), which the manifest does not list"
        case .unverifiable(let why): "unverifiable: \(shown): \(why)"
        }
    }
}

extension RunManifest {
    /// What differs in `now` (the directory taken again) from this manifest, in path order;
    /// empty when every entry is as recorded and nothing was added.
    public func differences(from now: RunManifest) -> [ManifestDifference] {
        var current: [[UInt8]: Entry] = [:]
        for entry in now.entries { if let path = entry.path { current[path] = entry } }
        var differences: [ManifestDifference] = []
        var unnamed: [Entry] = []
        for recorded in entries {
            guard recorded.path != nil else {
                unnamed.append(recorded)
                continue
            }
            let path = recorded.path!
            let shown = RunManifest.encode(path)
            guard let found = current.removeValue(forKey: path) else {
                differences.append(ManifestDifference(shown: shown, change: .missing))
                continue
            }
            if found.kind != recorded.kind {
                differences.append(ManifestDifference(shown: shown, change: .changed("it is \(found.kind.spelled) now, \(recorded.kind.spelled) in the manifest")))
            } else if let size = recorded.bytes, let now = found.bytes, size != now {
                let how = now < size ? "truncated to \(now) bytes from \(size)" : "\(now) bytes now, \(size) in the manifest"
                differences.append(ManifestDifference(shown: shown, change: .changed(how)))
            } else if let why = recorded.withheld, recorded.sha256 == nil, recorded.kind == .file || recorded.kind == .symlink {
                differences.append(ManifestDifference(shown: shown, change: .unverifiable(
                    why == .finding ? "the audit found words in it, so the manifest holds no digest of it (its size is unchanged)"
                                     : "it could not be read when the manifest was taken (its size is unchanged)")))
            } else if recorded.sha256 != found.sha256 {
                let what = recorded.kind == .symlink ? "its target changed" : "its content changed in place (same size)"
                differences.append(ManifestDifference(shown: shown, change: .changed(what)))
            }
        }
        for (path, entry) in current.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            // An entry whose name was withheld is matched by what it was: its kind, size and
            // (when recorded) digest. Its name is vouched for by nothing.
            if let index = unnamed.firstIndex(where: { $0.kind == entry.kind && $0.bytes == entry.bytes
                                                      && ($0.sha256 == nil || $0.sha256 == entry.sha256) }) {
                let recorded = unnamed.remove(at: index)
                if recorded.withheld == .finding {
                    differences.append(ManifestDifference(shown: "\(recorded.kind.spelled) whose name was withheld",
                                                          change: .unverifiable("the audit found words in it, so the manifest holds neither its name nor its digest")))
                }
                continue
            }
            let parent = path.lastIndex(of: 0x2f).map { Array(path[..<$0]) }
            let place = parent.map { entries.contains { $0.path == parent } ? ", in " + RunManifest.encode($0) : ", in a directory not listed either" }
                ?? ", at the top"
            let size = entry.bytes.map { ", \($0) bytes" } ?? ""
            differences.append(ManifestDifference(shown: "\(entry.kind.spelled)\(size)\(place) (its name, \(path.count) bytes, is not shown: nothing checked it)",
                                                  change: .extra))
        }
        for recorded in unnamed {
            differences.append(ManifestDifference(
                shown: "\(recorded.kind.spelled) whose name was withheld" + (recorded.bytes.map { ", \($0) bytes" } ?? ""),
                change: recorded.withheld == .finding
                    ? .unverifiable("the audit found words in it, so the manifest holds neither its name nor its digest")
                    : .missing))
        }
        return differences
    }
}

extension RunManifest.Kind {
    /// The kind with its article, as a difference names it.
    var spelled: String {
        switch self {
        case .file: "a file"
        case .directory: "a directory"
        case .symlink: "a symbolic link"
        case .other: "a FIFO, socket or device"
        }
    }
}
