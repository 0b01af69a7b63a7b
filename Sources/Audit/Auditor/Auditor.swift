import Confinement
import Foundation
import Privacy
import Spawn

/// Runs a command under observation and proves, or disproves, that none of the words it was given
/// or its model wrote left it: `replay audit`.
///
/// 1. A fresh canary and salt (kernel randomness) go to the command in `REPLAY_AUDIT_*`
///    variables, with `REPLAY_AUDIT_OUT` naming the only directory it may write to.
/// 2. The command runs under `strace -f` (every thread and child process), its standard input
///    /dev/null, beneath a reaper of its own (a child subreaper) that kills whatever of its tree
///    outlives it (`survivor`), so the scan starts only once the tree is empty. Where the
///    auditor may (CAP_SYS_ADMIN), the tree has a PID and a mount namespace of its own with a
///    /proc of its namespace, so it cannot reach another process by pid (`AuditResult.isolation`). Every call but
///    the reviewed allow-list (`AuditedCalls`) is traced: every socket, connect or send, every
///    file created, written, renamed, truncated, linked or removed outside that directory, and
///    any call nobody reviewed (`unreviewed-call`). What succeeded is an error; what the kernel
///    refused (EACCES, EPERM, EROFS, EXDEV: the sandbox at work) is a note.
/// 3. Everything the command wrote is scanned for the canary and for its outputs' fingerprints:
///    every file under its directory, every file it wrote elsewhere, its stdout and stderr
///    (captured in a private directory and deleted after the scan), files that appeared in
///    the temporary directories during the run, and every byte its write calls carried, from
///    the trace (`WrittenBytes`: what was overwritten, truncated or removed before the scan).
/// 4. Its report.json must say `sandbox.enforced: true`.
/// 5. Its directory is walked before and after the scan (they must agree: `changed-during-scan`),
///    and the second walk, every entry's kind, size and SHA-256, goes into `audit.sarif` as the
///    manifest `replay verify` re-checks (`Auditor+Manifest.swift`).
///
/// The verdict goes to `audit.sarif` and `audit-junit.xml` in the audit's directory, which is not
/// the command's. Nothing the command wrote is ever copied, printed or kept by the auditor.
public enum Auditor {
    /// The name of the hashes file the audited run writes beneath its directory.
    public static let hashesFileName = AuditTap.hashesFileName
    /// Marks a child directory the auditor made, so a later audit may clear it.
    static let markerFileName = ".replay-audit-run"
    /// strace's options: every thread and child, no strace chatter, every string hex-escaped,
    /// descriptors annotated, every call traced but the allow-list's (whose calls its seccomp
    /// filter lets through at no cost), and strings cut at 16 bytes: enough to compare a thread's
    /// whole name (`PR_SET_NAME`, 15 bytes) with libdispatch's. Every byte a write call wrote is
    /// dumped whole (`-e write=all`), for `WrittenBytes` to search: a leak overwritten or
    /// truncated before the scan is still in the trace. The trace stays in the auditor's private
    /// directory (mode 0700, like the captured stdout and stderr, which hold the same bytes) and
    /// is deleted after the verdict.
    public static var straceOptions: [String] {
        ["-f", "--seccomp-bpf", "-qq", "-xx", "-yy", "-s", "16", "-e", "write=all", "-e", AuditedCalls.traceExpression]
    }
    /// Files outside the directory that any program may write without writing anywhere.
    static let harmlessFiles: Set<String> = ["/dev/null", "/dev/zero", "/dev/full", "/dev/stdout", "/dev/stderr",
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
        /// Seconds after which the command (with strace and all it started) is killed; nil waits.
        public var timeLimit: Double?
        /// The team's labels the replay run was given (`--labels`): the names its result files
        /// may show as written, for the schema check.
        public var teamLabels: TeamLabels = .none
        /// The types of the JSON result files replay writes (`ReplayTool.documents`), which the
        /// run's files are decoded with.
        public var documents: [any ResultDocument.Type] = []
        /// Whether the command's tree runs in a PID and a mount namespace of its own, with a /proc
        /// of that namespace (`ChildProcess`'s `isolated`): it then can neither see, signal nor
        /// open the /proc files of any process outside it (the auditor's, strace's, anyone's).
        /// It needs CAP_SYS_ADMIN; without it the audit runs as before and says so.
        public var isolated = true

        public init(command: [String], auditDirectory: String, childDirectory: String? = nil,
                    environment: [String: String] = ProcessInfo.processInfo.environment, isReplay: Bool = false,
                    strace: String? = nil, workingDirectory: String = FileManager.default.currentDirectoryPath,
                    timeLimit: Double? = nil) {
            self.command = command
            self.auditDirectory = auditDirectory
            self.childDirectory = childDirectory ?? auditDirectory + "/run"
            self.environment = environment
            self.isReplay = isReplay
            self.strace = strace
            self.workingDirectory = workingDirectory
            self.timeLimit = timeLimit
        }
    }

