import Confinement
import Foundation
import Privacy

/// Reads what `strace -f -qq -xx -yy -s 16 -e write=all` wrote into the events the audit judges.
///
/// strace traces every call but `AuditedCalls.allowed`; each line is read into the event of its
/// kind (a write, a socket, a signal, …), judged by its arguments and dropped when they are
/// harmless (`prctl(PR_GET_…)`, `fcntl(F_GETFL)`, a `clone` strace follows), or, for any other
/// call, an `unreviewed` event named by the call alone.
///
/// With `-xx` every string (paths, addresses) is hex-escaped, so no byte of a path can be
/// mistaken for syntax; with `-yy` descriptors carry what they are (`3</tmp/x>`, `5<UDP:[…]>`,
/// `AT_FDCWD</work>`), which resolves relative paths and connected sockets; with `-s 16` no more than
/// 16 bytes of a data buffer reach a call's line (a thread's name is 15); the bytes written are in
/// the dump lines after a write (` | 00000  68 65 …`), which carry no pid and are skipped here
/// (`WrittenBytes` reads them). Calls split by other threads (`<unfinished ...>` and
/// `<... resumed>`) are joined per thread before they are read.
public struct StraceLog: Sendable {
    /// One system call the audit cares about.
    public enum Event: Sendable, Equatable {
        /// `socket(family, …)`.
        case socket(family: String, outcome: Outcome)
        /// `connect`, `bind`, `sendto`, `sendmsg`, `sendmmsg`: the address family and the address,
        /// decoded by family (or the socket, when the call sent on a connected one).
        case send(call: String, family: String, address: SocketAddress, outcome: Outcome)
        /// A call that creates, writes, renames, truncates, links or removes `paths` (absolute).
        case write(call: String, paths: [String], outcome: Outcome)
        /// A call that changes a file's metadata: mode, owner, times, extended attributes.
        case metadata(call: String, paths: [String], outcome: Outcome)
        /// A kernel object that can outlive the process (SysV IPC, POSIX message queue, key),
        /// or an `io_uring`, whose operations strace cannot see.
        case kernelObject(call: String, outcome: Outcome)
        /// A signal (`signal` 0 probes only) sent to process `target` (negative: a group).
        case signal(call: String, target: Int, signal: String, outcome: Outcome)
        /// A program executed (`execve`, `execveat`).
        case exec(call: String, outcome: Outcome)
        /// A call not on the allow-list, or a judged call whose arguments are not (`operation`:
        /// strace's name for what it asked, such as `PR_SET_NAME`, `F_SETLK` or `CLONE_UNTRACED`;
        /// never a value the run chose).
        case unreviewed(call: String, operation: String?, outcome: Outcome)
        /// `landlock_restrict_self`: the process confined itself (the sandbox). What it did
        /// before is what `EndpointConnection` judges its one connection by.
        case confined(outcome: Outcome)
        /// `flock(fd, LOCK_EX|LOCK_NB)` on `path`: a run's claim on its `--out` (judged by the
        /// auditor: the run directory itself, once per process; any other is an unreviewed call).
        case claim(path: String, outcome: Outcome)
    }

    /// How a call ended: succeeded, or failed with this errno name.
    public enum Outcome: Sendable, Equatable {
        case succeeded
        case failed(String)

        public var succeeded: Bool { self == .succeeded }
    }

    /// An event and the thread that made it.
    public struct Entry: Sendable, Equatable {
        public var pid: Int
        public var event: Event
    }

    public private(set) var entries: [Entry] = []
    /// Lines read (any system call at all, traced or not): zero means strace watched nothing.
    public private(set) var lines = 0
    /// Every process and thread id that made a call: the run's own process tree.
    public private(set) var pids: Set<Int> = []

    /// The path arguments of the file calls that change something, by call name: (path argument,
    /// directory-descriptor argument or nil).
    static let fileCalls: [String: [(path: Int, directory: Int?)]] = [
        "creat": [(0, nil)], "truncate": [(0, nil)], "unlink": [(0, nil)], "mkdir": [(0, nil)], "rmdir": [(0, nil)],
        "unlinkat": [(1, 0)], "mkdirat": [(1, 0)],
        "rename": [(0, nil), (1, nil)], "renameat": [(1, 0), (3, 2)], "renameat2": [(1, 0), (3, 2)],
        "link": [(1, nil)], "linkat": [(3, 2)], "symlink": [(1, nil)], "symlinkat": [(2, 1)],
        "mknod": [(0, nil)], "mknodat": [(1, 0)],
    ]
    /// Calls that remove or replace a name: a file the run wrote and then took back.
    static let removingCalls: Set<String> = ["unlink", "unlinkat", "rmdir", "rename", "renameat", "renameat2"]

