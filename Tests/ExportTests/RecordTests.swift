import Privacy
import Testing
@testable import Export
import TestSupport

@Suite struct RecordTests {
    private func sealed(_ texts: String...) -> [SealedText] { texts.map(SealedText.init) }

    @Test func exportHeaderIsParsed() throws {
        let event = try singleEvent(#"{"type":"export","version":1,"created":"2026-10-02T00:00:00Z","anonymised":true}"#,
                                    afterThread: false)
        let header = try #require(event?.header)
        #expect(header.version == 1)
        #expect(header.created == "2026-10-02T00:00:00Z")
        #expect(header.anonymised == true)
        #expect(event?.location == Export.SourceLocation(file: event?.location?.file ?? "", line: 1))
    }

    @Test func oneAgentThreadIsParsed() throws {
        let event = try singleEvent(#"{"type":"thread","id":"t_81f2","agent":"Coach","about":"Running and rest","locale":"en-US","extra":[1]}"#,
                                    afterThread: false)
        let thread = try #require(event?.thread)
        #expect(thread.id == "t_81f2")
        #expect(thread.agent == "Coach")
        #expect(thread.about == SealedText("Running and rest"))
        #expect(thread.locale == "en-US")
        #expect(!thread.isGroup)
    }

    @Test func groupThreadIsParsed() throws {
        let line = #"{"type":"thread","id":"g_0c1a","locale":"en-GB","group":{"lead":"Coach","members":[{"name":"Coach","about":"training plans"},{"name":"Sage","about":"sleep and calm"},{"name":"Penny"}]}}"#
        let thread = try #require(try singleEvent(line, afterThread: false)?.thread)
        #expect(thread.isGroup)
        #expect(thread.agent == nil)
        let group = try #require(thread.group)
        #expect(group.lead == "Coach")
        #expect(group.members.map(\.name) == ["Coach", "Sage", "Penny"])
        #expect(group.members.map(\.about) == sealed("training plans", "sleep and calm", ""))
    }

    @Test func personMessageWithAllMetaIsParsed() throws {
        let line = #"{"type":"message","thread":"t1","id":"m_19","at":"2026-09-01T07:02:11Z","from":"person","text":"Bit sore but fine","lang":"de-DE","meta":{"via":"suggested","build":"2.3.0 (512)","model":"26.4","offline":true,"draft_ticks":[0,2],"group":{"to":"Sage","routed":"on-device"},"unknown":{"x":[1,2]}}}"#
        let message = try #require(try singleEvent(line)?.message)
        #expect(message.thread == "t1")
        #expect(message.id == "m_19")
        #expect(message.at == "2026-09-01T07:02:11Z")
        #expect(message.from == .person)
        #expect(message.text == SealedText("Bit sore but fine"))
        #expect(message.screen == nil)
        #expect(message.push == nil)
        #expect(message.lang == "de-DE")
        #expect(message.meta.via == "suggested")
        #expect(message.meta.sentFromChip)
        #expect(message.meta.build == "2.3.0 (512)")
        #expect(message.meta.model == "26.4")
        #expect(message.meta.offline)
        #expect(message.meta.draftTicks == [0, 2])
        #expect(message.meta.groupTo == "Sage")
        #expect(message.meta.groupRouted == "on-device")
        #expect(message.meta.hasUndefinedKey)   // "unknown": only the fact is kept
    }

