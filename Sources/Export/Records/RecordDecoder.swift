import Privacy

/// Turns a parsed line into a record, checking the type of every field that means something.
///
/// A wrong type, a missing required field or a malformed node makes the whole line bad, with a
/// reason that names the field (its path, such as `screen[2].card.title`) and what was wrong,
/// never what it held. Unknown keys are ignored (in `meta` and `meta.group`, only the fact that
/// there was one is kept: `MessageMeta.hasUndefinedKey`); `null` counts as absent for optional
/// fields.
struct RecordDecoder {
    /// What a line decoded to.
    enum Decoded {
        case header(ExportHeader)
        case thread(ThreadRecord)
        case message(MessageRecord)
        /// A message line decoded without its words (`words` false), and the names of its
        /// screen's unknown node kinds, one per node, in order.
        case outline(MessageOutline)
        /// A line whose `type` this reader does not know, by its countable name.
        case unknownType(String)
    }

    let document: JSONDocument
    /// Whether messages are decoded whole (`message`) or as outlines without words (`outline`).
    /// Either way every field is checked the same, in the same order, with the same reasons.
    var words = true
    /// How much of a message's screen is built (`ScreenDetail`); every node is checked alike.
    var screens = ScreenDetail.nodes
    /// Where metadata values that repeat from line to line are made once (`RepeatedStrings`);
    /// nil makes every string afresh. Not retained (see `repeatedReference`): the caller must
    /// keep it alive while the decoder is in use.
    var repeated: RepeatedStrings? {
        get { repeatedReference?.takeUnretainedValue() }
        set { repeatedReference = newValue.map { Unmanaged.passUnretained($0) } }
    }
    /// `repeated`, not retained: the decoder is a value copied into every closure and call of a
    /// line's decoding, and a strong reference made each copy a retain and a release (measured:
    /// one pair per repeated string made). Whoever sets `repeated` keeps it alive for as long as
    /// the decoder is used (the reader owns it).
    private var repeatedReference: Unmanaged<RepeatedStrings>?

    /// A decoder of the line at the root of `document`, decoding words, with no `repeated`.
    init(document: JSONDocument) {
        self.document = document
    }

    /// Decodes the line at the root of the document.
    func decode() throws(LineProblem) -> Decoded {
        guard document.kind(0) == .object else {
            throw LineProblem("the line is \(document.typeName(0)), expected an object")
        }
        var fields = TopFields()
        document.forEachMember(of: 0) { key, value in fields.note(key, value) }
        guard fields.type >= 0 else { throw LineProblem("missing field 'type'") }
        guard document.kind(fields.type) == .string else {
            throw LineProblem("field 'type' is \(document.typeName(fields.type)), expected a string")
        }
        if document.stringEquals(fields.type, "message") {
            if words { return .message(try message(fields)) }
            return .outline(try messageOutline(fields))
        }
        if document.stringEquals(fields.type, "thread") { return .thread(try thread(fields)) }
        if document.stringEquals(fields.type, "export") { return .header(try header(fields)) }
        let token = document.tokens[fields.type]
        if token.flag { return .unknownType(CountedName.sanitized(document.string(fields.type))) }
        return .unknownType(CountedName.sanitized(UnsafeRawBufferPointer(
            rebasing: document.bytes[Int(token.start)..<Int(token.start + token.length)])))
    }

    /// Whether the line is an object whose `type` is "thread" (asked after a problem).
    var isThreadLine: Bool {
        guard document.kind(0) == .object else { return false }
        var fields = TopFields()
        document.forEachMember(of: 0) { key, value in fields.note(key, value) }
        return fields.type >= 0 && document.kind(fields.type) == .string && document.stringEquals(fields.type, "thread")
    }

    // MARK: - Line types

    private func header(_ fields: TopFields) throws(LineProblem) -> ExportHeader {
        guard let version = try optionalInteger(fields.version, "version") else {
            throw LineProblem("missing field 'version'")
        }
        // Another version's other fields may mean something else: the version alone decides.
        guard version == 1 else { return ExportHeader(version: version) }
        return ExportHeader(version: version,
                            created: try optionalString(fields.created, "created"),
                            anonymised: try optionalBool(fields.anonymised, "anonymised"))
    }

