import ReplayKit

/// junit.xml of `replay suite run`: one test case per run of a case (its id, and `:LANGUAGE` for
/// a case run per language), classed by job; a failing case's failure names the expectations
/// that failed, their kind and why, never what the model wrote; a case for other model versions
/// is skipped.
public enum SuiteJUnit {
    public static let suiteName = "replay.suite"

    public static func render(_ report: SuiteReport) -> String {
        let results = report.results
        let failures = results.filter(\.failed).count
        let skipped = results.filter(\.skipped).count
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuites tests="\#(results.count)" failures="\#(failures)">"# + "\n"
        xml += #"  <testsuite name="\#(suiteName)" tests="\#(results.count)" failures="\#(failures)" errors="0" skipped="\#(skipped)">"# + "\n"
        for result in results {
            xml += #"    <testcase classname="\#(suiteName).\#(result.job.rawValue)" name="\#(escape(result.name))""#
            if result.skipped {
                xml += ">\n" + #"      <skipped message="for other model versions"/>"# + "\n    </testcase>\n"
            } else if result.passed {
                xml += "/>\n"
            } else {
                xml += ">\n" + #"      <failure message="\#(escape(message(result)))"/>"# + "\n    </testcase>\n"
            }
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    /// `route_to failed (differs, model-dependent); …`, then whether the case is a must case.
    static func message(_ result: SuiteCaseResult) -> String {
        let failed = result.expectations.filter { !$0.passed }.map { expectation in
            "\(expectation.name) failed (\(expectation.reason ?? .differs), \(expectation.deterministic ? "deterministic" : "model-dependent"))"
        }
        return failed.joined(separator: "; ") + (result.must ? "; a must case: the run fails" : "; not a must case")
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
