import Confinement

/// Whether and how a command confines itself before it reads a record.
public struct Sandboxing: Sendable {
    /// What confines the process: `Sandbox.confine`, or a stand-in in tests (one that fails as a
    /// kernel without Landlock would: exit 8).
    public typealias Confine = @Sendable (SandboxPolicy) throws(SandboxError) -> SandboxReport

    /// False in in-process tests, which have other threads (the process must be its only thread
    /// when confined): the report says unsandboxed.
    public var enabled: Bool
    public var confine: Confine

    public init(enabled: Bool, confine: @escaping Confine = Sandbox.confine) {
        self.enabled = enabled
        self.confine = confine
    }
}
