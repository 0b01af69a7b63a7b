// The static privacy check, read the way the compiler reads the code.
//
// scripts/check-privacy compiles this file against the toolchain's own parser (SwiftParser and
// SwiftSyntax, shipped in <toolchain>/usr/lib/swift/host for macros) and runs it; see that script
// for why this and not `swiftc -dump-parse`. Nothing here imports the package's modules: the check
// must judge code that does not build yet.
//
// Every Swift file a target builds (Sources/, bench/ReplayBench/, Tests/Fixtures/) is parsed; a
// finding is an identifier the syntax tree says is code (never a comment, a string's text or a
// declaration's own name) that names a way out of the process: printing, writing or creating
// files, running a process, changing the environment, the network, logging. C files there get a token scan (see `CScan`). A finding is
// allowed only by an entry in `allowed` for that file (or folder) and that API, with its reason.
//
// usage: check-privacy-tool ROOT [--list-allowed]
// Prints each violation as FILE:LINE: reason (sorted), a summary on stderr, and exits 1 when there
// is any, 0 when clean, 2 when ROOT has no Sources folder. --list-allowed also prints every allowed
// use with the reason that allows it.

import Foundation
import SwiftParser
import SwiftSyntax

// MARK: - What counts

/// What using an API can do: the second half of each finding's reason.
enum Effect: String {
    case stream = "prints or writes a stream"
    case file = "writes or creates a file"
    case process = "runs a process"
    case environment = "changes the environment a child process inherits"
    case network = "reaches the network"
    case log = "logs"
    case symbol = "binds a C symbol by name, out of this check's sight"
}

/// Free functions (Swift's and the C library's): flagged when named bare or through a module
/// (`Swift.print`, `Glibc.write`), called or not (`forEach(print)`, `let f = print`).
///
/// A call whose first argument has a label is not one of these (C functions have none, and
/// Swift's print/debugPrint/dump take their first argument unlabeled): `open(height:)` is a
/// method of the package, `open(path, O_WRONLY)` is the C library's.
let functions: [String: Effect] = {
    var table: [String: Effect] = [:]
    for name in ["print", "debugPrint", "dump", "NSLog", "NSLogv", "fputs", "fputc", "putc", "putchar", "puts",
                 "fwrite", "fprintf", "printf", "vprintf", "vfprintf", "dprintf", "vdprintf", "perror",
                 "write", "pwrite", "writev", "pwritev"] { table[name] = .stream }
    for name in ["fopen", "freopen", "fdopen", "open", "openat", "creat", "mkdir", "mkdirat", "rename", "renameat",
                 "link", "linkat", "symlink", "symlinkat", "mkstemp", "mkstemps", "mkdtemp", "mkfifo", "mknod"] {
        table[name] = .file
    }
    for name in ["system", "popen", "posix_spawn", "posix_spawnp", "fork", "vfork",
                 "execv", "execve", "execvp", "execvpe", "execl", "execle", "execlp", "fexecve"] { table[name] = .process }
    for name in ["setenv", "putenv"] { table[name] = .environment }
    for name in ["socket", "socketpair", "connect", "bind", "send", "sendto", "sendmsg", "sendmmsg",
                 "getaddrinfo", "gethostbyname"] { table[name] = .network }
    for name in ["syslog", "vsyslog", "openlog", "os_log", "os_signpost"] { table[name] = .log }
    for name in ["dlopen", "dlsym"] { table[name] = .symbol }
    return table
}()

/// Types whose every use is a way out: in an expression (`Process()`, `FileHandle.standardError`)
/// or as a type (`let task: Process`, `struct Sink: TextOutputStream`).
let types: [String: Effect] = [
    "FileHandle": .file,
    "OutputStream": .stream, "TextOutputStream": .stream,
    "Process": .process, "NSTask": .process, "ChildProcess": .process,
    "URLSession": .network, "URLSessionConfiguration": .network, "URLRequest": .network,
    "NSURLConnection": .network, "NWConnection": .network, "NWListener": .network, "NWBrowser": .network,
    "CFSocket": .network,
    "Logger": .log, "OSLog": .log,
]

