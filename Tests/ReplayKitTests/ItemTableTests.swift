import Foundation
import Jobs
import Privacy
@testable import ReplayKit
import Testing
import RunTestSupport
import TestSupport

/// `items.json.zst` (`replay.items/1`): every item of a run, read back exactly, in one order
/// whatever order it was made in, refused with a named reason when damaged, and agreeing with
/// the report's counts to the unit.
@Suite struct ItemTableTests {
    /// Items with every field set and unset, from a fixed generator (no randomness between runs).
    static func items(_ count: Int, seed: UInt64 = 7) -> [ItemOutcome] {
        var state = seed
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        return (0..<count).map { index in
            let asked = next() % 3 != 0
            let job = JobKind.allCases[Int(next() % 4)]
            return ItemOutcome(
                key: next(), thread: UInt64(index / 5) &* 0x1234_5678_9abc_def1, job: job,
                build: ["2.3.0 (512)", "#h:0badf00d", "unknown"][Int(next() % 3)], model: ["26.4", "27.0"][Int(next() % 2)],
                locale: ["en-GB", "ja-JP", "unknown"][Int(next() % 3)], asked: asked, answered: asked && next() % 2 == 0,
                fallback: next() % 4 == 0 ? nil : FallbackReason.allCases[Int(next() % UInt64(FallbackReason.allCases.count))],
                inputWasCut: next() % 5 == 0, inBudgetHost: asked ? next() % 2 == 0 : nil, inBudgetDevice: asked ? next() % 2 == 0 : nil, inBudgetQueued: asked ? next() % 3 == 0 : nil,
                hostMicroseconds: asked ? Int(next() % 2_000_000) : nil, deviceMicroseconds: asked ? Int(next() % 900_000) : nil,
                tokensIn: asked ? Int(next() % 900) : 0, tokensOut: asked ? Int(next() % 60) : 0,
                quality: asked ? ["exact_match": Int(next() % 2) * 1_000_000_000, "best_f1": Int(next() % 1_000_000_001)] : [:],
                qualityAllAnswers: asked && next() % 2 == 0 ? ["exact_match": 1_000_000_000] : [:],
                violations: asked ? Set(NeverRule.rules(of: job).filter { _ in next() % 4 == 0 }) : [])
        }
    }

    /// A table written before locales and never rules were kept reads as every item's locale
    /// unknown and no rule broken, so a comparison with an older baseline still pairs its items.
    @Test func aTableOfBeforeLocalesAndNeverRulesReadsWithNone() throws {
        let table = ItemTable(Self.items(40))
        #expect(table.items.contains { !$0.violations.isEmpty } && table.items.contains { $0.locale != "unknown" })
        var older = try #require(try JSONSerialization.jsonObject(with: Data(table.json().utf8)) as? [String: Any])
        older["locales"] = nil
        older["never_rules"] = nil
        var columns = try #require(older["columns"] as? [String: Any])
        columns["locale"] = nil
        columns["violations"] = nil
        older["columns"] = columns
        let text = String(decoding: try JSONSerialization.data(withJSONObject: older), as: UTF8.self)
        let back = try ItemTable(json: text, name: "items.json.zst")
        #expect(back.items.map(\.key) == table.items.map(\.key))
        #expect(back.items.allSatisfy { $0.locale == "unknown" && $0.violations.isEmpty })
        #expect(back.items.map(\.answered) == table.items.map(\.answered))
    }

    @Test(arguments: [0, 1, 17, 2_000])
    func aTableReadsBackExactly(count: Int) throws {
        let table = ItemTable(Self.items(count))
        let back = try ItemTable(compressed: table.compressed(), name: "items.json.zst")
        #expect(back == table)
        #expect(back.items.count == count)
        #expect(back.json() == table.json())
    }

    /// The writer's fast bytes are the document's encoding rendered compactly, so the file is
    /// `ItemsDocument` and nothing else; and the document decodes strictly to the same table.
    @Test(arguments: [0, 1, 17, 2_000])
    func theBytesAreTheDocumentsEncoding(count: Int) throws {
        let table = ItemTable(Self.items(count))
        let document = ItemsDocument(table)
        let value = try ReportValueEncoder().encode(document)
        #expect(table.json() == value.compactJSON())
        #expect(try ReportValueDecoder(strict: true).decode(ItemsDocument.self, from: value) == document)
        #expect(document.items == table.items)
    }

