import Privacy

extension PromptSet {
    /// Reads a prompt set file's bytes; `file` is how errors name it. Every key, value and
    /// template is checked (docs/prompts.md): the first problem is thrown, naming the key path.
    public init(parsing bytes: [UInt8], file: String) throws(JobsError) {
        let text: String
        switch Self.utf8(bytes) {
        case .success(let decoded): text = decoded
        case .failure(let offset): throw .promptSetIsNotJSON(file: file, problem: "not UTF-8 text at byte \(offset.value)")
        }
        let document: ReportValue
        do {
            document = try ReportValue(parsingExactJSON: text)
        } catch {
            throw .promptSetIsNotJSON(file: file, problem: error.description)
        }
        let reader = PromptSetReader(file: file)
        guard case .object = document else { throw .promptSetHasAWrongValue(file: file, path: "the top level", expected: "an object") }
        guard document["schema"] == .label(Self.schema) else { throw .promptSetHasAnotherSchema(file: file) }
        let top = try reader.fields(of: document, at: "", allowed: ["schema", "name", "reserved", "jobs"], optional: ["reserved"])
        guard case .label(let name)? = top["name"], Self.isName(name) else {
            throw .promptSetHasAWrongValue(file: file, path: "name", expected: "a name of at most 40 letters, digits and . _ + - / :, "
                                           + "starting with a letter or digit (the report shows it)")
        }
        var reserved: [String] = []
        if let value = top["reserved"] {
            guard case .array(let items) = value, items.count <= 16 else {
                throw .promptSetHasAWrongValue(file: file, path: "reserved", expected: "a list of at most 16 strings")
            }
            for (index, item) in items.enumerated() {
                guard case .label(let text) = item, !text.isEmpty, text.count <= 40 else {
                    throw .promptSetHasAWrongValue(file: file, path: "reserved[\(index)]", expected: "a string of 1 to 40 characters")
                }
                reserved.append(text)
            }
        }
        let jobsValue = top["jobs"]!
        let jobFields = try reader.fields(of: jobsValue, at: "jobs", allowed: JobKind.allCases.map(\.rawValue), keysAreJobs: true)
        var jobs: [JobKind: JobPrompts] = [:]
        for kind in JobKind.allCases {
            jobs[kind] = try reader.block(.job(kind), jobFields[kind.rawValue]!, at: "jobs." + kind.rawValue)
        }
        // The drawer's block is optional (a set written before the drawer was replayed has none):
        // without it the drawer asks with the built-in set's words.
        let drawer = try reader.fields(of: jobFields[JobKind.route.rawValue]!, at: "jobs.route", allowed: Self.routeKeys,
                                       optional: ["drawer"])["drawer"]
        let drawerPrompts = try drawer.map { value throws(JobsError) in try reader.block(.drawer, value, at: "jobs.route.drawer") }
        var hasher = SHA256()
        hasher.update(bytes)
        self.init(name: name, sha256: hasher.finalizeHex(), jobs: jobs, drawer: drawerPrompts ?? PromptSet.builtIn.drawer, reserved: reserved)
    }

    /// The keys of the route job's block: a job's, then the drawer's block.
    static let routeKeys = ["instructions", "prompt"] + PromptInputs.of(.route).lines.map(\.key) + ["drawer"]

    /// Whether `name` may name a set: a token the report's token rule keeps as written.
    static func isName(_ name: String) -> Bool {
        ReportLabel(token: name, salt: LabelSalt(bytes: [])).text == name && !ReportLabel.isHashed(name) && name != ReportLabel.unknown.text
    }

    /// A byte offset where UTF-8 decoding failed.
    struct Offset: Error { var value: Int }

    /// `bytes` as text, or where they stop being UTF-8.
    static func utf8(_ bytes: [UInt8]) -> Result<String, Offset> {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return .success(String(decoding: bytes, as: UTF8.self))
            case .error: return .failure(Offset(value: offset))
            }
        }
    }
}

/// Walks a parsed prompt set file, checking it against the schema and the jobs' inputs.
struct PromptSetReader {
    let file: String

    /// The fields of the object at `path` as `InputFields` checks them: each one of `allowed`,
    /// and (unless `optional`) every one of `allowed` there; `keysAreJobs` when the keys name jobs.
    func fields(of value: ReportValue, at path: String, allowed: [String], optional: Set<String> = [],
                keysAreJobs: Bool = false) throws(JobsError) -> [String: ReportValue] {
        do {
            return try InputFields(allowed: allowed, optional: optional).read(value, at: path)
        } catch {
            switch error {
            case .notAnObject(let path): throw .promptSetHasAWrongValue(file: file, path: InputFields.shown(path), expected: "an object")
            case .unknownKey where keysAreJobs: throw .promptSetNamesAnUnknownJob(file: file, path: error.place)
            case .unknownKey(_, _, let allowed): throw .promptSetHasAnUnknownKey(file: file, path: error.place, allowed: allowed)
            case .keyGivenTwice: throw .promptSetHasAKeyTwice(file: file, path: error.place)
            case .missingKey: throw .promptSetLacksAKey(file: file, path: error.place)
            }
        }
    }

    /// Where a template stands, which decides the names it may use.
    enum Place {
        case instructions
        case part(PromptPart)
        case line(inputs: [String])
    }

