import Privacy

extension PromptSet {
    /// The prompts the jobs ask with unless told otherwise, and what `replay prompts show` prints.
    ///
    /// Read from its own file text (`builtInValue` written as `json` writes a set) by the same
    /// reader as any file, so it passes the same checks, and its digest is that of the bytes
    /// `replay prompts show` prints. The jobs' words are theirs from before prompt sets were
    /// data, byte for byte, and the drawer's (`jobs.route.drawer`) those it was first replayed
    /// with (BuiltInPromptDigestTests holds the requests to both).
    public static let builtIn: PromptSet = {
        let text = builtInValue.exactJSON()
        guard let set = try? PromptSet(parsing: Array(text.utf8), file: builtInFileName) else {
            preconditionFailure("the built-in prompt set does not pass its own checks (PromptSetTests say why)")
        }
        return set
    }()

    /// The name of the built-in set.
    public static let builtInName = "built-in"

    /// How errors in the built-in set's text would name it.
    static let builtInFileName = "the built-in prompt set"

    /// The built-in set's file, as values.
    static var builtInValue: ReportValue {
        func text(_ words: String, when: String? = nil, unless: String? = nil) -> ReportValue {
            guard when != nil || unless != nil else { return .label(words) }
            return PromptPart(try! PromptTemplate(parsing: words), when: when, unless: unless).value
        }
        func job(instructions: String, prompt: [ReportValue], lines: [(String, ReportValue)] = []) -> ReportValue {
            .object([("instructions", .object([("default", .label(instructions)), ("languages", .object([]))])),
                     ("prompt", .array(prompt))] + lines)
        }
        return .object([
            ("schema", .label(schema)),
            ("name", .label(builtInName)),
            ("jobs", .object([
                ("chips", job(
                    instructions: "You suggest short replies that a person could send in a chat with an assistant. "
                        + "Write one to three different replies, each under 40 characters, in {language}, "
                        + "as the person would say them. Answer only with JSON.",
                    prompt: [
                        text("{agent} wrote:"),
                        text("{words}"),
                        text("\nThe person's last message was:", when: "last_message"),
                        text("{last_message}", when: "last_message"),
                        text("\nSuggest replies to {agent}."),
                    ])),
                ("route", job(
                    instructions: "You route a message in a group chat to the member it is for. Each member has a name and "
                        + "a line saying what they are for. Answer with the name of the member the message is for, "
                        + "or \"lead\" when it is not clearly for one member. Answer only with JSON.",
                    prompt: [
                        text("Members:"),
                        text("{members}"),
                        text("\nMessage:"),
                        text("{message}"),
                        text("\nWho is this message for?"),
                    ],
                    lines: [("member", text("- {name}: {about}")), ("member_without_about", text("- {name}")),
                            ("drawer", job(
                                instructions: "You pick which of a person's assistants a message is for. The person typed "
                                    + "it in the app's list of assistants, where each has a name and a line saying what it is "
                                    + "for. Answer with the name of the assistant the message is for. Answer only with JSON.",
                                prompt: [
                                    text("Assistants:"),
                                    text("{agents}"),
                                    text("\nMessage:"),
                                    text("{message}"),
                                    text("\nWhich assistant is this message for?"),
                                ],
                                lines: [("agent", text("- {name}: {about}")), ("agent_without_about", text("- {name}"))]))])),
                ("push", job(
                    instructions: "You write the one-line preview of a push notification for a reply in a chat app. "
                        + "Say in one plain line, under 90 characters, in {language}, what the reply holds. "
                        + "Start with the content: no greeting, do not say who wrote it, give no advice of your own. "
                        + "Answer only with JSON.",
                    prompt: [
                        text("The newest {replies} replies:", when: "batched"),
                        text("The reply:", unless: "batched"),
                        text("{words}"),
                        text("\nWrite the line."),
                    ])),
                ("draft", job(
                    instructions: "The person has no signal and sent a message to {agent}; it waits until they are back online. "
                        + "Until {agent} answers, the phone can draw a draft the person can use: a checklist when "
                        + "they ask for a list, a timer when they ask for a timer, a card when they ask for a note. "
                        + "A question about health, money or anything only {agent} knows gets none. "
                        + "Write the draft in {language}. Answer only with JSON.",
                    prompt: [
                        text("Message:"),
                        text("{message}"),
                    ])),
            ])),
        ])
    }
}