    /// Metadata calls: (path argument, directory-descriptor argument or nil); a nil path means the
    /// file is the descriptor in argument 0 (`fchmod`, `fsetxattr`, …).
    static let metadataCalls: [String: (path: Int?, directory: Int?)] = [
        "chmod": (0, nil), "fchmod": (nil, nil), "fchmodat": (1, 0), "fchmodat2": (1, 0),
        "chown": (0, nil), "lchown": (0, nil), "fchown": (nil, nil), "fchownat": (1, 0),
        "utime": (0, nil), "utimes": (0, nil), "futimesat": (1, 0), "utimensat": (1, 0),
        "setxattr": (0, nil), "lsetxattr": (0, nil), "fsetxattr": (nil, nil), "setxattrat": (1, 0),
        "removexattr": (0, nil), "lremovexattr": (0, nil), "fremovexattr": (nil, nil), "removexattrat": (1, 0),
    ]
    /// Calls that make a kernel object able to outlive the process, or an io_uring, and those
    /// that use one (which another process may have made: `shmat` of its segment is a write to it).
    static let kernelObjectCalls: Set<String> = ["shmget", "msgget", "semget", "mq_open", "add_key", "request_key",
                                                 "io_uring_setup",
                                                 "shmat", "shmdt", "shmctl", "msgsnd", "msgrcv", "msgctl", "semop",
                                                 "semtimedop", "semctl", "mq_unlink", "mq_timedsend", "mq_timedreceive",
                                                 "mq_notify", "mq_getsetattr", "keyctl", "io_uring_enter",
                                                 "io_uring_register"]
    /// Calls that send a signal: the target pid is argument 0 (argument 0 is the thread group for
    /// `tgkill` and `rt_tgsigqueueinfo`, whose argument 1 is a thread within it).
    static let signalCalls: [String: Int] = ["kill": 1, "tkill": 1, "tgkill": 2, "rt_sigqueueinfo": 1,
                                             "rt_tgsigqueueinfo": 2]

    /// Reads a trace; `workingDirectory` resolves relative paths of threads whose own is unknown.
    public init(trace: String, workingDirectory: String) {
        var pending: [Int: String] = [:]
        var directories: [Int: String] = [:]
        for raw in trace.split(separator: "\n", omittingEmptySubsequences: true) {
            var line = Substring(raw)
            let digits = line.prefix { $0.isNumber }
            guard let pid = Int(digits) else { continue }
            line = line.dropFirst(digits.count).drop { $0 == " " }
            pids.insert(pid)
            if line.hasPrefix("---") || line.hasPrefix("+++") { continue }   // signals, exits
            lines += 1
            if line.hasSuffix(" <unfinished ...>") {
                pending[pid] = String(line.dropLast(" <unfinished ...>".count))
                continue
            }
            var text = String(line)
            if line.hasPrefix("<... "), let end = line.range(of: " resumed>") {
                text = (pending.removeValue(forKey: pid) ?? "") + line[end.upperBound...]
            }
            if let event = Self.event(text, pid: pid, directories: &directories, fallback: workingDirectory) {
                entries.append(Entry(pid: pid, event: event))
            }
        }
        // A call that never returned (its process was killed in it) may still have done what it
        // asked: judged as if it had succeeded.
        for (pid, text) in pending.sorted(by: { $0.key < $1.key }) {
            if let event = Self.event(text + ") = 0", pid: pid, directories: &directories, fallback: workingDirectory) {
                entries.append(Entry(pid: pid, event: event))
            }
        }
    }

