import Privacy

/// Fixed words with named placeholders (`{agent} wrote:`), from a prompt set.
///
/// Only the template is ever parsed: rendering puts each input's words in place as they are, so
/// a screen that says `{agent}` stays `{agent}`. `{{` and `}}` write a brace. A placeholder's name
/// is lowercase letters and `_`; which names a template may use is the prompt set's check
/// (`PromptInputs`), not the template's.
public struct PromptTemplate: Sendable, Equatable {
    /// The template as written (what a prompt set file holds, escapes and all).
    public let text: String
    /// The text cut into fixed words and placeholders, in order.
    let segments: [Segment]

    enum Segment: Sendable, Equatable {
        case words(String)
        case input(String)
    }

    /// Why a template does not parse, with the 1-based character where it went wrong.
    struct SyntaxError: Error, Equatable {
        var problem: String
    }

    /// Parses `text`.
    init(parsing text: String) throws(SyntaxError) {
        var segments: [Segment] = []
        var words = ""
        var characters = Array(text)[...]
        var position = 0
        func next() -> Character? {
            guard let character = characters.popFirst() else { return nil }
            position += 1
            return character
        }
        while let character = next() {
            switch character {
            case "{":
                if characters.first == "{" {
                    _ = next()
                    words.append("{")
                    continue
                }
                let start = position
                var name = ""
                var closed = false
                while let inner = next() {
                    if inner == "}" {
                        closed = true
                        break
                    }
                    guard inner.isASCII, inner.isLowercase || inner == "_" else {
                        throw SyntaxError(problem: "the placeholder at character \(start) is not a name of lowercase letters and _ (write {{ for a brace)")
                    }
                    name.append(inner)
                }
                guard closed else { throw SyntaxError(problem: "the { at character \(start) is not closed (write {{ for a brace)") }
                guard !name.isEmpty else { throw SyntaxError(problem: "the placeholder at character \(start) has no name") }
                if !words.isEmpty { segments.append(.words(words)) }
                words = ""
                segments.append(.input(name))
            case "}":
                guard characters.first == "}" else {
                    throw SyntaxError(problem: "the } at character \(position) closes nothing (write }} for a brace)")
                }
                _ = next()
                words.append("}")
            default:
                words.append(character)
            }
        }
        if !words.isEmpty { segments.append(.words(words)) }
        self.text = text
        self.segments = segments
    }

    /// The placeholders' names, in order, each once.
    var inputs: [String] {
        var seen: Set<String> = []
        return segments.compactMap { segment in
            guard case .input(let name) = segment, seen.insert(name).inserted else { return nil }
            return name
        }
    }

    /// The input this template is and nothing else (`{words}`), if it is one: its size is then
    /// the input's own, which planning may already know.
    var soleInput: String? {
        guard segments.count == 1, case .input(let name) = segments[0] else { return nil }
        return name
    }

    /// Whether the template is words alone, with no placeholder: the same text wherever it is used.
    var isFixed: Bool {
        !segments.contains { if case .input = $0 { true } else { false } }
    }

    /// The template with each placeholder replaced by `value(name)`'s words, never read as a
    /// template themselves. A name with no value (which the prompt set's check rules out) is empty.
    func rendered(_ value: (String) -> SealedText?) -> SealedText {
        // A template of one piece shares its words, or the input's (a screen's cut words), without a copy.
        if segments.count == 1 {
            switch segments[0] {
            case .words(let words): return SealedText(words)
            case .input(let name): return value(name) ?? .empty
            }
        }
        return SealedText.joined(segments.map { segment in
            switch segment {
            case .words(let words): SealedText(words)
            case .input(let name): value(name) ?? .empty
            }
        }, separator: "")
    }

    /// Two templates are the same when written the same.
    public static func == (a: PromptTemplate, b: PromptTemplate) -> Bool { a.text == b.text }
}
