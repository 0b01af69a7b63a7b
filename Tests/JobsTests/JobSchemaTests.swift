import Foundation
import Privacy
import Testing
@testable import Jobs

/// The three new jobs' schemas through the one guided-generation mechanism.
@Suite struct JobSchemaTests {
    @Test func routeGrammarOffersTheMembersAndTheLead() throws {
        let grammar = GrammarWriter.grammar(for: Route.schema(members: ["Coach", "Sage", "Penny"]))
        #expect(grammar.hasPrefix(#"root ::= "{\"to\":" root-to "}""#))
        #expect(grammar.contains(#"root-to ::= "\"Coach\"" | "\"Sage\"" | "\"Penny\"" | "\"lead\"""#))
        #expect(Route(output: SealedText(#"{"to":"Penny"}"#), members: ["Coach", "Sage", "Penny"]) == Route(to: SealedText("Penny")))
        #expect(Route(output: SealedText(#"{"to":"lead"}"#), members: ["Coach"])?.chose(Route.lead) == true)
        #expect(Route(output: SealedText(#"{"to":"penny"}"#), members: ["Coach", "Sage", "Penny"]) == nil)   // exactly a choice
        #expect(Route(output: SealedText(#"{"to":"Sage"}"#), members: ["Coach"]) == nil)
        #expect(Route(to: SealedText("Sage")).chose(caseInsensitive: "sAGE") && !Route(to: SealedText("Sage")).chose("sage"))
    }

    @Test func pushLineGrammarIsOneLineOfAtMost90Characters() {
        #expect(PushLine.grammar.hasPrefix(#"root ::= "{\"line\":" root-line "}""#))
        #expect(PushLine.grammar.contains(#"root-line ::= "\"" char{1,90} "\"""#))
        #expect(PushLine.grammar.contains(#"char ::= [^"\\\x00-\x1F\x7F]"#))   // no line break
    }

    @Test func draftGrammarIsOneUnionWithItsGuides() {
        let grammar = Draft.grammar
        #expect(grammar.contains(#"("{\"kind\":\"checklist\"" ",\"title\":" root-checklist-title ",\"items\":" root-checklist-items "}")"#))
        #expect(grammar.contains(#"("{\"kind\":\"none\"" "}")"#))
        #expect(grammar.contains(#"root-checklist-items ::= "[" root-checklist-items-item ("," root-checklist-items-item){0,7} "]""#))
        #expect(grammar.contains(#"root-checklist-items-item ::= "\"" char{1,60} "\"""#))
        #expect(grammar.contains(#"root-timer-label ::= "\"" char{1,40} "\"""#))
        #expect(grammar.contains(#"root-timer-minutes ::= [1-9] | [1-9] [0-9] | "1" [0-7] [0-9] | "1" "8" "0""#))
        #expect(grammar.contains(#"root-card-body ::= "\"" char{1,200} "\"""#))
    }

    /// The integer grammar as a regular expression: GBNF literals and spaces dropped.
    static func matches(_ number: String, _ range: ClosedRange<Int>) -> Bool {
        let expression = GrammarWriter.integerExpression(range).replacingOccurrences(of: "\"", with: "")
            .replacingOccurrences(of: " ", with: "")
        return number.range(of: "^(" + expression + ")$", options: .regularExpression) != nil
    }

    @Test(arguments: [0...9, 1...180, 5...5, 19...20, 0...100, 7...1234, 95...105])
    func integerGrammarsAllowExactlyTheRange(range: ClosedRange<Int>) {
        let wrong = (0...1300).filter { Self.matches(String($0), range) != range.contains($0) }
        #expect(wrong.isEmpty)
        #expect(!Self.matches("07", range) && !Self.matches("", range) && !Self.matches("-1", range))
    }
}
