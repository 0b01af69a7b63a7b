import Compare
import ReplayKit

/// junit.xml of `replay probe compare`: one test case per `--fail-if-worse` gate and later run,
/// named `injection.JOB in run N not worse`, so CI shows each as a test; a failing one's message
/// is the gate's line (`line`). A comparison without gates has one passing case, `compared`.
enum ProbeCompareJUnit {
    static let suite = "replay.probe-compare"

    static func render(_ verdicts: [ProbeCompareGate.Verdict]) -> String {
        let failures = verdicts.filter { !$0.passed }.count
        let tests = max(verdicts.count, 1)
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuites tests="\#(tests)" failures="\#(failures)">"# + "\n"
        xml += #"  <testsuite name="\#(suite)" tests="\#(tests)" failures="\#(failures)" errors="0">"# + "\n"
        if verdicts.isEmpty { xml += #"    <testcase classname="\#(suite)" name="compared"/>"# + "\n" }
        for verdict in verdicts {
            let name = "\(verdict.gate.key) in run \(verdict.run + 1) not worse"
            xml += #"    <testcase classname="replay.\#(verdict.gate.job.rawValue)" name="\#(JUnitReport.escape(name))""#
            if verdict.passed {
                xml += "/>\n"
            } else {
                xml += ">\n" + #"      <failure message="\#(JUnitReport.escape(line(verdict)))"/>"# + "\n    </testcase>\n"
            }
        }
        return xml + "  </testsuite>\n</testsuites>\n"
    }

    /// One line for people: `injection.chips in run 2: attack success +25 [+4.1, +45.9] pp
    /// against run 1, p (Holm) 0.0313: worse (failed)`.
    static func line(_ verdict: ProbeCompareGate.Verdict) -> String {
        let head = "\(verdict.gate.key) in run \(verdict.run + 1)"
        guard let metric = verdict.metric, metric.pairs > 0, let difference = metric.difference else {
            return "\(head): no trial of \(verdict.gate.job.rawValue) is in both runs, so nothing shows it is not worse (failed)"
        }
        let definition = ProbeComparison.attackSuccess
        return "\(head): attack success \(CompareText.difference(difference, definition, withUnit: false)) "
            + "\(CompareText.interval(metric.lower, metric.upper, definition)) against run 1, "
            + "p (Holm) \(CompareText.pValue(metric.adjustedPValue)): \(metric.verdict.rawValue) (\(verdict.passed ? "passed" : "failed"))"
    }
}