/// Methods that create or rename files, whatever they are called on (a FileManager can hide in
/// a variable): flagged as `x.name(...)`, `.name(...)` or a bare `name(...)` inside a type.
let fileMethods: Set<String> = [
    "createFile", "createDirectory", "moveItem", "copyItem", "createSymbolicLink", "linkItem",
    "setAttributes", "replaceItem", "replaceItemAt",
]

/// Modules whose names qualify a free function or type: `Swift.print`, `Foundation.NSLog`.
let moduleNames: Set<String> = [
    "Swift", "Foundation", "FoundationEssentials", "CoreFoundation", "Glibc", "SwiftGlibc", "Musl", "Bionic",
    "Android", "WASILibc", "Darwin", "ucrt", "CRT", "WinSDK", "Dispatch", "os",
]

/// Imports that can only mean the network or logging.
let importEffects: [String: Effect] = [
    "FoundationNetworking": .network, "Network": .network, "CFNetwork": .network, "AsyncHTTPClient": .network,
    "NIO": .network, "NIOCore": .network, "NIOPosix": .network, "NIOHTTP1": .network,
    "os": .log, "OSLog": .log,
]

/// Calls that print their message on stderr when they trap, and how many leading arguments are
/// not the message (the condition). A message spelled as one plain literal is fixed text; any
/// other (an interpolation, a variable) is a finding.
let trapMessages: [String: Int] = [
    "fatalError": 0, "preconditionFailure": 0, "assertionFailure": 0, "precondition": 1, "assert": 1,
]

/// `open` flags and `fopen` modes that only read: such a call is not a finding.
let writingOpenFlags: Set<String> = ["O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND", "O_TMPFILE"]

// MARK: - What is allowed

/// One allowed (file or folder, API) pair and why its output holds no words.
struct Allowance {
    /// A file's path from the root, or a folder's ending in "/" (everything beneath it).
    var path: String
    /// The API as findings name it ("print", "FileHandle", ".write(to:)", "import Network"), or "*".
    var api: String
    var reason: String

    func covers(_ finding: Finding) -> Bool {
        (path.hasSuffix("/") ? finding.path.hasPrefix(path) : finding.path == path) && (api == "*" || api == finding.api)
    }
}

