import Testing
@testable import Privacy

/// The one rule for labels from a corpus: pass a strict pattern, or become a salted hash.
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

    @Test(arguments: MadeUpSentence.all(sentences))
    func sentencesAreHashedUnderEveryRule(_ sentence: MadeUpSentence) {
        let text = sentence.text
        let labels = [ReportLabel(build: text, salt: Self.salt), ReportLabel(model: text, salt: Self.salt),
                      ReportLabel(locale: text, salt: Self.salt), ReportLabel(name: text, salt: Self.salt),
                      ReportLabel(kind: text, salt: Self.salt), ReportLabel(id: text, salt: Self.salt),
                      ReportLabel(token: text, salt: Self.salt)]
        let hash = ReportLabel(hashing: text, salt: Self.salt).text
        for (rule, label) in labels.enumerated() {
            // Booleans only, so a failure cannot show the sentence.
            let hashed = label.isHashed && label.text == hash && label.text.count == 11
            #expect(hashed, "rule \(rule) kept \(sentence.testDescription)")
        }
    }

    @Test(arguments: [
        ("2.3.0 (512)", "2.3.0 (512)"), ("2.3.0", "2.3.0"), ("A", "A"), ("26.4", "26.4"), ("1.0+beta/2:x", "1.0+beta/2:x"),
        ("  2.4.0 (530)\n", "2.4.0 (530)"), ("\u{00A0}2.4\u{3000}", "2.4"), ("2 (1)", "2 (1)"), ("1.2.3.4 (5)", "1.2.3.4 (5)"),
        (nil, "unknown"), ("   ", "unknown"), ("", "unknown"),
    ] as [(String?, String)])
    func buildsThatPass(_ raw: String?, _ shown: String) {
        #expect(ReportLabel(build: raw, salt: Self.salt).text == shown)
    }

    @Test(arguments: ["2.3.0  (512)", "2.3.0 (5a2)", "2.3 beta", "(512)", "-1", "=1", "x y", String(repeating: "9", count: 41),
                      "1.2.3.4.5 (6)", "2.3.0 ()", "2.3.0 (512) extra", "2.3.0. (512)", "2..3 (1)", "2.3.0 (512", ".2 (1)"])
    func buildsThatAreHashed(_ raw: String) {
        #expect(ReportLabel(build: raw, salt: Self.salt).isHashed)
    }

    @Test(arguments: [
        ("en-US", "en-US"), ("en_us", "en-US"), ("en-us", "en-US"), ("EN", "en"), ("en", "en"), ("zh-hant-tw", "zh-Hant-TW"),
        ("es-419", "es-419"), ("fra", "fra"), ("sr_Latn", "sr-Latn"), (" ja-JP ", "ja-JP"),
    ])
    func localesInCanonicalCase(_ raw: String, _ shown: String) {
        #expect(ReportLabel(locale: raw, salt: Self.salt).text == shown)
    }

    @Test(arguments: ["en-quick-brown-fox", "english", "e", "en-US-POSIX", "x-private", "en--US", "en-US-", "12-US", "en US"])
    func localesThatAreHashed(_ raw: String) {
        #expect(ReportLabel(locale: raw, salt: Self.salt).isHashed)
    }

    @Test(arguments: ["Sage", "Coach", "Zoé", "ミナ", "R2-D2", "mary_ann", "a", "Émile", "Zoe\u{301}", String(repeating: "a", count: 24)])
    func namesThatPass(_ raw: String) {
        #expect(ReportLabel(name: raw, salt: Self.salt).text == raw)
    }

    @Test(arguments: ["Mary Ann", "2pac", "_x", "-x", "Sage!", "a.b", "@Sage", String(repeating: "a", count: 25), "Sage\u{200B}",
                      "\u{301}e", "Sage\u{1F600}", String(repeating: "é", count: 25)])
    func namesThatAreHashed(_ raw: String) {
        #expect(ReportLabel(name: raw, salt: Self.salt).isHashed)
    }

    @Test func kindsKeepTheReadersOtherAndTokens() {
        #expect(ReportLabel(kind: "(other)").text == "(other)")
        #expect(ReportLabel(kind: "chart").text == "chart")
        #expect(ReportLabel(kind: "map_v2.1").text == "map_v2.1")
        #expect(ReportLabel(kind: "(others)", salt: Self.salt).isHashed)
        #expect(ReportLabel(build: "(other)", salt: Self.salt).isHashed)   // only kinds may say (other)
    }

    @Test func idsAndFieldPaths() {
        #expect(ReportLabel(id: "t_81f2").text == "t_81f2")
        #expect(ReportLabel(id: "screen[2].card.title").text == "screen[2].card.title")
        #expect(ReportLabel(id: "meta.draft_ticks[0]").text == "meta.draft_ticks[0]")
        #expect(ReportLabel(id: "it\\'s", salt: Self.salt).isHashed)
    }

    @Test func hashesAreStablePerSaltAndDifferAcrossSalts() {
        let other = LabelSalt(bytes: [1, 2, 3])
        let a = ReportLabel(name: "Mary Ann", salt: Self.salt)
        #expect(a == ReportLabel(name: "Mary Ann", salt: Self.salt))
        #expect(a == ReportLabel(build: "Mary Ann", salt: Self.salt))   // one value, one hash, whatever the field
        #expect(a != ReportLabel(name: "Mary Ann", salt: other))
        #expect(a != ReportLabel(name: "Mary Anne", salt: Self.salt))
        #expect(a.text.hasPrefix("#h:"))
        #expect(a.text.dropFirst(3).allSatisfy { $0.isHexDigit && !$0.isUppercase })
        #expect(LabelSalt.run == LabelSalt.run)
        #expect(LabelSalt.run.bytes.count == 16)
    }

    @Test(arguments: MadeUpSentence.all(sentences + ["Sage", "2.3.0 (512)", "en_us", "chart"]))
    func everyRuleIsIdempotent(_ sentence: MadeUpSentence) {
        let raw = sentence.text
        let rules: [(String?) -> ReportLabel] = [
            { ReportLabel(build: $0, salt: Self.salt) }, { ReportLabel(model: $0, salt: Self.salt) },
            { ReportLabel(locale: $0, salt: Self.salt) }, { ReportLabel(name: $0, salt: Self.salt) },
            { ReportLabel(kind: $0, salt: Self.salt) }, { ReportLabel(id: $0, salt: Self.salt) },
            { ReportLabel(token: $0, salt: Self.salt) },
        ]
        for (index, rule) in rules.enumerated() {
            let once = rule(raw)
            let same = rule(once.text) == once
            #expect(same, "rule \(index) on \(sentence.testDescription)")
        }
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
