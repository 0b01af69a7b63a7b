import Privacy
/// What a confined process may still change: new files beneath a few paths, and nothing else.
///
/// Reads stay allowed everywhere (the model and the corpus must be read); the policy lists only
/// where writes may go. There is no switch to allow TCP or any new socket: the product never
/// needs the network. The one exception is a connection made before confinement to a server on
/// this machine's loopback (`keptConnections`: `replay suite run --endpoint`), which stays usable
/// while no other can be made. The defaults are `replay`'s.
public struct SandboxPolicy: Sendable, Equatable {
    /// Directories beneath which files may be created and written (the `--out` directory). Each
    /// must exist before `Sandbox.confine`: creating one is a write.
    public var writableDirectories: [String]
    /// Single existing files that may be opened for writing but not created or removed.
    ///
    /// `/dev/null` by default, because libraries redirect to it. The terminal is not listed:
    /// stderr and stdout are descriptors opened before confinement, which Landlock never re-checks.
    public var writableFiles: [String]
    /// Whether the writable directories allow only creating files and directories and writing to
    /// files (`LandlockRight.createOnly`): no removing, renaming, truncating, linking, or making
    /// symbolic links, FIFOs, sockets or devices beneath them.
    ///
    /// True for `replay`, whose files are each created once, whole; turned off, every right is
    /// granted beneath them and the report is not `enforced`.
    public var createOnly: Bool
    /// Whether the seccomp-bpf filter is installed (`replay_seccomp_confine`): no socket(2) of any
    /// family, no sending to an address, no io_uring, no metadata writes (modes, owners, times,
    /// extended attributes, links, special files), no System V IPC, message queues or keys, no
    /// execve, and core dumps stay off.
    ///
    /// Landlock's network rules cover TCP only and it does not see those calls, so this is what
    /// stops UDP, UNIX, raw and netlink sockets and the rest. Turn it off only to prove Landlock's
    /// rules on their own; the report is then not `enforced`.
    public var filterSystemCalls: Bool
    /// What becomes of descriptors above stderr that were opened before confinement for writing
    /// anywhere but the writable paths; Landlock checks a file only when it is opened.
    public var openWriters: OpenWriters
    /// Descriptors of TCP connections to a loopback address (127.0.0.0/8, ::1), connected before
    /// confinement, that stay usable after it: `replay suite run --endpoint`'s one connection to
    /// a Chat Completions server on this machine. `confine` checks each is such a connection
    /// (`SandboxError.keptDescriptorIsNotALoopbackConnection`) and does not point it at /dev/null;
    /// once confined, no socket can be made or connected, so nothing else can be reached. Empty
    /// for every other command.
    public var keptConnections: [Int32]

    /// What `Sandbox.confine` does with a descriptor open for writing from before confinement.
    public enum OpenWriters: Sendable, Equatable {
        /// Points each at /dev/null opened read-only (`dup2`), so writes through it fail with
        /// `EBADF` and its number stays taken. The default: a parent that runs the process with Foundation's `Process` always
        /// hands it one end of a socket pair (how Foundation learns the child ended), and strace
        /// passes it on, so refusing would refuse every audited run.
        case redirectToDevNull
        /// Refuses to confine (`SandboxError.writableDescriptorOpen`).
        case refuse
    }

    public init(writableDirectories: [String], writableFiles: [String] = ["/dev/null"], createOnly: Bool = true,
                filterSystemCalls: Bool = true, openWriters: OpenWriters = .redirectToDevNull, keptConnections: [Int32] = []) {
        self.writableDirectories = writableDirectories
        self.writableFiles = writableFiles
        self.createOnly = createOnly
        self.filterSystemCalls = filterSystemCalls
        self.openWriters = openWriters
        self.keptConnections = keptConnections
    }
}
