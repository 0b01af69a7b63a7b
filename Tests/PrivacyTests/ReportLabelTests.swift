import Testing
@testable import Privacy
import TestSupport

/// The one rule for labels from a corpus: a shape that cannot spell words, the format's own
/// vocabulary or the team's list, or else a salted hash.
@Suite struct ReportLabelTests {
    static let salt = LabelSalt(bytes: Array("fixed test salt".utf8))

    /// Made-up free text, never from a corpus; none of it may survive any rule. Tests name them by
    /// index only (`MadeUpSentence`), so no output of a test run shows them.
    static let sentences = [
        "the quick brown fox jumps over",
        "pipes | and\nnew lines",
        "=cmd() spreadsheet formula",
        "[x](http://y) a link",
        "<script>alert(1)</script>",
        "`ticks` and ! bangs",
        "tab\there",
    ]

    /// The team's list the tests use: what it holds passes as written, nothing else does.
    static let listed = TeamLabels(agents: ["Sage", "Coach", "Zoé", "ミナ", "R2-D2"], members: ["Penny", "Sage"],
                                   builds: ["2.5.0-beta"], models: ["smollm2-135m"], kinds: ["chart"])

    /// Every rule a corpus value goes through, with the team's list where the rule takes one.
    static func corpusRules(_ listed: TeamLabels) -> [(String?) -> ReportLabel] {
        [{ ReportLabel(build: $0, listed: listed, salt: Self.salt) }, { ReportLabel(model: $0, listed: listed, salt: Self.salt) },
         { ReportLabel(locale: $0, salt: Self.salt) }, { ReportLabel(agent: $0, listed: listed, salt: Self.salt) },
         { ReportLabel(member: $0, listed: listed, salt: Self.salt) }, { ReportLabel(kind: $0, listed: listed, salt: Self.salt) },
         { ReportLabel(id: $0, salt: Self.salt) }]
    }

    @Test(arguments: MadeUpSentence.all(sentences + SpelledSentence.all.map(\.text)))
    func sentencesAreHashedUnderEveryRule(_ sentence: MadeUpSentence) {
        let text = sentence.text
        let hash = ReportLabel(hashing: text, salt: Self.salt).text
        for (rule, label) in Self.corpusRules(Self.listed).map({ $0(text) }).enumerated() {
            // Booleans only, so a failure cannot show the sentence.
            let hashed = label.isHashed && label.text == hash && label.text.count == 11
            #expect(hashed, "rule \(rule) kept \(sentence.testDescription)")
        }
    }

    /// The token rule is for names code makes (job names, counter keys), never a corpus value: it
    /// still refuses spaces and markup.
    @Test(arguments: MadeUpSentence.all(sentences))
    func tokensRefuseSpacesAndMarkup(_ sentence: MadeUpSentence) {
        let hashed = ReportLabel(token: sentence.text, salt: Self.salt).isHashed
        #expect(hashed, "the token rule kept \(sentence.testDescription)")
    }

    @Test(arguments: [
        ("2.3.0 (512)", "2.3.0 (512)"), ("2.3.0", "2.3.0"), ("26.4", "26.4"), ("27", "27"), ("2 (1)", "2 (1)"),
        ("1.2.3.4 (5)", "1.2.3.4 (5)"), ("  2.4.0 (530)\n", "2.4.0 (530)"), ("\u{00A0}2.4\u{3000}", "2.4"),
        ("2.5.0-beta", "2.5.0-beta"), (nil, "unknown"), ("   ", "unknown"), ("", "unknown"),
    ] as [(String?, String)])
    func buildsThatPass(_ raw: String?, _ shown: String) {
        #expect(ReportLabel(build: raw, listed: Self.listed, salt: Self.salt).text == shown)
    }

    @Test(arguments: ["2.3.0  (512)", "2.3.0 (5a2)", "2.3 beta", "(512)", "-1", "=1", "x y", String(repeating: "9", count: 41),
                      "1.2.3.4.5 (6)", "2.3.0 ()", "2.3.0 (512) extra", "2.3.0. (512)", "2..3 (1)", "2.3.0 (512", ".2 (1)",
                      "A", "1.0+beta/2:x", "v2.3", "2.3.0-rc1", "2.3.0+512", "1234567890", "2.5.0-BETA", "smollm2-135m"])
    func buildsThatAreHashed(_ raw: String) {
        #expect(ReportLabel(build: raw, listed: Self.listed, salt: Self.salt).isHashed)
    }

