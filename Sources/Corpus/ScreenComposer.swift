/// Builds one agent screen (a JSON array of nodes) in realistic mixes of every node kind.
///
/// The mix is tuned for the on-device jobs: about 40% of screens ask in words with nothing to
/// tap (chip-eligible), the rest end in a statement or carry a choose, pick, ask, form or slide;
/// a few percent are long (well over 600 tokens of words, so the chips cut matters), a rare one
/// is very long (over the push job's 1,000-token cut), and about 0.5% hold a node kind the
/// format does not define.
struct ScreenComposer {
    /// How a screen ends, which decides whether the chips job looks at it.
    enum Ending: CaseIterable {
        /// The last `say` is a question and nothing can be tapped: chip-eligible.
        case question
        /// A choose, pick, ask, form or slide is on the screen.
        case tappable
        /// The last `say` is a statement, or there is no `say`.
        case statement
    }

    /// A composed screen and the facts the thread composer needs about it.
    struct Screen {
        var json: String
        var ending: Ending
        /// Options of a choose or pick, so the person's next message can be one of them.
        var options: [String]
        /// Short replies that fit the screen's question, when its template carries them.
        var replies: [String] = []
        var unknownNodes: Int
    }

    let book: Phrasebook
    let domain: Domain

    private enum Size { case tiny, normal, rich, long, veryLong }

    /// A screen in a random mix; `question` replaces the final asking `say` (a greeting).
    func compose(using rng: inout Xoshiro256, question: String? = nil) -> Screen {
        let ending: Ending = question != nil ? .question : [Ending.question, .tappable, .statement][rng.weighted([42, 27, 31])]
        let size = [Size.tiny, .normal, .rich, .long, .veryLong][rng.weighted([350, 522, 95, 30, 3])]
        var state = NodeState()
        var nodes: [String] = []

        switch size {
        case .tiny: break
        case .normal: for _ in 0 ..< rng.int(1 ... 2) { nodes.append(contentNode(&rng, &state)) }
        case .rich: for _ in 0 ..< rng.int(3 ... 5) { nodes.append(contentNode(&rng, &state)) }
        case .long: appendLong(into: &nodes, targetBytes: rng.int(4_500 ... 9_000), &rng, &state)
        case .veryLong: appendLong(into: &nodes, targetBytes: rng.int(26_000 ... 45_000), &rng, &state)
        }

        var options: [String] = []
        var replies: [String] = []
        switch ending {
        case .question:
            if rng.chance(0.12) { nodes.append(say(text(domain.tells, &rng))) }
            var asking: String
            if let question {
                asking = question
            } else {
                (asking, replies) = ask(&rng)
            }
            if rng.chance(0.12) { asking += rng.chance(0.5) ? " " : "  " }
            nodes.append(say(asking))
            if rng.chance(0.08) {
                // Something without words or taps after the question: the last say still asks.
                nodes.append(rng.chance(0.5) ? picture(&rng) : stat(&rng, &state))
            }
        case .tappable:
            let roll = rng.below(100)
            let lead: String? = roll < 60 ? ask(&rng).question : roll < 85 ? text(domain.tells, &rng) : nil
            let control = tappable(&rng, &state, options: &options)
            if let lead, rng.chance(0.12) {
                nodes.append(control)
                nodes.append(say(lead))
            } else {
                if let lead { nodes.append(say(lead)) }
                nodes.append(control)
            }
        case .statement:
            if nodes.isEmpty || rng.chance(0.8) {
                if rng.chance(0.1) { nodes.append(say(ask(&rng).question)) }
                nodes.append(say(text(domain.tells, &rng)))
            }
        }

        var unknown = 0
        if rng.chance(0.005) {
            nodes.insert(unknownNode(&rng), at: rng.below(nodes.count + 1))
            unknown = 1
        }
        return Screen(json: "[" + nodes.joined(separator: ",") + "]", ending: ending, options: options, replies: replies, unknownNodes: unknown)
    }

    /// A short statement-only screen, for a lead handing a message on.
    func statement(_ words: String) -> Screen {
        Screen(json: "[" + say(words) + "]", ending: .statement, options: [], unknownNodes: 0)
    }

    // MARK: - Nodes

    /// Numbering for node ids within one screen.
    private struct NodeState {
        var cards = 0
        var stats = 0
        var controls = 0
    }