    private func thread(_ fields: TopFields) throws(LineProblem) -> ThreadRecord {
        ThreadRecord(id: try requiredString(fields.id, "id"),
                     agent: try optionalString(fields.agent, "agent", repeats: true),
                     about: try optionalString(fields.about, "about").map(SealedText.init),
                     locale: try optionalString(fields.locale, "locale", repeats: true),
                     group: try group(fields.group))
    }

    private func group(_ index: Int) throws(LineProblem) -> GroupInfo? {
        guard index >= 0, document.kind(index) != .null else { return nil }
        try expect(index, .object, "group", "an object")
        var lead = -1, members = -1
        document.forEachMember(of: index) { key, value in
            if JSONDocument.equal(key, "lead") { lead = value }
            else if JSONDocument.equal(key, "members") { members = value }
        }
        let leadName = try requiredString(lead, "group.lead", repeats: true)
        guard members >= 0 else { throw LineProblem("missing field 'group.members'") }
        try expect(members, .array, "group.members", "an array")
        var list: [GroupMember] = []
        list.reserveCapacity(document.count(members))
        try document.forEachElement(of: members) { (position, element) throws(LineProblem) in
            let path = "group.members[\(position)]"
            try expect(element, .object, path, "an object")
            var name = -1, about = -1
            document.forEachMember(of: element) { key, value in
                if JSONDocument.equal(key, "name") { name = value }
                else if JSONDocument.equal(key, "about") { about = value }
            }
            list.append(GroupMember(name: try requiredString(name, path + ".name", repeats: true),
                                    about: try optionalString(about, path + ".about").map(SealedText.init) ?? .empty))
        }
        return GroupInfo(lead: leadName, members: list)
    }

    private func message(_ fields: TopFields) throws(LineProblem) -> MessageRecord {
        let from = try requiredString(fields.from, "from", repeats: true)
        return MessageRecord(thread: try requiredString(fields.thread, "thread", repeats: true),
                             id: try requiredString(fields.id, "id"),
                             at: try optionalString(fields.at, "at") ?? "",
                             from: Sender(from: from),
                             text: try optionalString(fields.text, "text").map(SealedText.init),
                             screen: try screen(fields.screen),
                             push: try push(fields.push),
                             lang: try optionalString(fields.lang, "lang", repeats: true),
                             meta: try meta(fields.meta))
    }

    /// The outline of a message line: the checks of `message(_:)` in its order, without building
    /// the words (only a text holding an `@` is decoded, see `MessageOutline.mentionText`).
    /// The outline of a message line and its unknown node kinds, decoded and checked exactly
    /// as `decode()` does with `words` false; nil for a line that is not an object whose `type`
    /// is the string "message" (`decode()` then decides what it is, with the same checks).
    ///
    /// For outline reads: `Decoded` is large (it can hold a full record), and handing an
    /// outline out through it copied the enum and retained and released the outline per message.
    func messageOutlineIfMessage() throws(LineProblem) -> MessageOutline? {
        guard document.kind(0) == .object else { return nil }
        var fields = TopFields()
        document.forEachMember(of: 0) { key, value in fields.note(key, value) }
        guard fields.type >= 0, document.kind(fields.type) == .string, document.stringEquals(fields.type, "message") else {
            return nil
        }
        return try messageOutline(fields)
    }

    private func messageOutline(_ fields: TopFields) throws(LineProblem) -> MessageOutline {
        let from = try requiredString(fields.from, "from", repeats: true)
        let thread = try requiredString(fields.thread, "thread", repeats: true)
        let id = try requiredInlineText(fields.id, "id")
        let at = try inlineText(fields.at, "at")
        let text = try optionalStringIndex(fields.text, "text")
        let facts = try screenFacts(fields.screen)
        let push = try push(fields.push)
        let lang = try optionalString(fields.lang, "lang", repeats: true)
        let meta = try meta(fields.meta)
        return MessageOutline(thread: consume thread, idText: consume id, atText: consume at,
                              from: Sender(from: consume from),
                              hasText: text >= 0, mentionText: mentionText(text),
                              hasScreen: facts.present, isChipEligible: facts.isChipEligible,
                              unknownKinds: facts.unknownKinds,
                              push: consume push, lang: consume lang, meta: consume meta)
    }

