import Testing
@testable import Privacy

@Suite struct SealedTextTests {
    @Test func printingShowsNoWords() {
        let secret = SealedText("canary-7f3a how did your knee feel?")
        // print, interpolation and String(describing:) do not compile (SealedTextCompileTests);
        // where a SealedText is reached anyway, its empty mirror shows no words.
        #expect(!String(describing: [secret]).contains("canary"))
        #expect(!String(describing: secret).contains("canary"))
        var dumped = ""
        dump(secret, to: &dumped)
        #expect(!dumped.contains("canary"))
        #expect(!String(reflecting: [secret]).contains("canary"))
    }

    @Test func wordsReachableOnlyThroughTheClosure() {
        let text = SealedText("abc")
        #expect(text.withUnsealedText { $0.count } == 3)
        #expect(text.utf8Count == 3)
        #expect(SealedText.joined([SealedText("a"), SealedText("b")], separator: "\n").withUnsealedText { $0 } == "a\nb")
    }
}
