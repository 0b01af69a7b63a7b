import Testing
@testable import Corpus

@Suite("Corpus distribution: what the four jobs and the flywheel need is there")
struct CorpusDistributionTests {
    static let seeds: [UInt64] = [11, 2026]

    /// The facts of each seed's 400-thread corpus, generated once for every test that reads them.
    static let factsBySeed: [UInt64: CorpusFacts] = Dictionary(uniqueKeysWithValues: seeds.map { seed in
        (seed, CorpusFacts(lines: corpusLines(threads: 400, seed: seed)))
    })

    static func facts(_ seed: UInt64) -> CorpusFacts { factsBySeed[seed]! }

    @Test("every node kind, some unknown kinds and unknown line types appear", arguments: seeds)
    func nodeKinds(seed: UInt64) {
        let facts = Self.facts(seed)
        for kind in CorpusFacts.knownKinds.sorted() {
            #expect(facts.nodeKinds[kind, default: 0] > 0, "no \(kind) node")
        }
        #expect(facts.unknownNodes > 0)
        #expect(Double(facts.unknownNodes) / Double(facts.screens) < 0.02)
        #expect(facts.unknownLines > 0)
        #expect(facts.unknownLineTypes.contains("reaction"))
    }

    @Test("about 30% group threads and 40% chip-eligible screens", arguments: seeds)
    func shares(seed: UInt64) {
        let facts = Self.facts(seed)
        #expect((0.2 ... 0.4).contains(facts.groupShare))
        #expect((0.3 ... 0.5).contains(facts.eligibleShare))
        #expect(facts.questionsWithTrailingSpace > 0)
        #expect(facts.longScreens > 0)
        #expect(Double(facts.longScreens) / Double(facts.screens) < 0.1)
    }

    @Test("chip replies: suggested only right after eligible screens, about 35% of those replies, short", arguments: seeds)
    func suggested(seed: UInt64) {
        let facts = Self.facts(seed)
        #expect(facts.suggestedElsewhere == 0)
        #expect((0.2 ... 0.5).contains(facts.suggestedShare))
        #expect(facts.longestSuggested <= 40)
        #expect(facts.typedVia > 0)
    }

    @Test("offline messages, draft ticks, pushes of every kind and batches", arguments: seeds)
    func offlineAndPush(seed: UInt64) {
        let facts = Self.facts(seed)
        #expect((0.04 ... 0.13).contains(facts.offlineShare))
        #expect(facts.draftTicks > 0)
        #expect((0.35 ... 0.65).contains(facts.pushShare))
        for kind in ["reply", "handoff", "quote"] { #expect(facts.pushes[kind, default: 0] > 0, "no \(kind) push") }
        #expect(facts.pushes["reply", default: 0] > facts.pushes["handoff", default: 0] + facts.pushes["quote", default: 0])
        #expect(facts.batchesOverOne > 0)
    }

    @Test("all builds, model versions and locales; some message-level lang", arguments: seeds)
    func versionsAndLocales(seed: UInt64) {
        let facts = Self.facts(seed)
        #expect(facts.builds == CorpusFacts.builds)
        #expect(facts.models == CorpusFacts.models)
        #expect(facts.locales == CorpusFacts.locales)
        #expect(facts.langOverrides > 0)
        #expect(facts.threadsWithMultipleBuilds > 0)
        #expect(facts.threadsWithMultipleBuilds < facts.threads / 5)
        #expect(facts.japaneseEligible > 0)
        #expect(facts.japaneseEligibleFullWidth == facts.japaneseEligible)
    }

    @Test("group messages are routed in all four ways", arguments: seeds)
    func routing(seed: UInt64) {
        let facts = Self.facts(seed)
        for way in ["named", "routed", "chosen", "lead"] { #expect(facts.routing[way, default: 0] > 0, "no \(way) routing") }
    }

    @Test("routed and named messages are worded for the member they went to")
    func routedTextsFitTheirMember() {
        // Every group message carrying group.to is drawn from that member's own phrasebook domain.
        var checked = 0
        var misfits = 0
        var members: [String: Set<String>] = [:]
        let english = Phrasebook.americanEnglish
        for domain in english.domains { members[domain.agent] = Set(domain.personAsks.map(Self.stem)) }
        for line in corpusLines(threads: 400, seed: 8) where line.contains(#""routed":"on-device""#) && line.contains(#""locale""#) == false {
            guard let to = line.firstMatch(of: /"to":"([A-Za-z]+)"/)?.1, let text = line.firstMatch(of: /"text":"((?:[^"\\]|\\.)*)"/)?.1 else { continue }
            let stem = Self.stem(String(text))
            let owners = members.filter { $0.value.contains(stem) }.map(\.key)
            guard !owners.isEmpty else { continue }
            checked += 1
            if !owners.contains(String(to)) { misfits += 1 }
        }
        #expect(checked > 20)
        #expect(misfits == 0)
    }

    /// The words of a template before its first placeholder, to match expanded texts to their template.
    static func stem(_ text: String) -> String {
        String(text.prefix { $0 != "{" }.prefix(18))
    }
}
