import Foundation
import Privacy

/// Runs a command under observation and proves, or disproves, that none of the words it was given
/// or its model wrote left it: `replay audit`.
///
/// 1. A fresh canary and salt (kernel randomness) go to the command in `REPLAY_AUDIT_*`
///    variables, with `REPLAY_AUDIT_OUT` naming the only directory it may write to.
/// 2. The command runs under `strace -f` (every thread and child process): every non-`AF_UNIX`
///    socket, connect or send, and every file created, written, renamed, truncated, linked or
///    removed outside that directory is recorded. What succeeded is an error; what the kernel
///    refused (EACCES, EPERM, EROFS, EXDEV: the sandbox at work) is a note.
/// 3. Everything the command wrote is scanned for the canary and for its outputs' fingerprints:
///    every file under its directory, every file it wrote elsewhere, its stdout and stderr
///    (captured in a private directory and deleted after the scan), and files that appeared in
///    the temporary directories during the run.
/// 4. Its report.json must say `sandbox.enforced: true`.
///
/// The verdict goes to `audit.sarif` and `audit-junit.xml` in the audit's directory, which is not
/// the command's. Nothing the command wrote is ever copied, printed or kept by the auditor.
public enum Auditor {
    /// The name of the hashes file the audited run writes beneath its directory.
    public static let hashesFileName = AuditTap.hashesFileName
    /// Marks a child directory the auditor made, so a later audit may clear it.
    static let markerFileName = ".replay-audit-run"
    /// The system calls strace records.
    public static let tracedCalls = ["socket", "connect", "sendto", "sendmsg", "sendmmsg",
                                     "open", "openat", "openat2", "creat", "rename", "renameat", "renameat2",
                                     "truncate", "ftruncate", "unlink", "unlinkat", "rmdir", "mkdir", "mkdirat",
                                     "link", "linkat", "symlink", "symlinkat", "chdir", "fchdir"]
    /// Files outside the directory that any program may write without writing anywhere.
    static let harmlessFiles: Set<String> = ["/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/stdout", "/dev/stderr",
                                             "/dev/random", "/dev/urandom"]
    /// Errors by which the kernel refuses a write or socket: the sandbox at work.
    static let refusals: Set<String> = ["EACCES", "EPERM", "EROFS", "EXDEV"]
    /// Limits of the sweep of temporary directories (the trace already names every file written).
    static let sweepFileLimit = 2000
    static let sweepByteLimit = 64 << 20

    /// What to audit and how.
    public struct Plan: Sendable {
        /// The command and its arguments; the first is a path or a name looked up in PATH.
        public var command: [String]
        /// The audit's own directory: the verdict goes here.
        public var auditDirectory: String
        /// The only directory the command may write to (default: `auditDirectory/run`).
        public var childDirectory: String
        /// The command's environment, before the audit's variables are added.
        public var environment: [String: String]
        /// Whether the command is `replay`, which must leave its fingerprints and a sandbox block.
        public var isReplay: Bool
        /// strace's path; nil looks it up in PATH, then /usr/bin.
        public var strace: String?
        /// The working directory the command starts in (default: the auditor's).
        public var workingDirectory: String

        public init(command: [String], auditDirectory: String, childDirectory: String? = nil,
                    environment: [String: String] = ProcessInfo.processInfo.environment, isReplay: Bool = false,
                    strace: String? = nil, workingDirectory: String = FileManager.default.currentDirectoryPath) {
            self.command = command
            self.auditDirectory = auditDirectory
            self.childDirectory = childDirectory ?? auditDirectory + "/run"
            self.environment = environment
            self.isReplay = isReplay
            self.strace = strace
            self.workingDirectory = workingDirectory
        }
    }

    /// Audits `command`, which must write only beneath `outDirectory/run`; the verdict goes to
    /// `outDirectory`.
    public static func run(command: [String], outDirectory: String,
                           environment: [String: String] = ProcessInfo.processInfo.environment,
                           isReplay: Bool = false, strace: String? = nil) -> AuditResult {
        run(Plan(command: command, auditDirectory: outDirectory, environment: environment, isReplay: isReplay, strace: strace))
    }

