/// What one agent talks about in one language: the raw material for its screens and for the person's messages to it.
///
/// Strings are templates: `{name}` draws from the phrasebook's or the domain's slot of that name,
/// `{3-12}` draws an integer. Slots are only looked up, never iterated, so dictionary order
/// cannot leak into the output.
struct Domain: Sendable {
    /// A stat node: label, value template, optional unit template.
    struct Stat: Sendable {
        let label: String
        let value: String
        let unit: String?
        init(_ label: String, _ value: String, _ unit: String? = nil) {
            self.label = label
            self.value = value
            self.unit = unit
        }
    }

    /// A list node: a title and a pool of item templates to sample from.
    struct List: Sendable {
        let title: String
        let items: [String]
        init(_ title: String, _ items: [String]) {
            self.title = title
            self.items = items
        }
    }

    /// A choose or pick node: a prompt and its options.
    struct Choice: Sendable {
        let prompt: String
        let options: [String]
        init(_ prompt: String, _ options: [String]) {
            self.prompt = prompt
            self.options = options
        }
    }

    /// The agent's name, as it appears in `agent`, `from` and `group.members`.
    let agent: String
    /// The agent's profile line (a one-agent thread's `about`).
    let about: String
    /// What a group member's `about` may read: the profile's words or what the person wrote.
    let groupAbouts: [String]
    let slots: [String: [String]]
    /// Agent questions (a screen's last `say` when it asks in words); "Question?|reply|reply" adds
    /// replies that fit it, which the person's chip-like answers draw from.
    let asks: [String]
    /// Agent statements.
    let tells: [String]
    /// Longer explanatory sentences for card bodies and long screens.
    let fillers: [String]
    /// Card titles.
    let cards: [String]
    let stats: [Stat]
    let lists: [List]
    let choices: [Choice]
    /// Labels for ask, form and slide nodes.
    let inputs: [String]
    /// Picture alt texts.
    let pictures: [String]
    /// The person starting a topic with this agent (what routing should send here).
    let personAsks: [String]
    /// Short person replies, chip-like: each expands to at most 40 characters.
    let personReplies: [String]
    /// Offline requests that should get a checklist draft.
    let offlineLists: [String]
    /// Offline requests that should get a timer draft.
    let offlineTimers: [String]
    /// Offline requests that should get a note (card) draft.
    let offlineNotes: [String]
    /// Health, money or agent-only questions: no draft should be made for these.
    let expert: [String]
}
