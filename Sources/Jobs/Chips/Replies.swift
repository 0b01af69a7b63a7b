import Engine
import Foundation
import Privacy

/// Suggested replies: the chips job's output type (spec §2).
///
/// Mirrors `@Generable struct Replies { @Guide(.count(1...3)) var replies: [String] }` with each
/// reply at most 40 characters. The replies are the model's words, so they stay sealed; see
/// `SealedOutput` for why the type cannot be printed either.
public struct Replies: SealedOutput {
    /// One to three replies, trimmed, none blank, no two the same once folded.
    public var replies: [SealedText]

    /// The schema the model fills.
    public static let schema = GenerationSchema.object([
        .init("replies", .array(of: .string(length: 1...40), count: 1...3)),
    ])

    /// The grammar for `schema`, written once.
    public static let grammar = GrammarWriter.grammar(for: schema)

    /// `schema` as a JSON Schema, for an engine that takes schemas (`JSONSchemaWriter`), written once.
    public static let responseSchema = JSONSchemaWriter.responseSchema("replies", schema)

    /// Reads and checks a model's output: decoded by the schema, then trimmed, blank and
    /// repeated replies dropped (folded comparison); nil when no reply is left.
    public init?(output: SealedText) {
        guard let content = try? ContentDecoder.decode(output, as: Self.schema),
              let items = content["replies"]?.arrayValue else { return nil }
        var seen: Set<SealedText> = []
        var kept: [SealedText] = []
        for item in items {
            guard let reply = item.stringValue?.trimmingCharacters(in: .whitespaces), !reply.isEmpty,
                  reply.characterCount <= 40,
                  seen.insert(reply.withUnsealedText { SealedText(ReplySimilarity.fold($0)) }).inserted else { continue }
            kept.append(reply)
        }
        guard !kept.isEmpty else { return nil }
        replies = kept
    }

    /// Every reply of an output the schema decodes, trimmed, blank ones left out and repeats
    /// kept: what the model wrote, for the never rules (`ChipsJob.check`), which judge every
    /// decoded output, kept or not. Empty when the output does not decode.
    static func decodedReplies(_ output: SealedText) -> [SealedText] {
        guard let items = (try? ContentDecoder.decode(output, as: schema))?["replies"]?.arrayValue else { return [] }
        return items.compactMap { item in
            guard let reply = item.stringValue?.trimmingCharacters(in: .whitespaces), !reply.isEmpty else { return nil }
            return reply
        }
    }
}
