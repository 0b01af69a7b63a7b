#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#endif
import CSpawn
import Foundation
import Privacy

/// A program run as a child of this process: spawned with only the descriptors it is given, in a
/// process group of its own, waited for by its own pid, and killed (with its group) once it
/// outlives the time it was given.
///
/// Foundation's `Process` on Linux learns that a child ended on one manager thread shared by every
/// child of the process: the thread calls a blocking `waitpid` once the child's end of a private
/// socket closes. A child that closes its inherited descriptors early and goes on (a confined
/// `replay`, a daemon) parks that thread until it ends, and every other child's end waits behind
/// it; its descriptor clean-up is a list made before the spawn, which a descriptor another thread
/// opens meanwhile slips through. Here each wait is the caller's own, every descriptor this type
/// makes is close-on-exec, and the child closes everything from 3 up as it starts. With a time
/// limit nothing waits forever: a hung child becomes a `timedOut` termination.
///
/// One thread owns an instance. The child is reaped exactly once (here), so its pid cannot be
/// reused while this object can still signal it; letting go of an instance that was never waited
/// for kills the child's group and reaps it.
public final class ChildProcess {
    /// What the child reads on standard input.
    public enum Input: Sendable {
        /// /dev/null.
        case null
        /// These bytes, then end of file (written as the child reads; SIGPIPE is then ignored by
        /// this process, so a child that stops reading early fails the write, not this process).
        case bytes(Data)
        /// This process's own standard input.
        case inherit
        /// A descriptor this process opened (a file reached by its name's bytes, which a
        /// `String` path cannot always spell), read from where it stands; the caller closes it.
        case descriptor(Int32)
    }

    /// Where one of the child's output streams goes.
    public enum Output: Sendable {
        /// /dev/null.
        case null
        /// A pipe this process reads while waiting (see `wait`).
        case capture
        /// A file, created (mode 0600) or emptied.
        case file(String)
        /// This process's own stream.
        case inherit
    }

    /// The child's pid, also its process group's id.
    public let processIdentifier: pid_t
    /// The program's path as given.
    public let program: String

    private var inputPipe: Int32 = -1
    private var pendingInput: Data
    private var inputOffset = 0
    private var outputPipe: Int32 = -1
    private var errorPipe: Int32 = -1
    private var ended: Termination?
    /// Contained: the reaper's report (see `init(contained:)`), read once it has ended.
    private var reportPipe: Int32 = -1

