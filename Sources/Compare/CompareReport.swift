import Confinement
import ReplayKit

/// Everything `replay compare` writes: the two runs, their comparison, the gates' verdicts and
/// the sandbox the comparison ran in. compare.json (`CompareDocument`), compare.md and compare.html render it.
public struct CompareReport: Sendable {
    public var base: RunDirectory
    public var new: RunDirectory
    public var comparison: Comparison
    public var gates: [GateVerdict] = []
    /// The comparing process's confinement; nil in library use.
    public var sandbox: SandboxReport?

    /// The options the two runs were made with that differ, as the command line spells them
    /// (`--budget`, `--job`, …).
    public var optionDifferences: [String] { base.state.options.differences(from: new.state.options) }

    /// Whether the runs used different model files (or one could not load its model).
    public var modelDiffers: Bool { base.state.model.difference(from: new.state.model) != nil }
}
