import Privacy
import Engine
import Export
import Testing
@testable import Jobs

/// The language named in a job's instructions: every supported tag gets its own.
@Suite struct LanguageTests {
    /// Every language the tool accepts is named as itself, never English unless it is English.
    @Test(arguments: SupportedLanguages.appleIntelligence.codes.sorted())
    func everySupportedLanguageHasItsOwnName(code: String) {
        let name = Language.name(of: code)
        #expect((name == "English") == (code == "en"), "\(code) is answered in \(name)")
        #expect(Language.name(of: code.uppercased() + "-XX") == name)   // regions and case do not change it
    }

    @Test(arguments: [
        ("no", "Norwegian Bokmål"), ("no-NO", "Norwegian Bokmål"), ("nb_NO", "Norwegian Bokmål"), ("nn-NO", "Norwegian Nynorsk"),
        ("zh", "Chinese"), ("zh-Hant-TW", "Traditional Chinese"), ("zh-TW", "Traditional Chinese"), ("zh-HK", "Traditional Chinese"),
        ("zh-Hans-CN", "Simplified Chinese"), ("zh-CN", "Simplified Chinese"), ("zh-Hans-HK", "Simplified Chinese"),
        ("pt-BR", "Portuguese"), ("ja-JP", "Japanese"), ("en-GB", "English"),
    ])
    func namesByTag(tag: String, name: String) {
        #expect(Language.name(of: tag) == name)
    }

    /// A thread in Norwegian (`no`) asks every job that writes words to write Norwegian.
    @Test(arguments: [JobKind.chips, .push, .draft])
    func norwegianThreadsAreAnsweredInNorwegian(kind: JobKind) throws {
        let job = try #require(FallbackTests.jobs[kind])
        var ledger = JobLedger()
        let item = try #require(job.plan(FallbackTests.firingThread(kind, locale: "no-NO", lang: nil),
                                         tokenizer: ScriptedModel(output: ""), ledger: &ledger).first)
        let instructions = try #require(item.request).instructions
        #expect(instructions.withUnsealedText { $0.contains("in Norwegian Bokmål") && !$0.contains("English") })
    }
}