    /// Starts `program` (a path, or a name looked up in PATH) with `arguments`.
    ///
    /// `environment` nil passes this process's own; `directory` nil runs in this one's.
    ///
    /// `contained` starts the program beneath a reaper of its own (`cspawn_contained`): a child
    /// subreaper that every process the program's tree leaves behind falls to, and that kills
    /// them all once the program has ended. Then `processIdentifier` is the reaper's, the
    /// termination is the program's, its `survivors` says how many were still alive, and
    /// `wait` returns only when nothing of the tree is left. The time limit and letting go ask
    /// the reaper (SIGTERM) to kill the program's group; the reaper still empties the tree. A
    /// program that cannot be started ends with status 127.
    ///
    /// `isolated` (with `contained`) runs the tree in a PID and a mount namespace of its own,
    /// with a /proc of that namespace, so nothing in it can name, signal or read another process
    /// by pid; this needs CAP_SYS_ADMIN, and without it the tree runs as `contained` alone. The
    /// termination's `isolation` says which held.
    public init(_ program: String, _ arguments: [String] = [], environment: [String: String]? = nil,
                directory: String? = nil, input: Input = .null, output: Output = .null,
                errors: Output = .null, contained: Bool = false, isolated: Bool = false) throws(SpawnError) {
        self.program = program
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        // The child's ends, closed here once it has its copies.
        var childEnds: [Int32] = []
        var ownEnds: [Int32] = []
        func fail(_ error: SpawnError) -> SpawnError {
            for descriptor in childEnds + ownEnds { close(descriptor) }
            return error
        }

        switch input {
        case .null:
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            pendingInput = Data()
        case .inherit:
            pendingInput = Data()
        case .descriptor(let descriptor):
            posix_spawn_file_actions_adddup2(&actions, descriptor, 0)
            pendingInput = Data()
        case .bytes(let bytes):
            guard let (read, write) = Self.pipe() else { throw fail(.pipeCouldNotBeMade(reason: .current)) }
            childEnds.append(read)
            ownEnds.append(write)
            posix_spawn_file_actions_adddup2(&actions, read, 0)
            _ = fcntl(write, F_SETFL, fcntl(write, F_GETFL) | O_NONBLOCK)
            signal(SIGPIPE, SIG_IGN)
            inputPipe = write
            pendingInput = bytes
        }
        for (target, stream) in [(Int32(1), output), (Int32(2), errors)] {
            switch stream {
            case .null:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
            case .capture:
                guard let (read, write) = Self.pipe() else { throw fail(.pipeCouldNotBeMade(reason: .current)) }
                childEnds.append(write)
                ownEnds.append(read)
                posix_spawn_file_actions_adddup2(&actions, write, target)
                if target == 1 { outputPipe = read } else { errorPipe = read }
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            case .inherit:
                break
            }
        }
        var result = cspawn_close_from(&actions, 3)
        if result != 0 { throw fail(.spawnCouldNotBePrepared(step: "close from 3", reason: SystemError(result))) }
        if let directory {
            result = cspawn_change_directory(&actions, directory)
            if result != 0 { throw fail(.spawnCouldNotBePrepared(step: "change directory", reason: SystemError(result))) }
        }

        // Its own process group (so a time limit kills what it started too), no blocked signal,
        // and the default action for the signals this process may ignore or catch.
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGALRM, SIGTERM, SIGUSR1, SIGUSR2, SIGCHLD, SIGTSTP,
                       SIGTTIN, SIGTTOU, SIGXFSZ] {
            sigaddset(&defaults, number)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var pid = pid_t()
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { $0.map { strdup($0.key + "=" + $0.value) } + [nil] }
        defer {
            argv.forEach { free($0) }
            envp?.forEach { free($0) }
        }
        if contained {
            // The reaper spawns by path (no PATH lookup after fork), and reports through a pipe.
            guard program.contains("/") else { throw fail(.programCouldNotStart(program: program, reason: SystemError(ENOENT))) }
            guard let (read, write) = Self.pipe() else { throw fail(.pipeCouldNotBeMade(reason: .current)) }
            ownEnds.append(read)
            childEnds.append(write)
            let keep = childEnds.filter { $0 != write }
            result = argv.withUnsafeBufferPointer { argvBuffer -> Int32 in
                guard let envp else {
                    return cspawn_contained(&pid, program, &actions, &attributes, argvBuffer.baseAddress!, environ,
                                            keep, Int32(keep.count), write, isolated ? 1 : 0)
                }
                return envp.withUnsafeBufferPointer { envpBuffer in
                    cspawn_contained(&pid, program, &actions, &attributes, argvBuffer.baseAddress!, envpBuffer.baseAddress!,
                                     keep, Int32(keep.count), write, isolated ? 1 : 0)
                }
            }
            if result != 0 { throw fail(.programCouldNotStart(program: program, reason: SystemError(result))) }
            reportPipe = read
        } else {
            let spawn = program.contains("/") ? posix_spawn : posix_spawnp
            result = argv.withUnsafeBufferPointer { argvBuffer -> Int32 in
                guard let envp else { return spawn(&pid, program, &actions, &attributes, argvBuffer.baseAddress!, environ) }
                return envp.withUnsafeBufferPointer { envpBuffer in
                    spawn(&pid, program, &actions, &attributes, argvBuffer.baseAddress!, envpBuffer.baseAddress!)
                }
            }
            if result != 0 { throw fail(.programCouldNotStart(program: program, reason: SystemError(result))) }
        }
        for descriptor in childEnds { close(descriptor) }
        processIdentifier = pid
    }

    deinit {
        if ended == nil {
            killGroup()
            _ = reap(blocking: true)
        }
        for descriptor in [inputPipe, outputPipe, errorPipe, reportPipe] where descriptor >= 0 { close(descriptor) }
    }