    /// Audits as `plan` says; always writes the verdict files when the audit directory exists.
    public static func run(_ plan: Plan) -> AuditResult {
        var result = AuditResult()
        let auditDirectory = absolute(plan.auditDirectory, in: plan.workingDirectory)
        let childDirectory = absolute(plan.childDirectory, in: plan.workingDirectory)
        do {
            try FileManager.default.createDirectory(atPath: auditDirectory, withIntermediateDirectories: true)
        } catch {
            result.problems.append(.directoryNotCreated(path: auditDirectory, reason: reason(error)))
            result.summary = AuditSummary.render(result, plan: plan)
            return result
        }
        observe(plan, auditDirectory: auditDirectory, childDirectory: childDirectory, into: &result)
        result.findings.sort { ($0.rule, $0.location ?? "") < ($1.rule, $1.location ?? "") }
        AuditVerdict.write(result, plan: plan, to: auditDirectory, into: &result)
        result.summary = AuditSummary.render(result, plan: plan)
        return result
    }

    /// Runs and judges; everything that stops the audit is added to `result.problems`.
    static func observe(_ plan: Plan, auditDirectory: String, childDirectory: String, into result: inout AuditResult) {
        guard let first = plan.command.first else { result.problems.append(.noCommand); return }
        let strace = plan.strace ?? executable("strace", environment: plan.environment) ?? "/usr/bin/strace"
        guard FileManager.default.isExecutableFile(atPath: strace) else {
            result.problems.append(.straceMissing(path: strace))
            return
        }
        guard let program = executable(first, environment: plan.environment, in: plan.workingDirectory) else {
            result.problems.append(.commandNotFound(first))
            return
        }
        if let problem = prepareChildDirectory(childDirectory) { result.problems.append(problem); return }
        guard let canaryBytes = AuditSecret.bytes(16), let salt = AuditSecret.bytes(32) else {
            result.problems.append(.noRandomness)
            return
        }
        let canary = AuditSecret.hex(canaryBytes)
        let hashesPath = childDirectory + "/" + hashesFileName
        guard let scratch = privateDirectory() else {
            result.problems.append(.directoryNotCreated(path: NSTemporaryDirectory(), reason: "no private directory for the trace"))
            return
        }
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let tracePath = scratch + "/trace", stdoutPath = scratch + "/stdout", stderrPath = scratch + "/stderr"
        for path in [tracePath, stdoutPath, stderrPath] {
            _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        let sweep = TemporarySweep(directories: temporaryDirectories(plan.environment), skipping: [scratch, auditDirectory])

        // Run.
        var environment = plan.environment.filter { !AuditEnvironment.all.contains($0.key) }
        environment[AuditEnvironment.canary] = canary
        environment[AuditEnvironment.salt] = AuditSecret.hex(salt)
        environment[AuditEnvironment.hashes] = hashesPath
        environment[AuditEnvironment.out] = childDirectory
        let process = Process()
        process.executableURL = URL(fileURLWithPath: strace)
        process.arguments = ["-f", "-qq", "-xx", "-yy", "-s", "0", "-e", "trace=" + tracedCalls.joined(separator: ","),
                             "-o", tracePath, "--", program] + plan.command.dropFirst()
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: plan.workingDirectory)
        guard let stdout = FileHandle(forWritingAtPath: stdoutPath), let stderr = FileHandle(forWritingAtPath: stderrPath) else {
            result.problems.append(.launchFailed(reason: "the private capture files could not be opened"))
            return
        }
        process.standardOutput = stdout
        process.standardError = stderr
        do {
            try process.run()
        } catch {
            result.problems.append(.launchFailed(reason: reason(error)))
            return
        }
        process.waitUntilExit()
        try? stdout.close()
        try? stderr.close()
        let status = process.terminationStatus
        result.commandStatus = status

        // Observe.
        let trace = (try? String(contentsOfFile: tracePath, encoding: .utf8))
            ?? String(decoding: FileManager.default.contents(atPath: tracePath) ?? Data(), as: UTF8.self)
        let log = StraceLog(trace: trace, workingDirectory: plan.workingDirectory)
        if log.lines == 0 {
            result.problems.append(.traceEmpty(status: status))
            return
        }
        if process.terminationReason == .uncaughtSignal {
            result.problems.append(.commandKilled(signal: status))
        } else if status != 0 {
            result.problems.append(.commandFailed(status: status))
        }
        let allowed = AllowedPlaces(directory: childDirectory, streams: [stdoutPath, stderrPath])
        var written: [String] = []
        result.findings += judge(log, allowed: allowed, written: &written)

        // Scan.
        let hashes = AuditHashes.read(hashesPath)
        result.hashes = hashes
        if plan.isReplay, hashes == nil { result.problems.append(.hashesMissing(path: hashesPath)) }
        let scanner = LeakScanner(canary: canary, fingerprint: OutputFingerprint(salt: salt), digests: hashes?.digests ?? [])
        var seen: Set<String> = []
        func scan(_ path: String, as location: String? = nil, limit: Int = .max) {
            let key = canonical(path)
            guard seen.insert(key).inserted, let bytes = regularFileBytes(path, limit: limit) else { return }
            result.scannedSources += 1
            result.scannedBytes += bytes.count
            let disclosed = location ?? disclose(path, scanner: scanner, findings: &result.findings)
            result.findings += scanner.findings(in: bytes, location: disclosed)
        }
        scan(stdoutPath, as: "stdout")
        scan(stderrPath, as: "stderr")
        for path in files(beneath: childDirectory) { scan(path) }
        for path in written { scan(path) }
        for path in sweep.changedFiles(limit: sweepFileLimit) { scan(path, limit: sweepByteLimit) }

        // Name the paths of trace findings, unless a name itself carries the canary or an output.
        for index in result.findings.indices where result.findings[index].message.contains(pathMark) {
            let path = result.findings[index].location ?? "?"
            var extra: [AuditFinding] = []
            let shown = disclose(path, scanner: scanner, findings: &extra)
            result.findings[index].location = shown
            result.findings[index].message = result.findings[index].message.replacingOccurrences(of: pathMark, with: shown)
            for finding in extra where !result.findings.contains(finding) { result.findings.append(finding) }
        }

        // Sandbox and canary.
        judgeReport(childDirectory + "/report.json", isReplay: plan.isReplay, into: &result)
        if let hashes, hashes.promptsWithCanary < hashes.prompts {
            result.findings.append(AuditFinding(
                rule: .canaryNotPlanted,
                message: "The canary reached \(hashes.promptsWithCanary) of \(hashes.prompts) prompts: the others could leak unseen.",
                location: hashesPath))
        }
    }

