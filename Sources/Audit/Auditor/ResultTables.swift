import Confinement
import Foundation
import Jobs
import ReplayKit
import Compare
import Flywheel
import Privacy
import Suite
/// The line-shaped result files checked line by line: metrics.csv, junit.xml and the audit's
/// hashes file. Each check returns `(line, what)` problems, never the text of the line.
enum ResultTables {
    /// metrics.csv (`MetricsCSV`): its header, then `metric,dimension,key,numerator,denominator,
    /// rate,low,high` rows: a flywheel metric, a dimension, a flywheel key (quoted only when it is
    /// not a plain token, `'` before a formula's first character), two integers, and three cells
    /// each empty or a decimal with six digits.
    static func metricsCSVProblems(_ text: String, context: ResultText.Context) -> [(Int, String)] {
        var problems: [(Int, String)] = []
        guard text.hasSuffix("\n") else { return [(1 + text.filter { $0 == "\n" }.count, "the file does not end with a line break")] }
        let lines = text.dropLast().split(separator: "\n", omittingEmptySubsequences: false)
        if lines.first != Substring(header) { problems.append((1, "not the header replay writes")) }
        for (index, line) in lines.enumerated().dropFirst() {
            let number = index + 1
            guard let cells = csvCells(line), cells.count == 8 else { problems.append((number, "not a row of eight cells")); continue }
            if Metric(name: cells[0].text) == nil || cells[0].quoted { problems.append((number, "a metric replay does not count")) }
            if MetricDimension(name: cells[1].text) == nil || cells[1].quoted { problems.append((number, "a dimension replay does not count by")) }
            var key = cells[2].text
            let formula = key.hasPrefix("'") && key.unicodeScalars.dropFirst().first.map { "=+-@\t\r".unicodeScalars.contains($0) } == true
            if formula { key.removeFirst() }
            let rule = ResultJudge.flywheelKeyRule(cells[1].text) ?? .fixed([])
            if !rule.admits(key, context: context) {
                problems.append((number, "a key that is not a label its rule keeps"))
            } else if cells[2].quoted != (formula || !isPlainField(key)) {
                problems.append((number, "a key quoted otherwise than the writer quotes it"))
            }
            if !cells[3...4].allSatisfy({ !$0.quoted && isInteger($0.text) }) { problems.append((number, "a count that is not an integer")) }
            if !cells[5...7].allSatisfy({ !$0.quoted && ($0.text.isEmpty || isSixDecimals($0.text)) }) {
                problems.append((number, "a rate that is not a decimal with six digits"))
            }
        }
        return problems
    }

    static let header = "metric,dimension,key,numerator,denominator,rate,low,high"

    struct Cell { var text: String; var quoted: Bool }

    /// The cells of one RFC 4180 line; nil when a quote is left open or stray.
    static func csvCells(_ line: Substring) -> [Cell]? {
        var cells: [Cell] = []
        var scalars = Array(line.unicodeScalars)[...]
        while true {
            if scalars.first == "\"" {
                scalars = scalars.dropFirst()
                var text = ""
                var closed = false
                while let scalar = scalars.first {
                    scalars = scalars.dropFirst()
                    if scalar == "\"" {
                        if scalars.first == "\"" { text.unicodeScalars.append("\""); scalars = scalars.dropFirst(); continue }
                        closed = true
                        break
                    }
                    text.unicodeScalars.append(scalar)
                }
                guard closed else { return nil }
                cells.append(Cell(text: text, quoted: true))
            } else {
                var text = ""
                while let scalar = scalars.first, scalar != "," {
                    if scalar == "\"" { return nil }
                    text.unicodeScalars.append(scalar)
                    scalars = scalars.dropFirst()
                }
                cells.append(Cell(text: text, quoted: false))
            }
            guard let next = scalars.first else { return cells }
            guard next == "," else { return nil }
            scalars = scalars.dropFirst()
        }
    }

