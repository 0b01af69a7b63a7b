/// Which block of a prompt set a `JobPrompts` is, which decides what its templates may name
/// (`PromptInputs`): a job's own, `jobs.<job>`, or the drawer's, `jobs.route.drawer`.
///
/// The drawer (spec §3) is a place of the route job outside any group, where the model picks one
/// of the person's agents rather than a group's member: other instructions, other inputs (the
/// agents offered, no lead), the same output schema, budget and confidence rule as routing's.
public enum PromptBlock: Sendable, Hashable {
    /// A job's own block.
    case job(JobKind)
    /// The route job's drawer block.
    case drawer

    /// The job that asks with the block.
    public var job: JobKind {
        switch self {
        case .job(let kind): kind
        case .drawer: .route
        }
    }

    /// What its templates may name.
    public var inputs: PromptInputs {
        switch self {
        case .job(let kind): PromptInputs.of(kind)
        case .drawer: PromptInputs.drawer
        }
    }
}
