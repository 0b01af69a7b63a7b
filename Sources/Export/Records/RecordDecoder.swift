import Privacy

/// Turns a parsed line into a record, checking the type of every field that means something.
///
/// A wrong type, a missing required field or a malformed node makes the whole line bad, with a
/// reason that names the field (its path, such as `screen[2].card.title`) and what was wrong,
/// never what it held. Unknown keys are ignored; `null` counts as absent for optional fields.
struct RecordDecoder {
    /// What a line decoded to.
    enum Decoded {
        case header(ExportHeader)
        case thread(ThreadRecord)
        case message(MessageRecord)
        /// A line whose `type` this reader does not know, by its countable name.
        case unknownType(String)
    }

    let document: JSONDocument

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
        if document.stringEquals(fields.type, "message") { return .message(try message(fields)) }
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
                     agent: try optionalString(fields.agent, "agent"),
                     about: try optionalString(fields.about, "about").map(SealedText.init),
                     locale: try optionalString(fields.locale, "locale"),
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
        let leadName = try requiredString(lead, "group.lead")
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
            list.append(GroupMember(name: try requiredString(name, path + ".name"),
                                    about: try optionalString(about, path + ".about").map(SealedText.init) ?? .empty))
        }
        return GroupInfo(lead: leadName, members: list)
    }

    private func message(_ fields: TopFields) throws(LineProblem) -> MessageRecord {
        let from = try requiredString(fields.from, "from")
        return MessageRecord(thread: try requiredString(fields.thread, "thread"),
                             id: try requiredString(fields.id, "id"),
                             at: try optionalString(fields.at, "at") ?? "",
                             from: Sender(from: from),
                             text: try optionalString(fields.text, "text").map(SealedText.init),
                             screen: try screen(fields.screen),
                             push: try push(fields.push),
                             lang: try optionalString(fields.lang, "lang"),
                             meta: try meta(fields.meta))
    }

    private func push(_ index: Int) throws(LineProblem) -> PushInfo? {
        guard index >= 0, document.kind(index) != .null else { return nil }
        try expect(index, .object, "push", "an object")
        var kind = -1, batch = -1
        document.forEachMember(of: index) { key, value in
            if JSONDocument.equal(key, "kind") { kind = value }
            else if JSONDocument.equal(key, "batch") { batch = value }
        }
        let kindName = try requiredString(kind, "push.kind")
        let count = try optionalInteger(batch, "push.batch") ?? 1
        guard count >= 1 else { throw LineProblem("field 'push.batch' is \(count), expected a count of at least 1") }
        return PushInfo(kind: kindName, batch: count)
    }

    private func meta(_ index: Int) throws(LineProblem) -> MessageMeta {
        var meta = MessageMeta()
        guard index >= 0, document.kind(index) != .null else { return meta }
        try expect(index, .object, "meta", "an object")
        var via = -1, group = -1, offline = -1, ticks = -1, build = -1, model = -1
        document.forEachMember(of: index) { key, value in
            switch key.count {
            case 3 where JSONDocument.equal(key, "via"): via = value
            case 5 where JSONDocument.equal(key, "group"): group = value
            case 5 where JSONDocument.equal(key, "build"): build = value
            case 5 where JSONDocument.equal(key, "model"): model = value
            case 7 where JSONDocument.equal(key, "offline"): offline = value
            case 11 where JSONDocument.equal(key, "draft_ticks"): ticks = value
            default: break
            }
        }
        meta.via = try optionalString(via, "meta.via")
        meta.offline = try optionalBool(offline, "meta.offline") ?? false
        meta.build = try optionalString(build, "meta.build")
        meta.model = try optionalString(model, "meta.model")
        if group >= 0, document.kind(group) != .null {
            try expect(group, .object, "meta.group", "an object")
            var to = -1, routed = -1
            document.forEachMember(of: group) { key, value in
                if JSONDocument.equal(key, "to") { to = value }
                else if JSONDocument.equal(key, "routed") { routed = value }
            }
            meta.groupTo = try optionalString(to, "meta.group.to")
            meta.groupRouted = try optionalString(routed, "meta.group.routed")
        }
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
            meta.draftTicks = list
        }
        return meta
    }

    // MARK: - Screens

    private func screen(_ index: Int) throws(LineProblem) -> Screen? {
        guard index >= 0, document.kind(index) != .null else { return nil }
        try expect(index, .array, "screen", "an array of nodes")
        var nodes: [ScreenNode] = []
        nodes.reserveCapacity(document.count(index))
        try document.forEachElement(of: index) { (position, element) throws(LineProblem) in
            nodes.append(try node(element, position: position))
        }
        return Screen(nodes: nodes)
    }

    private func node(_ index: Int, position: Int) throws(LineProblem) -> ScreenNode {
        guard document.kind(index) == .object else {
            throw LineProblem("field 'screen[\(position)]' is \(document.typeName(index)), expected an object with one key (the node's kind)")
        }
        guard document.count(index) == 1 else {
            throw LineProblem("field 'screen[\(position)]' is an object with \(document.count(index)) keys, expected exactly one (the node's kind)")
        }
        var kind: NodeKind? = nil
        var name = CountedName.other
        var value = -1
        document.forEachMember(of: index) { key, member in
            kind = NodeKind(key)
            name = kind?.rawValue ?? CountedName.sanitized(key)
            value = member
        }
        func path(_ field: String? = nil) -> String {
            "screen[\(position)].\(name)" + (field.map { "." + $0 } ?? "")
        }
        guard let kind else { return .unknown(kind: name) }
        switch kind {
        case .say:
            guard document.kind(value) == .string else {
                throw LineProblem("field '\(path())' is \(document.typeName(value)), expected a string")
            }
            return .say(SealedText(document.string(value)))
        case .card:
            try expect(value, .object, path(), "an object")
            var title = -1, body = -1
            document.forEachMember(of: value) { key, member in
                if JSONDocument.equal(key, "title") { title = member }
                else if JSONDocument.equal(key, "body") { body = member }
            }
            return .card(title: SealedText(try requiredString(title, path("title"), allowEmpty: true)),
                         body: SealedText(try requiredString(body, path("body"), allowEmpty: true)))
        case .stat:
            try expect(value, .object, path(), "an object")
            var label = -1, figure = -1, unit = -1
            document.forEachMember(of: value) { key, member in
                if JSONDocument.equal(key, "label") { label = member }
                else if JSONDocument.equal(key, "value") { figure = member }
                else if JSONDocument.equal(key, "unit") { unit = member }
            }
            return .stat(label: SealedText(try requiredString(label, path("label"), allowEmpty: true)),
                         value: SealedText(try requiredString(figure, path("value"), allowEmpty: true)),
                         unit: try optionalString(unit, path("unit")).map(SealedText.init))
        case .list:
            try expect(value, .object, path(), "an object")
            var title = -1, items = -1
            document.forEachMember(of: value) { key, member in
                if JSONDocument.equal(key, "title") { title = member }
                else if JSONDocument.equal(key, "items") { items = member }
            }
            let heading = try optionalString(title, path("title")).map(SealedText.init)
            return .list(title: heading, items: try strings(items, path("items")).map(SealedText.init))
        case .picture:
            try expect(value, .object, path(), "an object")
            return .picture
        case .choose, .pick:
            try expect(value, .object, path(), "an object")
            var prompt = -1, options = -1
            document.forEachMember(of: value) { key, member in
                if JSONDocument.equal(key, "prompt") { prompt = member }
                else if JSONDocument.equal(key, "options") { options = member }
            }
            let question = try optionalString(prompt, path("prompt")).map(SealedText.init)
            let count = try stringCount(options, path("options"))
            if case .choose = kind { return .choose(prompt: question, optionCount: count) }
            return .pick(prompt: question, optionCount: count)
        case .ask:
            try expect(value, .object, path(), "an object")
            return .ask
        case .form:
            try expect(value, .object, path(), "an object")
            return .form
        case .slide:
            try expect(value, .object, path(), "an object")
            return .slide
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
                                allowEmpty: Bool = false) throws(LineProblem) -> String {
        guard index >= 0 else { throw LineProblem("missing field '\(path())'") }
        guard document.kind(index) == .string else {
            throw LineProblem("field '\(path())' is \(document.typeName(index)), expected a string")
        }
        if !allowEmpty && document.tokens[index].length == 0 {
            throw LineProblem("field '\(path())' is an empty string, expected a name or id")
        }
        return document.string(index)
    }

    private func optionalString(_ index: Int, _ path: @autoclosure () -> String) throws(LineProblem) -> String? {
        guard index >= 0 else { return nil }
        switch document.kind(index) {
        case .string: return document.string(index)
        case .null: return nil
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

    private func strings(_ index: Int, _ path: @autoclosure () -> String) throws(LineProblem) -> [String] {
        guard index >= 0 else { throw LineProblem("missing field '\(path())'") }
        try expect(index, .array, path(), "an array of strings")
        var result: [String] = []
        result.reserveCapacity(document.count(index))
        try document.forEachElement(of: index) { (position, element) throws(LineProblem) in
            guard document.kind(element) == .string else {
                throw LineProblem("field '\(path())[\(position)]' is \(document.typeName(element)), expected a string")
            }
            result.append(document.string(element))
        }
        return result
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
private enum NodeKind: String, CaseIterable {
    case say, card, stat, list, picture, choose, pick, ask, form, slide

    /// The kind these key bytes spell, or nil for a kind the format does not define.
    init?(_ key: UnsafeRawBufferPointer) {
        guard let known = Self.allCases.first(where: { JSONDocument.equal(key, $0.rawValue) }) else { return nil }
        self = known
    }
}