    private func text(_ pool: [String], _ rng: inout Xoshiro256) -> String {
        book.expand(rng.pick(pool), in: domain, using: &rng)
    }

    /// A question from the domain and the replies its template suggests (empty when it has none).
    private func ask(_ rng: inout Xoshiro256) -> (question: String, replies: [String]) {
        let template = rng.pick(domain.asks)
        guard template.contains("|") else { return (book.expand(template, in: domain, using: &rng), []) }
        let parts = template.split(separator: "|").map(String.init)
        let question = book.expand(parts[0], in: domain, using: &rng)
        return (question, parts.dropFirst().map { book.expand($0, in: domain, using: &rng) })
    }

    private func say(_ words: String) -> String {
        var json = JSONBuilder(capacity: words.utf8.count + 12)
        json.beginObject()
        json.field("say", words)
        json.endObject()
        return json.text
    }

    private func contentNode(_ rng: inout Xoshiro256, _ state: inout NodeState) -> String {
        switch rng.weighted([30, 25, 20, 10, 15]) {
        case 0: card(&rng, &state, sentences: rng.int(1 ... 3))
        case 1: stat(&rng, &state)
        case 2: list(&rng, items: rng.int(3 ... 7))
        case 3: picture(&rng)
        default: say(text(domain.tells, &rng))
        }
    }

    /// Cards, lists and stats until the words reach about `targetBytes` of UTF-8.
    private func appendLong(into nodes: inout [String], targetBytes: Int, _ rng: inout Xoshiro256, _ state: inout NodeState) {
        nodes.append(say(rng.pick(book.connectives)))
        var bytes = 0
        while bytes < targetBytes {
            let node: String
            switch rng.weighted([45, 35, 10, 10]) {
            case 0: node = card(&rng, &state, sentences: rng.int(5 ... 12))
            case 1: node = list(&rng, items: rng.int(10 ... 28))
            case 2: node = stat(&rng, &state)
            default: node = say(text(domain.fillers, &rng) + " " + rng.pick(book.connectives))
            }
            bytes += node.utf8.count
            nodes.append(node)
        }
    }

    private func body(_ rng: inout Xoshiro256, sentences: Int) -> String {
        var out = ""
        for index in 0 ..< sentences {
            if index > 0 { out += sentences > 4 && rng.chance(0.15) ? "\n\n" : (book.locale == "ja-JP" ? "" : " ") }
            switch rng.weighted([65, 20, 15]) {
            case 0: out += text(domain.fillers, &rng)
            case 1: out += text(domain.tells, &rng)
            default: out += rng.pick(book.connectives)
            }
        }
        return out
    }

    private func card(_ rng: inout Xoshiro256, _ state: inout NodeState, sentences: Int) -> String {
        state.cards += 1
        var json = JSONBuilder(capacity: 256)
        json.beginObject()
        json.key("card")
        json.beginObject()
        json.field("title", text(domain.cards, &rng))
        json.field("body", body(&rng, sentences: sentences))
        if rng.chance(0.25) { json.field("picture", pictureURL(&rng)) }
        if rng.chance(0.5) { json.field("id", "c\(state.cards)") }
        if rng.chance(0.2) {
            json.key("props")
            json.beginObject()
            json.field("tone", rng.pick(["warm", "calm", "bright", "plain"]))
            json.field("accent", "#" + hex(rng.next(), digits: 6).uppercased())
            if rng.chance(0.5) { json.field("compact", rng.chance(0.5)) }
            json.endObject()
        }
        json.endObject()
        json.endObject()
        return json.text
    }

    private func stat(_ rng: inout Xoshiro256, _ state: inout NodeState) -> String {
        state.stats += 1
        let template = rng.pick(domain.stats)
        var json = JSONBuilder(capacity: 96)
        json.beginObject()
        json.key("stat")
        json.beginObject()
        json.field("label", book.expand(template.label, in: domain, using: &rng))
        json.field("value", book.expand(template.value, in: domain, using: &rng))
        if let unit = template.unit { json.field("unit", book.expand(unit, in: domain, using: &rng)) }
        if rng.chance(0.45) { json.field("id", "s\(state.stats)") }
        json.endObject()
        json.endObject()
        return json.text
    }

