import Privacy
/// What the kernel enforces on this process, as recorded in the run's report.
///
/// Built by `Sandbox.confine` from what the kernel accepted, never from what was asked for, so a
/// report that says `enforced` is one the kernel stands behind.
public struct SandboxReport: Sendable, Equatable {
    /// The Landlock ABI the kernel offers (0 when it has none).
    public var landlockABI: Int
    /// The directories writes may go beneath, with symbolic links resolved.
    public var writableDirectories: [String]
    /// The single files that may be opened for writing (`/dev/null`).
    public var writableFiles: [String]
    /// The Landlock filesystem rights denied outside those paths, by their kernel names
    /// (`write_file`, `remove_file`, `make_reg`, `refer`, `truncate`, …).
    public var handledFilesystemAccess: [String]
    /// Whether Landlock denies every TCP bind and connect.
    public var networkRestricted: Bool
    /// Whether connecting to abstract UNIX sockets made outside the sandbox is denied (ABI 6).
    public var abstractUnixSocketsScoped: Bool
    /// Whether the seccomp filter that fails every non-`AF_UNIX` socket is on every thread.
    public var seccompInstalled: Bool
    /// How many threads the process had when it was confined (1 in a freshly started `replay`).
    public var threadsAtConfinement: Int
    /// Whether Landlock covers every thread: the process had one thread, or ABI 8's TSYNC was used.
    public var allThreadsConfined: Bool
    /// Why the sandbox is not on, for a run with `--allow-unsandboxed`; nil when confined.
    public var unsandboxedReason: String?

    public init(landlockABI: Int, writableDirectories: [String], writableFiles: [String], handledFilesystemAccess: [String],
                networkRestricted: Bool, abstractUnixSocketsScoped: Bool, seccompInstalled: Bool,
                threadsAtConfinement: Int, allThreadsConfined: Bool, unsandboxedReason: String? = nil) {
        self.landlockABI = landlockABI
        self.writableDirectories = writableDirectories
        self.writableFiles = writableFiles
        self.handledFilesystemAccess = handledFilesystemAccess
        self.networkRestricted = networkRestricted
        self.abstractUnixSocketsScoped = abstractUnixSocketsScoped
        self.seccompInstalled = seccompInstalled
        self.threadsAtConfinement = threadsAtConfinement
        self.allThreadsConfined = allThreadsConfined
        self.unsandboxedReason = unsandboxedReason
    }

    /// The report of a run that goes on without the sandbox (`--allow-unsandboxed`): never `enforced`.
    public static func unsandboxed(because error: SandboxError) -> SandboxReport {
        SandboxReport(landlockABI: Sandbox.probe(), writableDirectories: [], writableFiles: [], handledFilesystemAccess: [],
                      networkRestricted: false, abstractUnixSocketsScoped: false, seccompInstalled: false,
                      threadsAtConfinement: Sandbox.threadCount() ?? -1, allThreadsConfined: false,
                      unsandboxedReason: error.description)
    }

    /// Whether all of it holds: writes confined, TCP denied, other sockets denied, on every thread.
    ///
    /// The abstract-socket scope is not required: it needs ABI 6, while the promise needs ABI 4.
    public var enforced: Bool {
        unsandboxedReason == nil && !handledFilesystemAccess.isEmpty && networkRestricted && seccompInstalled
            && allThreadsConfined
    }

    /// The `sandbox` object of the run report; the audit reads `enforced` from it.
    public var reportValue: ReportValue {
        .object([
            ("enforced", .bool(enforced)),
            ("landlock_abi", .int(landlockABI)),
            ("writable_directories", .array(writableDirectories.map { .label($0) })),
            ("writable_files", .array(writableFiles.map { .label($0) })),
            ("denied_filesystem_access", .array(handledFilesystemAccess.map { .label($0) })),
            ("tcp_denied", .bool(networkRestricted)),
            ("abstract_unix_sockets_scoped", .bool(abstractUnixSocketsScoped)),
            ("non_unix_sockets_denied", .bool(seccompInstalled)),
            ("threads_at_confinement", .int(threadsAtConfinement)),
            ("all_threads_confined", .bool(allThreadsConfined)),
            ("unsandboxed_reason", unsandboxedReason.map { .label($0) } ?? .null),
        ])
    }
}