    /// Audits `command`, which must write only beneath `outDirectory/run`; the verdict goes to
    /// `outDirectory`.
    public static func run(command: [String], outDirectory: String,
                           environment: [String: String] = ProcessInfo.processInfo.environment,
                           isReplay: Bool = false, strace: String? = nil, timeLimit: Double? = nil) -> AuditResult {
        run(Plan(command: command, auditDirectory: outDirectory, environment: environment, isReplay: isReplay, strace: strace,
                 timeLimit: timeLimit))
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
        guard let canary = AuditCanary.random()?.text, let salt = AuditSecret.bytes(32) else {
            result.problems.append(.noRandomness)
            return
        }
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
        // Through Spawn's ChildProcess, never Foundation's Process: see ChildProcess for why.
        let traced: Termination
        do {
            traced = try ChildProcess.run(
                strace,
                straceOptions + ["-o", tracePath, "--", program] + plan.command.dropFirst(),
                environment: environment, directory: plan.workingDirectory,
                input: .null, output: .file(stdoutPath), errors: .file(stderrPath), timeout: plan.timeLimit,
                contained: true, isolated: plan.isolated)
        } catch {
            result.problems.append(.launchFailed(reason: error.description))
            return
        }
        let status = traced.status
        result.commandStatus = status
        if plan.isolated { result.isolation = traced.isolation }
        // The reaper has emptied the tree: nothing of the run acts from here on.
        if traced.survivors < 0 { result.problems.append(.treeNotContained) }
        if traced.survivors != 0 {
            let count = traced.survivors < 0 ? -1 - traced.survivors : traced.survivors
            result.findings.append(AuditFinding(
                rule: .survivor,
                message: "\(count) process\(count == 1 ? "" : "es") of the run's tree outlived the trace (escaped it, or were left running) and were killed before the scan."))
        }

        // Observe: the trace's calls, and every byte its write calls carried.
        let hashes = AuditHashes.read(hashesPath)
        result.hashes = hashes
        let scanner = LeakScanner(canary: canary, fingerprint: OutputFingerprint(salt: salt), digests: hashes?.digests ?? [])
        let writtenBytes = WrittenBytes(tracePath: tracePath, scanner: scanner) { harmlessFiles.contains($0) }
        let log = StraceLog(trace: writtenBytes.calls, workingDirectory: plan.workingDirectory)
        if log.lines == 0 {
            result.problems.append(.traceEmpty(status: status))
            return
        }
        if traced.timedOut, let limit = plan.timeLimit {
            result.problems.append(.commandTimedOut(seconds: limit))
        } else if traced.signalled {
            result.problems.append(.commandKilled(signal: status))
        } else if status != 0 {
            result.problems.append(.commandFailed(status: status))
        }
        let places = PlaceNames(salt: salt, allowedDirectory: childDirectory)
        result.places = places
        let allowed = AllowedPlaces(directory: childDirectory, streams: [stdoutPath, stderrPath], terminals: auditTerminals())
        var written: [String] = []
        result.findings += judge(log, Judging(allowed: allowed, places: places, isReplay: plan.isReplay,
                                              endpoint: EndpointConnection.of(plan.command)), written: &written)

        // Scan.
        let beforeScan = try? RunManifest.take(childDirectory)
        if plan.isReplay, hashes == nil { result.problems.append(.hashesMissing(path: hashesPath)) }
        var seen: Set<String> = []
        func scan(_ path: String, as location: String? = nil, limit: Int = .max, canaryOnly: Bool = false) {
            let key = canonical(path)
            guard seen.insert(key).inserted, let bytes = regularFileBytes(path, limit: limit) else { return }
            result.scannedSources += 1
            result.scannedBytes += bytes.count
            result.findings += scanner.findings(in: bytes, location: location ?? places.show(path), canaryOnly: canaryOnly)
        }
        scan(stdoutPath, as: "stdout")
        scan(stderrPath, as: "stderr")
        // Every entry beneath the run's directory by its name's bytes: names, links' targets,
        // extended attributes and contents, compressed streams read to their end.
        let directoryScan = scanner.scan(directory: childDirectory, places: places)
        result.findings += directoryScan.findings
        result.scannedSources += directoryScan.sources
        result.scannedBytes += directoryScan.bytes
        // A replay run's results must be what replay writes, whatever their encoding.
        if plan.isReplay {
            result.findings += ResultSchemaCheck.check(
                directory: childDirectory,
                knownPaths: ResultSchemaCheck.knownPaths(replayCommand: plan.command, workingDirectory: plan.workingDirectory),
                workingDirectory: plan.workingDirectory, teamLabels: plan.teamLabels, documents: plan.documents)
        }
        for path in written {
            result.findings += scanner.findings(in: Array(path.utf8), location: places.show(path), what: "the name of a file written outside")
            scan(path)
        }
        // Other programs write in the temporary directories too, common words among what they
        // write: there only this audit's canary, which nothing else can know, is evidence.
        for path in sweep.changedFiles(limit: sweepFileLimit) { scan(path, limit: sweepByteLimit, canaryOnly: true) }
        // What was written but was not there to scan: overwritten, truncated or removed.
        let streams = [canonical(stdoutPath): "stdout", canonical(stderrPath): "stderr"]
        let realDirectory = canonical(childDirectory)
        result.findings += writtenFindings(writtenBytes, existing: result.findings) { path in
            if let stream = streams[path] { return stream }
            let inside = path.hasPrefix(realDirectory + "/") ? childDirectory + path.dropFirst(realDirectory.count) : path
            return places.show(inside)
        }
        result.scannedBytes += writtenBytes.bytes

        // Sandbox and canary.
        judgeReport(childDirectory + "/report.json", isReplay: plan.isReplay, into: &result)
        if let hashes, hashes.promptsWithCanary < hashes.prompts {
            result.findings.append(AuditFinding(
                rule: .canaryNotPlanted,
                message: "The canary reached \(hashes.promptsWithCanary) of \(hashes.prompts) prompts: the others could leak unseen.",
                location: hashesPath))
        }
        manifestAtVerdict(childDirectory, beforeScan: beforeScan, places: places, into: &result)
    }

