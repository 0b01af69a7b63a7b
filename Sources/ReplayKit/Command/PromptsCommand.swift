import Jobs

/// `replay prompts show`: the built-in prompt set, today's prompts, as a prompt set file to start
/// from, byte for byte: its SHA-256 is the set's (`PromptSet.sha256`), so the same bytes given to
/// `--prompts` replay exactly as the built-in set.
public enum PromptsCommand: Subcommand {
    public static let name = "prompts"

    public static func run(_ arguments: [String], _ context: CommandContext) -> ExitCode {
        do throws(CommandStart.Stop) {
            try CommandStart.mainOptions(arguments, diagnostics: context.diagnostics) { arguments throws(ArgumentParser.UsageError) in
                guard arguments == ["show"] else {
                    throw ArgumentParser.UsageError("'replay prompts' takes 'show' (it prints the built-in prompt set)")
                }
                return ()
            }
        } catch {
            return error.exitCode
        }
        print(PromptSet.builtIn.json, terminator: "")
        return .success
    }
}
