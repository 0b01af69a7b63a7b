import Confinement
import Privacy

/// Judges a traced call of `AuditedCalls.judged` by its arguments as strace decoded them: nil
/// when what it asked is harmless, else the name of what it asked (`PR_SET_NAME`, `F_SETLK`,
/// `CLONE_UNTRACED`; empty when strace gave no name).
///
/// Only strace's own symbolic names ever leave here: a number, a string or a structure the run
/// chose is never repeated, so the verdict cannot carry what the run meant to leak.
enum CallJudge {
    /// prctl options that only read, and the sandbox's one-way settings.
    static let harmlessPrctl: Set<String> = ["PR_SET_NO_NEW_PRIVS", "PR_SET_DUMPABLE", "PR_SET_SECCOMP", "PR_SET_PDEATHSIG",
                                             "PR_CAPBSET_READ", "PR_MCE_KILL_GET"]
    /// fcntl commands on the descriptor itself: no lock, lease, owner or signal.
    static let harmlessFcntl: Set<String> = ["F_DUPFD", "F_DUPFD_CLOEXEC", "F_GETFD", "F_SETFD", "F_GETFL", "F_SETFL",
                                             "F_GETLK", "F_GETLK64", "F_OFD_GETLK", "F_GETOWN", "F_GETOWN_EX", "F_GETSIG",
                                             "F_GETLEASE", "F_GETPIPE_SZ", "F_GET_SEALS", "F_ADD_SEALS",
                                             "F_GET_RW_HINT", "F_GET_FILE_RW_HINT"]
    /// fcntl commands that take a lock or a lease: harmless only to release one.
    static let lockingFcntl: Set<String> = ["F_SETLK", "F_SETLKW", "F_SETLK64", "F_SETLKW64", "F_OFD_SETLK", "F_OFD_SETLKW",
                                            "F_SETLEASE"]
    /// ioctl requests that only read, or set a flag of the descriptor itself.
    static let harmlessIoctl: Set<String> = ["TCGETS", "TCGETS2", "TIOCGWINSZ", "FIONREAD", "TIOCGPGRP", "TIOCGSID",
                                             "FIONBIO", "FIOCLEX", "FIONCLEX"]

    /// The names libdispatch gives its worker threads (the last 15 bytes of a root queue's
    /// label, all the kernel keeps): a fixed set, so naming a thread one of them says nothing.
    static let dispatchThreadNames: Set<String> = {
        var labels = ["com.apple.libdispatch-manager", "com.apple.main-thread"]
        for qos in ["maintenance", "background", "utility", "default", "user-initiated", "user-interactive"] {
            for kind in ["", ".overcommit", ".cooperative"] { labels.append("com.apple.root." + qos + "-qos" + kind) }
        }
        return Set(labels.map { String(decoding: $0.utf8.suffix(15), as: UTF8.self) })
    }()
    /// The nice values libdispatch gives a worker thread of the default and user-initiated QoS
    /// (the two replay's queues use), set on the calling thread as it starts.
    static let dispatchNiceValues: Set<String> = ["0", "-4"]

    static func refused(_ call: String, _ arguments: [String], pid: Int) -> String? {
        func argument(_ index: Int) -> String { index < arguments.count ? arguments[index] : "" }
        switch call {
        case "prctl":
            let option = argument(0)
            if option.hasPrefix("PR_GET_") || harmlessPrctl.contains(option) { return nil }
            // Judged by the whole name (strace shows 16 bytes, `-s 16`): only libdispatch's own.
            if option == "PR_SET_NAME", let name = StraceLog.string(argument(1)), dispatchThreadNames.contains(name) { return nil }
            if option == "PR_CAP_AMBIENT", argument(1) == "PR_CAP_AMBIENT_IS_SET" { return nil }
            // The sandbox empties the argument and environment areas /proc shows. Where they point
            // is plain memory a program writes without any call, which no trace sees either way
            // (docs/privacy.md: what the audit cannot see of a program that is not replay).
            if option == "PR_SET_MM", argument(1) == "PR_SET_MM_MAP" { return nil }
            return name(option)
        case "prlimit64":
            // prlimit64(pid, resource, new, old): reading sets nothing; the sandbox lowers its own
            // core limit to 0, one value that says nothing.
            if argument(2) == "NULL" { return nil }
            if ["0", String(pid)].contains(argument(0)), argument(1) == "RLIMIT_CORE", isZeroLimit(argument(2)) { return nil }
            return name(argument(1))
        case "setrlimit":
            if argument(0) == "RLIMIT_CORE", isZeroLimit(argument(1)) { return nil }
            return name(argument(0))
        case "fcntl":
            let command = argument(1)
            if harmlessFcntl.contains(command) { return nil }
            if lockingFcntl.contains(command), argument(2).contains("F_UNLCK") { return nil }
            return name(command)
        case "setpriority":
            // setpriority(PRIO_PROCESS, 0, nice): the calling thread, to a QoS value of libdispatch.
            if argument(0) == "PRIO_PROCESS", argument(1) == "0", dispatchNiceValues.contains(argument(2)) { return nil }
            return name(argument(0))
        case "flock":
            return argument(1) == "LOCK_UN" ? nil : name(argument(1).split(separator: "|").first.map(String.init) ?? "")
        case "ioctl":
            return harmlessIoctl.contains(argument(1)) ? nil : name(argument(1))
        case "clone", "clone3":
            // A child strace is not told of escapes the trace, and every later call with it.
            return flags(arguments).contains("CLONE_UNTRACED") ? "CLONE_UNTRACED" : nil
        default:
            return nil
        }
    }

    /// `{rlim_cur=0, rlim_max=0}`.
    static func isZeroLimit(_ text: String) -> Bool {
        text.replacingOccurrences(of: " ", with: "") == "{rlim_cur=0,rlim_max=0}"
    }

    /// The clone flags strace decoded: `flags=A|B|…` in `clone` or in `clone3`'s structure.
    static func flags(_ arguments: [String]) -> [Substring] {
        for argument in arguments {
            guard let range = argument.range(of: "flags=") else { continue }
            let value = argument[range.upperBound...].prefix { $0 != "," && $0 != "}" && $0 != " " }
            return value.split(separator: "|")
        }
        return []
    }

    /// `text` when it is one of strace's symbolic names (capitals, digits, `_`), else empty.
    static func name(_ text: String) -> String {
        let isSymbol = !text.isEmpty && text.utf8.count <= 40 && text.utf8.first.map { (0x41...0x5a).contains($0) } == true
            && text.utf8.allSatisfy { (0x41...0x5a).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5f }
        return isSymbol ? text : ""
    }
}
