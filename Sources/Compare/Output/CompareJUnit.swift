import ReplayKit

/// junit.xml of `replay compare`: one test case per `--fail-if-worse` gate, so CI shows each gate
/// as a test; a comparison without gates has one passing case, `compared`.
enum CompareJUnit {
    static let suite = "replay.compare"

    static func render(_ verdicts: [GateVerdict]) -> String {
        let failures = verdicts.filter { !$0.passed }.count
        let tests = max(verdicts.count, 1)
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuites tests="\#(tests)" failures="\#(failures)">"# + "\n"
        xml += #"  <testsuite name="\#(suite)" tests="\#(tests)" failures="\#(failures)" errors="0">"# + "\n"
        if verdicts.isEmpty { xml += #"    <testcase classname="replay.compare" name="compared"/>"# + "\n" }
        for verdict in verdicts {
            let name = "\(verdict.gate.name) not worse by \(CompareText.number(verdict.gate.margin))"
            xml += #"    <testcase classname="replay.\#(verdict.gate.job.rawValue)" name="\#(JUnitReport.escape(name))""#
            if verdict.passed {
                xml += "/>\n"
            } else {
                xml += ">\n" + #"      <failure message="\#(JUnitReport.escape(verdict.line))"/>"# + "\n    </testcase>\n"
            }
        }
        return xml + "  </testsuite>\n</testsuites>\n"
    }
}
