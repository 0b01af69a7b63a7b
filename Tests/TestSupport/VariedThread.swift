import Export
import Jobs
import Privacy

/// A long thread of every kind of message, drawn from a seeded generator: agent screens that
/// ask, tell, offer buttons or show only a picture, pushes of every kind and batch, person
/// replies with and without builds, offline messages, `@` mentions, languages the jobs support
/// and one they do not, and runs of agent messages long enough to need a distant person message.
public enum VariedThread {
    /// SplitMix64: the same messages for the same seed on every platform.
    public struct Generator {
        public var state: UInt64
        public init(state: UInt64) { self.state = state }
        public mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
        public mutating func pick<T>(_ values: [T]) -> T { values[below(values.count)] }
    }

    /// The group's members: Coach (the lead), Sage and Penny.
    public static let members = [
        GroupMember(name: "Coach", about: SealedText("training plans and runs")),
        GroupMember(name: "Sage", about: SealedText("sleep and calm")),
        GroupMember(name: "Penny", about: SealedText("money and budgets")),
    ]

    static let words = ["run", "knee", "sleep", "budget", "plan", "rest", "tempo", "stretch", "water", "week",
                        "lunes", "semaine", "schlaf", "ひざ", "睡眠"]

    /// `messages` messages; with `repeating`, one block of 1,000 drawn from `seed` and repeated
    /// (ids kept unique), so the work of a thread twice as long is exactly twice as much.
    public static func make(messages count: Int, seed: UInt64, group: Bool, repeating: Bool = false) -> ThreadSnapshot {
        var generator = Generator(state: seed)
        let block = repeating ? 1000 : count
        var drawn: [MessageRecord] = []
        // An agent-only stretch first, so the first messages have no person message before them.
        var agentRun = 4
        for index in 0..<block {
            let fromPerson: Bool
            if agentRun > 0 {
                fromPerson = false
                agentRun -= 1
            } else {
                fromPerson = generator.below(3) == 0
                if generator.below(40) == 0 { agentRun = 20 + generator.below(60) }
            }
            // The last messages are the agents', so they have no person message after them.
            drawn.append(fromPerson && index < block - 3 ? person(index, &generator, group: group) : agent(index, &generator))
        }
        var all = drawn
        while all.count < count {
            let round = all.count / block
            all += drawn.prefix(count - all.count).map { message in
                var copy = message
                copy.id = "r\(round)-\(message.id)"
                return copy
            }
        }
        let thread = group
            ? ThreadRecord(id: "g1", locale: "en-GB", group: GroupInfo(lead: "Coach", members: members))
            : ThreadRecord(id: "t1", agent: "Coach", locale: "en-US")
        return ThreadSnapshot(thread: thread, messages: all)
    }

    static func sentence(_ generator: inout Generator, length: Int) -> String {
        (0..<length).map { _ in generator.pick(words) }.joined(separator: " ")
    }

    static func language(_ generator: inout Generator) -> String? {
        generator.pick([nil, nil, nil, nil, "fr", "ja-JP", "de", "ru"])   // ru: not supported
    }

    static func person(_ index: Int, _ generator: inout Generator, group: Bool) -> MessageRecord {
        var text = sentence(&generator, length: 1 + generator.below(12))
        switch generator.below(12) {
        case 0: text = "@Sage " + text
        case 1: text = text + " @penny?"
        case 2: text = "x@sage.com " + text
        case 3: text = "make a list: " + text
        case 4: text = "timer 10 min " + text
        case 5: text = ""
        default: break
        }
        let builds: [String?] = ["2.4.0 (530)", "2.3.0 (512)", "2.5.0 (601)", nil]
        let models: [String?] = ["26.4", "27.0", nil]
        let offline = generator.below(5) == 0
        let ticks: [Int]? = offline && generator.below(2) == 0 ? [0] : nil
        let groupTo: String? = group ? generator.pick([nil, "Sage", "Penny", "Coach"]) : nil
        let routed: String? = groupTo != nil && generator.below(2) == 0 ? "on-device" : nil
        return MessageRecord(thread: group ? "g1" : "t1", id: "m\(index)", from: .person,
                             text: generator.below(20) == 0 ? nil : SealedText(text), lang: language(&generator),
                             meta: MessageMeta(groupTo: groupTo, groupRouted: routed, offline: offline, draftTicks: ticks,
                                               build: generator.pick(builds), model: generator.pick(models)))
    }

    static func agent(_ index: Int, _ generator: inout Generator) -> MessageRecord {
        let from = generator.pick(["Coach", "Coach", "Sage", "Penny"])
        let say = sentence(&generator, length: 1 + generator.below(30))
        let screen: Screen?
        switch generator.below(8) {
        case 0: screen = nil
        case 1: screen = Screen(nodes: [.picture])
        case 2: screen = Screen(nodes: [.say(SealedText(say + "?")), .choose(prompt: nil, optionCount: 2)])
        case 3: screen = Screen(nodes: [.say(SealedText(say + "？")), .stat(label: SealedText("kg"), value: SealedText("-1"), unit: nil)])
        case 4:   // long enough that a batch of three is cut to 1,000 tokens
            screen = Screen(nodes: [.list(title: SealedText("Plan"), items: (0..<60).map { _ in SealedText(sentence(&generator, length: 12)) }),
                                    .say(SealedText(say))])
        case 5: screen = Screen(nodes: [.say(SealedText(say + " ?"))])
        default: screen = Screen(nodes: [.say(SealedText(say + "."))])
        }
        let push: PushInfo? = switch generator.below(6) {
        case 0, 1: PushInfo(kind: "reply", batch: generator.below(6))
        case 2: PushInfo(kind: generator.pick(["handoff", "quote", "other"]))
        default: nil
        }
        return MessageRecord(thread: "t1", id: "m\(index)", from: .agent(from), screen: screen, push: push,
                             lang: language(&generator))
    }
}