    /// The text of string token `index` when it holds an `@`, else nil (also for -1).
    ///
    /// The raw bytes decide without decoding unless the string has escapes that could spell
    /// one (`\u0040`); then the decoded text decides, so the answer is exactly
    /// `MessageOutline.holdsAt` of the text.
    private func mentionText(_ index: Int) -> SealedText? {
        guard index >= 0 else { return nil }
        let token = document.tokens[index]
        let raw = document.raw(index)
        let hasAt = JSONDocument.contains(raw, byte: UInt8(ascii: "@"))
        guard hasAt || (token.flag && JSONDocument.contains(raw, "u0040")) else { return nil }
        let text = document.string(index)
        return MessageOutline.holdsAt(text) ? SealedText(text) : nil
    }

    private func push(_ index: Int) throws(LineProblem) -> PushInfo? {
        guard index >= 0, document.kind(index) != .null else { return nil }
        try expect(index, .object, "push", "an object")
        var kind = -1, batch = -1
        document.forEachMember(of: index) { key, value in
            if JSONDocument.equal(key, "kind") { kind = value }
            else if JSONDocument.equal(key, "batch") { batch = value }
        }
        let kindName = try requiredString(kind, "push.kind", repeats: true)
        let count = try optionalInteger(batch, "push.batch") ?? 1
        guard count >= 1 else { throw LineProblem("field 'push.batch' is \(count), expected a count of at least 1") }
        return PushInfo(kind: kindName, batch: count)
    }

    private func meta(_ index: Int) throws(LineProblem) -> MessageMeta {
        guard index >= 0, document.kind(index) != .null else { return MessageMeta() }
        try expect(index, .object, "meta", "an object")
        var via = -1, group = -1, offline = -1, ticks = -1, build = -1, model = -1
        // Whether a key the format does not define was there; its name and value are not read.
        var undefined = false
        document.forEachMember(of: index) { key, value in
            switch key.count {
            case 3 where JSONDocument.equal(key, "via"): via = value
            case 5 where JSONDocument.equal(key, "group"): group = value
            case 5 where JSONDocument.equal(key, "build"): build = value
            case 5 where JSONDocument.equal(key, "model"): model = value
            case 7 where JSONDocument.equal(key, "offline"): offline = value
            case 11 where JSONDocument.equal(key, "draft_ticks"): ticks = value
            default: undefined = true
            }
        }
        // Each field into a local and the value made once at the end: assigning the fields of
        // a `var` one by one copied the whole value (six strings) at every step.
        let viaValue = try optionalString(via, "meta.via", repeats: true)
        let offlineValue = try optionalBool(offline, "meta.offline") ?? false
        let buildValue = try optionalString(build, "meta.build", repeats: true)
        let modelValue = try optionalString(model, "meta.model", repeats: true)
        var groupTo: String? = nil, groupRouted: String? = nil
        if group >= 0, document.kind(group) != .null {
            try expect(group, .object, "meta.group", "an object")
            var to = -1, routed = -1
            document.forEachMember(of: group) { key, value in
                if JSONDocument.equal(key, "to") { to = value }
                else if JSONDocument.equal(key, "routed") { routed = value }
                else { undefined = true }
            }
            groupTo = try optionalString(to, "meta.group.to", repeats: true)
            groupRouted = try optionalString(routed, "meta.group.routed", repeats: true)
        }
        var draftTicks: [Int]? = nil
        if ticks >= 0, document.kind(ticks) != .null {
            try expect(ticks, .array, "meta.draft_ticks", "an array of integers")
            var list: [Int] = []
            list.reserveCapacity(document.count(ticks))
            try document.forEachElement(of: ticks) { (position, element) throws(LineProblem) in
                guard let tick = document.integer(element), tick >= 0 else {
                    throw LineProblem("field 'meta.draft_ticks[\(position)]' is \(describeNonInteger(element)), expected an integer of at least 0")
                }
                list.append(tick)
            }
            draftTicks = list
        }
        return MessageMeta(via: consume viaValue, groupTo: consume groupTo, groupRouted: consume groupRouted,
                           offline: offlineValue, draftTicks: consume draftTicks, build: consume buildValue,
                           model: consume modelValue, hasUndefinedKey: undefined)
    }