    @Test func modelsPassAsVersionsOrWhenListed() {
        #expect(ReportLabel(model: "26.4", salt: Self.salt).text == "26.4")
        #expect(ReportLabel(model: "27.0", salt: Self.salt).text == "27.0")
        #expect(ReportLabel(model: "smollm2-135m", listed: Self.listed, salt: Self.salt).text == "smollm2-135m")
        #expect(ReportLabel(model: "smollm2-135m", salt: Self.salt).isHashed)          // not without the list
        #expect(ReportLabel(model: "2.5.0-beta", listed: Self.listed, salt: Self.salt).isHashed)   // listed as a build only
    }

    @Test(arguments: [
        ("en-US", "en-US"), ("en_us", "en-US"), ("en-us", "en-US"), ("EN", "en"), ("en", "en"), ("zh-hant-tw", "zh-Hant-TW"),
        ("es-419", "es-419"), ("fil", "fil"), ("fil-PH", "fil-PH"), ("sr_Latn", "sr-Latn"), (" ja-JP ", "ja-JP"),
    ])
    func localesInCanonicalCase(_ raw: String, _ shown: String) {
        #expect(ReportLabel(locale: raw, salt: Self.salt).text == shown)
    }

    /// A free script subtag or a three-letter language would let a locale spell three words.
    @Test(arguments: ["en-quick-brown-fox", "english", "e", "en-US-POSIX", "x-private", "en--US", "en-US-", "12-US", "en US",
                      "to-Hans-IN", "the-GP", "mum-Says-HI", "en-Latn-US", "fra"])
    func localesThatAreHashed(_ raw: String) {
        #expect(ReportLabel(locale: raw, salt: Self.salt).isHashed)
    }

    @Test(arguments: ["Sage", "Coach", "Zoé", "ミナ", "R2-D2", "  Sage "])
    func listedAgentsPass(_ raw: String) {
        let shown = ReportLabel(agent: raw, listed: Self.listed, salt: Self.salt).text
        #expect(shown == raw.trimmingCharacters(in: [" "]))
    }

    /// No shape makes a name pass: only the team's list, under its own key.
    @Test(arguments: ["Mary Ann", "Penny", "sage", "Tutor", "mum_is_at_the_GP_now", "a", "Sage!", "#h:0000bee"])
    func unlistedAgentsAreHashed(_ raw: String) {
        #expect(ReportLabel(agent: raw, listed: Self.listed, salt: Self.salt).isHashed)
        #expect(ReportLabel(agent: "Sage", salt: Self.salt).isHashed)   // no list, no name
    }

    @Test func membersPassOnlyFromTheMembersList() {
        #expect(ReportLabel(member: "Penny", listed: Self.listed, salt: Self.salt).text == "Penny")
        #expect(ReportLabel(member: "Sage", listed: Self.listed, salt: Self.salt).text == "Sage")
        #expect(ReportLabel(member: "Coach", listed: Self.listed, salt: Self.salt).isHashed)   // an agent, not a member, in this list
        #expect(ReportLabel(member: "Penny", salt: Self.salt).isHashed)
    }

    @Test func kindsComeFromTheFormatsVocabularyOrTheList() {
        #expect(ReportLabel(kind: "(other)").text == "(other)")
        #expect(ReportLabel(kind: "say").text == "say")
        #expect(ReportLabel(kind: "message").text == "message")
        #expect(ReportLabel(kind: "chart", listed: Self.listed).text == "chart")
        #expect(ReportLabel(kind: "chart", salt: Self.salt).isHashed)
        #expect(ReportLabel(kind: "map_v2.1", listed: Self.listed, salt: Self.salt).isHashed)
        #expect(ReportLabel(kind: "(others)", salt: Self.salt).isHashed)
        #expect(ReportLabel(build: "(other)", salt: Self.salt).isHashed)   // only kinds may say (other)
    }

    @Test(arguments: ["t_81f2", "m_19", "g_0c1a", "s1", "r1", "t_172733c2", "1234", "a-1", "screen[2].card.title",
                      "meta.draft_ticks[0]", "group.members", "screen[0].(other)", "screen[12]"])
    func idsAndFieldPathsThatPass(_ raw: String) {
        #expect(ReportLabel(id: raw, salt: Self.salt).text == raw)
    }