/// Every way out the package is allowed, with its reason. Keep it short: a new entry needs a
/// reason its output holds no words from a thread or a model.
let allowed: [Allowance] = {
    var list: [Allowance] = []
    func allow(_ path: String, _ apis: [String], _ reason: String) {
        list += apis.map { Allowance(path: path, api: $0, reason: reason) }
    }
    allow("Sources/Privacy/ReportFile.swift", ["open", "write"],
          "the one writer of result files (report.json, report.md, junit.xml, the flywheel's files): counts, rates and fixed labels")
    allow("Sources/ReplayKit/Command/RunCommand.swift", ["print"], "the usage and the version (fixed text)")
    allow("Sources/ReplayKit/Command/RunCommand.swift", ["FileHandle"],
          "diagnostics on stderr (labels, paths, counts), and reading the config file")
    allow("Sources/ReplayKit/Command/CommandStart.swift", ["createDirectory"], "makes --out before the report is written")
    allow("Sources/ReplayKit/Command/RunCommand.swift", [".write"], "the diagnostics' FileHandle.write; POSIX write is not allowed here")
    allow("Sources/ReplayKit/Command/CommandStart.swift", ["print"], "the usage, for --help (fixed text)")
    allow("Sources/ReplayKit/Command/PromptsCommand.swift", ["print"], "the built-in prompt set (`replay prompts show`: the jobs' fixed words, no corpus text)")
    allow("Sources/ReplayKit/Command/ProfilesCommand.swift", ["print"], "the built-in model and device profiles (`replay profiles show`: fixed text)")
    allow("Sources/ReplayKit/Command/CorpusCommand.swift", [".write(to:)"], "calls the synthetic corpus's writer (CorpusGenerator.write): invented words, never an export's")
    allow("Sources/ReplayKit/Run/ProgressLine.swift", ["FileHandle", ".write"], "the progress line on stderr: counts, rates and an ETA")
    allow("Sources/ReplayKit/Run/StopSignals.swift", ["write"],
          "the signal handler's one notice on stderr (write(2) is what a handler may call): fixed bytes made before any signal, naming SIGTERM or SIGINT")
    allow("Sources/Flywheel/FlywheelFiles.swift", ["createDirectory"], "makes --out for metrics.csv, metrics.json and dashboard.html (metadata counts)")
    allow("Sources/Corpus/CorpusGenerator.swift", [".write"], "writes the synthetic corpus: invented words, never an export's")
    allow("Sources/Corpus/ZstdWriter.swift", [".write", "write"], "compresses the synthetic corpus into its output file")
    allow("Sources/Corpus/OutputFile.swift", ["open", "write"], "the synthetic corpus's output file")
    allow("Sources/Audit/Auditor/Auditor.swift", ["ChildProcess"],
          "runs the audited command under strace, its output captured to files in the audit's own directory")
    allow("Sources/Audit/Auditor/Auditor.swift", ["createDirectory", "createFile", "mkdtemp", ".write"],
          "the audit's directory, its capture files and temporary-folder markers, and the call to AuditVerdict.write")
    allow("Sources/Audit/Auditor/DirectoryEntries.swift", ["openat"],
          "opens a run's directories and files read-only (O_RDONLY, never O_CREAT) by the bytes of each name, to check and scan them")
    allow("Sources/ReplayKit/Command/RunKeyFile.swift", ["mkdir", "open", "write"],
          "makes the per-user run key once (its directory 0700, the file 0600, O_EXCL): 32 bytes of /dev/urandom, never words")
    allow("Sources/Confinement/Manifest/RunManifest.swift", ["openat"],
          "opens the entries beneath a run's directory read-only (O_RDONLY, no O_CREAT) to walk and hash them for its manifest; writes nothing")
    allow("Sources/Audit/Auditor/CompressedStream.swift", ["ChildProcess"],
          "runs zstd, gzip, xz, bzip2 or unzip on a file the run left, to scan it decompressed; the bytes go to the tool and back, nowhere else")
    allow("Sources/Audit/Auditor/LeakScanner.swift", ["open", "write"],
          "copies a compressed file the run left into an unnamed O_TMPFILE (never linked, gone when closed) for its tool, which must seek")
    allow("Sources/Audit/Auditor/AuditVerdict.swift", [".write(to:)"],
          "audit.sarif and audit-junit.xml: rule ids, file names, lines and byte offsets, never what the run wrote")
    allow("Sources/Spawn/ChildProcess.swift", ["ChildProcess", "posix_spawn", "posix_spawnp", "write"],
          "the one spawner: runs the program, arguments, environment and input its caller gives (each caller is itself checked here); write feeds that input to the child's pipe")
    allow("Sources/Endpoint/LoopbackConnection.swift", ["socket", "connect", "send"],
          "`replay suite run --endpoint`'s one connection, to a loopback address only (EndpointURL refuses any other), made before confinement: it sends a suite's own words (never a corpus's) to a Chat Completions server on this machine")
    allow("Tests/Fixtures/SandboxProbe/", ["*"],
          "test-only program: it tries every write and socket on purpose and reports which the kernel allowed")
    allow("Tests/Fixtures/LeakyFixtures/", ["*"],
          "test-only program: one deliberate leak per audit rule, which `replay audit` must catch")
    allow("Sources/CSpawn/spawn.c", ["fork", "posix_spawn", "openat", "syscall", "write"],
          "ChildProcess's contained spawn: the reaper forks, spawns the caller's program, opens /proc/*/stat read-only to find what survived it (getdents64 and close_range by syscall, being async-signal-safe), and writes two ints (a wait status, a count) to the caller's pipe")
    allow("Sources/CSandbox/sandbox.c", ["syscall"],
          "Landlock and seccomp have no libc wrappers: the calls confine the process and write nothing")
    return list
}()

// MARK: - Findings

struct Finding: Comparable {
    var path: String
    var line: Int
    var column: Int
    /// The API as allowances name it.
    var api: String
    var reason: String

    static func < (a: Finding, b: Finding) -> Bool {
        (a.path, a.line, a.column, a.reason) < (b.path, b.line, b.column, b.reason)
    }
}

// MARK: - Swift files