    // MARK: - Screens

    private func screen(_ index: Int) throws(LineProblem) -> Screen? {
        guard index >= 0, document.kind(index) != .null else { return nil }
        try expect(index, .array, "screen", "an array of nodes")
        guard screens == .nodes else { return try keptScreen(index) }
        var nodes: [ScreenNode] = []
        nodes.reserveCapacity(document.count(index))
        try document.forEachElement(of: index) { (position, element) throws(LineProblem) in
            nodes.append(build(try checkNode(element, position: position)))
        }
        return Screen(nodes: nodes)
    }

    /// The screen array at `index` read as `screens` says (`.words` or `.facts`), its nodes
    /// checked as `screen(_:)` checks them: the facts, and with `.words` the words `Screen.words`
    /// joins, written into one string as the nodes are checked.
    private func keptScreen(_ index: Int) throws(LineProblem) -> Screen {
        var seen = SeenNodes()
        var words: String?
        if screens == .words {
            // Room for every string inside the array, a separator or two each (the "\n" between
            // words, a stat's ": " and " "): decoding never lengthens a string.
            var capacity = 0
            for token in (index + 1)..<Int(document.tokens[index].next) where document.tokens[token].kind == .string {
                capacity += Int(document.tokens[token].length) + 3
            }
            words = String(unsafeUninitializedCapacity: max(capacity, 1)) { buffer in
                let output = buffer.baseAddress!
                var written = 0
                var isFirst = true
                func separate() {
                    if !isFirst { output[written] = 0x0A; written += 1 }
                    isFirst = false
                }
                func add(_ string: Int) {
                    separate()
                    written += document.copyString(string, into: output + written)
                }
                var element = index + 1
                for position in 0..<document.count(index) {
                    defer { element = Int(document.tokens[element].next) }
                    guard let node = seen.check(element, position, by: self) else { return 0 }
                    guard let kind = node.kind else { continue }
                    switch kind {
                    case .say: add(node.first)
                    case .card:
                        add(node.first)
                        add(node.second)
                    case .stat:
                        // "label: value unit", as `ScreenNode.words` writes a figure.
                        add(node.first)
                        output[written] = UInt8(ascii: ":")
                        output[written + 1] = UInt8(ascii: " ")
                        written += 2
                        written += document.copyString(node.second, into: output + written)
                        if node.third >= 0 {
                            output[written] = UInt8(ascii: " ")
                            written += 1
                            written += document.copyString(node.third, into: output + written)
                        }
                    case .list:
                        if node.first >= 0 { add(node.first) }
                        document.forEachElement(of: node.second) { _, item in add(item) }
                    case .choose, .pick:
                        if node.first >= 0 { add(node.first) }
                    case .picture, .ask, .form, .slide:
                        break
                    }
                }
                return written
            }
        } else {
            var element = index + 1
            for position in 0..<document.count(index) {
                guard seen.check(element, position, by: self) != nil else { break }
                element = Int(document.tokens[element].next)
            }
        }
        if let problem = seen.problem { throw problem }
        seen.facts.isChipEligible = !seen.facts.hasTappable && seen.lastSay >= 0 && endsWithQuestion(seen.lastSay)
        return Screen(words: words.map(SealedText.init), facts: seen.facts)
    }

    /// What `keptScreen` notes of the nodes it checks. One value rather than three variables
    /// captured by a local function: those were boxed on the heap, three allocations per screen
    /// (measured: 369,876 for 10,240 threads' screens).
    private struct SeenNodes {
        var facts = Screen.Facts()
        var lastSay = -1
        var problem: LineProblem?