    /// Stands for a finding's path in its message until the path is known to be safe to show.
    static let pathMark = "{path}"

    /// Findings from the trace, and the paths written outside the directory (to be scanned).
    static func judge(_ log: StraceLog, allowed: AllowedPlaces, written: inout [String]) -> [AuditFinding] {
        struct Key: Hashable { let rule: AuditRule; let what: String }
        var counts: [Key: (finding: AuditFinding, count: Int)] = [:]
        var order: [Key] = []
        func add(_ rule: AuditRule, _ what: String, _ message: String, location: String?) {
            let key = Key(rule: rule, what: what)
            if counts[key] == nil {
                order.append(key)
                counts[key] = (AuditFinding(rule: rule, message: message, location: location), 0)
            }
            counts[key]!.count += 1
        }
        for entry in log.entries {
            switch entry.event {
            case let .socket(family, outcome):
                guard !isLocal(family) else { continue }
                switch outcome {
                case .succeeded:
                    add(.networkEgress, "socket " + family, "The run opened a socket of family \(family) (pid \(entry.pid)).", location: nil)
                case .failed(let error) where refusals.contains(error):
                    add(.blockedNetworkAttempt, "socket " + family, "The kernel refused a socket of family \(family) (\(error)).", location: nil)
                case .failed: continue
                }
            case let .send(call, family, address, outcome):
                guard !isLocal(family), family != "AF_UNSPEC" else { continue }
                let place = address.isEmpty ? family : "\(family) \(address)"
                switch outcome {
                case .succeeded, .failed("ECONNREFUSED"), .failed("EINPROGRESS"), .failed("ENETUNREACH"), .failed("EHOSTUNREACH"):
                    // Refused or unreachable by the network, not by the kernel's sandbox: it left.
                    add(.networkEgress, call + " " + place, "The run called \(call) to \(place) (pid \(entry.pid)).", location: nil)
                case .failed(let error) where refusals.contains(error):
                    add(.blockedNetworkAttempt, call + " " + place, "The kernel refused \(call) to \(place) (\(error)).", location: nil)
                case .failed: continue
                }
            case let .write(call, paths, outcome):
                for path in paths where !allowed.contains(path) {
                    switch outcome {
                    case .succeeded:
                        add(.writeOutsideOut, path, "The run changed \(pathMark) outside its directory (\(call), pid \(entry.pid)).", location: path)
                        if !written.contains(path) { written.append(path) }
                    case .failed(let error) where refusals.contains(error):
                        add(.blockedWriteAttempt, path, "The kernel refused \(call) of \(pathMark) outside the run's directory (\(error)).", location: path)
                    case .failed: continue
                    }
                }
            }
        }
        return order.map { key in
            var finding = counts[key]!.finding
            finding.occurrences = counts[key]!.count
            return finding
        }
    }