/// Walks one file's syntax tree and collects its findings.
final class SwiftScan: SyntaxVisitor {
    let path: String
    let locations: SourceLocationConverter
    /// Names the file binds to values (variables, constants, parameters): a bare `open` that is
    /// not called is then the file's own value, not the C function. A call is checked all the same.
    let localNames: Set<String>
    var findings: [Finding] = []

    init(path: String, tree: SourceFileSyntax) {
        self.path = path
        locations = SourceLocationConverter(fileName: path, tree: tree)
        let bound = BoundNames(viewMode: .sourceAccurate)
        bound.walk(tree)
        localNames = bound.names
        super.init(viewMode: .sourceAccurate)
    }

    func add(_ node: some SyntaxProtocol, api: String, _ what: String, _ effect: Effect) {
        let location = locations.location(for: node.positionAfterSkippingLeadingTrivia)
        findings.append(Finding(path: path, line: location.line, column: location.column, api: api,
                                reason: "\(what): \(effect.rawValue)"))
    }

    override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind {
        if let module = node.path.first?.name.text, let effect = importEffects[module] {
            add(node.path, api: "import \(module)", "imports \(module)", effect)
        }
        return .visitChildren
    }

    override func visit(_ node: AttributeSyntax) -> SyntaxVisitorContinueKind {
        let name = node.attributeName.trimmedDescription
        if name == "_silgen_name" || name == "_extern" {
            add(node, api: "@\(name)", "declares a function by its symbol (@\(name))", .symbol)
        }
        return .visitChildren
    }

    override func visit(_ node: IdentifierTypeSyntax) -> SyntaxVisitorContinueKind {
        checkType(named: node.name, at: node)
        return .visitChildren
    }

    override func visit(_ node: MemberTypeSyntax) -> SyntaxVisitorContinueKind {
        // `Foundation.FileHandle` as a type; the base (a module) is an IdentifierType of its own.
        if let base = node.baseType.as(IdentifierTypeSyntax.self), moduleNames.contains(base.name.text) {
            checkType(named: node.name, at: node)
        }
        return .visitChildren
    }

    func checkType(named token: TokenSyntax, at node: some SyntaxProtocol) {
        let name = token.identifier?.name ?? token.text
        guard let effect = types[name] else { return }
        let inherits = node.parent?.is(InheritedTypeSyntax.self) == true
        add(node, api: name, inherits ? "conforms to \(name)" : "uses \(name)", effect)
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        let name = node.baseName.identifier?.name ?? node.baseName.text
        // Where the name stands: the member of `base.name`, or a name of its own.
        if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == node.id {
            if member.base == nil {
                return .visitChildren   // `.write(...)`: an enum case or static member, never FileManager's or Data's
            } else if let base = member.base?.as(DeclReferenceExprSyntax.self), moduleNames.contains(base.baseName.text) {
                checkFree(name, reference: node, expression: ExprSyntax(member), spelled: member.trimmedDescription)   // Swift.print
            } else {
                checkMember(name, reference: node, expression: ExprSyntax(member))  // handle.write, fm.createFile
            }
        } else if node.parent?.is(KeyPathPropertyComponentSyntax.self) == true {
            return .visitChildren
        } else {
            if !(localNames.contains(name) && call(of: ExprSyntax(node)) == nil) {
                checkFree(name, reference: node, expression: ExprSyntax(node))
            }
            if fileMethods.contains(name) || name == "write" {
                // A bare createFile(...) or write(to:) inside a type is a method call on self.
                if let call = call(of: ExprSyntax(node)), labels(of: call).first.map({ $0 != nil }) == true {
                    checkMember(name, reference: node, expression: ExprSyntax(node))
                }
            }
        }
        return .visitChildren
    }

    /// The call that `expression` is the callee of, if any.
    func call(of expression: ExprSyntax) -> FunctionCallExprSyntax? {
        guard let call = expression.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == expression.id else {
            return nil
        }
        return call
    }

    /// A call's argument labels, nil for an unlabeled one.
    func labels(of call: FunctionCallExprSyntax) -> [String?] {
        call.arguments.map { $0.label?.text } + (call.trailingClosure == nil ? [] : [nil])
    }