    /// What the judge of a trace needs to know besides the trace.
    struct Judging: Sendable {
        /// Where the run may write.
        var allowed: AllowedPlaces
        /// How findings name the places the run chose.
        var places: PlaceNames
        /// Whether the run is `replay`, which executes no other program.
        var isReplay: Bool
        /// The one connection the command may make: `replay suite run --endpoint URL`'s to a
        /// server on this machine's loopback, made before it confines itself; nil for any other command.
        var endpoint: EndpointConnection? = nil
    }

    /// Findings from the trace, and the paths written outside the directory (to be scanned).
    static func judge(_ log: StraceLog, _ judging: Judging, written: inout [String]) -> [AuditFinding] {
        struct Key: Hashable { let rule: AuditRule; let what: String }
        var counts: [Key: (finding: AuditFinding, count: Int)] = [:]
        var order: [Key] = []
        func add(_ rule: AuditRule, _ what: String, _ message: String, location: String? = nil) {
            let key = Key(rule: rule, what: what)
            if counts[key] == nil {
                order.append(key)
                counts[key] = (AuditFinding(rule: rule, message: message, location: location), 0)
            }
            counts[key]!.count += 1
        }
        let places = judging.places
        let allowed = judging.allowed
        var executions = 0
        /// The processes that claimed the run directory (once each).
        var claimants: Set<Int> = []
        // `replay suite run --endpoint`'s one loopback connection, when the trace shows it made
        // as that command makes it (`EndpointConnection`): its socket, its connect and the sends
        // on it are not network egress.
        let endpoint = judging.endpoint
        let accepted = endpoint?.accepted(in: log)
        for (index, entry) in log.entries.enumerated() {
            switch entry.event {
            case .confined:
                continue
            case let .socket(family, outcome):
                guard !isLocal(family), index != accepted?.socket else { continue }
                switch outcome {
                case .succeeded:
                    add(.networkEgress, "socket " + family, "The run opened a socket of family \(family) (pid \(entry.pid)).")
                case .failed(let error) where refusals.contains(error):
                    add(.blockedNetworkAttempt, "socket " + family, "The kernel refused a socket of family \(family) (\(error)).")
                case .failed: continue
                }
            case let .send(call, family, address, outcome):
                // Sending on a connected socket or a socketpair names no address: its connect
                // (or nothing, for a socketpair within the run) is what counts.
                // Judged by what strace decoded, never by how the text looks: a named socket
                // whose path begins with `UNIX` is a path like any other.
                guard family != "AF_UNSPEC", !(isLocal(family) && address.isConnected) else { continue }
                if let accepted, let endpoint {
                    if index == accepted.connect { continue }
                    if index > accepted.connect, case .connected(let socket) = address, endpoint.isPeer(of: socket) { continue }
                }
                let place = places.show(address: address.key, family: family)
                switch outcome {
                case .succeeded, .failed("ECONNREFUSED"), .failed("EINPROGRESS"), .failed("ENETUNREACH"), .failed("EHOSTUNREACH"):
                    // Refused or unreachable by the network, not by the kernel's sandbox: it left.
                    add(.networkEgress, call + " " + place, "The run called \(call) to \(place) (pid \(entry.pid)).")
                case .failed(let error) where refusals.contains(error):
                    add(.blockedNetworkAttempt, call + " " + place, "The kernel refused \(call) to \(place) (\(error)).")
                case .failed: continue
                }
            case let .write(call, paths, outcome):
                for (index, path) in paths.enumerated() {
                    let shown = places.show(path)
                    if allowed.contains(path) {
                        // Inside the directory: removing or renaming takes back what the scan would read.
                        guard StraceLog.removingCalls.contains(call), allowed.isRunDirectory(path) else { continue }
                        switch outcome {
                        case .succeeded:
                            add(.removedBeforeScan, shown, "The run \(index == 0 && call.hasPrefix("rename") ? "renamed" : "removed") \(shown) before the audit could scan it (\(call), pid \(entry.pid)).",
                                location: shown)
                        case .failed(let error) where refusals.contains(error):
                            add(.blockedAttempt, call + " " + shown, "The kernel refused \(call) of \(shown) in the run's directory (\(error)).", location: shown)
                        case .failed: continue
                        }
                        continue
                    }
                    switch outcome {
                    case .succeeded:
                        add(.writeOutsideOut, path, "The run changed \(shown) outside its directory (\(call), pid \(entry.pid)).", location: shown)
                        if !written.contains(path) { written.append(path) }
                    case .failed(let error) where refusals.contains(error):
                        add(.blockedWriteAttempt, path, "The kernel refused \(call) of \(shown) outside the run's directory (\(error)).", location: shown)
                    case .failed: continue
                    }
                }
            case let .metadata(call, paths, outcome):
                let shown = paths.first.map(places.show) ?? "a descriptor"
                if let path = paths.first, allowed.isHarmlessDevice(path) { continue }
                switch outcome {
                case .succeeded:
                    add(.metadataWrite, call + " " + shown, "The run changed the metadata of \(shown) (\(call), pid \(entry.pid)).", location: paths.first.map(places.show))
                case .failed(let error) where refusals.contains(error):
                    add(.blockedAttempt, call + " " + shown, "The kernel refused \(call) of \(shown) (\(error)).")
                case .failed: continue
                }
            case let .kernelObject(call, outcome):
                switch outcome {
                case .succeeded:
                    add(.kernelObject, call, "The run called \(call), making or using a kernel object outside any file the audit can scan (pid \(entry.pid)).")
                case .failed(let error) where refusals.contains(error) || error == "ENOSYS":
                    add(.blockedAttempt, call, "The kernel refused \(call) (\(error)).")
                case .failed: continue
                }
            case let .signal(call, target, signal, outcome):
                guard signal != "0", target <= 0 || !log.pids.contains(target) else { continue }
                let whom = target <= 0 ? "a process group (\(target))" : "a process outside the run (pid \(target))"
                switch outcome {
                case .succeeded:
                    add(.signalToOtherProcess, call + " \(target)", "The run sent \(signal) to \(whom) (\(call), pid \(entry.pid)).")
                case .failed(let error) where refusals.contains(error):
                    add(.blockedAttempt, call + " \(target)", "The kernel refused \(call) of \(signal) to \(whom) (\(error)).")
                case .failed: continue
                }
            case let .claim(path, outcome):
                // The run's claim on --out (OutputDirectory.Claim): one lock on the run directory itself,
                // before confinement; the sandbox refuses every lock after it, so it cannot be
                // toggled to spell anything. Anything else is a lock nobody reviewed.
                guard case .succeeded = outcome else { continue }
                if allowed.isRunDirectoryItself(path), claimants.insert(entry.pid).inserted { continue }
                add(.unreviewedCall, "flock LOCK_EX", "The run called flock LOCK_EX, which the audit's allow-list has not reviewed (pid \(entry.pid)).")
            case let .unreviewed(call, operation, outcome):
                let what = operation.map { call + " " + $0 } ?? call
                switch outcome {
                case .succeeded:
                    add(.unreviewedCall, what, "The run called \(what), which the audit's allow-list has not reviewed (pid \(entry.pid)).")
                case .failed(let error) where refusals.contains(error) || error == "ENOSYS":
                    add(.blockedAttempt, what, "The kernel refused \(what) (\(error)).")
                case .failed: continue
                }
            case let .exec(call, outcome):
                executions += 1
                // The first is strace starting the command itself.
                guard judging.isReplay, executions > 1 else { continue }
                switch outcome {
                case .succeeded:
                    add(.programExecuted, call, "The replay run executed another program (\(call), pid \(entry.pid)).")
                case .failed(let error) where refusals.contains(error):
                    add(.blockedAttempt, call, "The kernel refused \(call) (\(error)).")
                case .failed: continue
                }
            }
        }
        return order.map { key in
            var finding = counts[key]!.finding
            finding.occurrences = counts[key]!.count
            return finding
        }
    }

