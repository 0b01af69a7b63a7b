import Engine
import ReplayKit

/// `replay-bench dry-run`: `replay --dry-run` with every text tokenized by llama.cpp, not the
/// native tokenizer, so bench/dryrun.sh can show what the native one saves. Same options, same
/// confinement, same report.
enum LlamaTokenizerDryRun {
    static func run(_ arguments: [String], diagnostics: (String) -> Void) -> ExitCode {
        let parsed: ReplayCommand
        do {
            parsed = try ArgumentParser.parse(["--dry-run"] + arguments)
        } catch {
            diagnostics("replay-bench dry-run: \(error.description)")
            return .usage
        }
        guard case .replay(var options) = parsed else {
            diagnostics("replay-bench dry-run: give replay's options and a corpus")
            return .usage
        }
        options.nativeTokenizer = false
        return RunCommand.replay(options, sandboxing: Sandboxing(enabled: true), stop: StopRequest(), diagnostics: diagnostics)
    }
}