    /// `unsandboxed` when the run's report says the sandbox was not enforced (or, for replay,
    /// says nothing about it).
    static func judgeReport(_ path: String, isReplay: Bool, into result: inout AuditResult) {
        guard let data = FileManager.default.contents(atPath: path) else { return }
        let report = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        let sandbox = report?["sandbox"] as? [String: Any]
        let enforced = sandbox?["enforced"] as? Bool
        result.sandboxEnforced = enforced
        if enforced == false {
            let why = (sandbox?["unsandboxed_reason"] as? String).map { " Reason given: \($0)" } ?? ""
            result.findings.append(AuditFinding(rule: .unsandboxed,
                                                message: "The run's report says the kernel sandbox was not enforced.\(why)",
                                                location: path))
        } else if enforced == nil, isReplay {
            result.findings.append(AuditFinding(rule: .unsandboxed,
                                                message: "The run's report has no sandbox.enforced, so nothing says the kernel confined it.",
                                                location: path))
        }
    }

    /// The path to show for a file the run wrote, or its directory when the file's own name
    /// carries the canary or an output (which is then a finding of its own).
    static func disclose(_ path: String, scanner: LeakScanner, findings: inout [AuditFinding]) -> String {
        let hits = scanner.hits(in: Array(path.utf8))
        guard !hits.isEmpty else { return path }
        let shown = (path as NSString).deletingLastPathComponent + "/(name withheld)"
        if !hits.canary.isEmpty {
            findings.append(AuditFinding(rule: .canaryInOutput, message: "A file the run wrote in \(shown) is named after the canary.", location: shown))
        }
        if !hits.outputs.isEmpty {
            findings.append(AuditFinding(rule: .modelOutputInOutput, message: "A file the run wrote in \(shown) is named with words of a model output.", location: shown))
        }
        return shown
    }

    static func isLocal(_ family: String) -> Bool { family == "AF_UNIX" || family == "AF_LOCAL" || family == "PF_UNIX" || family == "PF_LOCAL" }