    static func event(_ text: String, pid: Int, directories: inout [Int: String], fallback: String) -> Event? {
        // strace pads short calls to a column before " = ": `kill(12, SIGCONT)      = 0`.
        guard let open = text.firstIndex(of: "("), let equals = text.range(of: " = ", options: .backwards) else { return nil }
        var close = equals.lowerBound
        while close > open, text[text.index(before: close)] == " " { close = text.index(before: close) }
        guard close > open, text[text.index(before: close)] == ")" else { return nil }
        let name = String(text[..<open])
        let arguments = split(text[text.index(after: open)..<text.index(before: close)])
        let result = text[equals.upperBound...]
        let outcome: Outcome = result.hasPrefix("-1") || result.hasPrefix("?")
            ? .failed(result.split(separator: " ").dropFirst().first.map(String.init) ?? "error") : .succeeded
        // Learn the thread's working directory from any AT_FDCWD</path> it shows.
        for argument in arguments where argument.hasPrefix("AT_FDCWD<") {
            if let path = annotation(argument) { directories[pid] = path }
        }
        let cwd = directories[pid] ?? fallback
        func path(_ index: Int, directory: Int?) -> String? {
            guard index < arguments.count, let relative = string(arguments[index]) else { return nil }
            if relative.hasPrefix("/") { return normalized(relative) }
            let base = directory.flatMap { $0 < arguments.count ? annotation(arguments[$0]) : nil } ?? cwd
            return normalized(base + "/" + relative)
        }

        switch name {
        case "chdir":
            if outcome.succeeded, let target = path(0, directory: nil) { directories[pid] = target }
            return nil
        case "fchdir":
            if outcome.succeeded, let first = arguments.first, let target = annotation(first) { directories[pid] = target }
            return nil
        case "socket":
            guard let family = arguments.first else { return nil }
            return .socket(family: family, outcome: outcome)
        case "execve", "execveat":
            return .exec(call: name, outcome: outcome)
        case "landlock_restrict_self":
            return .confined(outcome: outcome)
        case "pidfd_send_signal":
            return .signal(call: name, target: 0, signal: arguments.count > 1 ? arguments[1] : "?", outcome: outcome)
        case _ where signalCalls[name] != nil:
            let signalIndex = signalCalls[name]!
            guard let first = arguments.first, let target = Int(first), signalIndex < arguments.count else { return nil }
            return .signal(call: name, target: target, signal: arguments[signalIndex], outcome: outcome)
        case _ where kernelObjectCalls.contains(name):
            return .kernelObject(call: name, outcome: outcome)
        case _ where metadataCalls[name] != nil:
            let place = metadataCalls[name]!
            if let index = place.path {
                // `utimensat(fd, NULL, …)` and `*at(fd, "", …, AT_EMPTY_PATH)` name the descriptor.
                if let target = path(index, directory: place.directory), !(index < arguments.count && arguments[index] == "\"\"") {
                    return .metadata(call: name, paths: [target], outcome: outcome)
                }
            }
            guard let first = arguments.first, let target = annotation(first) else {
                return .metadata(call: name, paths: [], outcome: outcome)
            }
            return .metadata(call: name, paths: [target], outcome: outcome)
        case "connect", "sendto", "sendmsg", "sendmmsg", "bind":
            let whole = arguments.dropFirst().joined(separator: ", ")
            if let family = field("sa_family=", in: whole) {
                return .send(call: name, family: family, address: SocketAddress(family: family, decoded: whole), outcome: outcome)
            }
            // Sent on a connected socket: the descriptor says what it is (UDP:[a->b], UNIX:[…]).
            guard let first = arguments.first, let kind = socketAnnotation(first) else { return nil }
            let family = kind.hasPrefix("UNIX") ? "AF_UNIX" : kind.hasPrefix("NETLINK") ? "AF_NETLINK"
                : kind.contains("v6") ? "AF_INET6" : kind.hasPrefix("TCP") || kind.hasPrefix("UDP") ? "AF_INET" : "unknown"
            return .send(call: name, family: family, address: .connected(kind), outcome: outcome)
        case "open", "openat", "openat2":
            let pathIndex = name == "open" ? 0 : 1
            let flags = name == "openat2" ? (field("flags=", in: arguments.dropFirst(2).first ?? "") ?? "")
                : (pathIndex + 1 < arguments.count ? arguments[pathIndex + 1] : "")
            let writes = flags.split(separator: "|").contains {
                ["O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_TMPFILE", "__O_TMPFILE"].contains(String($0))
            }
            guard writes, let target = path(pathIndex, directory: name == "open" ? nil : 0) else { return nil }
            // A successful open says where the file really is: `= 3</real/path>`.
            let opened = outcome.succeeded ? annotation(String(result)) : nil
            return .write(call: name, paths: [opened ?? target], outcome: outcome)
        case _ where WrittenBytes.writeCalls.contains(name):
            return nil   // their bytes are WrittenBytes' to search; their descriptors were judged at open
        case "ftruncate":
            guard let first = arguments.first, let target = annotation(first) else { return nil }
            return .write(call: name, paths: [target], outcome: outcome)
        default:
            if let places = fileCalls[name] {
                let paths = places.compactMap { path($0.path, directory: $0.directory) }
                return paths.isEmpty ? nil : .write(call: name, paths: paths, outcome: outcome)
            }
            if AuditedCalls.allowed[name] != nil { return nil }
            if name == "flock", arguments.count > 1, arguments[1] == "LOCK_EX|LOCK_NB", let first = arguments.first, let target = annotation(first) {
                return .claim(path: target, outcome: outcome)
            }
            if AuditedCalls.judged[name] != nil {
                guard let operation = CallJudge.refused(name, arguments, pid: pid) else { return nil }
                return .unreviewed(call: name, operation: operation.isEmpty ? nil : operation, outcome: outcome)
            }
            return .unreviewed(call: name, operation: nil, outcome: outcome)
        }
    }

