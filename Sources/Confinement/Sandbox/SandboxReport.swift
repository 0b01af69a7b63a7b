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
    /// Those of the rights still denied beneath the writable directories (`remove_file`,
    /// `truncate`, `make_sym`, …): what a run writes there cannot be removed, renamed or cut.
    public var withheldInWritableDirectories: [String]
    /// Whether Landlock denies every TCP bind and connect.
    public var networkRestricted: Bool
    /// Whether connecting to abstract UNIX sockets made outside the sandbox is denied (ABI 6).
    public var abstractUnixSocketsScoped: Bool
    /// Whether signals to processes outside the sandbox are denied (ABI 6).
    public var signalsScoped: Bool
    /// Whether the seccomp filter is on every thread. It allows only the calls a confined run makes:
    /// no socket of any family, no sending to an address, no io_uring, no metadata writes, no
    /// System V IPC, message queues or keys, no exec or fork, and no change to any attribute of
    /// the process or another that /proc shows (names, limits, priorities, affinity, locks, umask,
    /// session, capabilities, namespaces).
    public var seccompInstalled: Bool
    /// Whether the process is not dumpable and its core size limit is 0, read back after setting.
    public var coreDumpsDisabled: Bool
    /// Whether /proc/PID/cmdline and /proc/PID/environ show nothing, read back after hiding them:
    /// words written into the argument area (plain memory) are then never shown to anyone.
    public var argumentAreaHidden: Bool
    /// Whether /proc hides this process from other users (`hidepid`), the machine's choice: it
    /// closes the live state no filter can fix (signal masks, thread count) to other users.
    public var processDetailsHidden: Bool
    /// Descriptors above stderr that were open for writing from before confinement and now point
    /// at a read-only /dev/null (one end of the socket pair a Foundation `Process` parent hands
    /// its child, passed on by strace).
    public var redirectedDescriptors: [Int32]
    /// How many threads the process had when it was confined (1 in a freshly started `replay`).
    public var threadsAtConfinement: Int
    /// Whether Landlock covers every thread: the process had one thread, or ABI 8's TSYNC was used.
    public var allThreadsConfined: Bool
    /// Why the sandbox is not on, for a run with `--allow-unsandboxed`; nil when confined.
    public var unsandboxedReason: String?

    public init(landlockABI: Int, writableDirectories: [String], writableFiles: [String], handledFilesystemAccess: [String],
                withheldInWritableDirectories: [String], networkRestricted: Bool, abstractUnixSocketsScoped: Bool,
                signalsScoped: Bool, seccompInstalled: Bool, coreDumpsDisabled: Bool, argumentAreaHidden: Bool,
                processDetailsHidden: Bool = false, redirectedDescriptors: [Int32] = [],
                threadsAtConfinement: Int, allThreadsConfined: Bool, unsandboxedReason: String? = nil) {
        self.landlockABI = landlockABI
        self.writableDirectories = writableDirectories
        self.writableFiles = writableFiles
        self.handledFilesystemAccess = handledFilesystemAccess
        self.withheldInWritableDirectories = withheldInWritableDirectories
        self.networkRestricted = networkRestricted
        self.abstractUnixSocketsScoped = abstractUnixSocketsScoped
        self.signalsScoped = signalsScoped
        self.seccompInstalled = seccompInstalled
        self.coreDumpsDisabled = coreDumpsDisabled
        self.argumentAreaHidden = argumentAreaHidden
        self.processDetailsHidden = processDetailsHidden
        self.redirectedDescriptors = redirectedDescriptors
        self.threadsAtConfinement = threadsAtConfinement
        self.allThreadsConfined = allThreadsConfined
        self.unsandboxedReason = unsandboxedReason
    }

    /// The report of a run that goes on without the sandbox (`--allow-unsandboxed`): never `enforced`.
    public static func unsandboxed(because error: SandboxError) -> SandboxReport {
        SandboxReport(landlockABI: Sandbox.probe(), writableDirectories: [], writableFiles: [], handledFilesystemAccess: [],
                      withheldInWritableDirectories: [], networkRestricted: false, abstractUnixSocketsScoped: false,
                      signalsScoped: false, seccompInstalled: false, coreDumpsDisabled: false, argumentAreaHidden: false,
                      processDetailsHidden: Sandbox.processDetailsHiddenFromOtherUsers(),
                      threadsAtConfinement: Sandbox.threadCount() ?? -1, allThreadsConfined: false,
                      unsandboxedReason: error.description)
    }

    /// Whether all of it holds: writes confined and never taken back, TCP denied, the seccomp
    /// filter on, core dumps off, the argument area hidden, on every thread.
    ///
    /// `processDetailsHidden` is not required: it is the machine's mount option, not the run's.
    ///
    /// The abstract-socket and signal scopes are not required: they need ABI 6, while the promise
    /// needs ABI 4 (and with the filter on, no socket can be made to reach an abstract one anyway).
    public var enforced: Bool {
        unsandboxedReason == nil && !handledFilesystemAccess.isEmpty
            && Set(withheldInWritableDirectories).isSuperset(of: LandlockRight.takeBack)
            && networkRestricted && seccompInstalled && coreDumpsDisabled && argumentAreaHidden && allThreadsConfined
    }

    /// The `sandbox` object of the run report; the audit reads `enforced` from it.
    ///
    /// The seccomp filter is one program, so the channels it closes are reported together.
    public var reportValue: ReportValue {
        .object([
            ("enforced", .bool(enforced)),
            ("landlock_abi", .int(landlockABI)),
            ("writable_directories", .array(writableDirectories.map { .label($0) })),
            ("writable_files", .array(writableFiles.map { .label($0) })),
            ("denied_filesystem_access", .array(handledFilesystemAccess.map { .label($0) })),
            ("withheld_in_writable_directories", .array(withheldInWritableDirectories.map { .label($0) })),
            ("tcp_denied", .bool(networkRestricted)),
            ("abstract_unix_sockets_scoped", .bool(abstractUnixSocketsScoped)),
            ("signals_scoped", .bool(signalsScoped)),
            ("non_unix_sockets_denied", .bool(seccompInstalled)),
            ("all_sockets_denied", .bool(seccompInstalled)),
            ("metadata_writes_denied", .bool(seccompInstalled)),
            ("ipc_denied", .bool(seccompInstalled)),
            ("exec_denied", .bool(seccompInstalled)),
            ("process_attributes_fixed", .bool(seccompInstalled)),
            ("core_dumps_disabled", .bool(coreDumpsDisabled)),
            ("argument_area_hidden", .bool(argumentAreaHidden)),
            ("proc_hidden_from_other_users", .bool(processDetailsHidden)),
            ("descriptors_redirected_to_dev_null", .array(redirectedDescriptors.map { .int(Int($0)) })),
            ("threads_at_confinement", .int(threadsAtConfinement)),
            ("all_threads_confined", .bool(allThreadsConfined)),
            ("unsandboxed_reason", unsandboxedReason.map { .label($0) } ?? .null),
        ])
    }
}
