import Privacy
import Engine
import Export
import Testing
@testable import Jobs

/// The language named in a job's instructions: every supported tag gets its own.
@Suite struct LanguageTests {
    /// A tag's language read from its bytes is the general rule's (`splitCode`), for tags of
    /// every shape: separators first, doubled or last, capitals, scripts, and other alphabets.
    @Test func theLanguageOfATagReadFromItsBytesIsTheGeneralRulesOne() {
        var tags = ["", "-", "_", "--", "-en", "_en-US", "en", "EN", "En-us", "en-US", "en_US", "en--US", "en-", "zh-Hant-TW",
                    "zh_hans", "x", "ÉN-us", "en-É", "İ-x", "ß", "de-DE-1996", "@@-1", "Z-a", "a_b_c", "nb", "NO_no", " en"]
        var state: UInt64 = 3
        func next() -> UInt64 {   // SplitMix64
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let alphabet = Array("aAzZmM-_é1 ")
        for _ in 0..<2_000 {
            tags.append(String((0..<Int(next() % 7)).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] }))
        }
        var fast = 0
        for tag in tags {
            #expect(Language.code(of: tag) == Language.splitCode(of: tag), "\(tag)")
            if Language.asciiCode(of: tag) != nil { fast += 1 }
        }
        #expect(fast > tags.count / 3)   // the byte path is the one most tags take
    }

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