    @Test(arguments: ["it\\'s", "t_orphan", "t_deadbeef", "ab", "t_", "mum_1_the_2", "screen[2].tell.mum", "screen[x].card",
                      "meta..via", String(repeating: "1", count: 33)])
    func idsAndFieldPathsThatAreHashed(_ raw: String) {
        #expect(ReportLabel(id: raw, salt: Self.salt).isHashed)
    }

    @Test func hashesAreStablePerSaltAndDifferAcrossSalts() {
        let other = LabelSalt(bytes: [1, 2, 3])
        let a = ReportLabel(agent: "Mary Ann", salt: Self.salt)
        #expect(a == ReportLabel(agent: "Mary Ann", salt: Self.salt))
        #expect(a == ReportLabel(build: "Mary Ann", salt: Self.salt))   // one value, one hash, whatever the field
        #expect(a != ReportLabel(agent: "Mary Ann", salt: other))
        #expect(a != ReportLabel(agent: "Mary Anne", salt: Self.salt))
        #expect(a.text.hasPrefix("#h:"))
        #expect(a.text.dropFirst(3).allSatisfy { $0.isHexDigit && !$0.isUppercase })
        #expect(LabelSalt.run == LabelSalt.run)
        #expect(LabelSalt.run.bytes.count == 16)
    }

    @Test(arguments: MadeUpSentence.all(sentences + SpelledSentence.all.prefix(8).map(\.text)
                                        + ["Sage", "Penny", "2.3.0 (512)", "2.5.0-beta", "en_us", "chart", "t_81f2"]))
    func everyRuleIsIdempotent(_ sentence: MadeUpSentence) {
        let raw = sentence.text
        let rules = Self.corpusRules(Self.listed) + Self.corpusRules(.none) + [{ ReportLabel(token: $0, salt: Self.salt) }]
        for (index, rule) in rules.enumerated() {
            let once = rule(raw)
            let same = rule(once.text) == once
            #expect(same, "rule \(index) on \(sentence.testDescription)")
        }
    }

    // MARK: - The team's list

    @Test(arguments: [
        ("", "it is empty"), (" Sage", "it begins or ends with white space"), ("Sage\n", "it begins or ends with white space"),
        ("a\u{0}b", "it holds a control, format or line-breaking character (U+0)"),
        ("a\u{200B}b", "it holds a control, format or line-breaking character (U+200B)"),
        ("a\u{2028}b", "it holds a control, format or line-breaking character (U+2028)"),
        ("#h:0000beef", "it has the shape of a hashed label (#h: and 8 hex digits)"),
        ("(other)", "'(other)' is one of the report's own labels"), ("unknown", "'unknown' is one of the report's own labels"),
        (String(repeating: "a", count: 65), "it is longer than 64 characters"),
    ])
    func entriesThatCannotBeListed(_ entry: String, _ problem: String) {
        #expect(TeamLabels.problem(with: entry) == problem)
    }

    @Test(arguments: ["Sage", "Zoé", "R2-D2", "Mary Ann", "2.5.0-beta", String(repeating: "a", count: 64)])
    func entriesThatCanBeListed(_ entry: String) {
        #expect(TeamLabels.problem(with: entry) == nil)
    }

    @Test func aListIsNamedByTheDigestOfItsEntries() throws {
        #expect(TeamLabels.none.digest == nil && TeamLabels().isEmpty)
        let a = TeamLabels(agents: ["Sage", "Coach"], builds: ["x"])
        let digest = try #require(a.digest)
        #expect(digest.count == 64 && digest.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        #expect(TeamLabels(agents: ["Coach", "Sage"], builds: ["x"]).digest == digest)   // order does not matter
        #expect(TeamLabels(agents: ["Coach", "Sage"], models: ["x"]).digest != digest)   // the key does
        #expect(TeamLabels(agents: ["Coach"], members: ["Sage"], builds: ["x"]).digest != digest)
        #expect(TeamLabels(agents: ["CoachSage"], builds: ["x"]).digest != TeamLabels(agents: ["Coach", "Sage"], builds: ["x"]).digest)
        // Read back with the same list: that list. With another: a list that keeps nothing, known by the state's digest.
        #expect(a.matching(digest) == a)
        let unheld = TeamLabels.none.matching(digest)
        #expect(unheld.digest == digest && unheld.agents.isEmpty && unheld != a)
        #expect(ReportLabel(agent: "Sage", listed: unheld, salt: Self.salt).isHashed)
        #expect(a.matching(nil) == .none)
    }

