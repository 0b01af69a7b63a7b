/// Composes one thread's lines (its thread line, messages, the odd unknown line) from the seed and the thread's index.
///
/// Each thread draws from its own generator seeded by (seed, index), so a thread's content does
/// not depend on the threads before it and the corpus streams one thread at a time.
struct ThreadComposer: Sendable {
    let seed: UInt64
    var maxExchanges: Int? = nil

    /// The first day a thread may start.
    static let firstDay = UTCTime(year: 2026, month: 6, day: 1)
    /// When the export was made: two days after the last day a message may be sent.
    static let created = UTCTime(year: 2026, month: 10, day: 2)

    static let builds = ["2.3.0 (512)", "2.4.0 (530)", "2.4.1 (534)"]
    static let models = ["26.0", "26.4", "27.0"]

    /// One composed thread.
    struct Thread {
        var lines: [String] = []
        var isGroup = false
        var agentMessages = 0
        var personMessages = 0
        var unknownLines = 0
        var unknownNodes = 0
    }

    private struct Member {
        let name: String
        let about: String
        let domain: Domain
    }

    /// Where a person's message in a group went, and why.
    private enum Routing {
        /// No `group` meta: it went to the lead.
        case lead
        /// `@Name` in the text, `group.to` set by the app.
        case named
        /// The phone's guess, kept: `group.to` plus `routed: on-device`.
        case routed
        /// The person changed the pill: `group.to` without `routed`.
        case chosen
    }

    private enum OfflineKind { case list, timer, note, expert }