    private func list(_ rng: inout Xoshiro256, items count: Int) -> String {
        let template = rng.pick(domain.lists)
        var items: [String] = []
        if count <= template.items.count {
            for index in rng.distinct(count, below: template.items.count) {
                items.append(book.expand(template.items[index], in: domain, using: &rng))
            }
        } else {
            for _ in 0 ..< count { items.append(text(template.items, &rng)) }
        }
        var json = JSONBuilder(capacity: 256)
        json.beginObject()
        json.key("list")
        json.beginObject()
        if rng.chance(0.85) { json.field("title", book.expand(template.title, in: domain, using: &rng)) }
        json.field("items", strings: items)
        json.endObject()
        json.endObject()
        return json.text
    }

    private func picture(_ rng: inout Xoshiro256) -> String {
        var json = JSONBuilder(capacity: 128)
        json.beginObject()
        json.key("picture")
        json.beginObject()
        json.field("url", pictureURL(&rng))
        if rng.chance(0.7) { json.field("alt", text(domain.pictures, &rng)) }
        json.endObject()
        json.endObject()
        return json.text
    }

    private func pictureURL(_ rng: inout Xoshiro256) -> String {
        "https://media.yui.app/i/" + hex(rng.next(), digits: 12) + (rng.chance(0.8) ? ".jpg" : ".png")
    }

    private func tappable(_ rng: inout Xoshiro256, _ state: inout NodeState, options: inout [String]) -> String {
        state.controls += 1
        var json = JSONBuilder(capacity: 192)
        json.beginObject()
        switch rng.weighted([30, 20, 18, 16, 16]) {
        case 0, 1:
            let choice = rng.pick(domain.choices)
            options = choice.options.map { book.expand($0, in: domain, using: &rng) }
            json.key(rng.chance(0.6) ? "choose" : "pick")
            json.beginObject()
            if rng.chance(0.8) { json.field("prompt", book.expand(choice.prompt, in: domain, using: &rng)) }
            json.field("options", strings: options)
            json.endObject()
        case 2:
            json.key("ask")
            json.beginObject()
            json.field("id", "q\(state.controls)")
            json.field("label", text(domain.inputs, &rng))
            json.field("input", rng.pick(["text", "number", "text"]))
            json.endObject()
        case 3:
            json.key("form")
            json.beginObject()
            json.field("id", "f\(state.controls)")
            json.key("fields")
            json.beginArray()
            for index in rng.distinct(rng.int(1 ... 3), below: domain.inputs.count) {
                json.beginObject()
                json.field("name", "field\(index + 1)")
                json.field("label", book.expand(domain.inputs[index], in: domain, using: &rng))
                json.field("type", rng.pick(["text", "number"]))
                json.endObject()
            }
            json.endArray()
            json.endObject()
        default:
            let high = rng.pick([5, 10, 10])
            json.key("slide")
            json.beginObject()
            json.field("id", "r\(state.controls)")
            json.field("label", text(domain.inputs, &rng))
            json.field("min", high == 5 ? 1 : 0)
            json.field("max", high)
            json.field("step", 1)
            json.field("value", rng.int(1 ... high))
            json.endObject()
        }
        json.endObject()
        return json.text
    }

    private func unknownNode(_ rng: inout Xoshiro256) -> String {
        var json = JSONBuilder(capacity: 128)
        json.beginObject()
        switch rng.below(3) {
        case 0:
            json.key("chart")
            json.beginObject()
            json.field("id", "ch1")
            json.field("type", rng.pick(["bar", "line"]))
            json.field("points", ints: (0 ..< rng.int(4 ... 8)).map { _ in rng.int(0 ... 40) })
            json.endObject()
        case 1:
            json.key("map")
            json.beginObject()
            json.field("lat", "\(rng.int(35 ... 59)).\(rng.int(1000 ... 9999))")
            json.field("lng", "\(rng.int(-9 ... 18)).\(rng.int(1000 ... 9999))")
            json.field("zoom", rng.int(10 ... 15))
            json.endObject()
        default:
            json.key("audio")
            json.beginObject()
            json.field("url", "https://media.yui.app/a/" + hex(rng.next(), digits: 12) + ".m4a")
            json.field("seconds", rng.int(5 ... 240))
            json.endObject()
        }
        json.endObject()
        return json.text
    }
}

/// The low `digits` hex digits of `value`, zero-padded.
func hex(_ value: UInt64, digits: Int) -> String {
    let text = String(value, radix: 16)
    if text.count >= digits { return String(text.suffix(digits)) }
    return String(repeating: "0", count: digits - text.count) + text
}
