import Privacy

/// The words the four jobs put around what they see: each job's instructions, per language,
/// and the parts of its prompt, with named placeholders for the inputs. A prompt set file is
/// JSON, schema `replay.prompts/1` (docs/prompts.md); `replay --prompts FILE` replays with one,
/// and `replay prompts show` prints the built-in set (`builtIn`), today's prompts, to start from.
///
/// Reading a file checks every template against what the spec lets its job see
/// (`PromptInputs`): a prompt set can change how a job asks, never what it reads. The output
/// schemas, caps and budgets are the jobs' own and not in a prompt set.
///
/// A set is known in reports and run states by its `name` and `sha256`: the SHA-256 of the
/// file's bytes, and for the built-in set of the bytes `replay prompts show` prints (`json`),
/// so a file saved from `replay prompts show` has the built-in set's name and digest.
public struct PromptSet: Sendable, Equatable {
    /// The schema a prompt set file names.
    public static let schema = "replay.prompts/1"

    /// The set's name, a token (letters, digits and `._+-/:`, at most 40): the report shows it.
    public let name: String
    /// SHA-256 of the file's bytes (of `json` for the built-in set), in hex.
    public let sha256: String
    /// Each job's prompts: all four.
    private let jobs: [JobKind: JobPrompts]
    /// The route job's prompts in the drawer (`jobs.route.drawer`).
    public let drawer: JobPrompts
    /// Strings no input's words may carry into a prompt (the file's optional `reserved`): each is
    /// removed from every input (a screen's words, a member's `about`, a reply, a message) before
    /// it is put in. A set that fences an agent's words (`<<agent>>`…`<</agent>>`) reserves its
    /// fence, so the words inside cannot close it and speak from outside. Empty in the built-in set.
    public let reserved: [String]

    init(name: String, sha256: String, jobs: [JobKind: JobPrompts], drawer: JobPrompts, reserved: [String] = []) {
        precondition(JobKind.allCases.allSatisfy { jobs[$0]?.block == .job($0) }, "a prompt set holds every job's prompts")
        precondition(drawer.block == .drawer, "the drawer's prompts are the drawer block's")
        self.name = name
        self.sha256 = sha256
        self.jobs = jobs.mapValues { var prompts = $0; prompts.reserved = reserved; return prompts }
        var drawer = drawer
        drawer.reserved = reserved
        self.drawer = drawer
        self.reserved = reserved
    }

    /// The prompts of `job`.
    public subscript(job: JobKind) -> JobPrompts { jobs[job]! }

    /// The prompts of `block`.
    public subscript(block: PromptBlock) -> JobPrompts {
        switch block {
        case .job(let kind): self[kind]
        case .drawer: drawer
        }
    }

    public var chips: JobPrompts { self[.chips] }
    public var route: JobPrompts { self[.route] }
    public var push: JobPrompts { self[.push] }
    public var draft: JobPrompts { self[.draft] }

    /// How reports and run states name the set.
    public var identity: PromptSetIdentity { PromptSetIdentity(name: name, sha256: sha256) }

    /// The set as a prompt set file: two-space indented, keys in the documented order, a
    /// newline at the end. What `replay prompts show` prints.
    public var json: String { value.exactJSON() }

    /// The set as JSON values, in the order `json` writes them.
    var value: ReportValue {
        .object([
            ("schema", .label(Self.schema)),
            ("name", .label(name)),
        ] + (reserved.isEmpty ? [] : [("reserved", .array(reserved.map { .label($0) }))]) + [
            ("jobs", .object(JobKind.allCases.map { kind in
                guard kind == .route, case .object(let fields) = self[kind].value else { return (kind.rawValue, self[kind].value) }
                return (kind.rawValue, .object(fields + [("drawer", drawer.value)]))
            })),
        ])
    }
}

/// A prompt set as a report and a run state name it: its name and the SHA-256 of its file.
public struct PromptSetIdentity: Sendable, Equatable {
    public var name: String
    public var sha256: String

    public init(name: String, sha256: String) {
        self.name = name
        self.sha256 = sha256
    }

    /// "built-in (SHA-256 0123456789ab)": for a sentence saying two sets differ.
    public var summary: String { "\(name) (SHA-256 \(sha256.prefix(12)))" }
}

extension JobPrompts {
    /// The job's block of a prompt set file: instructions (default, then languages in order),
    /// the prompt's parts, the line templates.
    var value: ReportValue {
        var fields: [(String, ReportValue)] = [
            ("instructions", .object([
                ("default", .label(instructions.text)),
                ("languages", .object(instructionsByLanguage.sorted { $0.key < $1.key }.map { ($0.key, .label($0.value.text)) })),
            ])),
            ("prompt", .array(prompt.map(\.value))),
        ]
        for line in block.inputs.lines {
            fields.append((line.key, .label(lines[line.key]?.text ?? "")))
        }
        return .object(fields)
    }
}

extension PromptPart {
    /// A part as a file writes it: a string when it is always kept, else `{"text", "when", "unless"}`.
    var value: ReportValue {
        guard when != nil || unless != nil else { return .label(template.text) }
        var fields: [(String, ReportValue)] = [("text", .label(template.text))]
        if let when { fields.append(("when", .label(when))) }
        if let unless { fields.append(("unless", .label(unless))) }
        return .object(fields)
    }
}

/// `run.prompts` of a report, `options.prompts` of a state: the set's name (a token, as the
/// set's reader requires) and the SHA-256 of its file.
extension PromptSetIdentity: Codable {
    enum CodingKeys: String, CodingKey { case name, sha256 }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(TokenLabel.self, forKey: .name).text
        let digest = try container.decode(SHA256Hex.self, forKey: .sha256).text
        guard ReportLabel(token: name, salt: LabelSalt(bytes: [])).text == name, SHA256Hex.isDigest(digest) else {
            throw StateFormatError(at: container.codingPath, "not a prompt set's name and SHA-256")
        }
        self.init(name: name, sha256: digest)
    }
}