    func compose(index: Int) -> Thread {
        var mixer = seed ^ (UInt64(truncatingIfNeeded: index) &* 0xD1B5_4A32_D192_ED03)
        var rng = Xoshiro256(seed: Xoshiro256.splitMix(&mixer))
        var out = Thread()

        let locale = Phrasebook.locales[rng.weighted(Phrasebook.locales.map(\.weight))].locale
        let book = Phrasebook.book(for: locale)
        out.isGroup = rng.chance(0.3)

        var members: [Member] = []
        var lead = 0
        if out.isGroup {
            let count = [2, 3, 4][rng.weighted([30, 45, 25])]
            for domainIndex in rng.distinct(count, below: book.domains.count) {
                let domain = book.domains[domainIndex]
                let about = rng.chance(0.55) ? domain.about : rng.pick(domain.groupAbouts)
                members.append(Member(name: domain.agent, about: about, domain: domain))
            }
            // Shuffle so the lead is not always the first domain in the book.
            for position in stride(from: members.count - 1, to: 0, by: -1) {
                members.swapAt(position, rng.below(position + 1))
            }
            lead = rng.below(members.count)
        } else {
            let domain = book.domains[rng.weighted(book.weights)]
            members.append(Member(name: domain.agent, about: domain.about, domain: domain))
        }

        let threadID = (out.isGroup ? "g_" : "t_") + ThreadComposer.identifier(index: index, seed: seed)
        out.lines.append(threadLine(id: threadID, locale: locale, members: members, lead: lead, isGroup: out.isGroup))

        // The person: one app build and model version, upgraded mid-thread now and then.
        var build = rng.weighted([30, 40, 30])
        var model = rng.weighted([25, 45, 30])
        let upgradeAt = rng.chance(0.06) ? rng.int(1 ... 12) : -1
        var secondBook: Phrasebook?
        if rng.chance(0.04) {
            let others = Phrasebook.locales.map(\.locale).filter { $0 != locale }
            secondBook = Phrasebook.book(for: locale == "ja-JP" && rng.chance(0.6) ? "en-US" : rng.pick(others))
        }

        var clock = ThreadComposer.firstDay.seconds + Int64(rng.below(112)) * 86_400 + 25_200 + Int64(rng.below(57_600))
        let deadline = ThreadComposer.created.seconds - 86_400 * 2
        var messageNumber = 0
        func nextID() -> String {
            messageNumber += 1
            return "m_\(messageNumber)"
        }
        func advance(_ low: Int, _ high: Int, _ rng: inout Xoshiro256) {
            let gap = clock + Int64(high) < deadline ? rng.int(low ... high) : rng.int(1 ... 30)
            clock += Int64(max(1, gap))
        }

        let exchanges = min(ThreadComposer.exchangeCount(&rng), maxExchanges ?? .max)
        var lastScreen: ScreenComposer.Screen?
        var lastSpeaker = lead

        // Some threads open with the agent's greeting.
        if rng.chance(0.15) {
            let member = members[lead]
            let greeting = rng.pick(book.greetings).replacing("@AGENT", with: member.name)
            let screen = ScreenComposer(book: book, domain: member.domain).compose(using: &rng, question: greeting)
            out.lines.append(agentLine(thread: threadID, id: nextID(), at: clock, from: member.name, lang: nil,
                                       screen: screen.json, push: rng.chance(0.5) ? ("reply", 1) : nil))
            out.agentMessages += 1
            out.unknownNodes += screen.unknownNodes
            lastScreen = screen
        }

        for exchange in 0 ..< exchanges {
            if exchange == upgradeAt {
                build = min(build + 1, 2)
                if rng.chance(0.6) { model = min(model + 1, 2) }
            }

            // The person's message: sent offline, a tapped chip, or typed.
            let goesOffline = (exchange > 0 || lastScreen != nil) && rng.chance(0.095)
            let suggested = !goesOffline && lastScreen?.ending == .question && rng.chance(0.35)
            var target = 0
            var routing = Routing.lead
            if out.isGroup {
                if suggested {
                    // A chip answers the member who asked; the app addresses it, no @name.
                    target = lastSpeaker
                    routing = target == lead ? .lead : .chosen
                } else {
                    target = lastScreen != nil && rng.chance(0.5) ? lastSpeaker : rng.below(members.count)
                    routing = [Routing.named, .routed, .chosen, .lead][rng.weighted([20, 35, 15, 30])]
                    if routing != .lead, target == lead, rng.chance(0.5) {
                        // Asking the lead by name or pill is less common than just not naming anyone.
                        routing = .lead
                    }
                }
            }
            let domain = members[target].domain
            var text: String
            var via: String?
            var offline = false
            var ticks: [Int] = []
            var lang: String?
            let typedVia: String? = build >= 1 && rng.chance(0.7) ? "typed" : nil

            if goesOffline {
                offline = true
                let kind = [OfflineKind.list, .timer, .note, .expert][rng.weighted([30, 22, 18, 30])]
                let pool: [String] = switch kind {
                case .list: domain.offlineLists
                case .timer: domain.offlineTimers
                case .note: domain.offlineNotes
                case .expert: domain.expert
                }
                text = book.expand(rng.pick(pool.isEmpty ? domain.expert : pool), in: domain, using: &rng)
                if kind == .list, rng.chance(0.5) { ticks = rng.distinct(rng.int(1 ... 3), below: rng.int(4 ... 8)) }
                via = typedVia
            } else if suggested, let screen = lastScreen {
                text = chipReply(book: book, domain: domain, fitting: screen.replies, &rng)
                via = "suggested"
            } else if let screen = lastScreen, !screen.options.isEmpty, rng.chance(0.5) {
                text = rng.pick(screen.options)
                via = typedVia
            } else {
                var textBook = book
                var textDomain = domain
                if let second = secondBook, rng.chance(0.3) {
                    textBook = second
                    textDomain = second.domain(named: domain.agent) ?? second.domains[0]
                    lang = second.locale
                }
                text = personText(book: textBook, domain: textDomain, opening: lastScreen == nil,
                                  fitting: lang == nil && target == lastSpeaker ? lastScreen?.replies ?? [] : [], &rng)
                via = typedVia
            }
            if routing == .named { text = "@" + members[target].name + " " + text }
            if exchange > 0 || lastScreen != nil {
                // The person answers within minutes mostly, sometimes hours or a day or two later.
                let pause = [(15, 120), (120, 1_800), (3_600, 28_800), (43_200, 144_000)][rng.weighted([40, 35, 15, 10])]
                advance(pause.0, pause.1, &rng)
            }
            out.lines.append(personLine(
                thread: threadID, id: nextID(), at: clock, lang: lang, text: text, via: via,
                groupTo: routing == .lead ? nil : members[target].name, routed: routing == .routed,
                offline: offline, ticks: ticks, build: build, model: model))
            out.personMessages += 1
            if rng.chance(0.0015) {
                out.lines.append(receiptLine(thread: threadID, message: "m_\(messageNumber)", at: clock + 2))
                out.unknownLines += 1
            }

            // A person's last message may still be waiting for its answer.
            if exchange == exchanges - 1, rng.chance(0.15) { break }

            // The agent's answer: the member it went to, the lead, or the lead handing it on.
            let responder = routing == .lead ? lead : target
            let replyLang = lang != nil && rng.chance(0.5) ? lang : nil
            let replyBook = replyLang.flatMap { _ in secondBook } ?? book
            let replyDomain = replyBook.domain(named: members[responder].name) ?? members[responder].domain
            let wait = offline ? (120, 21_600) : (4, 90)
            advance(wait.0, wait.1, &rng)

            if out.isGroup, routing == .lead, target != lead, rng.chance(0.7) {
                let handoff = rng.pick(book.handoffs).replacing("@NAME", with: members[target].name)
                let note = ScreenComposer(book: book, domain: members[lead].domain).statement(handoff)
                out.lines.append(agentLine(thread: threadID, id: nextID(), at: clock, from: members[lead].name, lang: nil,
                                           screen: note.json, push: rng.chance(0.3) ? ("reply", 1) : nil))
                out.agentMessages += 1
                advance(20, 600, &rng)
                let screen = ScreenComposer(book: book, domain: members[target].domain).compose(using: &rng)
                out.lines.append(agentLine(thread: threadID, id: nextID(), at: clock, from: members[target].name, lang: nil,
                                           screen: screen.json, push: rng.chance(0.85) ? ("handoff", 1) : nil))
                out.agentMessages += 1
                out.unknownNodes += screen.unknownNodes
                lastScreen = screen
                lastSpeaker = target
                continue
            }

            let run = rng.weighted([850, 80, 40, 15, 10, 5]) + 1
            let pushed = rng.chance(0.5)
            for position in 1 ... run {
                if position > 1 { advance(30, 1_800, &rng) }
                let screen = ScreenComposer(book: replyBook, domain: replyDomain).compose(using: &rng)
                let id = nextID()
                let kind = rng.chance(0.08) ? "quote" : "reply"
                out.lines.append(agentLine(thread: threadID, id: id, at: clock, from: members[responder].name, lang: replyLang,
                                           screen: screen.json, push: pushed ? (kind, position) : nil))
                out.agentMessages += 1
                out.unknownNodes += screen.unknownNodes
                lastScreen = screen
                if rng.chance(0.006) {
                    out.lines.append(reactionLine(thread: threadID, message: id, at: clock + Int64(rng.int(5 ... 300)),
                                                  emoji: rng.pick(["👍", "❤️", "😂", "🙏", "🎉"])))
                    out.unknownLines += 1
                }
            }
            lastSpeaker = responder
        }
        return out
    }

