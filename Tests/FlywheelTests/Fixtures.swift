import Foundation
import Testing
import Export
@testable import Flywheel
import Privacy

/// A temporary directory for one test's files, removed when the test lets go of it.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "flywheel-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes `text` to `name` and returns its path.
    @discardableResult
    func write(_ name: String, text: String) throws -> String {
        let file = path + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// The text of `name` in the directory.
    func read(_ name: String) throws -> String {
        try String(contentsOfFile: path + "/" + name, encoding: .utf8)
    }
}

/// The hand-made corpus whose every rate the tests know (see `HandCorpus.expected*`).
///
/// - t1, one agent (Coach, en-US): a chip-eligible screen with a reply push; a reply from a chip
///   (W36); a screen that asks but has a `choose` (not eligible) with a handoff push of 3; a typed
///   reply; a screen ending in "？" (eligible, W37); a typed offline reply with 2 ticks; an
///   offline message with no ticks from build "2.4.0 (530)" (the only message of that build).
/// - g1, a group (lead Coach; Coach, Sage, Penny; en-GB): "@sage" named (W36); Sage's eligible
///   screen with a reply push of 2; a chip reply in fr-FR guessed and kept; then, in W38, a
///   person choice (to Penny, no routed), one to the lead (no meta, no build), and a guess whose
///   text holds "@sagebrush" (not a member).
/// - g2, a group with no person messages: one push of kind quote, batch 12, unreadable time.
/// - g3, a group with no messages at all.
///
/// Distinctive words (`secretWords`) are in texts, screens and abouts; no output may hold them.
enum HandCorpus {
    static let secretWords = ["zephyrine", "quixotic", "marmalade", "mellifluous", "brontide", "sagebrush", "Hallo"]

    static let threads: [[String]] = [
        [
            #"{"type":"thread","id":"t1","agent":"Coach","about":"mellifluous running plans","locale":"en-US"}"#,
            #"{"type":"message","thread":"t1","id":"m1","at":"2026-09-01T07:00:00Z","from":"Coach","screen":[{"stat":{"label":"brontide","value":"3 km"}},{"say":"How was the zephyrine run?"}],"push":{"kind":"reply","batch":1}}"#,
            #"{"type":"message","thread":"t1","id":"m2","at":"2026-09-01T07:01:00Z","from":"person","text":"quixotic marmalade","meta":{"via":"suggested","build":"2.3.0 (512)","model":"26.4"}}"#,
            #"{"type":"message","thread":"t1","id":"m3","at":"2026-09-02T08:00:00Z","from":"Coach","screen":[{"say":"Which zephyrine day?"},{"choose":{"options":["Mon","Tue"]}}],"push":{"kind":"handoff","batch":3}}"#,
            #"{"type":"message","thread":"t1","id":"m4","at":"2026-09-02T08:05:00Z","from":"person","text":"Tue marmalade","meta":{"build":"2.3.0 (512)","model":"26.4"}}"#,
            #"{"type":"message","thread":"t1","id":"m5","at":"2026-09-08T09:00:00Z","from":"Coach","screen":[{"say":"Sleep ok, quixotic？ "}]}"#,
            #"{"type":"message","thread":"t1","id":"m6","at":"2026-09-08T09:10:00+02:00","from":"person","text":"zephyrine list please","meta":{"via":"typed","build":"2.3.0 (512)","model":"26.4","offline":true,"draft_ticks":[0,2]}}"#,
            #"{"type":"message","thread":"t1","id":"m7","at":"2026-09-08T09:20:00Z","from":"person","text":"brontide timer","meta":{"build":"2.4.0 (530)","model":"27.0","offline":true}}"#,
        ],
        [
            #"{"type":"thread","id":"g1","locale":"en-GB","group":{"lead":"Coach","members":[{"name":"Coach","about":"mellifluous training"},{"name":"Sage","about":"sleep"},{"name":"Penny","about":"money"}]}}"#,
            #"{"type":"message","thread":"g1","id":"n1","at":"2026-09-03T10:00:00Z","from":"person","text":"@sage can you help with zephyrine","meta":{"group":{"to":"Sage"},"build":"2.3.0 (512)","model":"26.4"}}"#,
            #"{"type":"message","thread":"g1","id":"n2","at":"2026-09-03T10:01:00Z","from":"Sage","screen":[{"say":"Sure, what marmalade time?"}],"push":{"kind":"reply","batch":2}}"#,
            #"{"type":"message","thread":"g1","id":"n3","at":"2026-09-03T10:02:00Z","from":"person","text":"ce soir quixotic","lang":"fr-FR","meta":{"via":"suggested","group":{"to":"Sage","routed":"on-device"},"build":"2.3.0 (512)","model":"26.4"}}"#,
            #"{"type":"message","thread":"g1","id":"n4","at":"2026-09-15T10:00:00Z","from":"person","text":"brontide budget question","meta":{"group":{"to":"Penny"},"build":"2.3.0 (512)","model":"26.4"}}"#,
            #"{"type":"message","thread":"g1","id":"n5","at":"2026-09-15T10:05:00Z","from":"person","text":"hello zephyrine all"}"#,
            #"{"type":"message","thread":"g1","id":"n6","at":"2026-09-15T10:06:00Z","from":"person","text":"mail me@sagebrush.example","meta":{"group":{"to":"Sage","routed":"on-device"},"build":"2.3.0 (512)","model":"26.4"}}"#,
        ],
        [
            #"{"type":"thread","id":"g2","locale":"de-DE","group":{"lead":"Penny","members":[{"name":"Penny","about":"mellifluous money"},{"name":"Sage"}]}}"#,
            #"{"type":"message","thread":"g2","id":"p1","at":"yesterday","from":"Penny","screen":[{"say":"Hallo?"}],"push":{"kind":"quote","batch":12}}"#,
        ],
        [
            #"{"type":"thread","id":"g3","locale":"ja-JP","group":{"lead":"Sage","members":[{"name":"Sage"},{"name":"Coach"}]}}"#,
        ],
    ]