    /// Runs `program` to its end: `wait(timeout:outputLimit:)` on a new child.
    public static func run(_ program: String, _ arguments: [String] = [], environment: [String: String]? = nil,
                           directory: String? = nil, input: Input = .null, output: Output = .capture,
                           errors: Output = .capture, timeout: Double? = nil,
                           outputLimit: Int = .max, contained: Bool = false,
                           isolated: Bool = false) throws(SpawnError) -> Termination {
        try ChildProcess(program, arguments, environment: environment, directory: directory, input: input,
                         output: output, errors: errors, contained: contained, isolated: isolated)
            .wait(timeout: timeout, outputLimit: outputLimit)
    }

    /// Whether the child is still running (reaping it if it has ended).
    public var isRunning: Bool {
        if ended == nil { _ = reap(blocking: false) }
        return ended == nil
    }

    /// Sends `signal` to the child, unless it has already been reaped.
    public func send(_ signal: Int32) {
        if isRunning { kill(processIdentifier, signal) }
    }

    /// Writes the input, reads the captured streams and waits for the child to end.
    ///
    /// Past `timeout` seconds, or once captured standard output holds `outputLimit` bytes, the
    /// child's process group is killed. Once the child has ended, streams still held open by
    /// something it left behind are read for a moment more, then closed.
    public func wait(timeout: Double? = nil, outputLimit: Int = .max) -> Termination {
        if let ended { return ended }
        var output = Data()
        var truncated = false
        var termination = drive(timeout: timeout) { chunk in
            output.append(chunk)
            guard output.count >= outputLimit else { return true }
            truncated = true
            output.removeSubrange(outputLimit...)
            return false
        }
        termination.outputTruncated = truncated
        termination.standardOutput = output
        ended = termination
        return termination
    }

    /// Like `wait`, but hands captured standard output to `consume` as it arrives (in pieces of
    /// at most 64 KiB) instead of keeping it, so a reader of an output of any length holds only
    /// one piece at a time. `consume` returns false to stop: the child's group is then killed
    /// and `outputTruncated` set. `standardOutput` stays empty.
    public func wait(timeout: Double? = nil, streamingOutput consume: (Data) -> Bool) -> Termination {
        if let ended { return ended }
        var stopped = false
        var termination = drive(timeout: timeout) { chunk in
            if consume(chunk) { return true }
            stopped = true
            return false
        }
        termination.outputTruncated = stopped
        ended = termination
        return termination
    }

    /// The loop behind both waits: writes input, passes each piece of standard output read to
    /// `output` (false: kill the group and close the pipe), keeps standard error, reaps.
    private func drive(timeout: Double?, output: (Data) -> Bool) -> Termination {
        let deadline = timeout.map { Self.now() + $0 }
        var errors = Data()
        var timedOut = false
        var endedAt: Double?
        while true {
            if endedAt == nil, reap(blocking: false) { endedAt = Self.now() }
            let open = [inputPipe, outputPipe, errorPipe].filter { $0 >= 0 }
            if open.isEmpty, ended != nil { break }
            if let endedAt, Self.now() - endedAt > 0.25 {
                closeStreams()
                break
            }
            if let deadline, !timedOut, Self.now() >= deadline {
                killGroup()
                timedOut = true
            }
            if open.isEmpty {
                if deadline == nil || timedOut {
                    _ = reap(blocking: true)
                } else {
                    usleep(5_000)
                }
                continue
            }
            var polled = open.map { pollfd(fd: $0, events: Int16($0 == inputPipe ? POLLOUT : POLLIN), revents: 0) }
            let ready = poll(&polled, nfds_t(polled.count), endedAt == nil ? 50 : 10)
            if ready <= 0 { continue }
            for entry in polled where entry.revents != 0 {
                if entry.fd == inputPipe {
                    writeInput()
                } else if entry.fd == outputPipe {
                    var piece = Data()
                    if !readAvailable(from: &outputPipe, into: &piece) { continue }
                    if !piece.isEmpty, !output(piece) {
                        killGroup()
                        close(outputPipe)
                        outputPipe = -1
                    }
                } else {
                    _ = readAvailable(from: &errorPipe, into: &errors)
                }
            }
        }
        var termination = ended ?? Termination(waitStatus: 0)
        termination.timedOut = timedOut
        termination.standardError = errors
        return termination
    }