        /// Checks the node at `element` and notes its facts; nil (the problem noted) when the line is bad.
        mutating func check(_ element: Int, _ position: Int, by decoder: RecordDecoder) -> CheckedNode? {
            do throws(LineProblem) {
                let node = try decoder.checkNode(element, position: position)
                if let kind = node.kind {
                    if kind == .say { lastSay = node.first }
                    if kind.isTappable { facts.hasTappable = true }
                } else {
                    facts.unknownKinds.append(decoder.unknownName(node))
                }
                return node
            } catch {
                problem = error
                return nil
            }
        }
    }

    /// What an outline keeps of a screen: whether there was one, its chip eligibility, and its
    /// unknown node kinds.
    struct ScreenFacts {
        var present = false
        var isChipEligible = false
        var unknownKinds: [String] = []
    }

    /// The screen's nodes checked as `screen(_:)` checks them, and the facts an outline keeps;
    /// only the last `say`'s bytes are looked at, and only when nothing is tappable.
    private func screenFacts(_ index: Int) throws(LineProblem) -> ScreenFacts {
        var facts = ScreenFacts()
        guard index >= 0, document.kind(index) != .null else { return facts }
        try expect(index, .array, "screen", "an array of nodes")
        facts.present = true
        var hasTappable = false
        var lastSay = -1
        try document.forEachElement(of: index) { (position, element) throws(LineProblem) in
            let node = try checkNode(element, position: position)
            guard let kind = node.kind else {
                facts.unknownKinds.append(unknownName(node))
                return
            }
            if kind == .say { lastSay = node.first }
            if kind.isTappable { hasTappable = true }
        }
        facts.isChipEligible = !hasTappable && lastSay >= 0 && endsWithQuestion(lastSay)
        return facts
    }

    /// `Screen.endsWithQuestion` of string token `index`, from its bytes when they alone decide.
    ///
    /// They decide when the string has no escapes and its end is ASCII: trailing spaces, then
    /// the last other byte, and the byte before it (a non-ASCII scalar before "?" could be one
    /// that joins it into one character). Anything else is decoded and given to the rule itself.
    private func endsWithQuestion(_ index: Int) -> Bool {
        if !document.tokens[index].flag {
            let raw = document.raw(index)
            var end = raw.count
            while end > 0 && raw[end - 1] == UInt8(ascii: " ") { end -= 1 }
            if end == 0 { return false }
            let last = raw[end - 1]
            if last < 0x80 && (end == 1 || raw[end - 2] < 0x80) { return last == UInt8(ascii: "?") }
        }
        return Screen.endsWithQuestion(document.string(index))
    }

    /// A node whose shape was checked: its kind and the token indices of its fields, which is
    /// all `build` needs (for an unknown kind, its key: see `unknownName`).
    ///
    /// Plain integers: with the unknown kind's name as a `String` field, every node of every
    /// screen made and destroyed one, though nearly all kinds are known.
    struct CheckedNode {
        var kind: NodeKind?
        /// The token index of the node's one key.
        var key = -1
        /// say: the text; card: title; stat: label; list: title; choose/pick: prompt (-1 if absent).
        var first = -1
        /// card: body; stat: value; list: items; choose/pick: options.
        var second = -1
        /// stat: unit (-1 if absent).
        var third = -1
    }

    /// The countable name of a checked node of an unknown kind (`CountedName.sanitized` of its key).
    private func unknownName(_ node: CheckedNode) -> String {
        document.withKey(node.key) { key in CountedName.sanitized(key) }
    }

