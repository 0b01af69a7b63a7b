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

}

/// The `sandbox` object of a run's report and state, compare.json and a suite's report; the
/// audit reads `enforced` from it. The seccomp filter is one program, so the channels it closes
/// are written together, and read back only when they agree.
extension SandboxReport: Codable {
    enum CodingKeys: String, CodingKey {
        case enforced
        case landlockABI = "landlock_abi"
        case writableDirectories = "writable_directories"
        case writableFiles = "writable_files"
        case handledFilesystemAccess = "denied_filesystem_access"
        case withheldInWritableDirectories = "withheld_in_writable_directories"
        case networkRestricted = "tcp_denied"
        case abstractUnixSocketsScoped = "abstract_unix_sockets_scoped"
        case signalsScoped = "signals_scoped"
        case nonUnixSocketsDenied = "non_unix_sockets_denied", allSocketsDenied = "all_sockets_denied"
        case metadataWritesDenied = "metadata_writes_denied", ipcDenied = "ipc_denied", execDenied = "exec_denied"
        case processAttributesFixed = "process_attributes_fixed"
        case coreDumpsDisabled = "core_dumps_disabled"
        case argumentAreaHidden = "argument_area_hidden"
        case processDetailsHidden = "proc_hidden_from_other_users"
        case redirectedDescriptors = "descriptors_redirected_to_dev_null"
        case threadsAtConfinement = "threads_at_confinement"
        case allThreadsConfined = "all_threads_confined"
        case unsandboxedReason = "unsandboxed_reason"

        static let seccomp: [CodingKeys] = [.nonUnixSocketsDenied, .allSocketsDenied, .metadataWritesDenied, .ipcDenied, .execDenied,
                                            .processAttributesFixed]
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(enforced, forKey: .enforced)
        try container.encode(landlockABI, forKey: .landlockABI)
        try container.encode(writableDirectories.map { ResultPath($0) }, forKey: .writableDirectories)
        try container.encode(writableFiles.map { ResultPath($0) }, forKey: .writableFiles)
        try container.encode(handledFilesystemAccess, forKey: .handledFilesystemAccess)
        try container.encode(withheldInWritableDirectories, forKey: .withheldInWritableDirectories)
        try container.encode(networkRestricted, forKey: .networkRestricted)
        try container.encode(abstractUnixSocketsScoped, forKey: .abstractUnixSocketsScoped)
        try container.encode(signalsScoped, forKey: .signalsScoped)
        for key in CodingKeys.seccomp { try container.encode(seccompInstalled, forKey: key) }
        try container.encode(coreDumpsDisabled, forKey: .coreDumpsDisabled)
        try container.encode(argumentAreaHidden, forKey: .argumentAreaHidden)
        try container.encode(processDetailsHidden, forKey: .processDetailsHidden)
        try container.encode(redirectedDescriptors, forKey: .redirectedDescriptors)
        try container.encode(threadsAtConfinement, forKey: .threadsAtConfinement)
        try container.encode(allThreadsConfined, forKey: .allThreadsConfined)
        try container.encode(unsandboxedReason.map { Prose($0) }, forKey: .unsandboxedReason)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func rights(_ key: CodingKeys) throws -> [String] {
            let names = try container.decode([String].self, forKey: key)
            guard names.allSatisfy(Self.writeRightNames.contains) else {
                throw StateFormatError(at: container.codingPath + [key], "a name that is not a Landlock write right")
            }
            return names
        }
        let seccomp = try CodingKeys.seccomp.map { try container.decode(Bool.self, forKey: $0) }
        guard Set(seccomp).count == 1 else { throw StateFormatError(at: container.codingPath, "the seccomp filter's channels disagree") }
        self.init(landlockABI: try container.decode(Int.self, forKey: .landlockABI),
                  writableDirectories: try container.decode([ResultPath].self, forKey: .writableDirectories).map(\.text),
                  writableFiles: try container.decode([ResultPath].self, forKey: .writableFiles).map(\.text),
                  handledFilesystemAccess: try rights(.handledFilesystemAccess),
                  withheldInWritableDirectories: try rights(.withheldInWritableDirectories),
                  networkRestricted: try container.decode(Bool.self, forKey: .networkRestricted),
                  abstractUnixSocketsScoped: try container.decode(Bool.self, forKey: .abstractUnixSocketsScoped),
                  signalsScoped: try container.decode(Bool.self, forKey: .signalsScoped), seccompInstalled: seccomp[0],
                  coreDumpsDisabled: try container.decode(Bool.self, forKey: .coreDumpsDisabled),
                  argumentAreaHidden: try container.decode(Bool.self, forKey: .argumentAreaHidden),
                  processDetailsHidden: try container.decode(Bool.self, forKey: .processDetailsHidden),
                  redirectedDescriptors: try container.decode([Int32].self, forKey: .redirectedDescriptors),
                  threadsAtConfinement: try container.decode(Int.self, forKey: .threadsAtConfinement),
                  allThreadsConfined: try container.decode(Bool.self, forKey: .allThreadsConfined),
                  unsandboxedReason: try container.decode(Prose?.self, forKey: .unsandboxedReason)?.text)
        guard try container.decode(Bool.self, forKey: .enforced) == enforced else {
            throw StateFormatError(at: container.codingPath + [CodingKeys.enforced], "not what the rest of the block says")
        }
    }
}
