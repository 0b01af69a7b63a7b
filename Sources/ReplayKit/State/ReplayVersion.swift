/// This replay's version: what `replay --version` prints and every state records, so a merge or
/// a resume refuses states another version wrote (their counts may mean other things).
///
/// Here, below the command layer, because the states carry it and the states sit under the
/// commands that parse arguments.
public enum ReplayVersion {
    public static let current = "0.1.0"
}