    // MARK: - Texts

    /// A reply short enough for a chip (at most 40 characters), in the thread's language.
    private func chipReply(book: Phrasebook, domain: Domain, fitting: [String], _ rng: inout Xoshiro256) -> String {
        if !fitting.isEmpty, rng.chance(0.85) {
            let reply = rng.pick(fitting)
            if reply.count <= 40 { return reply }
        }
        for _ in 0 ..< 6 {
            let reply = book.expand(rng.pick(rng.chance(0.85) ? domain.personReplies : book.thanks), in: domain, using: &rng)
            if reply.count <= 40 { return reply }
        }
        return book.thanks[0]
    }

    private func personText(book: Phrasebook, domain: Domain, opening: Bool, fitting: [String],
                            _ rng: inout Xoshiro256) -> String {
        if opening {
            return book.expand(rng.pick(rng.chance(0.88) ? domain.personAsks : domain.expert), in: domain, using: &rng)
        }
        switch rng.weighted([35, 30, 7, 8, 20]) {
        case 0:
            if !fitting.isEmpty, rng.chance(0.7) { return rng.pick(fitting) }
            return book.expand(rng.pick(domain.personReplies), in: domain, using: &rng)
        case 1: return book.expand(rng.pick(domain.personAsks), in: domain, using: &rng)
        case 2: return book.expand(rng.pick(domain.expert), in: domain, using: &rng)
        case 3: return rng.pick(book.thanks)
        default:
            let first = !fitting.isEmpty && rng.chance(0.7)
                ? rng.pick(fitting) : book.expand(rng.pick(domain.personReplies), in: domain, using: &rng)
            let second = book.expand(rng.pick(domain.personAsks), in: domain, using: &rng)
            let joiner = book.locale == "ja-JP" ? "。" : (first.last.map { ".!?".contains($0) } == true ? " " : ". ")
            return first + joiner + second
        }
    }

