import Confinement
import Foundation
import Privacy

/// The verdict files: `audit.sarif` (SARIF 2.1.0, for code scanning) and `audit-junit.xml`
/// (one test case per rule, for CI test views). Neither holds anything the audited run wrote:
/// rule ids, what happened, and where (file, line, byte offset); and, in the SARIF's
/// `artifacts`, the manifest of the run's directory at the verdict (names as the findings show
/// them, sizes, and SHA-256 of files the scan found no words in).
public enum AuditVerdict {
    public static let sarifName = RunManifest.sarifFileName
    public static let junitName = "audit-junit.xml"
    public static let toolVersion = "1.0.0"

    static func write(_ result: AuditResult, plan: Auditor.Plan, to directory: String, into updated: inout AuditResult) {
        let files: [(String, String)] = [(sarifName, sarif(result, plan: plan).json()), (junitName, junit(result))]
        for (name, text) in files {
            let path = directory + "/" + name
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
                if name == sarifName { updated.sarifPath = path } else { updated.junitPath = path }
            } catch {
                updated.problems.append(.verdictNotWritten(path: path, reason: Auditor.reason(error)))
            }
        }
    }

    /// The SARIF log: one run, every rule described, one result per finding.
    public static func sarif(_ result: AuditResult, plan: Auditor.Plan) -> ReportValue {
        let rules = AuditRule.allCases
        let results: [ReportValue] = result.findings.map { finding in
            var region: [(String, ReportValue)] = []
            if let line = finding.line { region.append(("startLine", .int(line))) }
            if let offset = finding.byteOffset { region.append(("byteOffset", .int(offset))) }
            var physical: [(String, ReportValue)] = [("artifactLocation", .object([("uri", .label(uri(finding.location ?? plan.command.first ?? "command")))]))]
            if !region.isEmpty { physical.append(("region", .object(region))) }
            return .object([
                ("ruleId", .label(finding.rule.rawValue)),
                ("ruleIndex", .int(rules.firstIndex(of: finding.rule)!)),
                ("level", .label(finding.rule.level)),
                ("message", .object([("text", .label(finding.message))])),
                ("locations", .array([.object([("physicalLocation", .object(physical))])])),
                ("properties", .object([("occurrences", .int(finding.occurrences))])),
            ])
        }
        let notifications: [ReportValue] = result.problems.map {
            .object([("level", .label("error")), ("message", .object([("text", .label($0.description))]))])
        }
        var invocation: [(String, ReportValue)] = [
            ("executionSuccessful", .bool(result.problems.isEmpty)),
            ("commandLine", .label(plan.command.joined(separator: " "))),
        ]
        if let status = result.commandStatus { invocation.append(("exitCode", .int(Int(status)))) }
        if !notifications.isEmpty { invocation.append(("toolExecutionNotifications", .array(notifications))) }
        let hashes = result.hashes
        // The manifest of the run's directory at the verdict, as SARIF's own artifacts, relative
        // to the base id RUN (the run's directory), so `replay verify` can re-check it.
        var manifest: [(String, ReportValue)] = []
        if let entries = result.manifest {
            manifest = [("originalUriBaseIds", .object([(RunManifest.sarifBaseID, .object([("uri", .label(uri(Auditor.absolute(plan.childDirectory, in: plan.workingDirectory)) + "/"))]))])),
                        ("artifacts", entries.sarifArtifacts)]
        }
        return .object([
            ("$schema", .label("https://json.schemastore.org/sarif-2.1.0.json")),
            ("version", .label("2.1.0")),
            ("runs", .array([.object(manifest + [
                ("tool", .object([("driver", .object([
                    ("name", .label("replay-audit")),
                    ("version", .label(toolVersion)),
                    ("rules", .array(rules.map { rule in
                        .object([
                            ("id", .label(rule.rawValue)),
                            ("shortDescription", .object([("text", .label(rule.summary))])),
                            ("defaultConfiguration", .object([("level", .label(rule.level))])),
                        ])
                    })),
                ]))])),
                ("invocations", .array([.object(invocation)])),
                ("results", .array(results)),
                ("properties", .object([
                    ("verdict", .label(result.verdict.rawValue)),
                    ("prompts", hashes.map { .int($0.prompts) } ?? .null),
                    ("prompts_with_canary", hashes.map { .int($0.promptsWithCanary) } ?? .null),
                    ("outputs", hashes.map { .int($0.outputs) } ?? .null),
                    ("output_fingerprints", hashes.map { .int($0.digests.count) } ?? .null),
                    ("sandbox_enforced", result.sandboxEnforced.map { .bool($0) } ?? .null),
                    ("own_pid_namespace", result.isolation.map { .bool($0.ownPidNamespace) } ?? .null),
                    ("private_proc", result.isolation.map { .bool($0.privateProc) } ?? .null),
                    ("scanned_sources", .int(result.scannedSources)),
                    ("scanned_bytes", .int(result.scannedBytes)),
                    ("manifest", result.manifest == nil ? .null : .label(RunManifest.schema)),
                ])),
            ])])),
        ])
    }

    /// A SARIF artifact URI: `file://` for absolute paths, the stream name for stdout and stderr.
    static func uri(_ location: String) -> String {
        guard location.hasPrefix("/") else { return location }
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#[]@!$&'()*+,;=")
        return "file://" + (location.addingPercentEncoding(withAllowedCharacters: allowed) ?? location)
    }

    /// JUnit XML: a test case per rule, failing when the rule has error-level findings, and one
    /// for the audit itself, in error when it could not run.
    public static func junit(_ result: AuditResult) -> String {
        var cases: [String] = []
        var failures = 0
        for rule in AuditRule.allCases {
            let found = result.findings(rule)
            var xml = #"    <testcase classname="replay.audit" name="\#(escape(rule.rawValue))""#
            if rule.isError, !found.isEmpty {
                failures += 1
                let message = "\(found.count) finding\(found.count == 1 ? "" : "s"): see audit.sarif"
                xml += ">\n" + #"      <failure message="\#(escape(message))">"#
                xml += escape(found.map(\.message).joined(separator: "\n")) + "</failure>\n    </testcase>"
            } else if !found.isEmpty {
                xml += ">\n      <system-out>" + escape(found.map(\.message).joined(separator: "\n")) + "</system-out>\n    </testcase>"
            } else {
                xml += "/>"
            }
            cases.append(xml)
        }
        var ran = #"    <testcase classname="replay.audit" name="audit-ran""#
        let errors = result.problems.isEmpty ? 0 : 1
        if result.problems.isEmpty {
            ran += "/>"
        } else {
            ran += ">\n" + #"      <error message="the audit could not run">"#
            ran += escape(result.problems.map(\.description).joined(separator: "\n")) + "</error>\n    </testcase>"
        }
        cases.append(ran)
        let total = cases.count
        return #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
            + #"<testsuites tests="\#(total)" failures="\#(failures)" errors="\#(errors)">"# + "\n"
            + #"  <testsuite name="replay.audit" tests="\#(total)" failures="\#(failures)" errors="\#(errors)">"# + "\n"
            + cases.joined(separator: "\n") + "\n  </testsuite>\n</testsuites>\n"
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
