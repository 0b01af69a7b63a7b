import Foundation
import Testing
import Engine
import Jobs
import Privacy
@testable import ReplayKit
import TestSupport

/// Fallbacks injected by job, by topic and by phone through a run's own stages: the planner
/// reads each place's topic from the words its job sees, the unavailable phones' places fall back
/// before asking, and each place's reason is the injection's for its key, job and topic, however
/// the run is batched or sharded.
@Suite struct FallbackInjectionRunTests {
    /// What the threads of `corpus` are about, by thread id: health, money, or nothing expert.
    static func topic(ofThread id: String) -> ExpertTopic? {
        switch id.first {
        case "h": .health
        case "m": .money
        default: nil
        }
    }

    /// `threads` one-agent threads, each about health, money or nothing by turns: an offline
    /// message (a draft place), then a screen that asks in words (a chips place) with a push for
    /// it (a push place). The words are the team's, written here, not a corpus's.
    static func corpus(threads: Int) -> String {
        let words: [(id: String, message: String, question: String)] = [
            ("h", "My knee hurts after the long run", "Is the pain sharp when you climb stairs?"),
            ("m", "Should I invest my savings in an index fund", "How much of your salary do you want to put aside?"),
            ("p", "Plan my week of runs", "How did the long run feel today?"),
        ]
        var lines = [#"{"type":"export","version":1}"#]
        for i in 0..<threads {
            let kind = words[i % words.count], id = "\(kind.id)\(i)"
            lines.append(#"{"type":"thread","id":"\#(id)","agent":"Coach","locale":"en-US"}"#)
            lines.append(#"{"type":"message","thread":"\#(id)","id":"m1","at":"2026-09-01T07:00:00Z","from":"person","text":"\#(kind.message)","meta":{"offline":true,"build":"2.4.0","model":"26.4"}}"#)
            lines.append(#"{"type":"message","thread":"\#(id)","id":"m2","at":"2026-09-01T07:01:00Z","from":"Coach","screen":[{"say":"\#(kind.question)"}],"push":{"kind":"reply","batch":1}}"#)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The thread ids of `corpus(threads:)` by their keyed hash (the run's phones).
    static func threadIDs(_ threads: Int) -> [UInt64: String] {
        let keys = ItemKeys.unkeyed(fileCount: 1)
        return Dictionary(uniqueKeysWithValues: (0..<threads).map { i in
            let id = ["h", "m", "p"][i % 3] + "\(i)"
            return (keys.thread(file: 0, thread: id), id)
        })
    }

    /// A run of chips, push and draft over `corpus(threads:)` under `injection`.
    static func run(_ injection: FallbackInjection?, threads: Int = 30, model: any LanguageModel = ScriptedReplayModel(),
                    shard: ShardSpec = .whole) throws -> ReplayTally {
        let work = try TemporaryDirectory(prefix: "inject-run")
        var options = ReplayOptions()
        options.corpus = [writeCorpus(corpus(threads: threads), in: work.path)]
        options.injection = injection
        options.shard = shard
        return ReplayRunner(options: options, jobs: [ChipsJob(), PushJob(), DraftJob()], model: model, planningWorkers: 1).run()
    }

    /// The fallback an injected reason is counted under.
    static func counted(_ reason: FallbackInjection.Reason) -> FallbackReason {
        switch reason {
        case .refusal: .refusal
        case .guardrail: .guardrailViolation
        case .rateLimit: .rateLimited
        }
    }

    static let injectedReasons: Set<FallbackReason> = [.refusal, .guardrailViolation, .rateLimited]

    /// Every item's injected fallback is the injection's for its key, its job and the topic its
    /// thread's words name, and no other item has one.
    static func expectInjectedAsDecided(_ tally: ReplayTally, _ injection: FallbackInjection, threads: Int) {
        let ids = threadIDs(threads)
        for item in tally.items {
            let decided = injection.reason(at: item.key, job: item.job, topic: topic(ofThread: ids[item.thread]!)).map(counted)
            let injected = item.fallback.flatMap { injectedReasons.contains($0) ? $0 : nil }
            #expect(injected == decided, "\(item.job) in \(ids[item.thread]!)")
        }
    }

    @Test func aTopicsShareHitsOnlyThePlacesWhoseWordsAreAboutIt() throws {
        let injection = try FallbackInjection.parse("guardrail=health:1", seed: 2)
        let tally = try Self.run(injection)
        let ids = Self.threadIDs(30)
        // Every job's place in a health thread, and no other place.
        #expect(tally.items.count == 90)
        for item in tally.items {
            let health = Self.topic(ofThread: ids[item.thread]!) == .health
            #expect((item.fallback == .guardrailViolation) == health, "\(item.job) in \(ids[item.thread]!)")
        }
        #expect(tally.ledgers[.chips]?.overall.fallbacks[.guardrailViolation] == 10)
    }

    @Test(arguments: ["guardrail=chips/money:1", "rate_limit=push:1", "refusal=0.2,guardrail=health:0.5,rate_limit=push:0.3,guardrail=draft/health:0"])
    func eachPlaceFailsAsTheInjectionDecidesForItsJobAndTopic(_ text: String) throws {
        let injection = try FallbackInjection.parse(text, seed: 3)
        let tally = try Self.run(injection)
        Self.expectInjectedAsDecided(tally, injection, threads: 30)
        // Something was injected, and not everywhere.
        let injected = tally.items.filter { $0.fallback.map(Self.injectedReasons.contains) == true }.count
        #expect(injected > 0 && injected < tally.items.count)
    }

    /// A job's share hits that job's places alone, whatever they are about.
    @Test func aJobsShareHitsOnlyThatJob() throws {
        let tally = try Self.run(try FallbackInjection.parse("rate_limit=push:1"))
        for item in tally.items { #expect((item.fallback == .rateLimited) == (item.job == .push)) }
        #expect(tally.items.filter { $0.job == .push }.count == 30)
    }

    /// An unavailable phone loses every place it has, none asked; every other phone's places are
    /// asked, and take the places' shares as before.
    @Test func unavailableTakesEveryPlaceOfTheChosenPhonesAndNoneOfTheOthers() throws {
        let injection = try FallbackInjection.parse("refusal=1,unavailable=0.4", seed: 5)
        let tally = try Self.run(injection, threads: 60)
        let ids = Self.threadIDs(60)
        var phones: Set<UInt64> = []
        for item in tally.items {
            if injection.isUnavailable(phone: item.thread) {
                phones.insert(item.thread)
                #expect(item.fallback == .deviceUnavailable && !item.asked, "\(item.job) in \(ids[item.thread]!)")
            } else {
                #expect(item.fallback == .refusal && item.asked, "\(item.job) in \(ids[item.thread]!)")
            }
        }
        // Binomial(60, 0.4): 24 expected, sd 3.8.
        #expect(phones.count > 10 && phones.count < 38)
        #expect(tally.ledgers[.draft]?.overall.fallbacks[.deviceUnavailable] == phones.count)
    }

    /// The same places and phones whether the model is asked in calls of 8 or of 64, and whether
    /// the corpus is replayed whole or in two shards.
    @Test func theSamePlacesFailHoweverTheRunIsCutIntoCallsOrShards() throws {
        let injection = try FallbackInjection.parse("refusal=0.1,guardrail=health:0.4,rate_limit=push:0.3,unavailable=0.2", seed: 8)
        func fallbacks(_ tallies: [ReplayTally]) -> [UInt64: FallbackReason?] {
            Dictionary(uniqueKeysWithValues: tallies.flatMap(\.items).map { ($0.key, $0.fallback) })
        }
        let whole = fallbacks([try Self.run(injection, threads: 60)])
        let wider = fallbacks([try Self.run(injection, threads: 60, model: WiderBatchModel())])
        let sharded = fallbacks([try Self.run(injection, threads: 60, shard: ShardSpec(index: 0, count: 2)),
                                 try Self.run(injection, threads: 60, shard: ShardSpec(index: 1, count: 2))])
        #expect(whole.count == 180 && wider == whole && sharded == whole)
        #expect(whole.values.contains(.deviceUnavailable) && whole.values.contains(.guardrailViolation))
    }

    /// report.json's `run.inject_fallbacks` shows every scope's share and the phones'; two runs
    /// whose injections differ only by a scope differ in their options, so a merge or a resume
    /// refuses them and compare names the flag.
    @Test func theReportAndTheStateShowTheScopedShares() throws {
        var options = ReplayOptions()
        options.injection = try FallbackInjection.parse("refusal=0.05,guardrail=health:0.2,rate_limit=push:0.3,guardrail=chips/health:0.5,unavailable=0.1", seed: 7)
        let jobs: [any Job] = [ChipsJob()]
        let report = ReportBuilder(options: options, tally: ReplayTally(), model: nil, jobs: jobs, seconds: 0,
                                   started: Date(timeIntervalSince1970: 0)).build()
        let injected = try #require(report.at("run.inject_fallbacks"))
        #expect(injected.at("rates.refusal")?.doubleValue == 0.05 && injected.at("rates.guardrail")?.doubleValue == 0)
        #expect(injected.at("by_topic.health.guardrail")?.doubleValue == 0.2)
        #expect(injected.at("by_job.push.rate_limit")?.doubleValue == 0.3)
        #expect(injected.at("by_job_topic.chips.health.guardrail")?.doubleValue == 0.5)
        #expect(injected.at("unavailable_phones")?.doubleValue == 0.1 && injected.at("seed")?.doubleValue == 7)

        var other = options
        other.injection = try FallbackInjection.parse("refusal=0.05,guardrail=money:0.2,rate_limit=push:0.3,guardrail=chips/health:0.5,unavailable=0.1", seed: 7)
        #expect(StateOptions(options, jobs: jobs).differences(from: StateOptions(other, jobs: jobs)) == [OptionFlag.injectFallbacks.rawValue])
        #expect(StateOptions(options, jobs: jobs).differences(from: StateOptions(options, jobs: jobs)).isEmpty)
    }
}

/// The scripted model, asked in calls eight times as large.
final class WiderBatchModel: LanguageModel, ForwardingTokenizer, @unchecked Sendable {
    let inner = ScriptedReplayModel()
    var info: ModelInfo {
        var info = inner.info
        info.batchSize = 16
        return info
    }
    func respond(to requests: [GenerationRequest]) -> [GenerationOutcome] { inner.respond(to: requests) }
    var underlyingTokenizer: any Tokenizer { inner }
}
