import Export
import Jobs
import Privacy
import ReplayKit

/// Walks a parsed suite file, checking each case against the format (docs/suite.md): the first
/// problem is thrown, naming the file, the case and the key path.
struct SuiteFileReader {
    let file: String

    /// Where a problem is: `cases[3] (route-tie-means-lead): expect.route_to`; the id only once it
    /// checked as a slug (a value that is not one may be anything, so it is not quoted).
    static func place(_ index: Int, id: String?, _ path: String) -> String {
        "cases[\(index)]" + (id.map { " (\($0))" } ?? "") + (path.isEmpty ? "" : ": " + path)
    }

    /// A case id: 1 to 32 lowercase letters, digits and `-`, starting with a letter or digit.
    static func isSlug(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard (1...32).contains(bytes.count) else { return false }
        func isAlphanumeric(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        return isAlphanumeric(bytes[0]) && bytes.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "-") }
    }

    /// A name the results show as written (the suite's own): a token the report's token rule keeps.
    static func isToken(_ text: String) -> Bool {
        ReportLabel(token: text, salt: LabelSalt(bytes: [])).text == text && !ReportLabel.isHashed(text) && text != ReportLabel.unknown.text
    }

    /// A model version the report's model rule keeps as written (`26.4`, `27.0`).
    static func isVersion(_ text: String) -> Bool {
        ReportLabel(model: text, salt: LabelSalt(bytes: [])).text == text && !ReportLabel.isHashed(text) && text != ReportLabel.unknown.text
    }

    /// A language tag the report's locale rule keeps as written (`en`, `fr-CA`, `zh-Hant-TW`).
    static func isLanguageTag(_ text: String) -> Bool {
        ReportLabel(locale: text, salt: LabelSalt(bytes: [])).text == text && !ReportLabel.isHashed(text) && text != ReportLabel.unknown.text
    }

    /// An unknown node kind's name as the export's reader keeps it: `[A-Za-z0-9_.-]{1,32}`.
    static func isPlainKind(_ text: String) -> Bool {
        (1...32).contains(text.utf8.count) && text.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "-")
        }
    }

    static func isString(_ value: ReportValue) -> Bool {
        if case .label = value { return true }
        return false
    }

    /// Builds the error for a value at `path` of case `index` that is not what belongs there.
    struct CaseScope {
        let file: String
        let index: Int
        var id: String?

        func place(_ path: String) -> String { SuiteFileReader.place(index, id: id, path) }
        func wrong(_ path: String, _ expected: String) -> SuiteError { .wrongValue(file: file, place: place(path), expected: expected) }
    }

    /// The fields of the object at `path` as `fields` checks them, in the file's order. `place`
    /// says where a key path is.
    func pairs(of value: ReportValue, at path: String, _ fields: InputFields,
               place: (String) -> String = InputFields.shown) throws(SuiteError) -> [(key: String, value: ReportValue)] {
        do {
            return try fields.pairs(of: value, at: path)
        } catch {
            switch error {
            case .notAnObject: throw .wrongValue(file: file, place: place(error.place), expected: "an object")
            case .unknownKey(_, _, let allowed): throw .unknownKey(file: file, place: place(error.place), allowed: allowed)
            case .keyGivenTwice: throw .keyTwice(file: file, place: place(error.place))
            case .missingKey: throw .lacksAKey(file: file, place: place(error.place))
            }
        }
    }

    /// The fields of the object at `path`, by key: each one of `allowed`, and every one of
    /// `allowed` but `optional` there. `place` says where a key path is.
    func fields(of value: ReportValue, at path: String, allowed: [String], optional: Set<String> = [],
                place: (String) -> String = InputFields.shown) throws(SuiteError) -> [String: ReportValue] {
        Dictionary(uniqueKeysWithValues: try pairs(of: value, at: path, InputFields(allowed: allowed, optional: optional), place: place)
            .map { ($0.key, $0.value) })
    }

    // MARK: - A case

    func suiteCase(_ value: ReportValue, index: Int) throws(SuiteError) -> SuiteCase {
        var scope = CaseScope(file: file, index: index, id: nil)
        guard case .object = value else { throw scope.wrong("", "an object (a case)") }
        // The id first, so every later problem names the case by it.
        if case .label(let id)? = value["id"], Self.isSlug(id) { scope.id = id }
        let fields = try self.fields(of: value, at: "",
                                     allowed: ["id", "description", "job", "must", "model_versions", "languages", "input", "given", "expect"],
                                     optional: ["description", "model_versions", "languages", "given"], place: scope.place)
        guard let id = scope.id else {
            throw scope.wrong("id", "a short slug: 1 to 32 lowercase letters, digits and -, starting with a letter or digit")
        }
        if let description = fields["description"], !Self.isString(description) { throw scope.wrong("description", "a string") }
        guard case .label(let jobName)? = fields["job"], let job = JobKind(rawValue: jobName) else {
            throw scope.wrong("job", "one of " + JobKind.allCases.map(\.rawValue).joined(separator: ", "))
        }
        guard case .bool(let must)? = fields["must"] else { throw scope.wrong("must", "true or false") }
        let modelVersions = try fields["model_versions"].map { (value) throws(SuiteError) in
            try strings(value, at: "model_versions", scope: scope, check: Self.isVersion,
                        expected: "an array of one model version or more, such as [\"26.4\", \"27.0\"]")
        }
        let languages = try fields["languages"].map { (value) throws(SuiteError) in
            try strings(value, at: "languages", scope: scope, check: Self.isLanguageTag,
                        expected: "an array of one language tag or more, such as [\"en\", \"fr-CA\", \"ja\"]")
        }
        let input = try self.input(fields["input"]!, job: job, scope: scope)
        if languages != nil, input.language != nil {
            throw scope.wrong("input.lang", "absent when the case gives languages (it runs once in each of them)")
        }
        let given = try fields["given"].map { (value) throws(SuiteError) in try self.given(value, scope: scope) }
        let expectations = try self.expectations(fields["expect"]!, job: job, input: input, scope: scope)
        return SuiteCase(index: index, id: id, job: job, must: must, modelVersions: modelVersions, languages: languages,
                         input: input, given: given, expectations: expectations)
    }

    /// A non-empty array of strings that pass `check`, each once.
    func strings(_ value: ReportValue, at path: String, scope: CaseScope, check: (String) -> Bool,
                 expected: String) throws(SuiteError) -> [String] {
        guard case .array(let items) = value, !items.isEmpty else { throw scope.wrong(path, expected) }
        var result: [String] = []
        for (position, item) in items.enumerated() {
            guard case .label(let text) = item, check(text) else { throw scope.wrong(path + "[\(position)]", expected) }
            guard !result.contains(text) else { throw .keyTwice(file: file, place: scope.place(path + "[\(position)]")) }
            result.append(text)
        }
        return result
    }

    // MARK: - Input

    func input(_ value: ReportValue, job: JobKind, scope: CaseScope) throws(SuiteError) -> SuiteInput {
        let path = "input"
        func text(_ fields: [String: ReportValue], _ key: String) throws(SuiteError) -> SealedText? {
            guard let value = fields[key] else { return nil }
            guard case .label(let text) = value else { throw scope.wrong(InputFields.join(path, key), "a string") }
            return SealedText(text)
        }
        func name(_ fields: [String: ReportValue], _ key: String, at place: String? = nil) throws(SuiteError) -> String {
            guard case .label(let text)? = fields[key], !text.isEmpty else {
                throw scope.wrong(place ?? InputFields.join(path, key), "a name (a non-empty string)")
            }
            return text
        }
        func language(_ fields: [String: ReportValue]) throws(SuiteError) -> String? {
            guard let value = fields["lang"] else { return nil }
            guard case .label(let tag) = value, Self.isLanguageTag(tag) else {
                throw scope.wrong(InputFields.join(path, "lang"), "a language tag (BCP 47) such as \"en\", \"fr-CA\" or \"ja\"")
            }
            return tag
        }
        switch job {
        case .chips:
            let fields = try self.fields(of: value, at: path, allowed: ["agent", "screen", "last_message", "lang"],
                                         optional: ["last_message", "lang"], place: scope.place)
            return .chips(agent: try name(fields, "agent"), screen: try screen(fields["screen"]!, at: InputFields.join(path, "screen"), scope: scope),
                          lastMessage: try text(fields, "last_message"), language: try language(fields))
        case .route:
            let fields = try self.fields(of: value, at: path, allowed: ["members", "lead", "message", "lang"], optional: ["lang"],
                                         place: scope.place)
            let membersPath = InputFields.join(path, "members")
            guard case .array(let items)? = fields["members"], !items.isEmpty else {
                throw scope.wrong(membersPath, "an array of one member or more, each {\"name\": …, \"about\": …}")
            }
            var members: [GroupMember] = []
            for (position, item) in items.enumerated() {
                let at = membersPath + "[\(position)]"
                let member = try self.fields(of: item, at: at, allowed: ["name", "about"], optional: ["about"], place: scope.place)
                let memberName = try name(member, "name", at: InputFields.join(at, "name"))
                guard !members.contains(where: { $0.name == memberName }) else { throw .keyTwice(file: file, place: scope.place(InputFields.join(at, "name"))) }
                var about = SealedText.empty
                if let value = member["about"] {
                    guard case .label(let text) = value else { throw scope.wrong(InputFields.join(at, "about"), "a string") }
                    about = SealedText(text)
                }
                members.append(GroupMember(name: memberName, about: about))
            }
            let lead = try name(fields, "lead")
            guard members.contains(where: { $0.name == lead }) else {
                throw scope.wrong(InputFields.join(path, "lead"), "the name of one of input.members")
            }
            guard let message = try text(fields, "message") else { throw scope.wrong(InputFields.join(path, "message"), "a string") }
            return .route(members: members, lead: lead, message: message, language: try language(fields))
        case .push:
            let fields = try self.fields(of: value, at: path, allowed: ["agent", "kind", "batch", "replies", "lang"],
                                         optional: ["batch", "lang"], place: scope.place)
            guard case .label(let kind)? = fields["kind"], !kind.isEmpty else {
                throw scope.wrong(InputFields.join(path, "kind"), "the push's kind: \"reply\", \"handoff\" or \"quote\"")
            }
            var batch = 1
            if let value = fields["batch"] {
                guard case .int(let count) = value, count >= 1 else { throw scope.wrong(InputFields.join(path, "batch"), "a whole number from 1") }
                batch = count
            }
            let repliesPath = InputFields.join(path, "replies")
            guard case .array(let items)? = fields["replies"], !items.isEmpty else {
                throw scope.wrong(repliesPath, "an array of one reply's screen or more, oldest first (the push is for the last)")
            }
            var replies: [[ScreenNode]] = []
            for (position, item) in items.enumerated() {
                replies.append(try screen(item, at: repliesPath + "[\(position)]", scope: scope))
            }
            return .push(agent: try name(fields, "agent"), kind: kind, batch: batch, replies: replies, language: try language(fields))
        case .draft:
            let fields = try self.fields(of: value, at: path, allowed: ["agent", "message", "offline", "lang"],
                                         optional: ["agent", "offline", "lang"], place: scope.place)
            let agent = fields["agent"] == nil ? "Coach" : try name(fields, "agent")
            guard let message = try text(fields, "message") else { throw scope.wrong(InputFields.join(path, "message"), "a string") }
            var offline = true
            if let value = fields["offline"] {
                guard case .bool(let flag) = value else { throw scope.wrong(InputFields.join(path, "offline"), "true or false") }
                offline = flag
            }
            return .draft(agent: agent, message: message, offline: offline, language: try language(fields))
        }
    }

    /// A screen: an array of nodes, each an object with one key, its kind, as EXPORT_FORMAT.md's
    /// table says. Ids, props and picture links are read as the export's reader reads them (not
    /// at all); a kind the format does not know is an unknown node, with no words.
    func screen(_ value: ReportValue, at path: String, scope: CaseScope) throws(SuiteError) -> [ScreenNode] {
        guard case .array(let items) = value else {
            throw scope.wrong(path, "an array of screen nodes, each an object with one key, its kind (say, card, stat, list, picture, choose, pick, ask, form, slide)")
        }
        var nodes: [ScreenNode] = []
        for (position, item) in items.enumerated() {
            let at = path + "[\(position)]"
            guard case .object(let pairs) = item, pairs.count == 1, let (kind, body) = pairs.first else {
                throw scope.wrong(at, "an object with one key, the node's kind")
            }
            let here = InputFields.join(at, kind)
            func member(_ key: String) -> ReportValue? {
                if case .object(let fields) = body { return fields.first { $0.0 == key }?.1 }
                return nil
            }
            func string(_ key: String, optional: Bool = false) throws(SuiteError) -> SealedText? {
                guard let value = member(key) else {
                    if optional { return nil }
                    throw .lacksAKey(file: file, place: scope.place(InputFields.join(here, key)))
                }
                guard case .label(let text) = value else { throw scope.wrong(InputFields.join(here, key), "a string") }
                return SealedText(text)
            }
            func strings(_ key: String) throws(SuiteError) -> [SealedText] {
                guard case .array(let values)? = member(key) else { throw scope.wrong(InputFields.join(here, key), "an array of strings") }
                var texts: [SealedText] = []
                for (index, value) in values.enumerated() {
                    guard case .label(let text) = value else { throw scope.wrong(InputFields.join(here, key) + "[\(index)]", "a string") }
                    texts.append(SealedText(text))
                }
                return texts
            }
            func object() throws(SuiteError) {
                guard case .object = body else { throw scope.wrong(here, "an object") }
            }
            switch kind {
            case "say":
                guard case .label(let text) = body else { throw scope.wrong(here, "a string") }
                nodes.append(.say(SealedText(text)))
            case "card":
                try object()
                nodes.append(.card(title: try string("title")!, body: try string("body")!))
            case "stat":
                try object()
                nodes.append(.stat(label: try string("label")!, value: try string("value")!, unit: try string("unit", optional: true)))
            case "list":
                try object()
                nodes.append(.list(title: try string("title", optional: true), items: try strings("items")))
            case "picture":
                try object()
                nodes.append(.picture)
            case "choose", "pick":
                try object()
                let prompt = try string("prompt", optional: true)
                let count = try strings("options").count
                nodes.append(kind == "choose" ? .choose(prompt: prompt, optionCount: count) : .pick(prompt: prompt, optionCount: count))
            case "ask", "form", "slide":
                try object()
                nodes.append(kind == "ask" ? .ask : kind == "form" ? .form : .slide)
            default:
                // An unknown kind, as the export's reader keeps one: its name when it is a plain token.
                nodes.append(.unknown(kind: Self.isPlainKind(kind) ? kind : "(other)"))
            }
        }
        return nodes
    }

    // MARK: - Given output and expectations

    func given(_ value: ReportValue, scope: CaseScope) throws(SuiteError) -> SuiteGivenOutput {
        let fields = try self.fields(of: value, at: "given", allowed: ["output", "confidence"], optional: ["confidence"], place: scope.place)
        guard case .label(let output)? = fields["output"] else { throw scope.wrong("given.output", "a string: the output the model would have written") }
        var confidence = 1.0
        if let value = fields["confidence"] {
            guard let number = value.doubleValue, (0...1).contains(number) else {
                throw scope.wrong("given.confidence", "a number from 0 to 1 (the engine's minimum token probability)")
            }
            confidence = number
        }
        return SuiteGivenOutput(output: SealedText(output), confidence: confidence)
    }

    func expectations(_ value: ReportValue, job: JobKind, input: SuiteInput, scope: CaseScope) throws(SuiteError) -> [SuiteExpectation] {
        let names = SuiteExpectation.names(for: job)
        guard case .object(let pairs) = value, !pairs.isEmpty else {
            throw scope.wrong("expect", "an object of one expectation or more (\(job.rawValue) has \(names.joined(separator: ", ")))")
        }
        var result: [SuiteExpectation] = []
        for (key, child) in try self.pairs(of: value, at: "expect", InputFields(allowed: names, optional: Set(names)), place: scope.place) {
            let path = InputFields.join("expect", key)
            func flag() throws(SuiteError) -> Bool {
                guard case .bool(let flag) = child else { throw scope.wrong(path, "true or false") }
                return flag
            }
            func count(from minimum: Int) throws(SuiteError) -> Int {
                guard case .int(let number) = child, number >= minimum else { throw scope.wrong(path, "a whole number from \(minimum)") }
                return number
            }
            switch key {
            case "fires": result.append(.fires(try flag()))
            case "fallback":
                guard case .label(let reason) = child, SuiteExpectation.fallbacks.contains(reason) else {
                    throw scope.wrong(path, "one of " + SuiteExpectation.fallbacks.joined(separator: ", "))
                }
                result.append(.fallback(reason))
            case "input_cut": result.append(.inputCut(try flag()))
            case "input_tokens_at_most": result.append(.inputTokensAtMost(try count(from: 0)))
            case "named_route": result.append(.namedRoute(try flag()))
            case "parses": result.append(.parses(try flag()))
            case "reads_newest": result.append(.readsNewest(try count(from: 1)))
            case "accepted": result.append(.accepted(try flag()))
            case "in_budget": result.append(.inBudget(try flag()))
            case "no_violations": result.append(.noViolations(try flag()))
            case "no_draft": result.append(.noDraft(try flag()))
            case "route_to":
                guard case .label(let name) = child, name == Route.lead || input.memberNames.contains(name) else {
                    throw scope.wrong(path, "the name of one of input.members, or \"lead\" (the lead)")
                }
                result.append(.routeTo(name))
            case "draft_kind":
                guard case .label(let kind) = child, SuiteExpectation.draftKinds.contains(kind) else {
                    throw scope.wrong(path, "one of " + SuiteExpectation.draftKinds.joined(separator: ", "))
                }
                result.append(.draftKind(kind))
            case "chips_count_range":
                guard case .array(let bounds) = child, bounds.count == 2, case .int(let low) = bounds[0], case .int(let high) = bounds[1],
                      1 <= low, low <= high, high <= 3 else {
                    throw scope.wrong(path, "[MIN, MAX], whole numbers with 1 <= MIN <= MAX <= 3 (chips are one to three replies)")
                }
                result.append(.chipsCountRange(low...high))
            default:
                throw .unknownKey(file: file, place: scope.place(path), allowed: names)
            }
        }
        return result
    }
}