    /// Makes the child's directory, empty; clears one an earlier audit made.
    static func prepareChildDirectory(_ path: String) -> AuditError? {
        let files = FileManager.default
        if let existing = try? files.contentsOfDirectory(atPath: path), !existing.isEmpty {
            guard existing.contains(markerFileName) else { return .childDirectoryNotEmpty(path: path) }
            do { try files.removeItem(atPath: path) } catch { return .directoryNotCreated(path: path, reason: reason(error)) }
        }
        do {
            try files.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            return .directoryNotCreated(path: path, reason: reason(error))
        }
        _ = files.createFile(atPath: path + "/" + markerFileName, contents: nil)
        return nil
    }

    /// A fresh directory only this user can read, for the trace and the captured streams.
    static func privateDirectory() -> String? {
        var template = Array((NSTemporaryDirectory() + "/replay-audit-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { return nil }
        return StraceLog.normalized(String(cString: made))
    }

    static func temporaryDirectories(_ environment: [String: String]) -> [String] {
        var directories: [String] = []
        for path in [environment["TMPDIR"], "/tmp", "/var/tmp", "/dev/shm"].compactMap({ $0 }) where !path.isEmpty {
            let resolved = canonical(path)
            if !directories.contains(resolved), FileManager.default.fileExists(atPath: resolved) { directories.append(resolved) }
        }
        return directories
    }

    /// Regular files beneath `directory`, symbolic links not followed.
    static func files(beneath directory: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return [] }
        var paths: [String] = []
        while let relative = walker.nextObject() as? String {
            let path = directory + "/" + relative
            var info = stat()
            if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG { paths.append(path) }
        }
        return paths.sorted()
    }

    /// The bytes of a regular file (not following a final symbolic link), up to `limit`.
    static func regularFileBytes(_ path: String, limit: Int = .max) -> [UInt8]? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
              let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: limit) else { return [] }
        return [UInt8](data)
    }

    /// The program `name` is: a path (relative to `directory`), or looked up in PATH.
    static func executable(_ name: String, environment: [String: String], in directory: String = "/") -> String? {
        let files = FileManager.default
        if name.contains("/") {
            let path = absolute(name, in: directory)
            return files.isExecutableFile(atPath: path) ? path : nil
        }
        for folder in (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
            let path = String(folder) + "/" + name
            var isDirectory: ObjCBool = false
            if files.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue, files.isExecutableFile(atPath: path) {
                return path
            }
        }
        return nil
    }

    static func absolute(_ path: String, in directory: String) -> String {
        StraceLog.normalized(path.hasPrefix("/") ? path : directory + "/" + path)
    }

    /// `path` with symbolic links resolved, as far as it exists.
    static func canonical(_ path: String) -> String {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        let parent = (path as NSString).deletingLastPathComponent
        guard parent != path, !parent.isEmpty else { return path }
        return canonical(parent) + "/" + (path as NSString).lastPathComponent
    }

    static func reason(_ error: any Error) -> String {
        (error as NSError).localizedDescription
    }
}

/// Where the audited command may write: its directory, the captured streams, and a few devices.
struct AllowedPlaces: Sendable {
    let directories: [String]
    let streams: Set<String>

    init(directory: String, streams: [String]) {
        directories = Array(Set([StraceLog.normalized(directory), Auditor.canonical(directory)]))
        self.streams = Set(streams + streams.map(Auditor.canonical))
    }

    func contains(_ path: String) -> Bool {
        if Auditor.harmlessFiles.contains(path) || path.hasPrefix("/dev/pts/") || streams.contains(path) { return true }
        if path.hasPrefix("/proc/self/fd/") || path.hasPrefix("/dev/fd/") {
            return ["1", "2"].contains((path as NSString).lastPathComponent)
        }
        let resolved = Auditor.canonical(path)
        return directories.contains { directory in
            for candidate in [path, resolved] where candidate == directory || candidate.hasPrefix(directory + "/") { return true }
            return false
        }
    }
}