    /// `name` as a free function or a type named bare or through a module.
    /// `spelled` is how the code names it (`Glibc.write`), for the reason.
    func checkFree(_ name: String, reference: DeclReferenceExprSyntax, expression: ExprSyntax, spelled: String? = nil) {
        let spelled = spelled ?? name
        if let effect = types[name] {
            if name == "FileHandle", readsOnly(fileHandle: expression) { return }
            add(reference, api: name, "uses \(spelled)", effect)
            return
        }
        if let skipped = trapMessages[name], let call = call(of: expression) {
            let messages = call.arguments.dropFirst(skipped).filter { argument in
                guard let literal = argument.expression.as(StringLiteralExprSyntax.self) else { return true }
                return !literal.segments.allSatisfy { $0.is(StringSegmentSyntax.self) }
            }
            if let message = messages.first {
                add(message, api: name, "passes \(spelled) a message built at run time", .stream)
            }
            return
        }
        guard let effect = functions[name] else { return }
        guard let call = call(of: expression) else {
            add(reference, api: name, "refers to \(spelled) without calling it (a function value can be called later)", effect)
            return
        }
        if let first = labels(of: call).first, first != nil { return }   // a method of the package, not this function
        if name == "open" || name == "openat", opensForReading(call) { return }
        if name == "fopen", opensForReading(fopen: call) { return }
        add(reference, api: name, "calls \(spelled)", effect)
    }

    /// `name` as a method of some value: the file-creating methods and `write`.
    func checkMember(_ name: String, reference: DeclReferenceExprSyntax, expression: ExprSyntax) {
        if fileMethods.contains(name) {
            add(reference, api: name, "calls \(name)", .file)
        } else if name == "write" {
            let call = call(of: expression)
            let first = call.flatMap { labels(of: $0).first } ?? nil
            if first == "to", call?.arguments.first?.expression.is(InOutExprSyntax.self) == true {
                return   // write(to: &text): into a value in memory (a String, or a stream whose conformance is a finding)
            }
            if first == "to" || first == "toFile" {
                add(reference, api: ".write(to:)", "calls .write(\(first!):)", .file)
            } else {
                add(reference, api: ".write", "calls .write", .stream)
            }
        }
    }

    /// `FileHandle(forReadingAtPath:)`, `FileHandle(forReadingFrom:)`, `FileHandle.standardInput`.
    func readsOnly(fileHandle expression: ExprSyntax) -> Bool {
        if let call = call(of: expression), let label = labels(of: call).first ?? nil {
            return label.hasPrefix("forReading")
        }
        if let member = expression.parent?.as(MemberAccessExprSyntax.self), member.base?.id == expression.id {
            return member.declName.baseName.text == "standardInput"
        }
        return false
    }

    /// Whether an `open` call's flags are spelled out and none of them writes or creates.
    func opensForReading(_ call: FunctionCallExprSyntax) -> Bool {
        let names = call.arguments.dropFirst().flatMap { argument in
            argument.expression.tokens(viewMode: .sourceAccurate).compactMap { $0.identifier?.name }
        }
        let flags = names.filter { $0.hasPrefix("O_") }
        return !flags.isEmpty && flags.count == names.count && writingOpenFlags.isDisjoint(with: flags)
    }

    /// Whether an `fopen` call's mode is a literal that only reads ("r", "rb", "re").
    func opensForReading(fopen call: FunctionCallExprSyntax) -> Bool {
        let arguments = Array(call.arguments)
        guard arguments.count == 2, let literal = arguments[1].expression.as(StringLiteralExprSyntax.self),
              literal.segments.count == 1, let segment = literal.segments.first?.as(StringSegmentSyntax.self) else { return false }
        let mode = segment.content.text
        return mode.hasPrefix("r") && !mode.contains("+") && !mode.contains("w") && !mode.contains("a")
    }
}

/// The names a file binds to values: `let open = ...`, `case let .x(system)`, `{ open in ... }`, `f(_ open: Int)`.
final class BoundNames: SyntaxVisitor {
    var names: Set<String> = []

    override func visit(_ node: IdentifierPatternSyntax) -> SyntaxVisitorContinueKind {
        names.insert(node.identifier.identifier?.name ?? node.identifier.text)
        return .visitChildren
    }