    /// Checks one node, with the reasons and in the order the format's table implies.
    private func checkNode(_ index: Int, position: Int) throws(LineProblem) -> CheckedNode {
        guard document.kind(index) == .object else {
            throw LineProblem("field 'screen[\(position)]' is \(document.typeName(index)), expected an object with one key (the node's kind)")
        }
        guard document.count(index) == 1 else {
            throw LineProblem("field 'screen[\(position)]' is an object with \(document.count(index)) keys, expected exactly one (the node's kind)")
        }
        var node = CheckedNode()
        // The one member: the key follows the object's token, the value follows the key.
        let keyIndex = index + 1
        let value = Int(document.tokens[keyIndex].next)
        node.key = keyIndex
        node.kind = document.withKey(keyIndex) { key in NodeKind(key) }
        guard let kind = node.kind else { return node }
        func path(_ field: String? = nil) -> String {
            "screen[\(position)].\(kind.rawValue)" + (field.map { "." + $0 } ?? "")
        }
        switch kind {
        case .say:
            guard document.kind(value) == .string else {
                throw LineProblem("field '\(path())' is \(document.typeName(value)), expected a string")
            }
            node.first = value
        case .card:
            try expect(value, .object, path(), "an object")
            var title = -1, body = -1
            document.forEachMember(of: value) { key, member in
                if JSONDocument.equal(key, "title") { title = member }
                else if JSONDocument.equal(key, "body") { body = member }
            }
            node.first = try requiredStringIndex(title, path("title"), allowEmpty: true)
            node.second = try requiredStringIndex(body, path("body"), allowEmpty: true)
        case .stat:
            try expect(value, .object, path(), "an object")
            var label = -1, figure = -1, unit = -1
            document.forEachMember(of: value) { key, member in
                if JSONDocument.equal(key, "label") { label = member }
                else if JSONDocument.equal(key, "value") { figure = member }
                else if JSONDocument.equal(key, "unit") { unit = member }
            }
            node.first = try requiredStringIndex(label, path("label"), allowEmpty: true)
            node.second = try requiredStringIndex(figure, path("value"), allowEmpty: true)
            node.third = try optionalStringIndex(unit, path("unit"))
        case .list:
            try expect(value, .object, path(), "an object")
            var title = -1, items = -1
            document.forEachMember(of: value) { key, member in
                if JSONDocument.equal(key, "title") { title = member }
                else if JSONDocument.equal(key, "items") { items = member }
            }
            node.first = try optionalStringIndex(title, path("title"))
            _ = try stringCount(items, path("items"))
            node.second = items
        case .picture, .ask, .form, .slide:
            try expect(value, .object, path(), "an object")
        case .choose, .pick:
            try expect(value, .object, path(), "an object")
            var prompt = -1, options = -1
            document.forEachMember(of: value) { key, member in
                if JSONDocument.equal(key, "prompt") { prompt = member }
                else if JSONDocument.equal(key, "options") { options = member }
            }
            node.first = try optionalStringIndex(prompt, path("prompt"))
            _ = try stringCount(options, path("options"))
            node.second = options
        }
        return node
    }

    /// The node a checked node is, its words sealed.
    private func build(_ node: CheckedNode) -> ScreenNode {
        guard let kind = node.kind else { return .unknown(kind: unknownName(node)) }
        func sealed(_ index: Int) -> SealedText { SealedText(document.string(index)) }
        func optionalSealed(_ index: Int) -> SealedText? { index >= 0 ? sealed(index) : nil }
        switch kind {
        case .say: return .say(sealed(node.first))
        case .card: return .card(title: sealed(node.first), body: sealed(node.second))
        case .stat: return .stat(label: sealed(node.first), value: sealed(node.second), unit: optionalSealed(node.third))
        case .list:
            var items: [SealedText] = []
            items.reserveCapacity(document.count(node.second))
            document.forEachElement(of: node.second) { _, element in items.append(sealed(element)) }
            return .list(title: optionalSealed(node.first), items: items)
        case .picture: return .picture
        case .choose: return .choose(prompt: optionalSealed(node.first), optionCount: document.count(node.second))
        case .pick: return .pick(prompt: optionalSealed(node.first), optionCount: document.count(node.second))
        case .ask: return .ask
        case .form: return .form
        case .slide: return .slide
        }
    }

    // MARK: - Field helpers

