import Foundation
import Testing
@testable import Audit
@testable import Confinement
import Privacy

/// The audit's canary: eight words of BIP-39's English list, drawn from 88 random bits, found
/// in what a run wrote however the words are joined, and never found where they are not.
@Suite struct CanaryTests {
    /// Words 1 to 8 of the list: a canary with eight different words.
    let canary = "ability able about above absent absorb abstract absurd"
    var scanner: LeakScanner { LeakScanner(canary: canary, fingerprint: OutputFingerprint(salt: [1]), digests: []) }

    /// The list is BIP-39's: its file (the words a line each) has the SHA-256 the proposal
    /// publishes for `english.txt`.
    @Test func theWordListIsBIP39sEnglishList() {
        var hash = SHA256()
        hash.update((CanaryWords.english.joined(separator: "\n") + "\n").utf8)
        #expect(hash.finalizeHex() == "2f5eed53a4727b4bf8880d8f3f199efc90e58503646d9ff8eff3a2ed3b24dbda")
        #expect(CanaryWords.english.count == 2048 && CanaryWords.members.count == 2048)
    }

    /// Known answers: the first eight words of BIP-39's mnemonics for these entropies (Trezor's
    /// reference vectors, `vectors.json`, computed here with the `mnemonic` package): a canary's
    /// words are the entropy's 11-bit groups, as BIP-39's are.
    @Test(arguments: [
        ("00000000000000000000000000000000", "abandon abandon abandon abandon abandon abandon abandon abandon"),
        ("7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f", "legal winner thank year wave sausage worth useful"),
        ("80808080808080808080808080808080", "letter advice cage absurd amount doctor acoustic avoid"),
        ("ffffffffffffffffffffffffffffffff", "zoo zoo zoo zoo zoo zoo zoo zoo"),
        ("9e885d952ad362caeb4efe34a8e91bd2", "ozone drill grab fiber curtain grace pudding thank"),
    ])
    func wordsAreTheBitsElevenAtATime(entropy: String, words: String) throws {
        let canary = AuditCanary(bits: try #require(AuditSecret.bytes(fromHex: entropy)))
        #expect(canary.text == words)
        #expect(AuditCanary(text: canary.text) == canary)
    }

    @Test(arguments: [
        "ability able about above absent absorb abstract",            // seven words
        "ability able about above absent absorb abstract absurd add",  // nine
        "ability  able about above absent absorb abstract absurd",    // two spaces
        "Ability able about above absent absorb abstract absurd",     // a capital
        "ability able about above absent absorb abstract absurdly",   // not on the list
        "00112233445566778899aabbccddeeff",                           // the old hex canary
        "",
    ])
    func aCanaryThatIsNotEightListedWordsIsRefused(text: String) {
        #expect(AuditCanary(text: text) == nil)
    }

    @Test func randomCanariesDiffer() throws {
        let canaries = try (0..<8).map { _ in try #require(AuditCanary.random()) }
        #expect(canaries.allSatisfy { $0.words.count == AuditCanary.wordCount })
        #expect(Set(canaries.map(\.text)).count == canaries.count)
    }

    /// The tap takes the canary from the environment only when it is a canary.
    @Test func theTapReadsOnlyACanary() {
        let environment = [AuditEnvironment.salt: "abcd", AuditEnvironment.hashes: "/tmp/x"]
        #expect(AuditTap.fromEnvironment(environment.merging([AuditEnvironment.canary: canary]) { $1 })?.canary == canary)
        #expect(AuditTap.fromEnvironment(environment.merging([AuditEnvironment.canary: "00112233445566778899aabbccddeeff"]) { $1 }) == nil)
        #expect(AuditTap.fromEnvironment(environment) == nil)
    }

    /// Four consecutive words of the canary, however a program joins them, are the canary.
    @Test(arguments: [
        ("as planted", "x ability able about above absent absorb abstract absurd", 2),
        ("upper case", "X ABILITY ABLE ABOUT ABOVE ABSENT ABSORB ABSTRACT ABSURD", 2),
        ("the first four", "note: ability able about above.", 6),
        ("the last four", "absent absorb abstract absurd", 0),
        ("the middle four, with commas", "[about, above, absent, absorb]", 1),
        ("snake case", "run_ability_able_about_above_absent", 4),
        ("kebab case", "ABILITY-ABLE-ABOUT-ABOVE", 0),
        ("percent-encoded spaces", "q=ability%20able%20about%20above", 2),
        ("JSON-escaped spaces", #"{"n": "ability\u0020able\u0020about\u0020above"}"#, 7),
        ("JSON-escaped line breaks", #"["ability\nable\nabout\tabove"]"#, 2),
        ("C-escaped spaces", #"ability\x20able\x20about\x20above"#, 0),
        ("a word a line", "- ability\n  - able\n  - about\n  - above\n", 2),
        ("run together", "xabilityableaboutabove", 1),
        ("camel case", "AbilityAbleAboutAbove", 0),
        ("eight bytes between", "ability--------able about above", 0),
    ])
    func fourConsecutiveWordsAreFound(form: String, text: String, offset: Int) {
        #expect(scanner.hits(in: Array(text.utf8)).canary == [offset], "\(form)")
    }

    /// Fewer than four, out of order, too far apart, or inside longer words: not the canary
    /// (nothing here could be told from ordinary text).
    @Test(arguments: [
        ("three words", "ability able about"),
        ("three, twice", "ability able about. absent absorb abstract"),
        ("out of order", "able ability about above"),
        ("a word skipped", "ability able above absent"),
        ("nine bytes between", "ability---------able about above"),
        ("a word inside a longer one", "ability able about aboveground"),
        ("a letter before a word", "ability able xabout above"),
        ("a word of another list", "ability able about abovee"),
        ("a report's words", "replies route push draft ability of the model able to run"),
    ])
    func fewerOrOtherWordsAreNot(form: String, text: String) {
        #expect(scanner.hits(in: Array(text.utf8)).isEmpty, "\(form)")
    }

    /// A canary with a repeated word: the chain still follows the canary's order.
    @Test func aRepeatedWordIsFollowedInOrder() {
        let scanner = LeakScanner(canary: "zoo zoo zoo zoo zoo zoo zoo wrong", fingerprint: OutputFingerprint(salt: [1]), digests: [])
        #expect(scanner.hits(in: Array("a zoo zoo zoo wrong".utf8)).canary == [2])
        #expect(scanner.hits(in: Array("zoo zoo zoo zoo zoo zoo zoo zoo zoo".utf8)).canary == [0])
        #expect(scanner.hits(in: Array("zoo zoo zoo".utf8)).isEmpty)
        #expect(scanner.hits(in: Array("wrong zoo zoo zoo".utf8)).isEmpty)
    }

    /// The line and offset a finding names, and never the words.
    @Test func aFindingNamesTheLineNotTheWords() {
        let finding = scanner.findings(in: Array("a\nb\nabsent absorb abstract absurd".utf8), location: "stderr").first
        #expect(finding?.rule == .canaryInOutput)
        #expect(finding?.line == 3)
        #expect(finding?.byteOffset == 4)
        #expect(finding?.message.contains("absorb") == false)
    }
}
