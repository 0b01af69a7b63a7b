import Testing
import Privacy
@testable import Engine

/// A request built from prompt parts reads as the parts joined, and a prompt set replaces them.
@Suite struct GenerationRequestTests {
    @Test(arguments: [
        ([], "\n"),
        (["one"], "\n"),
        (["Coach wrote:", "", "How was the run?", "\nSuggest replies."], "\n"),
        (["a", "b", "c"], "\n\n"),
        (["a", "b"], ""),
    ] as [([String], String)])
    func partsReadAsTheirJoin(parts: [String], separator: String) {
        let sealed = parts.map(SealedText.init)
        var request = GenerationRequest(instructions: SealedText("Do it."), promptParts: sealed, separator: separator,
                                        grammar: nil, maxOutputTokens: 8)
        #expect(request.prompt == SealedText.joined(sealed, separator: separator))
        #expect(request.prompt == GenerationRequest(instructions: SealedText("Do it."), prompt: SealedText.joined(sealed, separator: separator),
                                                    grammar: nil, maxOutputTokens: 8).prompt)
        request.prompt = SealedText("replaced")
        #expect(request.prompt == SealedText("replaced"))
    }
}