    /// Findings for leaks in the bytes the run's write calls carried that the scan of their
    /// target (`show` names it as the scan did) did not find there: written, then overwritten,
    /// truncated or removed before the scan.
    static func writtenFindings(_ written: WrittenBytes, existing: [AuditFinding], show: (String) -> String) -> [AuditFinding] {
        var findings: [AuditFinding] = []
        for (path, hits) in written.found.sorted(by: { $0.key < $1.key }) {
            let location = show(path)
            func gone(_ rule: AuditRule) -> Bool { !existing.contains { $0.rule == rule && $0.location == location } }
            func places(_ count: Int) -> String { "\(count) place\(count == 1 ? "" : "s")" }
            let after = "but it was not there when the audit scanned it: overwritten, truncated or removed before the scan"
            if hits.canary > 0, gone(.canaryInOutput) {
                findings.append(AuditFinding(
                    rule: .canaryInOutput,
                    message: "The canary planted in the prompts was written to \(location) (\(places(hits.canary)) in the bytes its write calls carried), \(after).",
                    location: location, occurrences: hits.canary))
            }
            if hits.outputs > 0, gone(.modelOutputInOutput) {
                findings.append(AuditFinding(
                    rule: .modelOutputInOutput,
                    message: "Words of a model output were written to \(location) (\(places(hits.outputs)) in the bytes its write calls carried), \(after).",
                    location: location, occurrences: hits.outputs))
            }
        }
        return findings
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
            // The run's own reason is its words, not the audit's: the verdict does not repeat it.
            result.findings.append(AuditFinding(rule: .unsandboxed,
                                                message: "The run's report says the kernel sandbox was not enforced (its report.json says why).",
                                                location: path))
        } else if enforced == nil, isReplay {
            result.findings.append(AuditFinding(rule: .unsandboxed,
                                                message: "The run's report has no sandbox.enforced, so nothing says the kernel confined it.",
                                                location: path))
        }
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