    private func expect(_ index: Int, _ kind: JSONToken.Kind, _ path: @autoclosure () -> String,
                        _ expected: StaticString) throws(LineProblem) {
        guard document.kind(index) == kind else {
            throw LineProblem("field '\(path())' is \(document.typeName(index)), expected \(expected)")
        }
    }

    private func requiredString(_ index: Int, _ path: @autoclosure () -> String,
                                allowEmpty: Bool = false, repeats: Bool = false) throws(LineProblem) -> String {
        let checked = try requiredStringIndex(index, path(), allowEmpty: allowEmpty)
        return repeats ? repeatedString(checked) : document.string(checked)
    }

    /// A string token's value through `repeated`, for values that recur (labels, a thread's id);
    /// one with escapes is made afresh.
    private func repeatedString(_ index: Int) -> String {
        guard let repeatedReference, !document.tokens[index].flag else { return document.string(index) }
        return repeatedReference._withUnsafeGuaranteedRef { $0.string(document.raw(index)) }
    }

    /// `index` once checked to be a string (non-empty unless `allowEmpty`), without decoding it.
    private func requiredStringIndex(_ index: Int, _ path: @autoclosure () -> String,
                                     allowEmpty: Bool = false) throws(LineProblem) -> Int {
        guard index >= 0 else { throw LineProblem("missing field '\(path())'") }
        guard document.kind(index) == .string else {
            throw LineProblem("field '\(path())' is \(document.typeName(index)), expected a string")
        }
        if !allowEmpty && document.tokens[index].length == 0 {
            throw LineProblem("field '\(path())' is an empty string, expected a name or id")
        }
        return index
    }

    private func optionalString(_ index: Int, _ path: @autoclosure () -> String,
                                repeats: Bool = false) throws(LineProblem) -> String? {
        let checked = try optionalStringIndex(index, path())
        guard checked >= 0 else { return nil }
        return repeats ? repeatedString(checked) : document.string(checked)
    }

    /// A required string as `requiredString` checks and reads it, kept inline when short
    /// (`InlineText`); one without escapes is not decoded.
    private func requiredInlineText(_ index: Int, _ path: @autoclosure () -> String) throws(LineProblem) -> InlineText {
        let checked = try requiredStringIndex(index, path())
        if document.tokens[checked].flag { return InlineText(document.string(checked)) }
        return InlineText(validUTF8: document.raw(checked))
    }

    /// An optional string as `optionalString` checks and reads it (empty when absent or null),
    /// kept inline when short (`InlineText`); one without escapes is not decoded.
    private func inlineText(_ index: Int, _ path: @autoclosure () -> String) throws(LineProblem) -> InlineText {
        let checked = try optionalStringIndex(index, path())
        guard checked >= 0 else { return InlineText(validUTF8: UnsafeRawBufferPointer(start: nil, count: 0)) }
        if document.tokens[checked].flag { return InlineText(document.string(checked)) }
        return InlineText(validUTF8: document.raw(checked))
    }

    /// `index` once checked to be a string, without decoding it; -1 when absent or null.
    private func optionalStringIndex(_ index: Int, _ path: @autoclosure () -> String) throws(LineProblem) -> Int {
        guard index >= 0 else { return -1 }
        switch document.kind(index) {
        case .string: return index
        case .null: return -1
        default: throw LineProblem("field '\(path())' is \(document.typeName(index)), expected a string")
        }
    }

    private func optionalBool(_ index: Int, _ path: @autoclosure () -> String) throws(LineProblem) -> Bool? {
        guard index >= 0 else { return nil }
        switch document.kind(index) {
        case .true: return true
        case .false: return false
        case .null: return nil
        default: throw LineProblem("field '\(path())' is \(document.typeName(index)), expected a bool")
        }
    }

    private func optionalInteger(_ index: Int, _ path: @autoclosure () -> String) throws(LineProblem) -> Int? {
        guard index >= 0, document.kind(index) != .null else { return nil }
        guard let value = document.integer(index) else {
            throw LineProblem("field '\(path())' is \(describeNonInteger(index)), expected an integer")
        }
        return value
    }