    /// The JSON Lines of `threads` (all by default), with the export header first.
    static func jsonl(_ selected: [[String]] = threads) -> String {
        ([#"{"type":"export","version":1,"anonymised":true}"#] + selected.flatMap { $0 }).joined(separator: "\n") + "\n"
    }

    /// The team's list for the fixtures' agents (`--labels`): without it every agent is a hash.
    static let labels = TeamLabels(agents: ["Coach", "Sage", "Penny", "Chef"])

    /// Counts `text` read from a file through `CorpusReader`, checking the reader found nothing
    /// bad, with the agents of `listed` kept as written.
    static func count(_ text: String, in directory: TemporaryDirectory, name: String = "corpus.jsonl",
                      listed: TeamLabels = labels) throws -> FlywheelCounter {
        let path = try directory.write(name, text: text)
        let reader = try CorpusReader(paths: [path])
        var counter = FlywheelCounter(listed: listed)
        for event in reader {
            switch event {
            case .record: counter.add(event)
            case .badLine(let bad): Issue.record("bad line: \(bad)")
            case .fileFailed(let error): Issue.record("file failed: \(error)")
            }
        }
        return counter
    }
}

/// `value` rounded to 4 decimals, for comparing with hand-computed bounds.
func rounded4(_ value: Double?) -> Double? {
    value.map { ($0 * 10_000).rounded() / 10_000 }
}

/// A bigger made-up corpus for the render check: `threads` threads over ten weeks, two builds and
/// three model versions, chosen by a fixed linear congruential generator so it is the same every run.
enum SyntheticCorpus {
    static func jsonl(threads: Int = 240) -> String {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func roll(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        let builds = ["2.3.0 (512)", "2.3.1 (518)", "2.4.0 (530)"]
        let models = ["26.0", "26.4", "27.0"]
        let agents = ["Coach", "Sage", "Penny", "Chef"]
        var lines = [#"{"type":"export","version":1}"#]
        for t in 0..<threads {
            let group = t % 4 == 0
            let id = "t\(t)"
            let agent = agents[roll(agents.count)]
            if group {
                lines.append(#"{"type":"thread","id":"\#(id)","locale":"en-GB","group":{"lead":"Coach","members":[{"name":"Coach"},{"name":"Sage"},{"name":"Penny"}]}}"#)
            } else {
                lines.append(#"{"type":"thread","id":"\#(id)","agent":"\#(agent)","locale":"\#(["en-US", "de-DE", "ja-JP"][roll(3)])"}"#)
            }
            let week = t % 10, build = builds[min(2, week / 4 + roll(2))], model = models[roll(3)]
            for m in 0..<6 {
                let day = 1 + week * 7 + m / 3
                let at = String(format: "2026-%02d-%02dT10:%02d:00Z", day > 30 ? 10 : 9, day > 30 ? day - 30 : day, m)
                if m % 2 == 0 {
                    let sender = group ? ["Coach", "Sage", "Penny"][roll(3)] : agent
                    let ask = roll(3) > 0 ? "Anything else?" : "Done."
                    let push = roll(4) == 0 ? "" : #","push":{"kind":"\#(["reply", "reply", "handoff", "quote"][roll(4)])","batch":\#(1 + roll(3) * roll(4))}"#
                    lines.append(#"{"type":"message","thread":"\#(id)","id":"m\#(m)","at":"\#(at)","from":"\#(sender)","screen":[{"say":"\#(ask)"}]\#(push)}"#)
                } else {
                    var meta = #""build":"\#(build)","model":"\#(model)""#
                    if roll(100) < 25 + week * 4 { meta += #","via":"suggested""# }
                    if group {
                        switch roll(4) {
                        case 0: meta += #","group":{"to":"Sage","routed":"on-device"}"#
                        case 1: meta += #","group":{"to":"Penny"}"#
                        default: break
                        }
                    }
                    if roll(5) == 0 { meta += #","offline":true"# + (roll(2) == 0 ? #","draft_ticks":[0,1]"# : "") }
                    let text = group && roll(5) == 0 ? "@Sage zephyrine" : "quixotic words"
                    lines.append(#"{"type":"message","thread":"\#(id)","id":"m\#(m)","at":"\#(at)","from":"person","text":"\#(text)","meta":{\#(meta)}}"#)
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