    // MARK: Streams

    /// Reads what `descriptor` holds now into `data`; at its end closes it and sets it to -1.
    /// Returns whether the descriptor is still open.
    private func readAvailable(from descriptor: inout Int32, into data: inout Data) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count > 0 {
            data.append(contentsOf: buffer[0..<count])
            return true
        }
        if count < 0, errno == EINTR || errno == EAGAIN { return true }
        close(descriptor)
        descriptor = -1
        return false
    }

    /// Writes as much pending input as the pipe takes; closes it when all is written or the child
    /// stopped reading.
    private func writeInput() {
        while inputOffset < pendingInput.count {
            let written = pendingInput.withUnsafeBytes { bytes in
                write(inputPipe, bytes.baseAddress! + inputOffset, bytes.count - inputOffset)
            }
            if written > 0 {
                inputOffset += written
                continue
            }
            if written < 0, errno == EINTR { continue }
            if written < 0, errno == EAGAIN { return }
            break
        }
        close(inputPipe)
        inputPipe = -1
    }

    private func closeStreams() {
        for descriptor in [inputPipe, outputPipe, errorPipe] where descriptor >= 0 { close(descriptor) }
        inputPipe = -1
        outputPipe = -1
        errorPipe = -1
    }

    // MARK: The child

    /// Reaps the child if it has ended (or waits until it does); returns whether it was reaped.
    private func reap(blocking: Bool) -> Bool {
        if ended != nil { return true }
        var status: Int32 = 0
        while true {
            let result = waitpid(processIdentifier, &status, blocking ? 0 : WNOHANG)
            if result == processIdentifier {
                ended = reportPipe >= 0 ? readReport(reaperStatus: status) : Termination(waitStatus: status)
                return true
            }
            if result < 0, errno == EINTR { continue }
            if result < 0 {
                // Reaped elsewhere (a SIGCHLD set to be ignored): nothing to read back.
                ended = Termination(waitStatus: 0)
                return true
            }
            return false
        }
    }

    /// Kills the child's process group (and the child, should it have left the group); a
    /// contained child's reaper is asked to, so that it still empties the tree.
    private func killGroup() {
        guard ended == nil else { return }
        if reportPipe >= 0 {
            kill(processIdentifier, SIGTERM)
            return
        }
        kill(-processIdentifier, SIGKILL)
        kill(processIdentifier, SIGKILL)
    }

    /// The program's termination as the reaper (which exited with `reaperStatus`) reported it.
    private func readReport(reaperStatus: Int32) -> Termination {
        var record: [Int32] = [0, 0, 0, 0]
        let count = record.withUnsafeMutableBytes { read(reportPipe, $0.baseAddress, $0.count) }
        close(reportPipe)
        reportPipe = -1
        var reaper = Termination(waitStatus: reaperStatus)
        if count == 16 { reaper.isolation = Self.isolation(record[2], failure: record[3]) }
        guard count == 16, !reaper.signalled, reaper.status == 0 else {
            // The program could not be started (127); or nothing says the tree is empty: no
            // subreaper (126), or the reaper itself was killed.
            if reaper.signalled || reaper.status != 127 { reaper.survivors = -1 }
            return reaper
        }
        var termination = Termination(waitStatus: record[0])
        termination.survivors = Int(record[1])
        termination.isolation = reaper.isolation
        return termination
    }

    /// The isolation the reaper's report describes (`CSPAWN_*` bits, and an errno or 0).
    private static func isolation(_ bits: Int32, failure: Int32) -> Termination.Isolation {
        Termination.Isolation(ownPidNamespace: bits & CSPAWN_OWN_PID_NAMESPACE != 0,
                              privateProc: bits & CSPAWN_PRIVATE_PROC != 0,
                              failure: failure == 0 ? nil : SystemError(failure))
    }

    /// A pipe whose ends are both close-on-exec, so no other child inherits either.
    private static func pipe() -> (read: Int32, write: Int32)? {
        var ends: [Int32] = [-1, -1]
        guard cspawn_pipe(&ends) == 0 else { return nil }
        return (ends[0], ends[1])
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
