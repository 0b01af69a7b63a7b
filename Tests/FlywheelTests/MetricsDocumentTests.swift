import Testing
import Privacy
@testable import Flywheel

/// metrics.json's one type: what the writer encodes decodes back strictly to the same document,
/// a key it does not have is refused, and each cell's key is judged under its own dimension.
@Suite struct MetricsDocumentTests {
    /// A judge that records what it was asked and refuses one text.
    final class RecordingJudge: ResultStringJudge, @unchecked Sendable {
        var asked: [(String, ResultStringRule)] = []
        let refused: String?
        init(refusing refused: String? = nil) { self.refused = refused }
        func problem(with text: String, as rule: ResultStringRule) -> String? {
            asked.append((text, rule))
            return text == refused ? "refused" : nil
        }
    }

    static func document(replayed: [ReplayedJobSummary]?) throws -> MetricsDocument {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        return MetricsDocument(try HandCorpus.count(HandCorpus.jsonl(), in: directory), replayed: replayed)
    }

    static func strict(_ judge: RecordingJudge) -> ReportValueDecoder {
        ReportValueDecoder(userInfo: [.resultStringJudge: judge], strict: true)
    }

    @Test(arguments: [true, false])
    func theWrittenDocumentDecodesStrictlyToItself(withReplayed: Bool) throws {
        let document = try Self.document(replayed: withReplayed ? OutputTests.replayed : nil)
        let value = try ReportValueEncoder().encode(document)
        #expect((value["replayed"] != nil) == withReplayed)
        let judge = RecordingJudge()
        #expect(try Self.strict(judge).decode(MetricsDocument.self, from: value) == document)
        // Every cell's key is judged under the dimension it is listed under; usage under `all`.
        let keys = judge.asked.compactMap { text, rule -> String? in
            if case .flywheelKey(let dimension) = rule { return dimension + "=" + text } else { return nil }
        }
        #expect(keys.contains("all=all") && keys.contains("build=2.3.0 (512)") && keys.contains("week=2026-W38"))
        #expect(!keys.contains("build=all") && !keys.contains("week=2.3.0 (512)"))
        #expect(judge.asked.contains { $0.0 == Metric.chipsSuggested.definition && $0.1 == .prose })
    }

    @Test func aKeyTheTypeDoesNotHaveOrAKeyTheJudgeRefusesIsAnError() throws {
        let document = try Self.document(replayed: OutputTests.replayed)
        guard case .object(var fields) = try ReportValueEncoder().encode(document) else { Issue.record("not an object"); return }
        fields.append(("extra", .int(1)))
        #expect(throws: StateFormatError.self) { try Self.strict(RecordingJudge()).decode(MetricsDocument.self, from: .object(fields)) }
        let value = try ReportValueEncoder().encode(document)
        do {
            _ = try Self.strict(RecordingJudge(refusing: "2.3.0 (512)")).decode(MetricsDocument.self, from: value)
            Issue.record("a refused key was read")
        } catch {
            #expect(error.description.hasPrefix("metrics[0].cells.build[0].key: "), "\(error.description)")
        }
    }
}