    /// The auditor's judge rules on the hashes and the labels as the document decodes.
    @Test func theDocumentsStringsAreJudged() throws {
        final class Judge: ResultStringJudge, @unchecked Sendable {
            var rules: [ResultStringRule: Int] = [:]
            let refused: String?
            init(refusing refused: String? = nil) { self.refused = refused }
            func problem(with text: String, as rule: ResultStringRule) -> String? {
                rules[rule, default: 0] += 1
                return text == refused ? "a label" : nil
            }
        }
        let table = ItemTable(Self.items(30))
        let value = try ReportValueEncoder().encode(ItemsDocument(table))
        let judge = Judge()
        _ = try ReportValueDecoder(userInfo: [.resultStringJudge: judge], strict: true).decode(ItemsDocument.self, from: value)
        #expect(judge.rules[.hex(16)] == 30 + Set(table.items.map(\.thread)).count)
        #expect(judge.rules[.label(.build)] == 3 && judge.rules[.label(.model)] == 2 && judge.rules[.label(.locale)] == 3)
        #expect(throws: StateFormatError.self) {
            try ReportValueDecoder(userInfo: [.resultStringJudge: Judge(refusing: "27.0")], strict: true).decode(ItemsDocument.self, from: value)
        }
    }

    @Test(arguments: [("items.json.zst", true), ("checkpoint-000001.items.json.zst", true), ("checkpoint-1234567.items.json.zst", true),
                      ("checkpoint-000000.items.json.zst", false), ("checkpoint-00001.items.json.zst", false),
                      ("checkpoint-+00001.items.json.zst", false), ("checkpoint-000001.json", false), ("report.json", false)])
    func itemsFileNames(name: String, isItems: Bool) {
        #expect(ItemsDocument.isFileName(name) == isItems)
    }

    @Test func theOrderIsCanonicalWhateverTheInputOrder() {
        let items = Self.items(300)
        #expect(ItemTable(items.reversed()).json() == ItemTable(items).json())
        let halves = ItemTable(merging: [ItemTable(Array(items[150...])), ItemTable(Array(items[..<150]))])
        #expect(halves.compressed() == ItemTable(items).compressed())
    }

    @Test func aRepeatedKeyIsCounted() {
        var items = Self.items(10)
        items[3].key = items[7].key
        #expect(ItemTable(items).repeatedKeys == 1)
        #expect(ItemTable(Self.items(10)).repeatedKeys == 0)
    }

    /// Each damage, and the words the error must hold.
    static let damages: [(String, @Sendable (String) -> String, String)] = [
        ("schema", { $0.replacingOccurrences(of: "replay.items/1", with: "replay.items/9") }, "schema: not this file's schema"),
        ("count", { $0.replacingOccurrences(of: "\"count\":3,", with: "\"count\":4,") }, "columns.key has 3 values for 4 items"),
        ("index", { $0.replacingOccurrences(of: "\"job\":[", with: "\"job\":[9,").replacingOccurrences(of: "\"count\":3,", with: "\"count\":3,") }, "columns.job"),
        ("hex", { $0.replacingOccurrences(of: "\"key\":[\"", with: "\"key\":[\"zz") }, "columns.key"),
        ("text", { $0.replacingOccurrences(of: "\"tokens_in\":[", with: "\"tokens_in\":[\"a\",") }, "columns.tokens_in"),
        ("order", { text in
            // Swap the first two keys: the table is no longer in canonical order.
            let table = try! ItemTable(json: text, name: "x")
            var items = table.items
            items.swapAt(0, 1)
            var swapped = text
            swapped = swapped.replacingOccurrences(of: ItemTable.hex(items[1].key), with: "KEY-A")
            swapped = swapped.replacingOccurrences(of: ItemTable.hex(items[0].key), with: ItemTable.hex(items[1].key))
            return swapped.replacingOccurrences(of: "KEY-A", with: ItemTable.hex(items[0].key))
        }, "canonical order"),
    ]

    @Test(arguments: 0..<ItemTableTests.damages.count)
    func aDamagedTableIsRefusedWithItsReason(index: Int) throws {
        let (_, damage, words) = Self.damages[index]
        var items = Self.items(3)
        for i in items.indices { items[i].thread = 42 }   // one thread: the order is by key
        let text = damage(ItemTable(items).json())
        do {
            _ = try ItemTable(json: text, name: "run/items.json.zst")
            Issue.record("a damaged table was read")
        } catch {
            #expect(error.description.hasPrefix("run/items.json.zst: "), "\(error.description)")
            #expect(error.description.contains(words), "\(error.description)")
        }
    }

    @Test func bytesThatAreNotZstdOrAreCutShortAreRefused() throws {
        let bytes = ItemTable(Self.items(50)).compressed()
        for damaged in [Array("{}".utf8), Array(bytes.prefix(bytes.count / 2)), []] {
            #expect(throws: StateFormatError.self) { try ItemTable(compressed: damaged, name: "items.json.zst") }
        }
    }

    /// The keys: the same place under the same key agrees; another key, file, thread, message or
    /// job gives another key.
    @Test func keysNameThePlaceUnderTheRunKey() {
        let key = RunKey(bytes: Array(repeating: 1, count: RunKey.length))!
        let other = RunKey(bytes: Array(repeating: 2, count: RunKey.length))!
        let keys = ItemKeys(key: key, fileDigests: ["aa", "bb"])
        let one = keys.key(file: 0, thread: "t1", message: "m1", job: .chips)
        #expect(one == ItemKeys(key: key, fileDigests: ["aa", "cc"]).key(file: 0, thread: "t1", message: "m1", job: .chips))
        #expect(one != ItemKeys(key: other, fileDigests: ["aa", "bb"]).key(file: 0, thread: "t1", message: "m1", job: .chips))
        #expect(one != keys.key(file: 1, thread: "t1", message: "m1", job: .chips))
        #expect(one != keys.key(file: 0, thread: "t2", message: "m1", job: .chips))
        #expect(one != keys.key(file: 0, thread: "t1", message: "m2", job: .chips))
        #expect(one != keys.key(file: 0, thread: "t1", message: "m1", job: .push))
        // The parts are apart: "t1" + "m1x" is not "t1m" + "1x".
        #expect(keys.key(file: 0, thread: "t1", message: "m1x", job: .chips) != keys.key(file: 0, thread: "t1m", message: "1x", job: .chips))
        #expect(keys.thread(file: 0, thread: "t1") != keys.thread(file: 0, thread: "t2"))
        #expect(keys.thread(file: 0, thread: "t1") != one)
    }

    /// An in-process run's items add up to its report's counts, job by job and build by build.
    @Test(arguments: [true, false])
    func itemsAddUpToTheLedgers(dryRun: Bool) throws {
        let directory = try TemporaryDirectory(prefix: "items")
        let paths = try StateFixtures.corpus(in: directory)
        let state = StateFixtures.state(paths, dryRun: dryRun)
        #expect(!state.items.isEmpty)
        #expect(ItemTable(state.items).repeatedKeys == 0)
        for (kind, ledger) in state.ledgers {
            let items = state.items.filter { $0.job == kind }
            let metrics = ledger.overall
            #expect(items.count == metrics.eligible, "\(kind)")
            #expect(items.filter(\.asked).count == metrics.asked, "\(kind)")
            #expect(items.filter(\.answered).count == metrics.answered, "\(kind)")
            #expect(items.filter { $0.inBudgetDevice == true }.count == metrics.inBudgetDevice, "\(kind)")
            #expect(items.filter { $0.inBudgetQueued == true }.count == metrics.inBudgetQueued, "\(kind)")
            #expect(items.filter(\.inputWasCut).count == metrics.inputCut, "\(kind)")
            #expect(items.map(\.tokensIn).reduce(0, +) == metrics.tokensIn, "\(kind)")
            #expect(items.map(\.tokensOut).reduce(0, +) == metrics.tokensOut, "\(kind)")
            for reason in FallbackReason.allCases {
                #expect(items.filter { $0.fallback == reason }.count == metrics.fallbacks[reason, default: 0], "\(kind) \(reason)")
            }
            for (name, tally) in metrics.quality {
                let values = items.compactMap { $0.quality[name] }
                #expect(values.count == tally.count, "\(kind) \(name)")
                #expect(values.reduce(0, +) == tally.sumBillionths, "\(kind) \(name)")
            }
            for (build, slice) in ledger.byBuild {
                #expect(items.filter { $0.build == build }.count == slice.eligible, "\(kind) \(build)")
            }
        }
        if !dryRun { #expect(state.items.contains { $0.asked && $0.hostMicroseconds != nil }) }
    }

    /// Shards' items together are the one-process run's, and a checkpoint's items are a prefix.
    @Test func shardsItemsAreTheWholeRunsItems() throws {
        let directory = try TemporaryDirectory(prefix: "items")
        let paths = try StateFixtures.corpus(in: directory)
        let whole = StateFixtures.state(paths)
        let shards = (0..<3).map { StateFixtures.state(paths, shard: ShardSpec(index: $0, count: 3)) }
        #expect(ItemTable(merging: shards.map { ItemTable($0.items) }).compressed() == ItemTable(whole.items).compressed())
        #expect(shards.allSatisfy { $0.items.count < whole.items.count })
    }
}