    override func visit(_ node: ClosureShorthandParameterSyntax) -> SyntaxVisitorContinueKind {
        names.insert(node.name.text)
        return .visitChildren
    }

    override func visit(_ node: ClosureParameterSyntax) -> SyntaxVisitorContinueKind {
        names.insert((node.secondName ?? node.firstName).text)
        return .visitChildren
    }

    override func visit(_ node: FunctionParameterSyntax) -> SyntaxVisitorContinueKind {
        names.insert((node.secondName ?? node.firstName).text)
        return .visitChildren
    }
}

// MARK: - C files

/// The C files: a token scan, not a syntax tree. Swift's toolchain has no parse dump for C that
/// works without each target's build settings (clang would need the include paths and module
/// maps), and the package's C is a few small files that confine the process. So: comments,
/// string and character literals are blanked out (line breaks kept), then every identifier
/// followed by "(" is checked against `functions`, plus `syscall`, through which C reaches any
/// system call. A declaration in a header would look like a call here; no header of the
/// package's declares one of these names.
enum CScan {
    static func findings(path: String, text: String) -> [Finding] {
        let code = Array(blanked(text).utf8)
        var findings: [Finding] = []
        var line = 1
        var index = 0
        func isIdentifier(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
        }
        while index < code.count {
            let byte = code[index]
            if byte == 0x0A { line += 1; index += 1; continue }
            guard isIdentifier(byte), index == 0 || !isIdentifier(code[index - 1]) else { index += 1; continue }
            var end = index
            while end < code.count, isIdentifier(code[end]) { end += 1 }
            let name = String(decoding: code[index..<end], as: UTF8.self)
            var next = end
            while next < code.count, code[next] == 0x20 || code[next] == 0x09 { next += 1 }
            if next < code.count, code[next] == 0x28, let effect = name == "syscall" ? .process : functions[name],
               !(name == "open" && opensForReading(arguments: code, from: next)) {
                let what = name == "syscall" ? "calls syscall (any system call: a write, a socket, an exec)" : "calls \(name)"
                findings.append(Finding(path: path, line: line, column: 1, api: name,
                                        reason: "\(what): \(name == "syscall" ? "reaches the kernel directly" : effect.rawValue)"))
            }
            index = end
        }
        return findings
    }

    /// Whether an `open(` call's argument text names its flags and none writes or creates.
    static func opensForReading(arguments code: [UInt8], from open: Int) -> Bool {
        var depth = 0
        var end = open
        while end < code.count {
            if code[end] == 0x28 { depth += 1 }
            if code[end] == 0x29 { depth -= 1; if depth == 0 { break } }
            end += 1
        }
        let text = String(decoding: code[open..<min(end, code.count)], as: UTF8.self)
        return text.contains("O_") && !writingOpenFlags.contains { text.contains($0) }
    }

    /// `text` with comments and literals replaced by spaces, line breaks kept.
    static func blanked(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var index = 0
        func blank(_ scalar: Unicode.Scalar) { out.append(scalar == "\n" ? "\n" : " ") }
        while index < scalars.count {
            let scalar = scalars[index]
            let next = index + 1 < scalars.count ? scalars[index + 1] : " "
            if scalar == "/" && next == "/" {
                while index < scalars.count, scalars[index] != "\n" { blank(scalars[index]); index += 1 }
            } else if scalar == "/" && next == "*" {
                blank(scalar); blank(next); index += 2
                while index < scalars.count, !(scalars[index] == "*" && index + 1 < scalars.count && scalars[index + 1] == "/") {
                    blank(scalars[index]); index += 1
                }
                if index < scalars.count { blank("*"); blank("/"); index += 2 }
            } else if scalar == "\"" || scalar == "'" {
                blank(scalar); index += 1
                while index < scalars.count, scalars[index] != scalar, scalars[index] != "\n" {
                    if scalars[index] == "\\", index + 1 < scalars.count { blank(scalars[index]); index += 1 }
                    blank(scalars[index]); index += 1
                }
                if index < scalars.count { blank(scalars[index]); index += 1 }
            } else {
                out.append(scalar); index += 1
            }
        }
        return String(out)
    }
}