    /// What `MetricsCSV.field` leaves unquoted: letters, digits, `.`, `_`, `-`, `+`, not starting a formula.
    static func isPlainField(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, !"=+-@\t\r".unicodeScalars.contains(first) else { return false }
        return text.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || ".-_+".unicodeScalars.contains(scalar)
        }
    }

    static func isInteger(_ text: String) -> Bool {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        return !digits.isEmpty && digits.utf8.count <= 19 && digits.utf8.allSatisfy(ResultText.isDigit)
    }

    static func isSixDecimals(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 2 && isInteger(String(parts[0])) && parts[1].utf8.count == 6 && parts[1].utf8.allSatisfy(ResultText.isDigit)
    }

    // MARK: junit.xml

    /// junit.xml (`JUnitReport`): the writer's lines, one test case per gate, each named
    /// `JOB.KEY >= MIN` or `JOB.KEY &lt;= MAX` with the key's parts words of the report's schema, its failure message
    /// the writer's words around that key and numbers; the counts add up. `replay compare`'s
    /// (`CompareJUnit`, suite `replay.compare`): cases named `JOB.KEY not worse by MARGIN`, or
    /// the one passing case `compared` of a comparison without gates. `replay probe compare`'s
    /// (`ProbeCompareJUnit`, suite `replay.probe-compare`): cases named `injection.JOB in run N
    /// not worse`, or its one passing case `compared`.
    static func junitProblems(_ text: String, context: ResultText.Context) -> [(Int, String)] {
        if text.split(separator: "\n", maxSplits: 3).dropFirst(2).first?.hasPrefix(#"  <testsuite name="replay.suite" "#) == true {
            return suiteJUnitProblems(text, context: context)
        }
        guard text.hasSuffix("\n") else { return [(1 + text.filter { $0 == "\n" }.count, "the file does not end with a line break")] }
        let lines = text.dropLast().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var problems: [(Int, String)] = []
        guard lines.count >= 5, lines[0] == #"<?xml version="1.0" encoding="UTF-8"?>"#,
              let tests = number(in: lines[1], #"<testsuites tests=""#, #"" failures=""#, #"">"#),
              let suiteName = ["replay.thresholds", "replay.compare", "replay.probe-compare"].first(where: { lines[2].hasPrefix(#"  <testsuite name="\#($0)" "#) }),
              let suite = number(in: lines[2], #"  <testsuite name="\#(suiteName)" tests=""#, #"" failures=""#, #"" errors="0">"#),
              suite == tests, lines[lines.count - 2] == "  </testsuite>", lines[lines.count - 1] == "</testsuites>" else {
            return [(1, "not the frame of testsuites replay writes")]
        }
        // `replay compare`'s and `replay probe compare`'s suites: their gates (`--fail-if-worse`),
        // or one passing case without any.
        let compare = suiteName != "replay.thresholds"
        var cases = 0, failures = 0
        var index = 3
        while index < lines.count - 2 {
            let line = lines[index]
            if compare, lines.count == 6, line == #"    <testcase classname="\#(suiteName)" name="compared"/>"# {
                cases += 1
                index += 1
                continue
            }
            let key = switch suiteName {
            case "replay.compare": compareGateKey(line, context: context)
            case "replay.probe-compare": probeCompareGateKey(line)
            default: gateKey(line, context: context)
            }
            guard let key else {
                problems.append((index + 1, "not a test case of a gate"))
                index += 1
                continue
            }
            cases += 1
            if line.hasSuffix("/>") { index += 1; continue }
            failures += 1
            let message = index + 1 < lines.count ? lines[index + 1] : ""
            let prefix = #"      <failure message=""#, suffix = #""/>"#
            if message.hasPrefix(prefix), message.hasSuffix(suffix), index + 2 < lines.count, lines[index + 2] == "    </testcase>" {
                let body = String(message.dropFirst(prefix.count).dropLast(suffix.count))
                if body.contains("\"") || ResultProse.firstUnknown(in: body, labels: [key], context: context, markup: .html) != nil {
                    problems.append((index + 2, "a failure message in other words than the gate's"))
                }
                index += 3
            } else {
                problems.append((index + 2, "not the failure replay writes"))
                index += 1
            }
        }
        if cases != tests.0 || failures != tests.1 { problems.append((2, "counts that do not match the test cases")) }
        return problems
    }

    /// junit.xml of `replay suite run` (ReplayKit's `SuiteJUnit`): one test case per run of a
    /// case, classed `replay.suite.JOB` and named by the case's id (a slug, and `:LANGUAGE` for a
    /// case run per language); a failure's message made of the expectations' names, the reasons
    /// and the writer's words; a skipped case's one fixed message.
    static func suiteJUnitProblems(_ text: String, context: ResultText.Context) -> [(Int, String)] {
        guard text.hasSuffix("\n") else { return [(1 + text.filter { $0 == "\n" }.count, "the file does not end with a line break")] }
        let lines = text.dropLast().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= 4, lines[0] == #"<?xml version="1.0" encoding="UTF-8"?>"#,
              lines[lines.count - 2] == "  </testsuite>", lines[lines.count - 1] == "</testsuites>" else {
            return [(1, "not the frame of testsuites replay writes")]
        }
        let words = SuiteExpectation.allNames + SuiteExpectationResult.reasons
        var problems: [(Int, String)] = []
        var cases = 0, failures = 0, skipped = 0
        var index = 3
        while index < lines.count - 2 {
            let line = lines[index]
            guard let name = suiteCaseName(line) else {
                problems.append((index + 1, "not a test case of a suite's case"))
                index += 1
                continue
            }
            cases += 1
            if line.hasSuffix("/>") { index += 1; continue }
            let inner = index + 1 < lines.count ? lines[index + 1] : ""
            guard index + 2 < lines.count, lines[index + 2] == "    </testcase>" else {
                problems.append((index + 2, "not the failure replay writes"))
                index += 1
                continue
            }
            if inner == #"      <skipped message="for other model versions"/>"# {
                skipped += 1
            } else {
                let prefix = #"      <failure message=""#, suffix = #""/>"#
                if inner.hasPrefix(prefix), inner.hasSuffix(suffix) {
                    failures += 1
                    let body = String(inner.dropFirst(prefix.count).dropLast(suffix.count))
                    if body.contains("\"") || ResultProse.firstUnknown(in: body, labels: [name] + words, context: context, markup: .html) != nil {
                        problems.append((index + 2, "a failure message in other words than the suite's"))
                    }
                } else {
                    problems.append((index + 2, "not the failure replay writes"))
                }
            }
            index += 3
        }
        // The frame's counts, as the writer spells them from the test cases.
        if lines[1] != #"<testsuites tests="\#(cases)" failures="\#(failures)">"#
            || lines[2] != #"  <testsuite name="replay.suite" tests="\#(cases)" failures="\#(failures)" errors="0" skipped="\#(skipped)">"# {
            problems.append((2, "counts that do not match the test cases"))
        }
        return problems
    }

    /// The name of a `replay suite run` test case line, when the line is one its writer writes:
    /// a job's class, a case id (1 to 32 lowercase letters, digits and `-`) and optionally `:`
    /// and a language the locale rule keeps.
    static func suiteCaseName(_ line: String) -> String? {
        let prefix = #"    <testcase classname="replay.suite."#
        let closed = line.hasSuffix("\"/>")
        guard line.hasPrefix(prefix), closed || line.hasSuffix("\">") else { return nil }
        let rest = line.dropFirst(prefix.count).dropLast(closed ? 3 : 2)
        guard let close = rest.range(of: #"" name=""#) else { return nil }
        let job = String(rest[..<close.lowerBound]), name = String(rest[close.upperBound...])
        guard JobKind(rawValue: job) != nil else { return nil }
        let parts = name.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let id = parts[0]
        let isSlug = (1...32).contains(id.utf8.count) && id.utf8.first.map { $0 != UInt8(ascii: "-") } == true
            && id.utf8.allSatisfy { (0x61...0x7a).contains($0) || ResultText.isDigit($0) || $0 == UInt8(ascii: "-") }
        guard isSlug, parts.count == 1 || ResultText.isLabel(parts[1], .locale) else { return nil }
        return name
    }

    /// `(tests, failures)` of `prefix N middle M suffix`, nil when the line is otherwise.
    static func number(in line: String, _ prefix: String, _ middle: String, _ suffix: String) -> (Int, Int)? {
        guard line.hasPrefix(prefix), line.hasSuffix(suffix) else { return nil }
        let inner = line.dropFirst(prefix.count).dropLast(suffix.count)
        guard let split = inner.range(of: middle) else { return nil }
        let first = String(inner[..<split.lowerBound]), second = String(inner[split.upperBound...])
        guard isInteger(first), isInteger(second), let a = Int(first), let b = Int(second) else { return nil }
        return (a, b)
    }

    /// The gate key of a `<testcase …` line, when the line is one the writer writes.
    static func gateKey(_ line: String, context: ResultText.Context) -> String? {
        let prefix = #"    <testcase classname="replay."#
        guard line.hasPrefix(prefix), line.hasSuffix("/>") || line.hasSuffix("\">") else { return nil }
        let rest = line.dropFirst(prefix.count)
        guard let close = rest.range(of: #"" name=""#) else { return nil }
        let job = String(rest[..<close.lowerBound])
        let named = rest[close.upperBound...]
        guard let gate = named.range(of: " >= ") ?? named.range(of: " &lt;= ") else { return nil }
        let key = String(named[..<gate.lowerBound])
        let minimum = String(named[gate.upperBound...].dropLast(line.hasSuffix("/>") ? 3 : 2))
        guard isGateKey(key, job: job, context: context, path: {
            $0.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { gateWords.contains(String($0)) }
        }), isDecimal(minimum) else { return nil }
        return key
    }

    /// Whether `escaped`, a gate key as junit.xml writes it, is one a writer makes: `GateKey`'s
    /// syntax, its job `job`, a path `path` admits, and every slice label one the run's label
    /// rules pass (a build, a model version, a locale; a hash, `unknown`, `(other)`).
    static func isGateKey(_ escaped: String, job: String, context: ResultText.Context, path: (String) -> Bool) -> Bool {
        let text = escaped.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        guard let key = try? GateKey(parsing: text), key.job.rawValue == job, path(key.path) else { return false }
        func admits(_ label: GateKey.Label, _ kind: ResultText.Label) -> Bool {
            guard case .named(let name) = label else { return true }
            return ResultText.isLabel(name, kind, listed: context.teamLabels)
        }
        switch key.slice {
        case .overall: return true
        case .build(let label): return admits(label, .build)
        case .model(let label): return admits(label, .model)
        case .locale(let label): return admits(label, .locale)
        case .cell(let build, let model): return admits(build, .build) && admits(model, .model)
        }
    }

    /// The gate key of a `replay compare` test case line (`JOB.KEY not worse by MARGIN`, the key
    /// perhaps with a slice), when the line is one its writer writes: a job, one of compare's
    /// metric keys, labels the run's rules pass, a decimal margin.
    static func compareGateKey(_ line: String, context: ResultText.Context) -> String? {
        let prefix = #"    <testcase classname="replay."#
        let passing = line.hasSuffix("\"/>")
        guard line.hasPrefix(prefix), passing || line.hasSuffix("\">") else { return nil }
        let rest = line.dropFirst(prefix.count).dropLast(passing ? 3 : 2)
        guard let close = rest.range(of: #"" name=""#), let gate = rest.range(of: " not worse by ") else { return nil }
        let job = String(rest[..<close.lowerBound])
        let key = String(rest[close.upperBound..<gate.lowerBound]), margin = String(rest[gate.upperBound...])
        guard isGateKey(key, job: job, context: context, path: { MetricDefinition.knownKeys.contains($0) }), isDecimal(margin) else { return nil }
        return key
    }

    /// The gate key of a `replay probe compare` test case line (`injection.JOB in run N not
    /// worse`), when the line is one its writer writes: a job, the same in its class, and a run's
    /// number.
    static func probeCompareGateKey(_ line: String) -> String? {
        let prefix = #"    <testcase classname="replay."#
        let passing = line.hasSuffix("\"/>")
        guard line.hasPrefix(prefix), passing || line.hasSuffix("\">") else { return nil }
        let rest = line.dropFirst(prefix.count).dropLast(passing ? 3 : 2)
        guard let close = rest.range(of: #"" name="injection."#), let run = rest.range(of: " in run "), rest.hasSuffix(" not worse") else {
            return nil
        }
        let job = String(rest[..<close.lowerBound])
        let named = String(rest[close.upperBound..<run.lowerBound])
        let number = String(rest[run.upperBound...].dropLast(" not worse".count))
        guard JobKind(rawValue: job) != nil, named == job, isInteger(number) else { return nil }
        return "injection." + job
    }

    /// The words a gate key may be made of: every key of a job's block in report.json, the
    /// quality measures, and the suite's model-dependent expectations.
    /// Read from the report's own type: every job's block, prompt sizes included, encoded.
    static let gateWords: Set<String> = {
        var words = QualityName.all
        var tally = ReplayTally.empty
        for kind in JobKind.allCases {
            tally.sizing[kind] = .empty
            var ledger = JobLedger()
            for name in QualityName.byJob[kind] ?? [] { ledger.overall.quality[name] = QualityTally() }
            tally.ledgers[kind] = ledger
        }
        let report = ReportBuilder(options: ReplayOptions(), tally: tally, model: nil, jobs: JobKind.allCases.map { $0.job() }, seconds: 0,
                                   started: Date(timeIntervalSince1970: 0)).build()
        func collect(_ value: ReportValue) {
            guard case .object(let fields) = value else { return }
            for (key, child) in fields { words.insert(key); collect(child) }
        }
        report["jobs"].map { if case .object(let jobs) = $0 { jobs.forEach { collect($0.1) } } }
        // `replay suite compare`'s gates name a job's model-dependent expectation.
        return words.subtracting(["by_build", "by_model", "by_locale", "by_build_model", "counters", "fallbacks"]).union(SuiteGate.gateable.map(\.rawValue))
    }()

    static func isDecimal(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return (1...2).contains(parts.count) && parts.allSatisfy { isInteger(String($0)) } && parts.first?.first != "-"
            && text.utf8.count <= 24
    }

    // MARK: The audit's hashes file

    /// The hashes file (`AuditTap.finish`): its header, the three counts in order, then 16 hex
    /// digits per line, ascending. Returns the lines that are not so.
    static func hashesProblems(_ text: String) -> [Int] {
        guard text.hasSuffix("\n") else { return [1 + text.filter { $0 == "\n" }.count] }
        let lines = text.dropLast().split(separator: "\n", omittingEmptySubsequences: false)
        var problems: [Int] = []
        for (index, line) in lines.enumerated() {
            let good: Bool
            switch index {
            case 0: good = line == Substring(AuditTap.header)
            case 1, 2, 3:
                let name = ["prompts", "prompts_with_canary", "outputs"][index - 1]
                good = line.hasPrefix(name + " ") && isInteger(String(line.dropFirst(name.count + 1)))
            default:
                // Digests come sorted and once each (`AuditTap.finish`); equal-length lowercase hex
                // sorts as text as it does as a number.
                good = line.utf8.count == 16 && line.utf8.allSatisfy(ResultText.isLowerHex) && (index == 4 || lines[index - 1] < line)
            }
            if !good { problems.append(index + 1) }
        }
        return problems
    }
}
