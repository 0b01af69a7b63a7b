import Privacy
import Testing
@testable import Jobs

/// Bad prompt set files and the error each gets: the file, the key path, and what is allowed.
/// Most are the built-in file with one change (`PromptFiles`), so each row tests one rule.
@Suite struct PromptSetErrorTests {
    /// A bad file and the error's text.
    struct BadFile: Sendable, CustomTestStringConvertible {
        var what: String
        var bytes: [UInt8]
        var expected: String
        var testDescription: String { what }

        /// The built-in file with `changes`.
        init(_ what: String, _ changes: [(String, ReportValue?)], _ expected: String) {
            self.what = what
            self.bytes = PromptFiles.builtIn(changes)
            self.expected = expected
        }

        /// A file of exactly `text`.
        init(_ what: String, text: String, _ expected: String) {
            self.what = what
            self.bytes = Array(text.utf8)
            self.expected = expected
        }
    }

    static let badFiles: [BadFile] = [
        // The file as a whole.
        BadFile("bad JSON", text: "{\"schema\": \"replay.prompts/1\" \"name\": 1}",
                "prompts.json: not JSON at byte 30: expected , or }"),
        BadFile("cut short", text: "{\"schema\": \"replay.prompts/1\",",
                "prompts.json: not JSON at byte 30: expected a key"),
        BadFile("a control character in a string", text: "{\"name\": \"caf\u{e9}\"}".replacingOccurrences(of: "\u{e9}", with: "\u{1}"),
                "prompts.json: not JSON at byte 13: a control character in a string"),
        BadFile("an array", text: "[]", "prompts.json: the top level: must be an object"),
        BadFile("no schema", [("schema", nil)], "prompts.json: schema: must be \"replay.prompts/1\" (a prompt set file, docs/prompts.md)"),
        BadFile("another schema", [("schema", .label("replay.prompts/2"))],
                "prompts.json: schema: must be \"replay.prompts/1\" (a prompt set file, docs/prompts.md)"),
        BadFile("an unknown key", [("colour", .label("blue"))], "prompts.json: colour: an unknown key (schema, name, reserved, jobs are allowed)"),
        BadFile("reserved as a string", [("reserved", .label("<<agent>>"))], "prompts.json: reserved: must be a list of at most 16 strings"),
        BadFile("an empty reserved string", [("reserved", .array([.label("<<agent>>"), .label("")]))],
                "prompts.json: reserved[1]: must be a string of 1 to 40 characters"),
        BadFile("no name", [("name", nil)], "prompts.json: name is missing"),
        BadFile("a name that is a sentence", [("name", .label("my new prompts"))],
                "prompts.json: name: must be a name of at most 40 letters, digits and . _ + - / :, starting with a letter or digit (the report shows it)"),
        // Jobs and their keys.
        BadFile("an unknown job", [("jobs.summary", .object([]))], "prompts.json: jobs.summary: not a job (chips, route, push, draft are the jobs)"),
        BadFile("a missing job", [("jobs.push", nil)], "prompts.json: jobs.push is missing"),
        BadFile("a missing prompt", [("jobs.draft.prompt", nil)], "prompts.json: jobs.draft.prompt is missing"),
        BadFile("a missing default", [("jobs.draft.instructions.default", nil)], "prompts.json: jobs.draft.instructions.default is missing"),
        BadFile("a misspelt key", [("jobs.chips.promt", .array([]))],
                "prompts.json: jobs.chips.promt: an unknown key (instructions, prompt are allowed)"),
        BadFile("a member line outside route", [("jobs.chips.member", .label("- {name}"))],
                "prompts.json: jobs.chips.member: an unknown key (instructions, prompt are allowed)"),
        BadFile("route without its member line", [("jobs.route.member", nil)], "prompts.json: jobs.route.member is missing"),
        BadFile("a number for a template", [("jobs.push.instructions.default", .int(3))],
                "prompts.json: jobs.push.instructions.default: must be a string"),
        BadFile("an empty prompt", [("jobs.draft.prompt", .array([]))], "prompts.json: jobs.draft.prompt: must be an array of one part or more"),
        BadFile("a part that is a number", [("jobs.draft.prompt[1]", .int(1))],
                "prompts.json: jobs.draft.prompt[1]: must be a string, or an object with \"text\" and \"when\" or \"unless\""),
        BadFile("a language that is a name", [("jobs.chips.instructions.languages.French", .label("..."))],
                "prompts.json: jobs.chips.instructions.languages.French: not a language code (2 or 3 lowercase letters, the language of the export's tags: fr for fr-CA)"),
        // Templates and what they may name.
        BadFile("members in chips", [("jobs.chips.prompt[2]", .label("{members}"))],
                "prompts.json: jobs.chips.prompt[2]: {members} is not an input chips may see (it sees agent, words, last_message, language)"),
        BadFile("the agent in push, which must not say who wrote", [("jobs.push.prompt[3]", .label("Write the line for {agent}."))],
                "prompts.json: jobs.push.prompt[3]: {agent} is not an input push may see (it sees words, replies, language)"),
        BadFile("another thread in draft", [("jobs.draft.prompt[0]", .label("{thread}"))],
                "prompts.json: jobs.draft.prompt[0]: {thread} is not an input draft may see (it sees agent, message, language)"),
        BadFile("the words in the instructions", [("jobs.chips.instructions.default", .label("Reply to {words}"))],
                "prompts.json: jobs.chips.instructions.default: {words} cannot be in chips's instructions, which may use agent, language (the words the job sees go in its prompt)"),
        BadFile("an unseen input in a language's instructions", [("jobs.route.instructions.languages.fr", .label("{agent}"))],
                "prompts.json: jobs.route.instructions.languages.fr: {agent} is not an input route may see (it sees message, members, language)"),
        BadFile("the last message where it may be absent", [("jobs.chips.prompt[0]", .label("{last_message}"))],
                "prompts.json: jobs.chips.prompt[0]: {last_message} may be absent: use it only in a part with \"when\": \"last_message\""),
        BadFile("members among other words", [("jobs.route.prompt[1]", .label("The members: {members}"))],
                "prompts.json: jobs.route.prompt[1]: {members} must be a part by itself (it becomes one line each)"),
        BadFile("the message in a member's line", [("jobs.route.member", .label("- {name} ({message})"))],
                "prompts.json: jobs.route.member: {message} is not in this line, which has name, about"),
        BadFile("about where a member has none", [("jobs.route.member_without_about", .label("- {name}: {about}"))],
                "prompts.json: jobs.route.member_without_about: {about} is not in this line, which has name"),
        BadFile("a condition of another job", [("jobs.chips.prompt[2].when", .label("batched"))],
                "prompts.json: jobs.chips.prompt[2].when: batched is not a condition of chips (it has last_message)"),
        BadFile("a condition where a job has none", [("jobs.draft.prompt[0]", .object([("text", .label("Message:")), ("unless", .label("offline"))]))],
                "prompts.json: jobs.draft.prompt[0].unless: offline is not a condition of draft (it has none)"),
        BadFile("a part with no text", [("jobs.push.prompt[0].text", nil)], "prompts.json: jobs.push.prompt[0].text is missing"),
        BadFile("an unclosed brace", [("jobs.chips.prompt[0]", .label("{agent wrote:"))],
                "prompts.json: jobs.chips.prompt[0]: the placeholder at character 1 is not a name of lowercase letters and _ (write {{ for a brace)"),
        BadFile("a brace at the end", [("jobs.chips.prompt[4]", .label("Suggest replies {"))],
                "prompts.json: jobs.chips.prompt[4]: the { at character 17 is not closed (write {{ for a brace)"),
        BadFile("a lone closing brace", [("jobs.draft.prompt[0]", .label("Message:}"))],
                "prompts.json: jobs.draft.prompt[0]: the } at character 9 closes nothing (write }} for a brace)"),
        BadFile("an empty placeholder", [("jobs.draft.prompt[0]", .label("{} Message:"))],
                "prompts.json: jobs.draft.prompt[0]: the placeholder at character 1 has no name"),
    ]

