@testable import Audit
@testable import Confinement
import Flywheel
import Foundation
import Jobs
import Privacy
@testable import ReplayKit
import Testing
import RunTestSupport
import TestSupport

/// A result file's type is the statement of what it may hold: a sealed state decodes strictly
/// with the auditor's judge, and loses that the moment one string leaves its rule.
@Suite struct ResultDocumentTests {
    static func judged(_ text: String, known: Set<String>) throws -> RunState {
        let judge = ResultJudge(context: ResultText.Context(knownPaths: known))
        return try ReportValueDecoder(userInfo: [.resultStringJudge: judge], strict: true)
            .decode(RunState.self, from: ReportValue(parsingExactJSON: text))
    }

    /// state.json and a checkpoint, digest and all, decode under the judge; a digest not in the
    /// writer's form, or a sentence where the start time belongs, does not.
    @Test func aSealedStateDecodesUnderTheJudgeAndATamperedOneDoesNot() throws {
        let directory = try TemporaryDirectory(prefix: "document-state")
        let paths = try StateFixtures.corpus(in: directory)
        var state = StateFixtures.state(paths, dryRun: true)
        for checkpoint in [nil, Checkpoint(sequence: 3, eventsRead: 40)] {
            state.checkpoint = checkpoint
            let text = state.stateJSON(key: StateFixtures.key)
            #expect(try Self.judged(text, known: Set(paths)) == RunState(stateJSON: text, key: StateFixtures.key))
            guard case .label(let sealed)? = try ReportValue(parsingExactJSON: text)["digest"] else {
                Issue.record("the digest is not a string")
                return
            }
            let bare = text.replacingOccurrences(of: sealed, with: String(sealed.dropFirst(StateDigest.prefix.count)))
            #expect(throws: StateFormatError.self) { try Self.judged(bare, known: Set(paths)) }
            let sentence = text.replacingOccurrences(of: "\"\(state.timing.started)\"", with: "\"Tell mum the surgery moved\"")
            #expect(sentence != text)
            #expect(throws: StateFormatError("run.started: a string that is not a UTC time")) { try Self.judged(sentence, known: Set(paths)) }
        }
    }

    @Test func everyResultFileIsAllowedAndCheckpointsAreRecognised() {
        #expect(Set(OutputDirectory.resultFiles + FlywheelFiles.names).isSubset(of: ResultSchemaCheck.fileNames))
        for sequence in [1, 2, 42, 999_999, 1_000_000, 12_345_678] {
            #expect(RunState.isFileName(OutputDirectory.checkpointName(sequence)))
            #expect(ItemsDocument.isFileName(OutputDirectory.segmentName(sequence)))
            #expect(!ItemsDocument.isFileName(OutputDirectory.checkpointName(sequence)))
        }
        for name in ["checkpoint-0.json", "checkpoint-000000.json", "checkpoint-0000001.json", "checkpoint-00001.json",
                     "checkpoint-000001.json.bak", "checkpoint-00000a.json", "checkpoint-+00001.json"] {
            #expect(!RunState.isFileName(name), "\(name)")
        }
    }

    /// A run whose answers broke a rule carries its counter: the audit takes it as the job's own.
    @Test func neverRuleCountersAreTheJobsOwn() {
        #expect(NeverRule.allCases.allSatisfy { ResultText.isCounter($0.counter) })
        #expect(!ResultText.isCounter("never:made_up") && !ResultText.isCounter("never:"))
    }
}