// MARK: - The run

/// Every file under `directory` (relative to `root`) whose name ends in one of `suffixes`, sorted.
func files(under directory: String, root: String, suffixes: [String]) -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: root + "/" + directory) else { return [] }
    var found: [String] = []
    while let relative = walker.nextObject() as? String {
        if suffixes.contains(where: relative.hasSuffix) { found.append(directory + "/" + relative) }
    }
    return found.sorted()
}

func run(root: String, listAllowed: Bool) -> Int32 {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: root + "/Sources", isDirectory: &isDirectory), isDirectory.boolValue else {
        FileHandle.standardError.write(Data("check-privacy: no Sources folder under \(root)\n".utf8))
        return 2
    }
    var findings: [Finding] = []
    // Every folder whose code a target builds: the libraries and the command, the bench's own
    // executable (not the peers it is measured against), and the test-only programs (allowed whole).
    let folders = ["Sources", "bench/ReplayBench", "Tests/Fixtures"]
    let swiftFiles = folders.flatMap { files(under: $0, root: root, suffixes: [".swift"]) }
    let cFiles = folders.flatMap { files(under: $0, root: root, suffixes: [".c", ".h", ".cpp", ".m"]) }
    for path in swiftFiles {
        guard let text = try? String(contentsOfFile: root + "/" + path, encoding: .utf8) else {
            findings.append(Finding(path: path, line: 1, column: 1, api: "(unreadable)", reason: "cannot be read as UTF-8, so it cannot be checked"))
            continue
        }
        let tree = Parser.parse(source: text)
        let scan = SwiftScan(path: path, tree: tree)
        scan.walk(tree)
        findings += scan.findings
        if tree.hasError {
            // Unparsed code could hide a call: a file the parser cannot read fails the check.
            let converter = SourceLocationConverter(fileName: path, tree: tree)
            let first = tree.tokens(viewMode: .all).first { $0.presence == .missing || $0.parent?.is(UnexpectedNodesSyntax.self) == true }
            let line = first.map { converter.location(for: $0.position).line } ?? 1
            findings.append(Finding(path: path, line: line, column: 1, api: "(syntax error)",
                                    reason: "does not parse, so it cannot be checked"))
        }
    }
    for path in cFiles {
        guard let text = try? String(contentsOfFile: root + "/" + path, encoding: .utf8) else { continue }
        findings += CScan.findings(path: path, text: text)
    }

    let violations = findings.filter { finding in !allowed.contains { $0.covers(finding) } }.sorted()
    if listAllowed {
        for finding in findings.sorted() {
            guard let allowance = allowed.first(where: { $0.covers(finding) }) else { continue }
            print("\(finding.path):\(finding.line): \(finding.reason) [allowed: \(allowance.reason)]")
        }
    }
    for violation in violations {
        print("\(violation.path):\(violation.line): \(violation.reason)")
    }
    // An allowance for a file that is there but no longer uses that API is stale: say so, without failing.
    for allowance in allowed where allowance.api != "*"
        && FileManager.default.fileExists(atPath: root + "/" + allowance.path)
        && !findings.contains(where: allowance.covers) {
        FileHandle.standardError.write(Data("check-privacy: note: \(allowance.path) no longer uses \(allowance.api); its allowance can go\n".utf8))
    }
    let summary = "\(swiftFiles.count) Swift and \(cFiles.count) C files, \(findings.count - violations.count) allowed uses"
    if violations.isEmpty {
        FileHandle.standardError.write(Data("check-privacy: clean (\(summary))\n".utf8))
        return 0
    }
    FileHandle.standardError.write(Data("""
        check-privacy: \(violations.count) violation(s) (\(summary)); move the write into a report or diagnostics \
        writer, or add an allowance to scripts/check-privacy.swift with the reason its output holds no words

        """.utf8))
    return 1
}

let arguments = CommandLine.arguments
guard arguments.count == 2 || (arguments.count == 3 && arguments[2] == "--list-allowed") else {
    FileHandle.standardError.write(Data("usage: check-privacy-tool ROOT [--list-allowed]\n".utf8))
    exit(2)
}
exit(run(root: arguments[1], listAllowed: arguments.count == 3))
