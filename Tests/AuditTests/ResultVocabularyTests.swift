import Foundation
import Testing
@testable import Audit
@testable import Confinement
import TestSupport

/// `ResultVocabulary` is the writers' words: every run of letters in a string literal of a
/// writer's source is in it, and every one-word name of a value a writer stores (a Codable
/// document's key: report.json's `"sandbox"`), so a writer that gains a word fails here until the
/// word is reviewed into the vocabulary (and would otherwise fail the clean-run tests of
/// `ResultSchemaCheckTests`, where the word shows up as a finding, or a clean run whose model
/// answered with that one word).
@Suite(.tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct ResultVocabularyTests {
    @Test func everyWordOfTheWritersIsInTheVocabulary() throws {
        var missing: Set<String> = []
        var symbols: Set<Unicode.Scalar> = []
        for file in try Self.writerFiles() {
            let source = try String(contentsOfFile: file, encoding: .utf8)
            for word in SwiftLiterals.storedNames(in: source) where !ResultVocabulary.words.contains(word) { missing.insert(word) }
            for literal in SwiftLiterals.strings(in: source) {
                for word in SwiftLiterals.words(in: literal) where !ResultVocabulary.words.contains(word) { missing.insert(word) }
                for scalar in literal.unicodeScalars where !scalar.isASCII && !ResultProse.isLetter(scalar)
                    && !ResultVocabulary.symbols.contains(scalar) {
                    symbols.insert(scalar)
                }
            }
        }
        // The words are the writers' own (source code), not a corpus's: naming them is safe.
        #expect(missing.isEmpty, "words of the writers missing from ResultVocabulary.words: \(missing.sorted())")
        #expect(symbols.isEmpty, "symbols missing from ResultVocabulary.symbols: \(symbols.map { String(format: "\\u{%04x}", $0.value) }.sorted())")
    }

    /// The vocabulary holds no word a corpus's generator writes that no writer does: the
    /// phrasebooks' words (messages, names) are not the writers'.
    @Test func theVocabularyIsNotTheCorpusGenerators() throws {
        var writers: Set<String> = []
        for file in try Self.writerFiles() {
            let source = try String(contentsOfFile: file, encoding: .utf8)
            writers.formUnion(SwiftLiterals.storedNames(in: source))
            for literal in SwiftLiterals.strings(in: source) {
                writers.formUnion(SwiftLiterals.words(in: literal))
            }
        }
        #expect(ResultVocabulary.words.subtracting(writers).isEmpty, "words in the vocabulary that no writer uses any more")
        #expect(!ResultVocabulary.words.contains("surgery") && !ResultVocabulary.words.contains("mum"))
    }

    static func writerFiles() throws -> [String] {
        var files: [String] = []
        for source in ResultVocabulary.writerSources {
            let path = BuiltProducts.packageRoot + "/" + source
            var isDirectory: ObjCBool = false
            #expect(FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), "writer source \(source) is missing")
            if !isDirectory.boolValue { files.append(path); continue }
            let walker = try #require(FileManager.default.enumerator(atPath: path))
            while let relative = walker.nextObject() as? String {
                if relative.hasSuffix(".swift") { files.append(path + "/" + relative) }
            }
        }
        return files
    }
}

/// The string literals of Swift source, as far as a vocabulary needs: plain, multi-line and raw
/// strings, and the literals inside their interpolations (`"\\(small ? "small" : "ok")"`: a
/// writer's words too); comments skipped.
enum SwiftLiterals {
    static func strings(in source: String) -> [String] {
        var lexer = Lexer(Array(source.unicodeScalars))
        lexer.code(until: nil)
        return lexer.literals
    }

    struct Lexer {
        let s: [Unicode.Scalar]
        var i = 0
        var literals: [String] = []

        init(_ scalars: [Unicode.Scalar]) { s = scalars }

        func at(_ index: Int) -> Unicode.Scalar? { index < s.count ? s[index] : nil }

        /// Code up to an unbalanced `close` (an interpolation's `)`), or the end.
        mutating func code(until close: Unicode.Scalar?) {
            var depth = 0
            while i < s.count {
                let c = s[i]
                if c == "/", at(i + 1) == "/" { while i < s.count, s[i] != "\n" { i += 1 }; continue }
                if c == "/", at(i + 1) == "*" {
                    i += 2
                    while i < s.count, !(s[i] == "*" && at(i + 1) == "/") { i += 1 }
                    i += 2
                    continue
                }
                var hashes = 0
                while at(i + hashes) == "#" { hashes += 1 }
                if at(i + hashes) == "\"" { i += hashes; literal(hashes: hashes); continue }
                if hashes > 0 { i += hashes; continue }
                if c == "(" { depth += 1 }
                if c == ")" {
                    if depth == 0, close == ")" { i += 1; return }
                    depth -= 1
                }
                i += 1
            }
        }

        /// A literal starting at its opening quote (after any `#`s); appends its text.
        mutating func literal(hashes: Int) {
            let multiline = at(i + 1) == "\"" && at(i + 2) == "\""
            i += multiline ? 3 : 1
            var text = ""
            while i < s.count {
                if s[i] == "\\", (0..<hashes).allSatisfy({ at(i + 1 + $0) == "#" }) {
                    let next = i + 1 + hashes
                    if at(next) == "(" {
                        // An interpolation: code whose own literals are words of the writer too.
                        text += " "
                        i = next + 1
                        code(until: ")")
                    } else {
                        // An escape: n, t, u{…} are not words of the text.
                        text += " "
                        i = next + 1
                        if at(next) == "u", at(i) == "{" { while i < s.count, s[i] != "}" { i += 1 }; i += 1 }
                    }
                    continue
                }
                let closes = multiline ? (s[i] == "\"" && at(i + 1) == "\"" && at(i + 2) == "\"") : s[i] == "\""
                if closes, (0..<hashes).allSatisfy({ at(i + (multiline ? 3 : 1) + $0) == "#" }) {
                    i += (multiline ? 3 : 1) + hashes
                    break
                }
                if !multiline, s[i] == "\n" { break }
                text.unicodeScalars.append(s[i])
                i += 1
            }
            literals.append(text)
        }
    }

    /// The names of one lower-case word of the values `source` declares with a type and no
    /// default (`let sandbox: Sandbox`, `public var started: String`): a Codable document's
    /// stored properties, whose names are the keys it encodes. A name of several words
    /// (`writableDirectories`) encodes as one word joined by `_`, which no output's word is.
    static func storedNames(in source: String) -> Set<String> {
        var names: Set<String> = []
        for line in source.split(separator: "\n") {
            var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })[...]
            while let first = words.first, ["public", "package", "internal", "fileprivate", "private", "private(set)",
                                            "internal(set)", "public(set)", "nonisolated(unsafe)", "static"].contains(first) {
                words = words.dropFirst()
            }
            guard let keyword = words.first, keyword == "let" || keyword == "var", words.count >= 3,
                  !line.contains("="), words.dropFirst().first!.hasSuffix(":") else { continue }
            let name = words.dropFirst().first!.dropLast()
            if !name.isEmpty, name.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) }) { names.insert(String(name)) }
        }
        return names
    }

    /// The runs of letters of `text`, lower case, as `ResultProse` reads them.
    static func words(in text: String) -> Set<String> {
        var words: Set<String> = []
        var word = ""
        for scalar in text.unicodeScalars {
            if ResultProse.isLetter(scalar) {
                word.unicodeScalars.append(scalar)
            } else if !word.isEmpty {
                words.insert(word.lowercased())
                word = ""
            }
        }
        if !word.isEmpty { words.insert(word.lowercased()) }
        return words
    }
}
