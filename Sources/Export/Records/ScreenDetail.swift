/// How much of each screen a read keeps (`CorpusReader(screens:)`): every node, only the words
/// the model may see, or only the facts the jobs and counts ask of every screen.
///
/// Every node is checked the same whichever is kept, so the bad lines, their reasons and the
/// counts are the same; only what is built differs. Screens are most of an export's bytes, and
/// a job that never reads their words (routing, drafts) need not have a string made per node.
public enum ScreenDetail: Sendable, Equatable {
    /// The nodes, and everything else from them (tests, and the audit, which plants its canary
    /// in each node's words).
    case nodes
    /// The words joined (`Screen.words`) and the facts, without the nodes: one string a screen.
    case words
    /// Only the facts: chip eligibility, whether anything is tappable, the unknown kinds.
    case facts
}
