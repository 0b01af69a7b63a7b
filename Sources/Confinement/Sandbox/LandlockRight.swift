import CSandbox
import Privacy

/// One Landlock filesystem right that changes the filesystem, with the ABI that introduced it.
///
/// The sandbox handles every one the kernel knows, so that each is denied outside the writable
/// paths; rights the kernel does not know must not be passed, or the ruleset is refused.
struct LandlockRight: Sendable {
    let name: String
    let bit: UInt64
    let sinceABI: Int
    /// Whether the right can be granted on a single file; the others apply only beneath a directory.
    let appliesToFiles: Bool

    static let writes: [LandlockRight] = [
        LandlockRight(name: "write_file", bit: LANDLOCK_ACCESS_FS_WRITE_FILE, sinceABI: 1, appliesToFiles: true),
        LandlockRight(name: "remove_dir", bit: LANDLOCK_ACCESS_FS_REMOVE_DIR, sinceABI: 1, appliesToFiles: false),
        LandlockRight(name: "remove_file", bit: LANDLOCK_ACCESS_FS_REMOVE_FILE, sinceABI: 1, appliesToFiles: false),
        LandlockRight(name: "make_char", bit: LANDLOCK_ACCESS_FS_MAKE_CHAR, sinceABI: 1, appliesToFiles: false),
        LandlockRight(name: "make_dir", bit: LANDLOCK_ACCESS_FS_MAKE_DIR, sinceABI: 1, appliesToFiles: false),
        LandlockRight(name: "make_reg", bit: LANDLOCK_ACCESS_FS_MAKE_REG, sinceABI: 1, appliesToFiles: false),
        LandlockRight(name: "make_sock", bit: LANDLOCK_ACCESS_FS_MAKE_SOCK, sinceABI: 1, appliesToFiles: false),
        LandlockRight(name: "make_fifo", bit: LANDLOCK_ACCESS_FS_MAKE_FIFO, sinceABI: 1, appliesToFiles: false),
        LandlockRight(name: "make_block", bit: LANDLOCK_ACCESS_FS_MAKE_BLOCK, sinceABI: 1, appliesToFiles: false),
        LandlockRight(name: "make_sym", bit: LANDLOCK_ACCESS_FS_MAKE_SYM, sinceABI: 1, appliesToFiles: false),
        // Linking or renaming into another directory; without it handled, such moves fail with EXDEV.
        LandlockRight(name: "refer", bit: LANDLOCK_ACCESS_FS_REFER, sinceABI: 2, appliesToFiles: false),
        LandlockRight(name: "truncate", bit: LANDLOCK_ACCESS_FS_TRUNCATE, sinceABI: 3, appliesToFiles: true),
        // ioctl on devices opened after confinement (TIOCSTI could type into a terminal). Not granted
        // on /dev/null, which needs none; already-open descriptors such as a terminal stderr keep theirs.
        LandlockRight(name: "ioctl_dev", bit: LANDLOCK_ACCESS_FS_IOCTL_DEV, sinceABI: 5, appliesToFiles: false),
    ]

    /// The rights granted beneath a writable directory when the policy is `createOnly`: create
    /// regular files and directories and write to files, nothing else.
    ///
    /// Withheld there: removing, renaming (`remove_file` and `refer`), truncating, and making
    /// symbolic links, FIFOs, sockets and devices. `replay` only creates files whole (`ReportFile`),
    /// so whatever it writes stays for the audit to scan and cannot be taken back before it.
    static let createOnly: Set<String> = ["write_file", "make_reg", "make_dir"]

    /// The withheld rights without which a file written could be taken back; a report that does
    /// not withhold all of them beneath its writable directories is not `enforced`.
    static let takeBack: Set<String> = ["remove_file", "remove_dir", "refer", "truncate"]

    /// The rights a kernel offering `abi` knows.
    static func writes(abi: Int) -> [LandlockRight] { writes.filter { $0.sinceABI <= abi } }

    /// The union of the rights' bits.
    static func mask(_ rights: [LandlockRight]) -> UInt64 { rights.reduce(0) { $0 | $1.bit } }
}

extension SandboxReport {
    /// The names of the Landlock rights that change the filesystem, as a report lists them
    /// (`denied_filesystem_access`, `withheld_in_writable_directories`).
    public static var writeRightNames: [String] { LandlockRight.writes.map(\.name) }
}
