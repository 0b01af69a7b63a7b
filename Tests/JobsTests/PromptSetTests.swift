import Engine
import Export
import Privacy
import Testing
@testable import Jobs

/// The prompt set as a type: the built-in file reads back to itself, templates fill in their
/// inputs and nothing else, optional parts come and go, known token counts follow their part,
/// and a set changes the words a job asks with but never its schema, caps or budget.
@Suite struct PromptSetTests {
    @Test func theBuiltInSetIsItsOwnFileReadBack() throws {
        let shown = PromptSet.builtIn.json
        let read = try PromptSet(parsing: Array(shown.utf8), file: "shown.json")
        #expect(read == PromptSet.builtIn)
        #expect(read.name == "built-in" && read.identity == PromptSet.builtIn.identity)
        // The digest is of the bytes shown, and the shown text is the file the built-in set was read from.
        var hasher = SHA256()
        hasher.update(Array(shown.utf8))
        #expect(PromptSet.builtIn.sha256 == hasher.finalizeHex())
        #expect(shown == PromptSet.builtInValue.exactJSON())
        #expect(shown.hasPrefix("{\n  \"schema\": \"replay.prompts/1\",\n  \"name\": \"built-in\",\n  \"jobs\": {\n    \"chips\": {\n"))
        #expect(shown.hasSuffix("}\n"))
    }

    @Test func theSameSetWrittenOtherwiseIsEqualInWordsButNotInDigest() throws {
        // One line, no indentation: the same templates, other bytes.
        let compact = PromptSet.builtIn.json.split(separator: "\n").map { $0.drop { $0 == " " } }.joined()
        let read = try PromptSet(parsing: Array(compact.utf8), file: "compact.json")
        #expect(JobKind.allCases.allSatisfy { read[$0] == PromptSet.builtIn[$0] })
        #expect(read.sha256 != PromptSet.builtIn.sha256 && read != PromptSet.builtIn)
    }

    @Test func everyJobsDefaultIsTheBuiltInSetsPart() {
        #expect(ChipsJob().asking.prompts == PromptSet.builtIn.chips)
        #expect(RouteJob().asking.prompts == PromptSet.builtIn.route)
        #expect(PushJob().asking.prompts == PromptSet.builtIn.push)
        #expect(DraftJob().asking.prompts == PromptSet.builtIn.draft)
    }

    @Test func templatesFillInTheirInputsAndWriteBraces() throws {
        let template = try PromptTemplate(parsing: "{agent} said {{not {agent}}} in {language}")
        #expect(template.inputs == ["agent", "language"])
        let rendered = template.rendered { ["agent": SealedText("Coach"), "language": SealedText("French")][$0] }
        #expect(rendered == SealedText("Coach said {not Coach} in French"))
        #expect(try PromptTemplate(parsing: "{words}").soleInput == "words")
        #expect(try PromptTemplate(parsing: "{words}\n").soleInput == nil)
        #expect(try PromptTemplate(parsing: "").rendered { _ in nil } == .empty)
    }

    /// A plan call's memo gives the instructions rendering would: a place whose language or
    /// other inputs differ from the last one's renders again (languages with instructions of
    /// their own, languages that share the default, an input changed back and forth).
    @Test func instructionsKeptForTheNextPlaceAreThoseRenderingGives() throws {
        let prompts = JobPrompts(job: .draft, instructions: try PromptTemplate(parsing: "Write to {agent} in {language}."),
                                 instructionsByLanguage: ["fr": try PromptTemplate(parsing: "Écris à {agent}.")],
                                 prompt: [PromptPart(try PromptTemplate(parsing: "{message}"))])
        let fixed = JobPrompts(job: .chips, instructions: try PromptTemplate(parsing: "Reply in {language}."),
                               prompt: [PromptPart(try PromptTemplate(parsing: "{words}"))])
        let places: [(String?, String)] = [
            ("en-US", "Coach"), ("en-US", "Coach"), ("en-GB", "Coach"), ("fr-FR", "Coach"), ("fr-CA", "Coach"),
            ("fr-CA", "Sage"), (nil, "Sage"), (nil, "Sage"), ("de-DE", "Sage"), ("de-DE", "Coach"), ("en-US", "Coach"),
        ]
        for set in [prompts, fixed] {
            var memo: JobPrompts.InstructionsMemo? = nil
            var rendered = 0
            var previous: SealedText? = nil
            for (language, agent) in places {
                var values = PromptValues(language: language)
                values.set("agent", SealedText(agent))
                let plain = set.instructions(values)
                #expect(set.instructions(values, memo: &memo) == plain)
                if plain != previous { rendered += 1 }
                previous = plain
            }
            // The places do change the words, often (the test's own check on its places).
            #expect(rendered >= (set == prompts ? 6 : 4))
        }
    }