    /// "a number with a fraction or exponent" for a non-integer number, else the type's name.
    private func describeNonInteger(_ index: Int) -> String {
        guard document.kind(index) == .number else { return document.typeName(index) }
        return document.tokens[index].flag ? "an integer out of range" : "a number with a fraction or exponent"
    }

    /// The number of strings in a required array of strings, without decoding them.
    private func stringCount(_ index: Int, _ path: @autoclosure () -> String) throws(LineProblem) -> Int {
        guard index >= 0 else { throw LineProblem("missing field '\(path())'") }
        try expect(index, .array, path(), "an array of strings")
        try document.forEachElement(of: index) { (position, element) throws(LineProblem) in
            guard document.kind(element) == .string else {
                throw LineProblem("field '\(path())[\(position)]' is \(document.typeName(element)), expected a string")
            }
        }
        return document.count(index)
    }
}

/// The token indices of a line's top-level fields (-1 when absent), found in one pass.
private struct TopFields {
    var type = -1, version = -1, created = -1, anonymised = -1
    var id = -1, agent = -1, about = -1, locale = -1, group = -1
    var thread = -1, at = -1, from = -1, text = -1, screen = -1, push = -1, lang = -1, meta = -1

    /// Notes one top-level member. Always inlined into the member loop: a call per key of
    /// every line otherwise.
    @inline(__always)
    mutating func note(_ key: UnsafeRawBufferPointer, _ value: Int) {
        switch key.count {
        case 2:
            if JSONDocument.equal(key, "id") { id = value }
            else if JSONDocument.equal(key, "at") { at = value }
        case 4:
            if JSONDocument.equal(key, "type") { type = value }
            else if JSONDocument.equal(key, "from") { from = value }
            else if JSONDocument.equal(key, "text") { text = value }
            else if JSONDocument.equal(key, "push") { push = value }
            else if JSONDocument.equal(key, "lang") { lang = value }
            else if JSONDocument.equal(key, "meta") { meta = value }
        case 5:
            if JSONDocument.equal(key, "agent") { agent = value }
            else if JSONDocument.equal(key, "about") { about = value }
            else if JSONDocument.equal(key, "group") { group = value }
        case 6:
            if JSONDocument.equal(key, "thread") { thread = value }
            else if JSONDocument.equal(key, "screen") { screen = value }
            else if JSONDocument.equal(key, "locale") { locale = value }
        case 7:
            if JSONDocument.equal(key, "version") { version = value }
            else if JSONDocument.equal(key, "created") { created = value }
        case 10:
            if JSONDocument.equal(key, "anonymised") { anonymised = value }
        default:
            break
        }
    }
}

/// A screen node kind the format defines; its raw value is the key as written.
enum NodeKind: String, CaseIterable {
    case say, card, stat, list, picture, choose, pick, ask, form, slide

    /// The kind these key bytes spell, or nil for a kind the format does not define.
    init?(_ key: UnsafeRawBufferPointer) {
        // By length first: this runs for every node of every screen.
        switch key.count {
        case 3:
            if JSONDocument.equal(key, "say") { self = .say } else if JSONDocument.equal(key, "ask") { self = .ask } else { return nil }
        case 4:
            if JSONDocument.equal(key, "card") { self = .card }
            else if JSONDocument.equal(key, "stat") { self = .stat }
            else if JSONDocument.equal(key, "list") { self = .list }
            else if JSONDocument.equal(key, "pick") { self = .pick }
            else if JSONDocument.equal(key, "form") { self = .form }
            else { return nil }
        case 5:
            guard JSONDocument.equal(key, "slide") else { return nil }
            self = .slide
        case 6:
            guard JSONDocument.equal(key, "choose") else { return nil }
            self = .choose
        case 7:
            guard JSONDocument.equal(key, "picture") else { return nil }
            self = .picture
        default:
            return nil
        }
    }

    /// Whether a node of this kind gives the person something to tap (`ScreenNode.isTappable`).
    var isTappable: Bool {
        switch self {
        case .choose, .pick, .ask, .form, .slide: return true
        case .say, .card, .stat, .list, .picture: return false
        }
    }
}
