import Engine
import Export
import Llama
import Privacy
import Testing
import TestSupport
@testable import Jobs

/// What the four jobs ask on the bundled sample corpus, as digests: every request's instructions
/// and prompt, byte for byte, and the sizes planning worked out for it, in the order planned;
/// and the route job's with the sample's drawer (the 223 group items and 180 drawer places).
///
/// The reference digests were computed by this same test with the jobs as they were before
/// prompt sets existed (instructions and prompt words as Swift literals in each job, at commit
/// 467cbcd), with the approximate tokenizer and with the default model's vocabulary. The jobs now
/// fill in the built-in prompt set (`PromptSet.builtIn`): equal digests prove it asks exactly what
/// they asked, with the same token counts. The words are read only inside the hash, never shown.
@Suite(.tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct BuiltInPromptDigestTests {
    static let sample = BuiltProducts.packageRoot + "/corpora/sample.jsonl.zst"

    /// The sample's threads, each with its messages.
    static let threads: [ThreadSnapshot] = {
        guard let reader = try? CorpusReader(paths: [sample]) else { return [] }
        var threads: [ThreadSnapshot] = []
        while let event = reader.next() {
            guard case .record(let record, _) = event else { continue }
            switch record {
            case .header: continue
            case .thread(let thread): threads.append(ThreadSnapshot(thread: thread, messages: []))
            case .message(let message): threads[threads.count - 1].messages.append(message)
            }
        }
        return threads
    }()

    /// How many items `job` plans over the sample and the SHA-256 of them all, in order: per item
    /// its instructions and prompt (UTF-8, each followed by a NUL), or its early fallback when it
    /// has no request, then its prompt tokens, input tokens and whether its input was cut.
    static func digest(_ job: any Job, tokenizer: any Tokenizer) -> (items: Int, sha256: String) {
        var hasher = SHA256()
        var items = 0
        for thread in threads {
            var ledger = JobLedger()
            for item in job.plan(thread, tokenizer: tokenizer, ledger: &ledger) {
                items += 1
                if let request = item.request {
                    request.instructions.withUnsealedText { hasher.update(Array($0.utf8)) }
                    hasher.update([0])
                    request.prompt.withUnsealedText { hasher.update(Array($0.utf8)) }
                    hasher.update([0])
                } else {
                    hasher.update(Array("no request: \(item.earlyFallback?.rawValue ?? "none")".utf8) + [0])
                }
                let sizes = "\(item.promptTokens.map(String.init) ?? "nil") \(item.inputTokens) \(item.inputWasCut)"
                hasher.update(Array(sizes.utf8) + [0])
            }
        }
        return (items, hasher.finalizeHex())
    }

    /// (job, items, digest) with the approximate tokenizer: computed at commit 467cbcd.
    static let approximate: [(JobKind, Int, String)] = [
        (.chips, 455, "cf07cbd01d0112c33352e5d9466e385155596de4314ed7bde256eb7d86134686"),
        (.route, 223, "776f5ed145bc7fc3d1983ab8a93cf055784ce9667c2811aabff85debaab47d75"),
        (.push, 460, "75efd741329d7aaa897d20173b367b7dd9515b2adddd815a6905657a227273d5"),
        (.draft, 61, "ef46a5d7c004fc307937427fb58b608d51d08184d25cf1aee4544b9ebab7118e"),
    ]

    /// (job, items, digest) with the default model's vocabulary (SmolLM2-135M-Instruct): computed
    /// at commit 467cbcd.
    static let vocabulary: [(JobKind, Int, String)] = [
        (.chips, 455, "3ce5d3c12ad27842406efb3164e1e54df7ec84135c495aa73ff3fce0cd1ad786"),
        (.route, 223, "1643226e88a2661b8af63791a340006b3b4df0c4799d90183c2612a89bec2d82"),
        (.push, 460, "ea0bb73d26de7de423554331a46fe1701b703dac53f4ea34824681f62f417b6d"),
        (.draft, 61, "7cc7efe55155831f628fc58050838c584c6620704dc99df6b50d182dc5c44c63"),
    ]

    /// The sample's drawer: the agents of its one-agent threads, as a run gathers them before it
    /// (`DrawerAgents.Collector` over every thread line).
    static let drawer: DrawerAgents = {
        var collector = DrawerAgents.Collector()
        for thread in threads { collector.add(thread.thread) }
        return collector.agents
    }()

    /// (tokenizer, items, digest) of the route job with the sample's drawer: the groups' items as
    /// above and, in one-agent threads, the drawer's, asked with the built-in set's drawer words
    /// (`jobs.route.drawer`). Computed when the drawer was first replayed: a change to those
    /// words, the agents offered or the drawer's places shows here.
    static let drawerDigests: [(String, Int, String)] = [
        ("approximate", 403, "25dfd4bafa08bf15e8665b2ae9bbdb419ad9d121c8b831868c5b486051b4038f"),
        ("vocabulary", 403, "e0022226e3689ccbdcc7b92f56656f3b5a8b32168679b2b5a124aed2bdfb5420"),
    ]

    @Test(arguments: drawerDigests)
    func theDrawersRequestsAreTheOnesFirstReplayed(tokenizer: String, items: Int, sha256: String) throws {
        let counting: any Tokenizer = tokenizer == "approximate" ? ApproximateTokenizer() : try Self.vocabularyOnly.get()
        #expect(Self.drawer.agents.count >= 2)
        let found = Self.digest(JobKind.route.job(facts: CorpusFacts(drawer: Self.drawer)), tokenizer: counting)
        #expect(found.items == items && found.sha256 == sha256, "drawer, \(tokenizer): \(found.items) items, \(found.sha256)")
    }

    /// The default model's tokenizer, without its weights.
    static let vocabularyOnly: Result<LlamaModel, LlamaError> = {
        guard let path = DefaultModel.path() else {
            return .failure(.modelFileUnreadable(path: DefaultModel.cacheDirectory, reason: "run scripts/setup first"))
        }
        return Result { () throws(LlamaError) in try LlamaModel(path: path, vocabularyOnly: true) }
    }()

    @Test func theSampleHasThreadsOfEveryJob() {
        #expect(Self.threads.count > 100)
    }

    @Test(arguments: approximate)
    func builtInPromptsAreTheOldOnesWithTheApproximateTokenizer(kind: JobKind, items: Int, sha256: String) {
        let found = Self.digest(kind.job(), tokenizer: ApproximateTokenizer())
        #expect(found.items == items && found.sha256 == sha256, "\(kind.rawValue): \(found.items) items, \(found.sha256)")
    }

    @Test(arguments: vocabulary)
    func builtInPromptsAreTheOldOnesWithTheModelsVocabulary(kind: JobKind, items: Int, sha256: String) throws {
        let found = Self.digest(kind.job(), tokenizer: try Self.vocabularyOnly.get())
        #expect(found.items == items && found.sha256 == sha256, "\(kind.rawValue): \(found.items) items, \(found.sha256)")
    }
}