    /// A key `meta` or `meta.group` holds that the format does not define is noted, whatever it
    /// holds, and nothing else of it is kept; full records and outlines agree.
    @Test(arguments: [
        (#"{"via":"typed","build":"2.3.0 (512)","model":"26.4","offline":false,"draft_ticks":[],"group":{"to":"Sage","routed":"on-device"}}"#, false),
        (#"{}"#, false), (#"null"#, false),
        (#"{"note":"the words"}"#, true), (#"{"n":1}"#, true), (#"{"x":null}"#, true), (#"{"VIA":"typed"}"#, true),
        (#"{"group":{"to":"Sage","why":"words"}}"#, true), (#"{"group":{"x":null}}"#, true), (#"{"group":null,"y":[]}"#, true),
        (#"{"vid":"typed"}"#, true), (#"{"draft_tick":[1]}"#, true),
    ])
    func keysTheFormatDoesNotDefineAreNoted(_ meta: String, _ undefined: Bool) throws {
        let line = #"{"type":"message","thread":"t1","id":"m1","from":"person","text":"hi","meta":\#(meta)}"#
        let message = try #require(try singleEvent(line)?.message)
        #expect(message.meta.hasUndefinedKey == undefined)
        let directory = try TemporaryDirectory()
        let file = try directory.write("one.jsonl", text: #"{"type":"thread","id":"t1","agent":"Coach"}"# + "\n" + line + "\n")
        let reader = try CorpusReader(paths: [file])
        var outlines: [MessageOutline] = []
        while let event = reader.nextOutline() {
            if case .record(.message(let outline), _) = event { outlines.append(outline) }
        }
        #expect(outlines == [MessageOutline(message)])
        #expect(outlines.first?.meta.hasUndefinedKey == undefined)
    }

    @Test func metaDefaults() throws {
        let line = #"{"type":"message","thread":"t1","id":"m1","from":"person","text":"hi","meta":{"via":"typed","group":{"to":"Sage"}}}"#
        let message = try #require(try singleEvent(line)?.message)
        #expect(message.at == "")
        #expect(!message.meta.sentFromChip)
        #expect(!message.meta.offline)
        #expect(message.meta.draftTicks == nil)
        #expect(message.meta.groupTo == "Sage")
        #expect(message.meta.groupRouted == nil)
        #expect(message.meta.build == nil)
        #expect(!message.meta.hasUndefinedKey)
        let bare = try #require(try singleEvent(#"{"type":"message","thread":"t1","id":"m2","from":"person"}"#)?.message)
        #expect(bare.text == nil)
        #expect(!bare.meta.offline && bare.meta.via == nil)
    }

    @Test func agentMessageWithScreenAndPushIsParsed() throws {
        let line = #"{"type":"message","thread":"t1","id":"m_18","at":"2026-09-01T07:01:40Z","from":"Coach","screen":[{"stat":{"label":"Weight","value":"-2.3","unit":"lb","id":"s1"}},{"say":"Nice week. How did your knee feel?"}],"push":{"kind":"reply","batch":5}}"#
        let message = try #require(try singleEvent(line)?.message)
        #expect(message.from == .agent("Coach"))
        #expect(message.from.agentName == "Coach")
        let push = try #require(message.push)
        #expect(push.kind == "reply")
        #expect(push.batch == 5)
        let screen = try #require(message.screen)
        #expect(screen.nodes.map(\.kind) == ["stat", "say"])
        #expect(screen.words == SealedText("Weight: -2.3 lb\nNice week. How did your knee feel?"))
        #expect(screen.lastSay == SealedText("Nice week. How did your knee feel?"))
        #expect(screen.isChipEligible)
    }

    @Test func pushBatchDefaultsToOne() throws {
        let line = #"{"type":"message","thread":"t1","id":"m1","from":"Coach","screen":[],"push":{"kind":"handoff"}}"#
        let message = try #require(try singleEvent(line)?.message)
        #expect(message.push?.kind == "handoff")
        #expect(message.push?.batch == 1)
    }

    /// Every node kind, parsed from an agent message, with its words exactly.
    @Test(arguments: [
        (#"{"say":"Hello you"}"#, "say", [SealedText("Hello you")], false),
        (#"{"card":{"title":"Plan","body":"Run 5k","picture":"https://x.example/p.png","id":"c1","props":{"k":"v"}}}"#,
         "card", [SealedText("Plan"), SealedText("Run 5k")], false),
        (#"{"stat":{"label":"Weight","value":"-2.3","unit":"lb","id":"s1"}}"#, "stat", [SealedText("Weight: -2.3 lb")], false),
        (#"{"stat":{"label":"Steps","value":"9000"}}"#, "stat", [SealedText("Steps: 9000")], false),
        (#"{"list":{"title":"Today","items":["stretch","run"]}}"#, "list", [SealedText("Today"), SealedText("stretch"), SealedText("run")], false),
        (#"{"list":{"items":["one"]}}"#, "list", [SealedText("one")], false),
        (#"{"picture":{"url":"https://x.example/a.png","alt":"a knee"}}"#, "picture", [], false),
        (#"{"choose":{"prompt":"Which day?","options":["Mon","Tue"]}}"#, "choose", [SealedText("Which day?")], true),
        (#"{"choose":{"options":["Mon"]}}"#, "choose", [], true),
        (#"{"pick":{"prompt":"Pick some","options":["a","b","c"]}}"#, "pick", [SealedText("Pick some")], true),
        (#"{"ask":{"placeholder":"type here"}}"#, "ask", [], true),
        (#"{"form":{"fields":[{"name":"x"}]}}"#, "form", [], true),
        (#"{"slide":{"min":0,"max":10}}"#, "slide", [], true),
        (#"{"sparkle":{"text":"not words"}}"#, "sparkle", [], false),
        (#"{"has space":"x"}"#, "(other)", [], false),
    ] as [(String, String, [SealedText], Bool)])
    func nodeKindsAndWords(node: String, kind: String, words: [SealedText], tappable: Bool) throws {
        let line = #"{"type":"message","thread":"t1","id":"m1","from":"Coach","screen":["# + node + "]}"
        let screen = try #require(try singleEvent(line)?.message?.screen)
        let parsed = try #require(screen.nodes.first)
        #expect(screen.nodes.count == 1)
        #expect(parsed.kind == kind)
        #expect(parsed.words == words)
        #expect(parsed.isTappable == tappable)
        #expect(screen.hasTappable == tappable)
        #expect(screen.words == SealedText.joined(words, separator: "\n"))
    }

    /// A screen's words are its nodes' words joined by a newline, empty words and nodes without
    /// words included, whatever the kinds around them and their order.
    @Test func screenWordsAreTheNodesWordsJoined() {
        let word = { (text: String) in SealedText(text) }
        let nodes: [ScreenNode] = [
            .say(word("Hi?")), .say(.empty), .card(title: .empty, body: word("body")), .card(title: word("T"), body: .empty),
            .stat(label: word("Weight"), value: word("-2.3"), unit: word("lb")), .stat(label: .empty, value: word("3"), unit: nil),
            .list(title: nil, items: []), .list(title: word("L"), items: [word("a"), .empty, word("c")]),
            .list(title: nil, items: [word("x")]), .picture, .choose(prompt: word("Pick"), optionCount: 2),
            .choose(prompt: nil, optionCount: 1), .pick(prompt: .empty, optionCount: 3), .ask, .form, .slide,
            .unknown(kind: "sparkle"),
        ]
        var generator = VariedThread.Generator(state: 11)
        var screens: [[ScreenNode]] = [[], nodes, nodes.reversed()] + nodes.map { [$0] }
        for _ in 0..<500 { screens.append((0..<generator.below(7)).map { _ in generator.pick(nodes) }) }
        for screen in screens {
            #expect(Screen(nodes: screen).words == SealedText.joined(screen.flatMap(\.words), separator: "\n"))
        }
    }

    /// Screens read as their words or their facts alone (`ScreenDetail`) say what the same
    /// screens read with their nodes say: the same words, written straight from the line
    /// (escapes decoded, a stat's figure composed), and the same eligibility, tappables and
    /// unknown kinds; each read has only what it was asked to keep. Every kind and its edges
    /// (escapes first, last and adjacent, empty words, a unit or title absent), alone, in
    /// every pair, and 400 drawn screens (a fixed seed).
    @Test func screensKeptAsWordsOrFactsAgreeWithTheirNodes() throws {
        let nodes = [
            #"{"say":"Hello you"}"#, #"{"say":"Ready?"}"#, #"{"say":""}"#, #"{"say":"\"q\" \\ a\nb\t\u00e9 \ud83d\ude00?"}"#,
            #"{"say":"\u00e9"}"#, #"{"say":"caf\u00e9?"}"#, #"{"say":"日本語？"}"#,
            #"{"card":{"title":"Plan","body":"Run 5k","id":"c1"}}"#, #"{"card":{"title":"","body":"\n"}}"#,
            #"{"stat":{"label":"Weight","value":"-2.3","unit":"lb"}}"#, #"{"stat":{"label":"Steps","value":"9000"}}"#,
            #"{"stat":{"label":"","value":"","unit":""}}"#, #"{"stat":{"label":"\u0041","value":"b\"","unit":"\/"}}"#,
            #"{"list":{"title":"Today","items":["stretch","run"]}}"#, #"{"list":{"items":[]}}"#, #"{"list":{"items":["","\\"]}}"#,
            #"{"picture":{"url":"https://x.example/a.png"}}"#, #"{"choose":{"prompt":"Which day?","options":["Mon","Tue"]}}"#,
            #"{"choose":{"options":["Mon"]}}"#, #"{"pick":{"prompt":"","options":[]}}"#, #"{"ask":{}}"#, #"{"form":{}}"#,
            #"{"slide":{"min":0}}"#, #"{"sparkle":{"text":"not words"}}"#, #"{"has space":"x"}"#,
        ]
        var screens: [[String]] = [[]] + nodes.map { [$0] }
        for first in nodes { for second in nodes { screens.append([first, second]) } }
        var generator = VariedThread.Generator(state: 13)
        for _ in 0..<400 { screens.append((0..<generator.below(8)).map { _ in generator.pick(nodes) }) }
        let directory = try TemporaryDirectory()
        var text = #"{"type":"thread","id":"t1","agent":"Coach"}"# + "\n"
        for (index, screen) in screens.enumerated() {
            text += #"{"type":"message","thread":"t1","id":"m\#(index)","from":"Coach","screen":["# + screen.joined(separator: ",") + "]}\n"
        }
        let file = try directory.write("screens.jsonl", text: text)
        func read(_ detail: ScreenDetail) throws -> [Screen] {
            let reader = try CorpusReader(paths: [file], screens: detail)
            var read: [Screen] = []
            while let event = reader.next() {
                guard case .record(.message(let message), _) = event else { continue }
                read.append(try #require(message.screen))
            }
            #expect(reader.stats.badLines == 0)
            return read
        }
        let full = try read(.nodes), words = try read(.words), facts = try read(.facts)
        #expect(full.count == screens.count && words.count == screens.count && facts.count == screens.count)
        var eligible = 0
        for (index, screen) in full.enumerated() where index < words.count && index < facts.count {
            #expect(screen.hasNodes && !words[index].hasNodes && !facts[index].hasNodes)
            #expect(words[index].hasWords && !facts[index].hasWords)
            #expect(words[index].words == screen.words)
            for kept in [words[index], facts[index]] {
                #expect(kept.isChipEligible == screen.isChipEligible)
                #expect(kept.hasTappable == screen.hasTappable)
                #expect(kept.unknownKinds == screen.unknownKinds)
            }
            if screen.isChipEligible { eligible += 1 }
        }
        // Not agreement on empty answers alone.
        #expect(eligible > 50 && full.contains { $0.hasTappable } && full.contains { !$0.unknownKinds.isEmpty })
        #expect(Set(full.map(\.words)).count > 300)
    }

    /// A bad node makes the line bad with the same reason whatever a read keeps of screens.
    @Test(arguments: [
        #"[{"say":3}]"#, #"[{"say":"a"},{"card":{"title":"t"}}]"#, #"[{"stat":{"label":"l","value":2}}]"#,
        #"[{"list":{"items":["a",1]}}]"#, #"[{"say":"a"},{}]"#, #"[{"pick":{"prompt":false,"options":[]}}]"#, #"["x"]"#,
    ])
    func aBadNodeIsTheSameBadLineWhateverIsKept(screen: String) throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("bad.jsonl", text: #"{"type":"thread","id":"t1","agent":"Coach"}"# + "\n"
            + #"{"type":"message","thread":"t1","id":"m1","from":"Coach","screen":"# + screen + "}\n")
        var reasons: [String] = []
        for detail in [ScreenDetail.nodes, .words, .facts] {
            let reader = try CorpusReader(paths: [file], screens: detail)
            while let event = reader.next() {
                if case .badLine(let bad) = event { reasons.append(bad.reason) }
            }
        }
        #expect(reasons.count == 3 && Set(reasons).count == 1)
    }

    @Test func optionCountsAndUnknownKinds() throws {
        let line = #"{"type":"message","thread":"t1","id":"m1","from":"Coach","screen":[{"choose":{"options":["a","b"]}},{"pick":{"prompt":"p","options":[]}},{"zap":1},{"zap":{}},{"bloop":[]}]}"#
        let directory = try TemporaryDirectory()
        let file = try directory.write("x.jsonl", text: #"{"type":"thread","id":"t1"}"# + "\n" + line + "\n")
        let (events, stats) = try readEvents([file])
        let screen = try #require(events.compactMap(\.message).first?.screen)
        guard case .choose(prompt: nil, optionCount: 2) = screen.nodes[0] else {
            Issue.record("expected choose with 2 options")
            return
        }
        guard case .pick(prompt: let prompt?, optionCount: 0) = screen.nodes[1] else {
            Issue.record("expected pick with a prompt and 0 options")
            return
        }
        #expect(prompt == SealedText("p"))
        #expect(screen.unknownKinds == ["zap", "zap", "bloop"])
        #expect(stats.unknownNodes == ["zap": 2, "bloop": 1])
        #expect(stats.badLines == 0)
    }

    @Test func senderFromNames() {
        #expect(Sender(from: "person") == .person)
        #expect(Sender(from: "Coach") == .agent("Coach"))
        #expect(Sender(from: "Person") == .agent("Person"))
    }

    @Test func escapedKeysAndValuesAreDecoded() throws {
        let line = #"{"typ\u0065":"message","thread":"t1","id":"m\u0031","from":"person","te\u0078t":"caf\u00e9 \ud83d\ude00"}"#
        let message = try #require(try singleEvent(line)?.message)
        #expect(message.id == "m1")
        #expect(message.text == SealedText("café 😀"))
    }

    @Test func nullOptionalFieldsAreAbsent() throws {
        let line = #"{"type":"message","thread":"t1","id":"m1","from":"Coach","text":null,"screen":null,"push":null,"lang":null,"meta":null}"#
        let message = try #require(try singleEvent(line)?.message)
        #expect(message.text == nil)
        #expect(message.screen == nil)
        #expect(message.push == nil)
        #expect(message.lang == nil)
    }
}

@Suite struct ChipEligibilityTests {
    private func screen(_ nodes: [ScreenNode]) -> Screen { Screen(nodes: nodes) }
    private func say(_ text: String) -> ScreenNode { .say(SealedText(text)) }

    @Test(arguments: [
        ("plain question", [ScreenNode.say(SealedText("How was the run?"))], true),
        ("trailing spaces", [.say(SealedText("How was the run?   "))], true),
        ("trailing newlines and tabs", [.say(SealedText("How was the run?\n\n\t "))], true),
        ("full-width question mark", [.say(SealedText("走りはどうでしたか？"))], true),
        ("full-width mark then ideographic space", [.say(SealedText("どうでしたか？\u{3000}"))], true),
        ("statement", [.say(SealedText("Nice run."))], false),
        ("question mark inside", [.say(SealedText("Why? Because."))], false),
        ("empty say", [.say(SealedText(""))], false),
        ("question followed by a card", [.say(SealedText("Ready?")),
                                         .card(title: SealedText("Plan"), body: SealedText("5k"))], true),
        ("question followed by a picture", [.say(SealedText("Ready?")), .picture], true),
        ("question with a choose", [.say(SealedText("Which day?")), .choose(prompt: nil, optionCount: 2)], false),
        ("question with a pick before it", [.pick(prompt: nil, optionCount: 2), .say(SealedText("Which?"))], false),
        ("question with ask", [.say(SealedText("Anything else?")), .ask], false),
        ("question with form", [.say(SealedText("Anything else?")), .form], false),
        ("question with slide", [.say(SealedText("How hard?")), .slide], false),
        ("no say", [.card(title: SealedText("Plan?"), body: SealedText("Ready?"))], false),
        ("no nodes", [], false),
        ("question not the last say", [.say(SealedText("Ready?")), .say(SealedText("Let me know."))], false),
        ("last say is the question", [.say(SealedText("Great week.")), .say(SealedText("Ready for more?"))], true),
        ("unknown node after question", [.say(SealedText("Ready?")), .unknown(kind: "zap")], true),
    ] as [(String, [ScreenNode], Bool)])
    func chipEligibility(name: String, nodes: [ScreenNode], eligible: Bool) {
        #expect(Screen(nodes: nodes).isChipEligible == eligible, "\(name)")
    }

    @Test func lastSayAndWordsOfAMixedScreen() {
        let screen = Screen(nodes: [
            .say(SealedText("One")),
            .list(title: nil, items: [SealedText("a"), SealedText("b")]),
            .say(SealedText("Two")),
            .stat(label: SealedText("L"), value: SealedText("V"), unit: nil),
            .picture,
        ])
        #expect(screen.lastSay == SealedText("Two"))
        #expect(screen.words == SealedText("One\na\nb\nTwo\nL: V"))
        #expect(!screen.hasTappable)
        #expect(screen.unknownKinds.isEmpty)
    }
}