    /// Splits an argument list at its top-level commas.
    static func split(_ text: Substring) -> [String] {
        var parts: [String] = []
        var current = ""
        var depth = 0
        var iterator = Array(text)
        var index = 0
        while index < iterator.count {
            let character = iterator[index]
            switch character {
            case "\"":
                current.append(character)
                index += 1
                while index < iterator.count, iterator[index] != "\"" {
                    if iterator[index] == "\\", index + 1 < iterator.count { current.append(iterator[index]); index += 1 }
                    current.append(iterator[index])
                    index += 1
                }
                if index < iterator.count { current.append(iterator[index]) }
            case "<":
                // A descriptor's annotation: to the '>' that is not part of "->".
                current.append(character)
                index += 1
                while index < iterator.count, !(iterator[index] == ">" && iterator[index - 1] != "-") {
                    current.append(iterator[index])
                    index += 1
                }
                if index < iterator.count { current.append(iterator[index]) }
            case "(", "{", "[":
                depth += 1
                current.append(character)
            case ")", "}", "]":
                depth -= 1
                current.append(character)
            case "," where depth == 0:
                parts.append(current.trimmingSpaces())
                current = ""
            default:
                current.append(character)
            }
            index += 1
        }
        if !current.trimmingSpaces().isEmpty { parts.append(current.trimmingSpaces()) }
        iterator.removeAll()
        return parts
    }

    /// The text of a quoted (hex-escaped) string argument.
    static func string(_ argument: String) -> String? {
        guard argument.hasPrefix("\""), let close = argument.dropFirst().firstIndex(of: "\"") else { return nil }
        return unescape(argument[argument.index(after: argument.startIndex)..<close])
    }

    /// The path in a descriptor's annotation (`3</x>`, `AT_FDCWD</x>`), if it is a path.
    ///
    /// strace escapes `<` and `>` inside paths, so an unescaped `<` in the annotation starts the
    /// device's own (`3</dev/null<char 1:3>>`), which is not part of the path.
    static func annotation(_ argument: String) -> String? {
        guard let open = argument.firstIndex(of: "<"), argument.hasSuffix(">") else { return nil }
        var inner = argument[argument.index(after: open)..<argument.index(before: argument.endIndex)]
        if let device = inner.firstIndex(of: "<") { inner = inner[..<device] }
        let path = unescape(inner)
        return path.hasPrefix("/") ? path : nil
    }

    /// A socket descriptor's annotation (`UDP:[…]`), if it is one.
    static func socketAnnotation(_ argument: String) -> String? {
        guard let open = argument.firstIndex(of: "<"), argument.hasSuffix(">") else { return nil }
        let inner = String(argument[argument.index(after: open)..<argument.index(before: argument.endIndex)])
        return inner.contains(":[") ? unescape(Substring(inner)) : nil
    }

    /// `key=VALUE` up to the next `,` or `}`.
    static func field(_ key: String, in text: String) -> String? {
        guard let range = text.range(of: key) else { return nil }
        let value = text[range.upperBound...].prefix { $0 != "," && $0 != "}" }
        return value.isEmpty ? nil : String(value)
    }

    /// Decodes strace's escapes (`\xNN`, `\n`, `\\`, `\"`, octal) into text.
    static func unescape(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        let input = Array(text.utf8)
        var index = 0
        while index < input.count {
            let byte = input[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < input.count else {
                bytes.append(byte)
                index += 1
                continue
            }
            let next = input[index + 1]
            switch next {
            case UInt8(ascii: "x") where index + 3 < input.count:
                if let value = UInt8(String(decoding: input[index + 2...index + 3], as: UTF8.self), radix: 16) {
                    bytes.append(value)
                    index += 4
                    continue
                }
                bytes.append(byte)
                index += 1
                continue
            case UInt8(ascii: "n"): bytes.append(0x0a)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "r"): bytes.append(0x0d)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var value = 0
                var length = 0
                while length < 3, index + 1 + length < input.count,
                      (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(input[index + 1 + length]) {
                    value = value * 8 + Int(input[index + 1 + length] - UInt8(ascii: "0"))
                    length += 1
                }
                bytes.append(UInt8(truncatingIfNeeded: value))
                index += 1 + length
                continue
            default: bytes.append(next)
            }
            index += 2
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `path` with `.` and `..` removed and repeated slashes folded (no symbolic links followed).
    public static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." { _ = parts.popLast(); continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        var text = Substring(self)
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
