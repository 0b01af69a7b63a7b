import Foundation
import Testing
@testable import Audit
import TestSupport

/// `ResultVocabulary` is the writers' words: every run of letters in a string literal of a
/// writer's source is in it, so a writer that gains a word fails here until the word is
/// reviewed into the vocabulary (and would otherwise fail the clean-run tests of
/// `ResultSchemaCheckTests`, where the word shows up as a finding).
@Suite struct ResultVocabularyTests {
    @Test func everyWordOfTheWritersIsInTheVocabulary() throws {
        var missing: Set<String> = []
        var symbols: Set<Unicode.Scalar> = []
        for file in try Self.writerFiles() {
            let source = try String(contentsOfFile: file, encoding: .utf8)
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
            for literal in SwiftLiterals.strings(in: try String(contentsOfFile: file, encoding: .utf8)) {
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
/// strings, with interpolations left out; comments skipped.
enum SwiftLiterals {
    static func strings(in source: String) -> [String] {
        let s = Array(source.unicodeScalars)
        var out: [String] = []
        var i = 0
        func at(_ index: Int) -> Unicode.Scalar? { index < s.count ? s[index] : nil }
        while i < s.count {
            if s[i] == "/", at(i + 1) == "/" {
                while i < s.count, s[i] != "\n" { i += 1 }
                continue
            }
            if s[i] == "/", at(i + 1) == "*" {
                i += 2
                while i < s.count, !(s[i] == "*" && at(i + 1) == "/") { i += 1 }
                i += 2
                continue
            }
            var hashes = 0
            while at(i + hashes) == "#" { hashes += 1 }
            guard at(i + hashes) == "\"" else { i += max(1, hashes); continue }
            var j = i + hashes
            let multiline = at(j + 1) == "\"" && at(j + 2) == "\""
            j += multiline ? 3 : 1
            var text = ""
            while j < s.count {
                if s[j] == "\\", (0..<hashes).allSatisfy({ at(j + 1 + $0) == "#" }) {
                    let next = j + 1 + hashes
                    if at(next) == "(" {
                        // An interpolation: code, not words. Skip to its closing parenthesis.
                        var depth = 0
                        var k = next
                        while k < s.count {
                            if s[k] == "(" { depth += 1 }
                            if s[k] == ")" { depth -= 1; if depth == 0 { break } }
                            k += 1
                        }
                        text += " "
                        j = k + 1
                    } else {
                        // An escape: n, t, u{…} are not words of the text.
                        text += " "
                        j = next + 1
                        if at(next) == "u", at(j) == "{" { while j < s.count, s[j] != "}" { j += 1 }; j += 1 }
                    }
                    continue
                }
                let closes = multiline ? (s[j] == "\"" && at(j + 1) == "\"" && at(j + 2) == "\"") : s[j] == "\""
                if closes, (0..<hashes).allSatisfy({ at(j + (multiline ? 3 : 1) + $0) == "#" }) {
                    j += (multiline ? 3 : 1) + hashes
                    break
                }
                if !multiline, s[j] == "\n" { break }
                text.unicodeScalars.append(s[j])
                j += 1
            }
            out.append(text)
            i = j
        }
        return out
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
