import Confinement
import Privacy

/// Text a writer of `replay` composed: its own words (`ResultVocabulary`), numbers and
/// punctuation, and the labels of the result file it was rendered from.
///
/// report.md is rendered from report.json and dashboard.html from metrics.json, both checked
/// against their schemas first; so the only strings either may hold besides the writers' words
/// are strings of those files. The check blanks every occurrence of such a label (between
/// characters that are not letters or digits), every quoted id the id rule keeps (`'t_81f2'`,
/// as bad line reasons quote them) and every path the run was given, and then wants every run
/// of letters left to be a word of the vocabulary, and every other character printable ASCII or
/// a symbol the writers use. A sentence of a corpus, in any spelling, has words no writer uses.
enum ResultProse {
    /// How the text escapes labels, undone before they are looked for.
    enum Markup: Sendable {
        case plain, markdown, html
    }

    /// The 1-based line of the first word or character that is not the writers', or nil.
    static func firstUnknown(in text: String, labels: [String], context: ResultText.Context, markup: Markup = .plain) -> Int? {
        var scalars = unescaped(Array(text.unicodeScalars), markup)
        for label in Set(labels).sorted(by: { $0.unicodeScalars.count > $1.unicodeScalars.count }) {
            blank(Array(label.unicodeScalars), in: &scalars)
        }
        blankQuotedIDs(&scalars)
        blankPaths(&scalars, context: context)
        var line = 1
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if isLetter(scalar) {
                var end = index
                var word = ""
                while end < scalars.count, isLetter(scalars[end]) {
                    word.unicodeScalars.append(scalars[end])
                    end += 1
                }
                if !isWriters(word.lowercased()) { return line }
                index = end
                continue
            }
            if scalar == "\n" {
                line += 1
            } else if !(scalar == "\t" || (0x20..<0x7f).contains(scalar.value) || ResultVocabulary.symbols.contains(scalar)) {
                return line
            }
            index += 1
        }
        return nil
    }

    /// A word of the vocabulary, or one with a plural `s` the writers add by interpolation
    /// (`value` followed by an interpolated `s`).
    static func isWriters(_ word: String) -> Bool {
        ResultVocabulary.words.contains(word) || ResultVocabulary.systemWords.contains(word)
            || (word.hasSuffix("s") && ResultVocabulary.words.contains(String(word.dropLast())))
    }

    /// The runs of letters of `text`, lower case, in order.
    static func words(of text: String) -> [String] {
        var words: [String] = []
        var word = ""
        for scalar in text.unicodeScalars {
            if isLetter(scalar) { word.unicodeScalars.append(scalar); continue }
            if !word.isEmpty { words.append(word.lowercased()); word = "" }
        }
        if !word.isEmpty { words.append(word.lowercased()) }
        return words
    }

    static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.generalCategory == .nonspacingMark
            || scalar.properties.generalCategory == .spacingMark
    }

    static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        isLetter(scalar) || ("0"..."9").contains(scalar)
    }

    /// The text with the writer's escapes of labels undone (line breaks kept, so lines count).
    static func unescaped(_ scalars: [Unicode.Scalar], _ markup: Markup) -> [Unicode.Scalar] {
        switch markup {
        case .plain:
            return scalars
        case .markdown:
            var out: [Unicode.Scalar] = []
            var index = 0
            while index < scalars.count {
                if scalars[index] == "\\", index + 1 < scalars.count, scalars[index + 1].isASCII,
                   scalars[index + 1].properties.generalCategory != .lowercaseLetter,
                   scalars[index + 1].properties.generalCategory != .uppercaseLetter, scalars[index + 1] != "\n" {
                    out.append(scalars[index + 1])
                    index += 2
                } else {
                    out.append(scalars[index])
                    index += 1
                }
            }
            return out
        case .html:
            var text = String(String.UnicodeScalarView(scalars))
            for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&#x27;", "'"), ("&amp;", "&")] {
                text = text.replacingOccurrences(of: entity, with: character)
            }
            return Array(text.unicodeScalars)
        }
    }

    /// Replaces each occurrence of `label` that stands between non-word characters with spaces.
    static func blank(_ label: [Unicode.Scalar], in scalars: inout [Unicode.Scalar]) {
        guard let first = label.first, label.count <= scalars.count else { return }
        var index = 0
        while index + label.count <= scalars.count {
            if scalars[index] == first, Array(scalars[index..<(index + label.count)]) == label,
               index == 0 || !isWordCharacter(scalars[index - 1]) || !isWordCharacter(first),
               index + label.count == scalars.count || !isWordCharacter(scalars[index + label.count]) || !isWordCharacter(label.last!) {
                for position in index..<(index + label.count) where scalars[position] != "\n" { scalars[position] = " " }
                index += label.count
            } else {
                index += 1
            }
        }
    }

    /// Blanks `'…'` when what is between the quotes is an id the id rule keeps.
    static func blankQuotedIDs(_ scalars: inout [Unicode.Scalar]) {
        var index = 0
        while index < scalars.count {
            guard scalars[index] == "'", let close = scalars[(index + 1)...].prefix(80).firstIndex(of: "'") else { index += 1; continue }
            let inner = String(String.UnicodeScalarView(scalars[(index + 1)..<close]))
            if !inner.isEmpty, ResultText.isLabel(inner, .id) {
                for position in index...close { scalars[position] = " " }
                index = close + 1
            } else {
                index += 1
            }
        }
    }

    /// Blanks each run of non-space characters that, less a trailing `:`, `,`, `.`, `;` or `)`,
    /// is a path the run was given (as given: `fl/a.jsonl`) or an existing absolute path.
    static func blankPaths(_ scalars: inout [Unicode.Scalar], context: ResultText.Context) {
        var index = 0
        while index < scalars.count {
            guard scalars[index] != " ", scalars[index] != "\n", scalars[index] != "\t",
                  index == 0 || scalars[index - 1] == " " || scalars[index - 1] == "\n" else { index += 1; continue }
            var end = index
            while end < scalars.count, scalars[end] != " ", scalars[end] != "\n", scalars[end] != "\t" { end += 1 }
            var stop = end
            while stop > index + 1, [":", ",", ".", ";", ")"].contains(scalars[stop - 1]) { stop -= 1 }
            let path = String(String.UnicodeScalarView(scalars[index..<stop]))
            if path.contains("/"), ResultText.isPath(path, context: context) {
                for position in index..<stop { scalars[position] = " " }
            }
            index = end
        }
    }
}
