import Engine
import Foundation
import Privacy

/// A draft screen drawn while offline: the draft job's output type (spec §5).
///
/// Mirrors `@Generable enum Draft { case checklist(title, items), timer(label, minutes),
/// card(title, body) }` plus `none`, for a message that should get no draft. One tagged union:
/// the grammar makes the model write the kind first, so deciding and filling are one generation
/// (one prefill on the phone, inside the 2,000 ms budget) and the decision is still the first
/// thing the model commits to, as in a decide-then-fill pair of requests. Titles, labels, items
/// and bodies are the model's words, so they stay sealed; see `SealedOutput`.
public enum Draft: SealedOutput {
    /// A list to tick: a title and 1 to 8 items.
    case checklist(title: SealedText, items: [SealedText])
    /// A timer: a label and 1 to 180 minutes.
    case timer(label: SealedText, minutes: Int)
    /// A note.
    case card(title: SealedText, body: SealedText)
    /// No draft: a question about health, money or anything only the agent knows.
    case none

    /// The kind's tag as the model writes it: "checklist", "timer", "card" or "none".
    public var kind: String {
        switch self {
        case .checklist: "checklist"
        case .timer: "timer"
        case .card: "card"
        case .none: "none"
        }
    }

    /// Every kind's tag, in the schema's order.
    public static let kinds = ["checklist", "timer", "card", "none"]

    /// The schema the model fills: titles and labels at most 40 characters, items 60, a body 200.
    public static let schema = GenerationSchema.union([
        .init("checklist", [.init("title", .string(length: 1...40)),
                            .init("items", .array(of: .string(length: 1...60), count: 1...8))]),
        .init("timer", [.init("label", .string(length: 1...40)), .init("minutes", .integer(1...180))]),
        .init("card", [.init("title", .string(length: 1...40)), .init("body", .string(length: 1...200))]),
        .init("none", []),
    ])

    /// The grammar for `schema`, written once.
    public static let grammar = GrammarWriter.grammar(for: schema)

    /// `schema` as a JSON Schema, for an engine that takes schemas (`JSONSchemaWriter`), written once.
    public static let responseSchema = JSONSchemaWriter.responseSchema("draft", schema)

    /// Why an output was rejected; the raw value is the job's counter.
    public enum Rejection: String, Error, Sendable, CaseIterable {
        /// The output does not fit the schema.
        case schema = "rejected_schema"
        /// A title, label, item or body is only white space.
        case blank = "rejected_blank"
    }

    /// Decodes and checks a model's output: the schema, then no field blank once trimmed.
    /// The strings are kept trimmed.
    public static func check(output: SealedText) -> Result<Draft, Rejection> {
        guard case .variant(let tag, let fields)? = try? ContentDecoder.decode(output, as: schema) else {
            return .failure(.schema)
        }
        func text(_ name: String) -> SealedText? {
            fields[name]?.stringValue.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        switch tag {
        case "checklist":
            let items = fields["items"]?.arrayValue?.map { $0.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines) ?? .empty } ?? []
            guard let title = text("title"), !items.isEmpty, !items.contains(where: \.isEmpty) else { return .failure(.blank) }
            return .success(.checklist(title: title, items: items))
        case "timer":
            guard let label = text("label"), let minutes = fields["minutes"]?.integerValue else { return .failure(.blank) }
            return .success(.timer(label: label, minutes: minutes))
        case "card":
            guard let title = text("title"), let body = text("body") else { return .failure(.blank) }
            return .success(.card(title: title, body: body))
        default:
            return .success(.none)
        }
    }

    /// The words of an output the schema decodes, even when `check` then rejects it (a blank
    /// field): its title, body, items or label, trimmed, blank ones left out; nil when it does
    /// not decode. What the draft job's advice and voice rules read.
    static func decodedTexts(_ output: SealedText) -> [SealedText]? {
        guard case .variant(_, let fields)? = try? ContentDecoder.decode(output, as: schema) else { return nil }
        var texts: [SealedText] = []
        for name in ["title", "label", "body"] {
            if let text = fields[name]?.stringValue { texts.append(text) }
        }
        texts += fields["items"]?.arrayValue?.compactMap(\.stringValue) ?? []
        return texts.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }

    /// The kind an output the schema decodes is, even when `check` then rejects it (a blank
    /// field); nil when it does not decode. What the draft job's never rule reads.
    static func decodedKind(_ output: SealedText) -> String? {
        guard case .variant(let tag, _)? = try? ContentDecoder.decode(output, as: schema) else { return nil }
        return tag
    }
}
