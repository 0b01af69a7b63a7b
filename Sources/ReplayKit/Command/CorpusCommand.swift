import Corpus

/// `replay corpus generate --threads N [--seed S] [--max-exchanges N] OUT`: a realistic sample
/// export of invented threads (`CorpusGenerator`), never an export's words.
public enum CorpusCommand: Subcommand {
    public static let name = "corpus"

    /// What to generate.
    struct Options: Equatable {
        var threads: Int
        var seed: UInt64
        var maxExchanges: Int?
        var output: String
    }

    public static func run(_ arguments: [String], _ context: CommandContext) -> ExitCode {
        let options: Options
        do throws(CommandStart.Stop) {
            options = try CommandStart.mainOptions(arguments, diagnostics: context.diagnostics, parse: parse)
        } catch {
            return error.exitCode
        }
        do {
            let generator = CorpusGenerator(threads: options.threads, seed: options.seed, maxExchanges: options.maxExchanges)
            let summary = try generator.write(to: options.output)
            context.diagnostics("replay: wrote \(summary.threads) threads, \(summary.messages) messages to \(options.output)")
            return .success
        } catch {
            context.diagnostics("replay: \(error)")
            return .output
        }
    }

    /// What `arguments` (after `corpus`) ask to generate.
    static func parse(_ arguments: [String]) throws(ArgumentParser.UsageError) -> Options? {
        guard arguments.first == "generate" else { throw ArgumentParser.UsageError("'replay corpus' takes 'generate'") }
        var threads: Int? = nil
        var seed: UInt64 = 1
        var maxExchanges: Int? = nil
        var output: String? = nil
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            switch argument {
            case "--threads":
                guard let text = rest.popFirst(), let n = Int(text), n > 0 else { throw ArgumentParser.UsageError("--threads takes a whole number above 0") }
                threads = n
            case "--seed":
                guard let text = rest.popFirst(), let s = UInt64(text) else { throw ArgumentParser.UsageError("--seed takes a whole number") }
                seed = s
            case "--max-exchanges":
                guard let text = rest.popFirst(), let n = Int(text), n > 0 else { throw ArgumentParser.UsageError("--max-exchanges takes a whole number above 0") }
                maxExchanges = n
            default:
                if argument.hasPrefix("-") && argument != "-" { throw ArgumentParser.UsageError("unknown option '\(argument)'") }
                guard output == nil else { throw ArgumentParser.UsageError("one output file only") }
                output = argument
            }
        }
        guard let threads else { throw ArgumentParser.UsageError("corpus generate needs --threads N") }
        guard let output else { throw ArgumentParser.UsageError("corpus generate needs an output file") }
        return Options(threads: threads, seed: seed, maxExchanges: maxExchanges, output: output)
    }
}
