import Engine
import Llama
import Privacy
import Testing
import TestSupport

/// A model version with a larger session (27.0's 8,192 tokens) on lanes sized for the common one:
/// a request that fits its own ceiling but not a lane's sequence is answered whole in a sequence
/// of its own, and every other request exactly as the lanes alone answer it.
@Suite(.serialized, .tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out"))
struct LongLaneTests {
    /// A draft request whose prompt is about `words` tokens, allowed `limit` tokens in all.
    static func long(words: Int, limit: Int) -> GenerationRequest {
        let text = (0..<words).map { "step\($0 % 97)" }.joined(separator: " ")
        return GenerationRequest(instructions: SealedText("Write a short checklist."), prompt: SealedText(text),
                                 grammar: nil, maxOutputTokens: 8, contextLimit: limit)
    }

    @Test func aRequestLongerThanALaneIsAnsweredInALongSequenceAndTheRestAsBefore() throws {
        let path = try #require(DefaultModel.path(), "run scripts/setup first")
        let plain = try LlamaEnginePool(modelPath: path, lanes: 2, sequences: 4, contextPerSequence: 512, threads: 2)
        let withLong = try LlamaEnginePool(modelPath: path, lanes: 2, sequences: 4, contextPerSequence: 512, longestContext: 1024, threads: 2)
        let short = Array(JobShapes.requests.prefix(5))
        let fits = Self.long(words: 300, limit: 1024)      // 880 tokens: over a lane's 512, within its own 1,024
        let over = Self.long(words: 300, limit: 512)       // its own ceiling is a lane's: still over
        let requests = [short[0], fits, short[1], short[2], over, short[3], short[4]]
        let a = plain.respond(to: requests), b = withLong.respond(to: requests)
        guard case .failure(.contextExceeded) = a[1].output else { Issue.record("the plain pool fitted a request over its sequences"); return }
        if case .failure(.contextExceeded) = b[1].output { Issue.record("the long sequence did not take the request its ceiling allows") }
        #expect(b[1].promptTokens > 512 && b[1].outputTokens > 0)
        guard case .failure(.contextExceeded) = b[4].output else { Issue.record("a request over its own ceiling was answered"); return }
        for index in [0, 2, 3, 5, 6] {
            #expect(a[index].outputTokens == b[index].outputTokens && a[index].promptTokens == b[index].promptTokens)
            #expect(a[index].output.map { $0.withUnsealedText { SHA256.hex(Array($0.utf8)) } }
                    == b[index].output.map { $0.withUnsealedText { SHA256.hex(Array($0.utf8)) } })
        }
        #expect(withLong.info.contextPerSequence == 512, "the lanes keep their size")
    }
}