    /// The terminals the auditor itself was given (its standard streams' ttys), and `/dev/tty`:
    /// a run that opens them writes where the person running the audit is looking, not away.
    static func auditTerminals() -> Set<String> {
        var terminals: Set<String> = ["/dev/tty"]
        for descriptor in Int32(0)...2 where isatty(descriptor) == 1 {
            if let name = ttyname(descriptor) { terminals.insert(String(cString: name)) }
        }
        return terminals
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
    let terminals: Set<String>

    init(directory: String, streams: [String], terminals: Set<String> = []) {
        directories = Array(Set([StraceLog.normalized(directory), Auditor.canonical(directory)]))
        self.streams = Set(streams + streams.map(Auditor.canonical))
        self.terminals = terminals
    }

    /// Devices that hold nothing written to them, and the auditor's own terminal.
    func isHarmlessDevice(_ path: String) -> Bool {
        Auditor.harmlessFiles.contains(path) || terminals.contains(path)
    }

    func contains(_ path: String) -> Bool {
        if isHarmlessDevice(path) || streams.contains(path) { return true }
        if path.hasPrefix("/proc/self/fd/") || path.hasPrefix("/dev/fd/") {
            return ["1", "2"].contains((path as NSString).lastPathComponent)
        }
        return isRunDirectory(path)
    }

    /// Whether `path` is the run's directory itself, not something beneath it.
    func isRunDirectoryItself(_ path: String) -> Bool {
        directories.contains(path) || directories.contains(Auditor.canonical(path))
    }

    /// Whether `path` is the run's directory or beneath it.
    func isRunDirectory(_ path: String) -> Bool {
        let resolved = Auditor.canonical(path)
        return directories.contains { directory in
            for candidate in [path, resolved] where candidate == directory || candidate.hasPrefix(directory + "/") { return true }
            return false
        }
    }
}