    /// The template at `path`, parsed and checked for `block` at `place`.
    func template(_ value: ReportValue, at path: String, block: PromptBlock, place: Place) throws(JobsError) -> PromptTemplate {
        let job = block.job
        guard case .label(let text) = value else { throw .promptSetHasAWrongValue(file: file, path: path, expected: "a string") }
        let template: PromptTemplate
        do {
            template = try PromptTemplate(parsing: text)
        } catch {
            throw .promptTemplateIsMalformed(file: file, path: path, problem: error.problem)
        }
        let inputs = block.inputs
        for name in template.inputs {
            switch place {
            case .line(let allowed):
                guard allowed.contains(name) else {
                    throw .lineTemplateNamesAnotherInput(file: file, path: path, placeholder: name, allowed: allowed)
                }
            case .instructions:
                guard inputs.seen.contains(name) else {
                    throw .promptNamesAnInputTheJobMayNotSee(file: file, path: path, placeholder: name, job: job, seen: inputs.seen)
                }
                guard inputs.inInstructions.contains(name) else {
                    throw .instructionsNameAnInputOfThePrompt(file: file, path: path, placeholder: name, job: job, allowed: inputs.inInstructions)
                }
            case .part(let part):
                guard inputs.seen.contains(name) else {
                    throw .promptNamesAnInputTheJobMayNotSee(file: file, path: path, placeholder: name, job: job, seen: inputs.seen)
                }
                if inputs.lists.contains(name), template.soleInput != name {
                    throw .promptListIsNotAPartOfItsOwn(file: file, path: path, placeholder: name)
                }
                if let condition = inputs.optional[name], part.when != condition {
                    throw .promptUsesAnInputThatMayBeAbsent(file: file, path: path, placeholder: name, condition: condition)
                }
            }
        }
        return template
    }

    /// The block `block` at `path`: a job's (route's holds the drawer's too, read on its own), or the drawer's.
    func block(_ block: PromptBlock, _ value: ReportValue, at path: String) throws(JobsError) -> JobPrompts {
        let inputs = block.inputs
        let allowed = block == .job(.route) ? PromptSet.routeKeys : ["instructions", "prompt"] + inputs.lines.map(\.key)
        let fields = try self.fields(of: value, at: path, allowed: allowed, optional: block == .job(.route) ? ["drawer"] : [])

        let instructionsPath = InputFields.join(path, "instructions")
        let instructionFields = try self.fields(of: fields["instructions"]!, at: instructionsPath, allowed: ["default", "languages"],
                                                optional: ["languages"])
        let instructions = try template(instructionFields["default"]!, at: InputFields.join(instructionsPath, "default"), block: block, place: .instructions)
        var byLanguage: [String: PromptTemplate] = [:]
        if let languages = instructionFields["languages"] {
            let languagesPath = InputFields.join(instructionsPath, "languages")
            guard case .object(let pairs) = languages else {
                throw .promptSetHasAWrongValue(file: file, path: languagesPath, expected: "an object of language codes")
            }
            for (code, text) in pairs {
                let place = InputFields.join(languagesPath, code)
                guard Self.isLanguageCode(code) else { throw .promptSetNamesAnUnknownLanguage(file: file, path: place) }
                guard byLanguage[code] == nil else { throw .promptSetHasAKeyTwice(file: file, path: place) }
                byLanguage[code] = try template(text, at: place, block: block, place: .instructions)
            }
        }

        let promptPath = InputFields.join(path, "prompt")
        guard case .array(let items) = fields["prompt"]!, !items.isEmpty else {
            throw .promptSetHasAWrongValue(file: file, path: promptPath, expected: "an array of one part or more")
        }
        var parts: [PromptPart] = []
        for (index, item) in items.enumerated() {
            let place = promptPath + "[\(index)]"
            parts.append(try part(item, at: place, block: block))
        }

        var lines: [String: PromptTemplate] = [:]
        for line in inputs.lines {
            lines[line.key] = try template(fields[line.key]!, at: InputFields.join(path, line.key), block: block, place: .line(inputs: line.inputs))
        }
        return JobPrompts(job: block.job, block: block, instructions: instructions, instructionsByLanguage: byLanguage, prompt: parts, lines: lines)
    }

    /// A prompt's part at `path`: a string, or an object with `text` and a `when` or `unless`.
    func part(_ value: ReportValue, at path: String, block: PromptBlock) throws(JobsError) -> PromptPart {
        let inputs = block.inputs
        let job = block.job
        if case .label = value {
            let part = PromptPart(PromptTemplate.empty)
            return PromptPart(try template(value, at: path, block: block, place: .part(part)))
        }
        guard case .object = value else {
            throw .promptSetHasAWrongValue(file: file, path: path, expected: "a string, or an object with \"text\" and \"when\" or \"unless\"")
        }
        let fields = try self.fields(of: value, at: path, allowed: ["text", "when", "unless"], optional: ["when", "unless"])
        var part = PromptPart(PromptTemplate.empty)
        for key in ["when", "unless"] {
            guard let condition = fields[key] else { continue }
            let place = InputFields.join(path, key)
            guard case .label(let name) = condition else { throw .promptSetHasAWrongValue(file: file, path: place, expected: "a condition's name") }
            guard inputs.conditions.contains(name) else {
                throw .promptNamesAnUnknownCondition(file: file, path: place, condition: Self.shown(name), job: job, conditions: inputs.conditions)
            }
            if key == "when" { part.when = name } else { part.unless = name }
        }
        part.template = try template(fields["text"]!, at: InputFields.join(path, "text"), block: block, place: .part(part))
        return part
    }

    /// Whether `code` is a language subtag as `Language.code(of:)` gives them: 2 or 3 lowercase ASCII letters.
    static func isLanguageCode(_ code: String) -> Bool {
        (2...3).contains(code.utf8.count) && code.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }
    }

    /// A condition's name as an error may quote it: a name of lowercase letters and `_`, else a description.
    static func shown(_ name: String) -> String {
        !name.isEmpty && name.count <= 40 && name.allSatisfy({ $0.isASCII && ($0.isLowercase || $0 == "_") }) ? name : "the name given"
    }
}