    /// Exchanges (a person's message and its answer) in a thread: mostly a handful, rarely a hundred.
    static func exchangeCount(_ rng: inout Xoshiro256) -> Int {
        let ranges = [1 ... 3, 4 ... 8, 9 ... 16, 17 ... 40, 41 ... 100]
        return rng.int(ranges[rng.weighted([25, 40, 25, 9, 1])])
    }

    /// Eight hex digits unique per index (a bijection on 32 bits), varied by seed.
    static func identifier(index: Int, seed: UInt64) -> String {
        var x = UInt32(truncatingIfNeeded: index) ^ UInt32(truncatingIfNeeded: seed ^ (seed >> 32))
        x = (x ^ (x >> 16)) &* 0x7FEB_352D
        x = (x ^ (x >> 15)) &* 0x846C_A68B
        x ^= x >> 16
        return hex(UInt64(x), digits: 8)
    }

    // MARK: - Lines

    private func threadLine(id: String, locale: String, members: [Member], lead: Int, isGroup: Bool) -> String {
        var json = JSONBuilder(capacity: 256)
        json.beginObject()
        json.field("type", "thread")
        json.field("id", id)
        if isGroup {
            json.field("locale", locale)
            json.key("group")
            json.beginObject()
            json.field("lead", members[lead].name)
            json.key("members")
            json.beginArray()
            for member in members {
                json.beginObject()
                json.field("name", member.name)
                json.field("about", member.about)
                json.endObject()
            }
            json.endArray()
            json.endObject()
        } else {
            json.field("agent", members[0].name)
            json.field("about", members[0].about)
            json.field("locale", locale)
        }
        json.endObject()
        return json.text
    }

    private func personLine(thread: String, id: String, at: Int64, lang: String?, text: String, via: String?,
                            groupTo: String?, routed: Bool, offline: Bool, ticks: [Int], build: Int, model: Int) -> String {
        var json = JSONBuilder(capacity: 256)
        json.beginObject()
        json.field("type", "message")
        json.field("thread", thread)
        json.field("id", id)
        json.field("at", UTCTime(seconds: at).iso8601)
        json.field("from", "person")
        if let lang { json.field("lang", lang) }
        json.field("text", text)
        json.key("meta")
        json.beginObject()
        if let via { json.field("via", via) }
        if let groupTo {
            json.key("group")
            json.beginObject()
            json.field("to", groupTo)
            if routed { json.field("routed", "on-device") }
            json.endObject()
        }
        if offline { json.field("offline", true) }
        if !ticks.isEmpty { json.field("draft_ticks", ints: ticks) }
        json.field("build", ThreadComposer.builds[build])
        json.field("model", ThreadComposer.models[model])
        json.endObject()
        json.endObject()
        return json.text
    }

    private func agentLine(thread: String, id: String, at: Int64, from: String, lang: String?,
                           screen: String, push: (kind: String, batch: Int)?) -> String {
        var json = JSONBuilder(capacity: screen.utf8.count + 160)
        json.beginObject()
        json.field("type", "message")
        json.field("thread", thread)
        json.field("id", id)
        json.field("at", UTCTime(seconds: at).iso8601)
        json.field("from", from)
        if let lang { json.field("lang", lang) }
        json.key("screen")
        json.raw(screen)
        if let push {
            json.key("push")
            json.beginObject()
            json.field("kind", push.kind)
            json.field("batch", push.batch)
            json.endObject()
        }
        json.endObject()
        return json.text
    }

    private func reactionLine(thread: String, message: String, at: Int64, emoji: String) -> String {
        var json = JSONBuilder(capacity: 128)
        json.beginObject()
        json.field("type", "reaction")
        json.field("thread", thread)
        json.field("message", message)
        json.field("at", UTCTime(seconds: at).iso8601)
        json.field("emoji", emoji)
        json.endObject()
        return json.text
    }

    private func receiptLine(thread: String, message: String, at: Int64) -> String {
        var json = JSONBuilder(capacity: 128)
        json.beginObject()
        json.field("type", "receipt")
        json.field("thread", thread)
        json.field("message", message)
        json.field("at", UTCTime(seconds: at).iso8601)
        json.endObject()
        return json.text
    }
}
