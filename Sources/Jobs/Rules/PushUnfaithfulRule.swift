import Privacy

/// `NeverRule.pushUnfaithful`: a push line that states a fact the replies it sums up do not hold
/// (spec §4: one line "saying what the reply holds").
///
/// A line may round ("2 lb", "about 2 lb" for 2.3 lb), reorder, spell a unit another way ("km",
/// "kilometres"), write a number as a word ("three runs" for "3 runs") or name the agent whose
/// reply it is; it may not invent. Judged by the facts both hold (`FactReader`): each number with
/// its unit, time of day, weekday, month, "tomorrow" or "yesterday" and capitalised name in the
/// line must be one the replies hold (`SourceFacts.supports`), and a group member the replies do
/// not name may not appear. Words that are not facts are not judged: a line that paraphrases,
/// adds a verdict ("Nice week") or leaves things out passes.
///
/// The replies' facts are read at planning (`PushJob.plan` keeps them on the item as
/// `SourceFacts`), the line's at the check, in its own language's words (`FactWords`); names are
/// read only in languages that capitalise names and not nouns (not German) and have capitals.
public enum PushUnfaithfulRule {
    /// Whether `line` states a fact `source` does not hold; `language` is the line's subtag.
    public static func invents(_ line: String, source: SourceFacts, language: String?) -> Bool {
        let tokens = FactReader.tokens(line)
        let reader = FactReader(side: .line, language: language)
        if reader.mentions(in: tokens).contains(where: { !$0.readings.contains(where: source.supports) }) { return true }
        return tokens.contains { $0.kind == .word && source.namesMemberNotHeld($0.folded) }
    }

    /// Whether the sealed `line` states a fact `source` does not hold.
    public static func breaks(_ line: SealedText, source: SourceFacts, language: String?) -> Bool {
        line.withUnsealedText { invents($0, source: source, language: language) }
    }
}