    /// Words are put in place as they are: a screen or a name holding a placeholder, or a brace,
    /// is never read as a template.
    @Test func corpusWordsAreNeverReadAsATemplate() throws {
        let screen: [ScreenNode] = [.say(SealedText("Say {agent} or {{words}} to {last_message}?"))]
        let snapshot = ThreadSnapshot(
            thread: ThreadRecord(id: "t1", agent: "{words}", locale: "en-US"),
            messages: [Threads.person("m1", "I wrote {language}"), Threads.agent("m2", screen, from: "{words}"), Threads.person("m3", "ok")])
        var ledger = JobLedger()
        let item = try #require(ChipsJob().plan(snapshot, tokenizer: ApproximateTokenizer(), ledger: &ledger).first)
        let prompt = try #require(item.request).prompt
        #expect(prompt == SealedText("{words} wrote:\nSay {agent} or {{words}} to {last_message}?\n"
                                     + "\nThe person's last message was:\nI wrote {language}\n\nSuggest replies to {words}."))
    }

    @Test func chipsHasTheLastMessagePartOnlyWhenThereIsOne() {
        let prompts = PromptSet.builtIn.chips
        let cut = TokenCut(text: SealedText("How was it?"), keptTokens: 3, wasCut: false, textTokens: 3)
        let without = prompts.promptParts(ChipsJob.values(agent: "Coach", cut: cut, lastFromPerson: nil, language: "en"))
        #expect(without.parts == [SealedText("Coach wrote:"), SealedText("How was it?"), SealedText("\nSuggest replies to Coach.")])
        #expect(without.knownCounts == [nil, 3, nil])
        let with = prompts.promptParts(ChipsJob.values(agent: "Coach", cut: cut, lastFromPerson: SealedText("Done"), language: "en"))
        #expect(with.parts == [SealedText("Coach wrote:"), SealedText("How was it?"), SealedText("\nThe person's last message was:"),
                               SealedText("Done"), SealedText("\nSuggest replies to Coach.")])
        #expect(with.knownCounts == [nil, 3, nil, nil, nil])
        // A cut whose kept words are not counted again knows no count for them.
        let cutShort = TokenCut(text: SealedText("was it?"), keptTokens: 2, wasCut: true)
        #expect(prompts.promptParts(ChipsJob.values(agent: "Coach", cut: cutShort, lastFromPerson: nil, language: "en")).knownCounts
                == [nil, nil, nil])
    }

    @Test(arguments: [(1, "The reply:"), (2, "The newest 2 replies:"), (3, "The newest 3 replies:")])
    func pushHasOneHeaderForOneReplyAndAnotherForMore(replies: Int, header: String) {
        var values = PromptValues(language: "en")
        values.set("words", SealedText("Rest day."), tokens: 2)
        values.set("replies", SealedText(String(replies)))
        if replies > 1 { values.hold("batched") }
        let rendered = PromptSet.builtIn.push.promptParts(values)
        #expect(rendered.parts == [SealedText(header), SealedText("Rest day."), SealedText("\nWrite the line.")])
        #expect(rendered.knownCounts == [nil, 2, nil])   // the words' count follows the words, whichever header went
    }

    @Test func routeWritesOneLinePerMemberAndNoneForAGroupWithout() {
        let job = RouteJob()
        let lines = [GroupMember(name: "Sage", about: SealedText("sleep")), GroupMember(name: "Penny", about: .empty)].map(job.memberLine)
        #expect(lines == [SealedText("- Sage: sleep"), SealedText("- Penny")])
        var values = PromptValues(language: nil)
        values.set("message", SealedText("hi"))
        values.set("members", lines: lines)
        #expect(job.asking.prompts.promptParts(values).parts
                == ["Members:", "- Sage: sleep", "- Penny", "\nMessage:", "hi", "\nWho is this message for?"].map(SealedText.init))
        values.set("members", lines: [])
        #expect(job.asking.prompts.promptParts(values).parts.count == 4)
    }

    @Test func instructionsForALanguageReplaceTheDefaultForThatLanguageOnly() throws {
        let set = try PromptFiles.read([("jobs.chips.instructions.languages.fr", .label("Propose des réponses en {language}."))])
        let job = ChipsJob(prompts: set.chips)
        #expect(job.asking.prompts.instructions(PromptValues(language: "fr-CA")) == SealedText("Propose des réponses en French."))
        #expect(job.asking.prompts.instructions(PromptValues(language: "de-DE")) == PromptSet.builtIn.chips.instructions(PromptValues(language: "de-DE")))
        // Written back in the same place.
        #expect(set.json.contains("\"languages\": {\n          \"fr\": \"Propose des réponses en {language}.\"\n        }"))
    }

    /// A set changes the words, never the contract: the schema, grammar, caps and budget stay the job's.
    @Test func aPromptSetChangesTheWordsNotTheSchemaCapsOrBudget() throws {
        let set = try PromptFiles.read([("jobs.chips.instructions.default", .label("Write exactly one reply in {language}."))])
        var ledger = JobLedger()
        let model = ScriptedModel(output: "")
        let old = try #require(ChipsJob().plan(Threads.coach, tokenizer: model, ledger: &ledger).first?.request)
        let job = JobKind.chips.job(prompts: set)
        let new = try #require(job.plan(Threads.coach, tokenizer: model, ledger: &ledger).first?.request)
        #expect(new.instructions == SealedText("Write exactly one reply in English.") && new.instructions != old.instructions)
        #expect(new.prompt == old.prompt && new.grammar == old.grammar && new.maxOutputTokens == old.maxOutputTokens)
        #expect(job.described.outputSchema == ChipsJob().described.outputSchema)
        #expect(job.described.reportSettings == ChipsJob().described.reportSettings)
        #expect(job.budgetMilliseconds == ChipsJob.defaultBudget.milliseconds)
    }
}
