import Privacy
/// What a confined process may still change: files beneath a few paths, and nothing on the network.
///
/// Reads stay allowed everywhere (the model and the corpus must be read); the policy lists only
/// where writes may go. There is no switch to allow TCP: the product never needs the network.
public struct SandboxPolicy: Sendable, Equatable {
    /// Directories beneath which files may be written, created, renamed, truncated and removed
    /// (the `--out` directory). Each must exist before `Sandbox.confine`: creating one is a write.
    public var writableDirectories: [String]
    /// Single existing files that may be opened for writing but not created or removed.
    ///
    /// `/dev/null` by default, because libraries redirect to it. The terminal is not listed:
    /// stderr and stdout are descriptors opened before confinement, which Landlock never re-checks.
    public var writableFiles: [String]
    /// Whether `socket(2)` for anything but `AF_UNIX` fails with `EPERM` (seccomp-bpf).
    ///
    /// Landlock's network rules cover TCP only, so this is what stops UDP, IPv6, raw and netlink
    /// sockets. Turn it off only to prove Landlock's TCP rule on its own; the report is then not
    /// `enforced`.
    public var denyNonUnixSockets: Bool

    public init(writableDirectories: [String], writableFiles: [String] = ["/dev/null"], denyNonUnixSockets: Bool = true) {
        self.writableDirectories = writableDirectories
        self.writableFiles = writableFiles
        self.denyNonUnixSockets = denyNonUnixSockets
    }
}
