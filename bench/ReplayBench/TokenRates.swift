import Confinement
import Export
import Foundation
import Llama
import Privacy
import ReplayKit

/// `replay-bench tokens`: characters per token, per language, for each model's tokenizer over a
/// corpus's words (messages and screens), for docs/profiles.md's phone-token estimate.
///
///     replay-bench tokens [--model PATH|NAME]... CORPUS...
///
/// Loads each model's vocabulary only, reads the corpus with the export reader, and counts, per
/// language (a message's `lang`, else its thread's `locale`; the primary subtag), the Unicode
/// scalars of every message text and screen's words, and the tokens each tokenizer makes of them
/// (plain words, no template). Writes to stderr, counts only: a table of texts, characters and
/// each model's tokens and characters per token. Confined, with nowhere to write.
enum TokenRates {
    static let usage = "usage: replay-bench tokens [--model PATH|NAME]... CORPUS..."

    static func run(_ arguments: [String], diagnostics: (String) -> Void) -> ExitCode {
        var models: [String] = []
        var corpus: [String] = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--model" {
                guard let value = rest.popFirst() else { diagnostics(usage); return .usage }
                do {
                    models.append(try DefaultModel.file(forModelArgument: value))
                } catch {
                    diagnostics("replay-bench tokens: \(error.description)")
                    return .usage
                }
            } else if argument.hasPrefix("-") {
                diagnostics(usage)
                return .usage
            } else {
                corpus.append(argument)
            }
        }
        if models.isEmpty, let path = DefaultModel.path() { models = [path] }
        guard !corpus.isEmpty, !models.isEmpty else { diagnostics(usage); return .usage }
        let tokenizers: [LlamaModel]
        do {
            tokenizers = try models.map { try LlamaModel(path: $0, vocabularyOnly: true) }
        } catch {
            diagnostics("replay-bench tokens: \(error)")
            return .model
        }
        if let refused = BenchConfinement.confine("replay-bench tokens", diagnostics: diagnostics) { return refused }
        struct Counts { var texts = 0, characters = 0; var tokens: [Int] }
        var byLanguage: [String: Counts] = [:]
        var locales: [String: String] = [:]
        let reader: CorpusReader
        do {
            reader = try CorpusReader(paths: corpus)
        } catch {
            diagnostics("replay-bench tokens: \(error)")
            return .input
        }
        while let event = reader.next() {
            guard case .record(let record, _) = event else { continue }
            switch record {
            case .thread(let thread): locales[thread.id] = thread.locale
            case .message(let message):
                let tag = message.lang ?? locales[message.thread] ?? "und"
                let language = String(tag.prefix { $0 != "-" && $0 != "_" }).lowercased()
                var texts: [SealedText] = []
                if let text = message.text { texts.append(text) }
                if let screen = message.screen { texts.append(screen.words) }
                for text in texts where !text.isEmpty {
                    var counts = byLanguage[language] ?? Counts(tokens: Array(repeating: 0, count: tokenizers.count))
                    counts.texts += 1
                    counts.characters += text.withUnsealedText { $0.unicodeScalars.count }
                    for (index, tokenizer) in tokenizers.enumerated() { counts.tokens[index] += tokenizer.tokenCount(of: text) }
                    byLanguage[language] = counts
                }
            case .header: break
            }
        }
        let names: [String] = models.map { URL(fileURLWithPath: $0).lastPathComponent + ": tokens (characters per token)" }
        let header = "| language | texts | characters | " + names.joined(separator: " | ") + " |"
        let rule = "|---|---:|---:|" + String(repeating: "---:|", count: names.count)
        var lines = [header, rule]
        for (language, counts) in byLanguage.sorted(by: { $0.value.characters > $1.value.characters }) {
            let cells = counts.tokens.map { String(format: "%d (%.2f)", $0, Double(counts.characters) / Double(max($0, 1))) }
            lines.append("| \(language) | \(counts.texts) | \(counts.characters) | " + cells.joined(separator: " | ") + " |")
        }
        diagnostics(lines.joined(separator: "\n"))
        return .success
    }
}
