// LeakyFixtures: test-only programs that leak on purpose, one mode per audit rule, so the tests
// can prove `replay audit` catches each (and passes the one that does everything right).
// Run by the auditor, they read REPLAY_AUDIT_* like replay does; they leak only invented words
// ("Where should we meet tomorrow?", "Sounds good"), the random canary, and only to loopback.
//
//   LeakyFixtures MODE [ARG]
//
//   write-canary-outside PATH   writes a canary-bearing prompt to PATH (outside the out directory)
//   canary-in-report            puts the canary-bearing prompt in report.json under the out directory
//   output-to-stderr            fingerprints a model output, then prints one of its chips on stderr
//   tcp-connect PORT            connects to 127.0.0.1:PORT
//   udp-send PORT               sends a datagram to 127.0.0.1:PORT
//   unsandboxed                 writes a report with sandbox.enforced false
//   confined-attempts PORT PATH confines itself, then tries to write PATH and connect to PORT (both refused)
//   clean                       confines itself, plants, fingerprints, writes only counts
import Audit
import Foundation
import Privacy

let arguments = Array(CommandLine.arguments.dropFirst())
guard let mode = arguments.first else {
    FileHandle.standardError.write(Data("usage: LeakyFixtures MODE [ARG...]\n".utf8))
    exit(2)
}
let environment = ProcessInfo.processInfo.environment
let out = environment[AuditEnvironment.out] ?? FileManager.default.currentDirectoryPath
guard let tap = AuditTap.fromEnvironment() else {
    FileHandle.standardError.write(Data("LeakyFixtures: run me under replay audit (no REPLAY_AUDIT_* variables)\n".utf8))
    exit(2)
}

/// A prompt as replay would build it, with the canary planted in the person's words.
let prompt = tap.plant(SealedText("Where should we meet tomorrow?"))
/// A model output as the chips job gets it.
let output = SealedText(#"{"replies": ["Sounds good", "Not yet, sorry"]}"#)

func say(_ line: String) { FileHandle.standardError.write(Data((line + "\n").utf8)) }

/// Writes `text` to `path` with open/write, failing loudly so a test sees a broken fixture.
@discardableResult
func write(_ text: String, to path: String) -> Int32 {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { return errno }
    defer { close(descriptor) }
    _ = text.withCString { Glibc.write(descriptor, $0, strlen($0)) }
    return 0
}

/// The report a run leaves: counts only, and the sandbox as it was.
func writeReport(sandbox: SandboxReport, extra: [(String, ReportValue)] = []) {
    let report = ReportValue.object([("schema", .label("replay.report/1")), ("sandbox", sandbox.reportValue),
                                     ("audit", tap.reportValue)] + extra)
    write(report.json(), to: out + "/report.json")
}

/// Confines the fixture as replay confines itself (writes only beneath `out`, no network).
func confine() -> SandboxReport {
    do {
        return try Sandbox.confine(SandboxPolicy(writableDirectories: [out]))
    } catch {
        return .unsandboxed(because: error)
    }
}

func loopback(_ port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
    return address
}

/// Connects a TCP socket to 127.0.0.1:`port`; the errno, or 0.
func connectTCP(_ port: UInt16) -> Int32 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return errno }
    defer { close(descriptor) }
    var address = loopback(port)
    let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    return result == 0 ? 0 : errno
}

func port(_ index: Int) -> UInt16 {
    guard arguments.count > index, let port = UInt16(arguments[index]) else { say("LeakyFixtures: \(mode) needs a port"); exit(2) }
    return port
}

func finish() {
    do { try tap.finish() } catch { say("LeakyFixtures: \(error)"); exit(4) }
}

tap.notePrompt(prompt)
tap.record(output: output)

switch mode {
case "write-canary-outside":
    guard arguments.count > 1 else { say("LeakyFixtures: write-canary-outside needs a path"); exit(2) }
    _ = prompt.withUnsealedText { write($0, to: arguments[1]) }
case "canary-in-report":
    writeReport(sandbox: confine(), extra: [("debug_prompt", prompt.withUnsealedText { .label($0) })])
case "output-to-stderr":
    writeReport(sandbox: confine())
    finish()
    say("LeakyFixtures: chips ready")
    say("Sounds good")
case "tcp-connect":
    let result = connectTCP(port(1))
    say("LeakyFixtures: connect " + (result == 0 ? "ok" : "failed \(result)"))
case "udp-send":
    let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
    var address = loopback(port(1))
    let sent = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(descriptor, "x", 1, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    close(descriptor)
    say("LeakyFixtures: sendto " + (sent == 1 ? "ok" : "failed \(errno)"))
case "unsandboxed":
    writeReport(sandbox: .unsandboxed(because: .landlockTooOld(abi: 3, needed: Sandbox.minimumABI)))
case "confined-attempts":
    guard arguments.count > 2 else { say("LeakyFixtures: confined-attempts needs a port and a path"); exit(2) }
    let sandbox = confine()
    let wrote = write("x", to: arguments[2])
    let connected = connectTCP(port(1))
    say("LeakyFixtures: write outside \(wrote == 0 ? "ok" : "refused \(wrote)"), connect \(connected == 0 ? "ok" : "refused \(connected)")")
    writeReport(sandbox: sandbox)
case "clean":
    writeReport(sandbox: confine())
    say("LeakyFixtures: 1 prompt, 1 output, report in \(out)/report.json")
default:
    say("LeakyFixtures: unknown mode \(mode)")
    exit(2)
}
finish()
