import Engine
import Jobs
import Privacy
@testable import ReplayKit
@testable import Suite
import Testing

/// report.json of `replay suite run` is `SuiteReportDocument` encoded: the text the
/// ReportValue builder it replaced wrote, and what decodes back strictly to the same text.
@Suite struct SuiteReportDocumentTests {
    /// A run of three cases: a failed must case, a skipped one, and one with a given output.
    static let report = SuiteReport(
        file: "/suites/spec.json", suite: SuiteFile(name: "spec", sha256: String(repeating: "a", count: 64), cases: []),
        results: [
            SuiteCaseResult(id: "asks", language: "en", job: .chips, must: true, givenOutput: false, skipped: false, expectations: [
                SuiteExpectationResult(name: .fires, deterministic: true, passed: true, observed: .bool(true)),
                SuiteExpectationResult(name: .chipsCountRange, deterministic: false, passed: false, observed: .int(5)),
            ]),
            SuiteCaseResult(id: "later", language: nil, job: .draft, must: true, givenOutput: false, skipped: true, expectations: []),
            SuiteCaseResult(id: "tie", language: nil, job: .push, must: false, givenOutput: true, skipped: false, expectations: [
                SuiteExpectationResult(name: .fallback, deterministic: true, passed: true, observed: .word("relay_line_kept")),
            ]),
        ],
        model: nil, modelVersion: "2.3.0", prompts: PromptSetIdentity(name: "built-in", sha256: String(repeating: "b", count: 64)),
        device: DeviceProfile(name: "custom:1,2", prefillMillisecondsPerToken: 1, decodeTokensPerSecond: 2, source: "test"),
        started: "2026-09-01T07:00:00Z", seconds: 1.5)

    @Test func encodesAsTheBuilderDidAndReadsBackStrictly() throws {
        let text = try ReportValueEncoder().encode(SuiteReportDocument(Self.report)).json()
        #expect(text == Self.expected)
        let decoded = try ReportValueDecoder(strict: true).decode(SuiteReportDocument.self, from: ReportValue(parsingExactJSON: text))
        #expect(try ReportValueEncoder().encode(decoded).json() == text)
        #expect(decoded.cases.map(\.status) == [.fail, .skipped, .pass] && decoded.verdict == .fail)
    }

    /// A word an expectation cannot observe, and counts that do not add up, are refused.
    @Test func refusesWhatTheWriterCannotWrite() throws {
        for (from, to) in [("\"relay_line_kept\"", "\"Sage\""), ("\"must_failed\": 1,\n    \"by_job\"", "\"must_failed\": 1,\n    \"extra\": 1,\n    \"by_job\""),
                           ("\"checked\": 2,\n        \"passed\": 2,\n        \"failed\": 0", "\"checked\": 2,\n        \"passed\": 2,\n        \"failed\": 1")] {
            #expect(Self.expected.contains(from), "\(from)")
            let changed = try ReportValue(parsingExactJSON: Self.expected.replacingOccurrences(of: from, with: to))
            #expect(throws: StateFormatError.self, "\(to)") { try ReportValueDecoder(strict: true).decode(SuiteReportDocument.self, from: changed) }
        }
    }

    static let expected = """
        {
          "schema": "replay.suite-report/1",
          "tool": {
            "name": "replay",
            "version": "\(ReplayVersion.current)"
          },
          "suite": {
            "file": "/suites/spec.json",
            "name": "spec",
            "sha256": "\(String(repeating: "a", count: 64))",
            "cases": 0,
            "runs": 3
          },
          "run": {
            "started": "2026-09-01T07:00:00Z",
            "seconds": 1.5,
            "model_version": "2.3.0",
            "prompts": {
              "name": "built-in",
              "sha256": "\(String(repeating: "b", count: 64))"
            }
          },
          "model": null,
          "device": {
            "profile": "custom:1,2",
            "prefill_ms_per_token": 1,
            "decode_tokens_per_s": 2,
            "source": "test"
          },
          "sandbox": null,
          "verdict": "fail",
          "totals": {
            "runs": 3,
            "passed": 1,
            "failed": 1,
            "skipped": 1,
            "must": 1,
            "must_failed": 1,
            "by_job": {
              "chips": {
                "runs": 1,
                "passed": 0,
                "failed": 1,
                "skipped": 0,
                "must": 1,
                "must_failed": 1,
                "by_kind": {
                  "deterministic": {
                    "checked": 1,
                    "passed": 1,
                    "failed": 0,
                    "pass_rate": 1
                  },
                  "model_dependent": {
                    "checked": 1,
                    "passed": 0,
                    "failed": 1,
                    "pass_rate": 0
                  }
                }
              },
              "push": {
                "runs": 1,
                "passed": 1,
                "failed": 0,
                "skipped": 0,
                "must": 0,
                "must_failed": 0,
                "by_kind": {
                  "deterministic": {
                    "checked": 1,
                    "passed": 1,
                    "failed": 0,
                    "pass_rate": 1
                  },
                  "model_dependent": {
                    "checked": 0,
                    "passed": 0,
                    "failed": 0,
                    "pass_rate": null
                  }
                }
              },
              "draft": {
                "runs": 1,
                "passed": 0,
                "failed": 0,
                "skipped": 1,
                "must": 0,
                "must_failed": 0,
                "by_kind": {
                  "deterministic": {
                    "checked": 0,
                    "passed": 0,
                    "failed": 0,
                    "pass_rate": null
                  },
                  "model_dependent": {
                    "checked": 0,
                    "passed": 0,
                    "failed": 0,
                    "pass_rate": null
                  }
                }
              }
            },
            "by_kind": {
              "deterministic": {
                "checked": 2,
                "passed": 2,
                "failed": 0,
                "pass_rate": 1,
                "by_name": {
                  "fires": {
                    "checked": 1,
                    "passed": 1,
                    "failed": 0,
                    "pass_rate": 1
                  },
                  "fallback": {
                    "checked": 1,
                    "passed": 1,
                    "failed": 0,
                    "pass_rate": 1
                  }
                }
              },
              "model_dependent": {
                "checked": 1,
                "passed": 0,
                "failed": 1,
                "pass_rate": 0,
                "by_name": {
                  "chips_count_range": {
                    "checked": 1,
                    "passed": 0,
                    "failed": 1,
                    "pass_rate": 0
                  }
                }
              }
            }
          },
          "cases": [
            {
              "id": "asks",
              "language": "en",
              "job": "chips",
              "must": true,
              "given_output": false,
              "status": "fail",
              "expectations": [
                {
                  "name": "fires",
                  "kind": "deterministic",
                  "pass": true,
                  "observed": true,
                  "reason": null
                },
                {
                  "name": "chips_count_range",
                  "kind": "model_dependent",
                  "pass": false,
                  "observed": 5,
                  "reason": "differs"
                }
              ]
            },
            {
              "id": "later",
              "language": null,
              "job": "draft",
              "must": true,
              "given_output": false,
              "status": "skipped",
              "expectations": []
            },
            {
              "id": "tie",
              "language": null,
              "job": "push",
              "must": false,
              "given_output": true,
              "status": "pass",
              "expectations": [
                {
                  "name": "fallback",
                  "kind": "deterministic",
                  "pass": true,
                  "observed": "relay_line_kept",
                  "reason": null
                }
              ]
            }
          ]
        }

        """
}