    @Test func labelsAreOrderedByNumberThenHashedUnknownAndOther() {
        let sorted = ["(other)", "unknown", "#h:0000beef", "2.10.0 (600)", "2.9.1 (590)", "2.9.0 (580)", "10.0"]
            .sorted(by: ReportLabel.precedes)
        #expect(sorted == ["2.9.0 (580)", "2.9.1 (590)", "2.10.0 (600)", "10.0", "#h:0000beef", "unknown", "(other)"])
    }

    @Test func theCapKeepsTheHeaviestAndNeverRanksOther() {
        var weights: [String: Int] = [:]
        for i in 0..<30 { weights["b\(i)"] = i }
        weights["(other)"] = 1
        let shown = ReportLabel.shown(weights, limit: 20, order: <)
        #expect(shown.count == 21)
        #expect(shown.contains("(other)"))
        #expect((10..<30).allSatisfy { shown.contains("b\($0)") })
        #expect(!shown.contains("b9"))
        // Few enough labels: all kept; ties broken by the given order.
        #expect(ReportLabel.shown(["a": 1, "b": 1], limit: 2, order: <) == ["a", "b"])
        #expect(ReportLabel.shown(["a": 1, "b": 1, "c": 1], limit: 2, order: <) == ["a", "b"])
        // Capping what a cap kept keeps it all.
        let again = ReportLabel.shown(weights.filter { shown.contains($0.key) }, limit: 20, order: <)
        #expect(again == shown)
    }
}

/// A made-up test sentence, shown in test output only by its index.
struct MadeUpSentence: Sendable, CustomTestStringConvertible {
    let index: Int
    let text: String

    var testDescription: String { "made-up sentence #\(index)" }

    static func all(_ texts: [String]) -> [MadeUpSentence] {
        texts.enumerated().map { MadeUpSentence(index: $0.offset, text: $0.element) }
    }
}

/// The scan the leak tests rely on: it must find every spelling, or a leak test could never fail.
@Suite struct ThreeWordScanTests {
    @Test(arguments: SpelledSentence.all)
    func everySpellingIsFound(_ spelled: SpelledSentence) {
        let scan = ThreeWordScan()
        // Counts only, so a failure cannot show the sentence.
        let inJSON = scan.hits(in: #"{"key": "\#(spelled.text)", "n": 1}"#)
        let inCSV = scan.hits(in: "chips.suggested,agent,'\(spelled.text),1,1")
        let inHTML = scan.hits(in: "<td>\(spelled.text)</td>")
        #expect(inJSON == 1 && inCSV == 1 && inHTML == 1, "\(spelled)")
    }

    @Test func reportTextAndHashesAreNotWords() {
        let scan = ThreeWordScan()
        let clean = ##"{"by_build": {"2.3.0 (512)": 1, "#h:3f9a1c2e": 2}, "agent": "Coach", "kind": "say", "tell": 1, "mum": 2}"##
        #expect(scan.hits(in: clean) == 0)
        // Words of different fields are not glued together by the report's own structure.
        #expect(scan.hits(in: #""tell": "mum", "the": 1"#) == 0)
    }

    /// Beyond ASCII: a letter whose lowercase is ASCII (KELVIN SIGN, U+212A) still spells its
    /// word, a combining mark after a word's last letter does not hide the letter, and digits and
    /// joiners of other scripts glue a run as ASCII ones do; a letter of another script breaks
    /// no run but is not a word's letter.
    @Test(arguments: [
        ("Pic\u{212A}UpJamie", 1),
        ("pickupjamie\u{301}", 1),
        ("pick\u{0663}up\u{0663}jamie", 1),
        ("pick\u{3042}upjamie", 0),
        ("pick up jamie", 0),
    ])
    func charactersBeyondASCII(text: String, hits: Int) {
        #expect(ThreeWordScan().hits(in: text) == hits)
    }
}
