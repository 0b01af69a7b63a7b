import Engine

/// `replay profiles show`: the built-in model-version and device profiles, as a profiles file to
/// start from (`--profiles`), byte for byte: its SHA-256 is theirs (`ModelProfiles.sha256`).
public enum ProfilesCommand: Subcommand {
    public static let name = "profiles"

    public static func run(_ arguments: [String], _ context: CommandContext) -> ExitCode {
        do throws(CommandStart.Stop) {
            try CommandStart.mainOptions(arguments, diagnostics: context.diagnostics) { arguments throws(ArgumentParser.UsageError) in
                guard arguments == ["show"] else {
                    throw ArgumentParser.UsageError("'replay profiles' takes 'show' (it prints the built-in model and device profiles)")
                }
                return ()
            }
        } catch {
            return error.exitCode
        }
        print(ModelProfiles.builtInText, terminator: "")
        return .success
    }
}
