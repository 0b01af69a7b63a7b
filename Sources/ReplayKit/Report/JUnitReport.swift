import Foundation

/// junit.xml: one test case per gate and slice (a `*` gate gives one per label), classed
/// `replay.JOB` and named by the key with its slice (`chips[build=2.4.1 (534)].answered_rate >= 0.9`),
/// so CI systems show each as a test.
public enum JUnitReport {
    public static func render(_ verdicts: [Threshold.Verdict], suite: String = "replay.thresholds") -> String {
        let failures = verdicts.filter { !$0.met }.count
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuites tests="\#(verdicts.count)" failures="\#(failures)">"# + "\n"
        xml += #"  <testsuite name="\#(escape(suite))" tests="\#(verdicts.count)" failures="\#(failures)" errors="0">"# + "\n"
        for verdict in verdicts {
            let job = verdict.threshold.key.job.rawValue
            // `>` may stand in an attribute as it is; `<` may not.
            let side = verdict.threshold.bound == .atLeast ? ">=" : "&lt;="
            xml += #"    <testcase classname="replay.\#(escape(job))" name="\#(escape(verdict.threshold.key.description)) \#(side) \#(verdict.threshold.limit)""#
            if verdict.met {
                xml += "/>\n"
            } else {
                xml += ">\n" + #"      <failure message="\#(escape(verdict.line))"/>"# + "\n    </testcase>\n"
            }
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    package static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
