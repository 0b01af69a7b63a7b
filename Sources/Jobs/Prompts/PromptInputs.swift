/// What a job's templates may name: the inputs the spec lets the job see, and the conditions
/// that decide its optional parts. The prompt set's check holds every template to this table.
///
/// From the spec (sections 2–5, and "never reads other agents' threads", §8):
/// - chips sees the agent's name, the screen's words (cut to 600 tokens from the end) and the
///   person's last message, which a thread may not have yet (`when: last_message`);
/// - route sees the message and, per member, the name and its one line (`about`): `{members}`
///   is one line per member, written by the `member` template (`member_without_about` for a
///   member with no line);
/// - push sees the words of the reply, or of the newest replies (cut to 1,000 tokens), and how
///   many they are (`when: batched` for more than one): not the agent's name, which the line
///   must not say;
/// - draft sees the message and the agent's name it waits for;
/// - the drawer (route's place outside a group, `drawer`) sees the message and, per agent
///   offered, the name and its one line (`about`): `{agents}`, one line per agent, written by the
///   `agent` template (`agent_without_about` for an agent with no line). Never a thread.
///
/// Every job answers in the language of what it reads, so every job has `{language}`: the
/// language's English name ("French"). Its instructions may use the short inputs only (names,
/// the language, counts); the words the job reads go in its prompt.
public struct PromptInputs: Sendable {
    /// Every input the job may see, in the order an error lists them.
    public let seen: [String]
    /// The inputs its instructions may use.
    public let inInstructions: [String]
    /// Inputs that are lists of lines: each must be a part of its own, which becomes one part per line.
    public let lists: [String]
    /// Inputs that may be absent, each with the condition under which it is there.
    public let optional: [String: String]
    /// The conditions a part may be kept under (`when`) or dropped under (`unless`).
    public let conditions: [String]
    /// The job's line templates besides its prompt (routing's member lines), in file order, with the inputs each has.
    public let lines: [(key: String, inputs: [String])]

    /// The drawer's table (`jobs.route.drawer`, `PromptBlock.drawer`).
    public static let drawer = PromptInputs(
        seen: ["message", "agents", "language"], inInstructions: ["language"], lists: ["agents"], optional: [:], conditions: [],
        lines: [(key: "agent", inputs: ["name", "about"]), (key: "agent_without_about", inputs: ["name"])])

    /// The table for `job`.
    public static func of(_ job: JobKind) -> PromptInputs {
        switch job {
        case .chips:
            PromptInputs(seen: ["agent", "words", "last_message", "language"], inInstructions: ["agent", "language"], lists: [],
                         optional: ["last_message": "last_message"], conditions: ["last_message"], lines: [])
        case .route:
            PromptInputs(seen: ["message", "members", "language"], inInstructions: ["language"], lists: ["members"],
                         optional: [:], conditions: [],
                         lines: [(key: "member", inputs: ["name", "about"]), (key: "member_without_about", inputs: ["name"])])
        case .push:
            PromptInputs(seen: ["words", "replies", "language"], inInstructions: ["replies", "language"], lists: [],
                         optional: [:], conditions: ["batched"], lines: [])
        case .draft:
            PromptInputs(seen: ["agent", "message", "language"], inInstructions: ["agent", "language"], lists: [],
                         optional: [:], conditions: [], lines: [])
        }
    }
}