    @Test(arguments: badFiles)
    func aBadFileIsRefusedNamingTheFileAndTheKey(file: BadFile) {
        #expect(throws: (any Error).self) { try PromptSet(parsing: file.bytes, file: "prompts.json") }
        do {
            _ = try PromptSet(parsing: file.bytes, file: "prompts.json")
        } catch {
            #expect(error.description == file.expected)
        }
    }

    @Test func aKeyGivenTwiceIsRefused() {
        let text = PromptSet.builtIn.json.replacingOccurrences(of: "\"name\": \"built-in\",", with: "\"name\": \"a\",\n  \"name\": \"b\",")
        #expect(throws: JobsError.promptSetHasAKeyTwice(file: "prompts.json", path: "name")) {
            try PromptSet(parsing: Array(text.utf8), file: "prompts.json")
        }
    }

    @Test func invalidUTF8IsRefusedAtItsByte() {
        var bytes = PromptFiles.builtIn()
        let at = bytes.firstIndex(of: UInt8(ascii: "Y"))!   // "You suggest…", the first instructions
        bytes[at] = 0xFF
        #expect(throws: JobsError.promptSetIsNotJSON(file: "prompts.json", problem: "not UTF-8 text at byte \(at)")) {
            try PromptSet(parsing: bytes, file: "prompts.json")
        }
    }

    /// The allowed names in the errors are the table's: every job's inputs, conditions and lines.
    @Test(arguments: JobKind.allCases)
    func everyInputAJobSeesIsAcceptedInItsPrompt(job: JobKind) throws {
        let inputs = PromptInputs.of(job)
        for name in inputs.seen {
            let condition = inputs.optional[name]
            let part: ReportValue = condition.map { .object([("text", .label("{\(name)}")), ("when", .label($0))]) } ?? .label("{\(name)}")
            let set = try PromptFiles.read([("jobs.\(job.rawValue).prompt[0]", part)])
            #expect(set[job].prompt[0].template.inputs == [name])
        }
        for name in inputs.inInstructions {
            let set = try PromptFiles.read([("jobs.\(job.rawValue).instructions.default", .label("{\(name)}"))])
            #expect(set[job].instructions.inputs == [name])
        }
    }
}
