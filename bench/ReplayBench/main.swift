import Foundation
import ReplayKit

// `replay-bench`: measurements that are not part of `replay` (bench/). Diagnostics and results to
// stderr, as digests and counts only.
let arguments = Array(CommandLine.arguments.dropFirst())
let code: ExitCode
switch arguments.first {
case "model":
    code = ModelBench.run(Array(arguments.dropFirst()), diagnostics: RunCommand.standardError)
case "tokens":
    code = TokenRates.run(Array(arguments.dropFirst()), diagnostics: RunCommand.standardError)
case "routing":
    code = RoutingBench.run(Array(arguments.dropFirst()), diagnostics: RunCommand.standardError)
default:
    RunCommand.standardError("""
        usage: replay-bench model [OPTIONS] CORPUS...      the model stage alone (bench/model.sh)
               replay-bench routing [--model PATH|NAME] [--batch N] [--limit N] CORPUS...
                                                   routing accuracy and the confidence rule on labelled asks (docs/routing.md)
               replay-bench tokens [--model PATH|NAME]... CORPUS...
                                                   characters per token per language, for each model's tokenizer
        """)
    code = .usage
}
exit(code.rawValue)
