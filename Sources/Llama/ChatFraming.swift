internal import CLlama
import Privacy
import Foundation

/// The model's chat template split around its two turns, so words are never parsed as control tokens.
///
/// The template is applied once to two sentinels; the text around them is the framing. A
/// request's tokens are the framing's (parsed for special tokens such as `<|im_start|>`) and
/// the words' (not parsed), so a screen that contains `<|im_end|>` cannot open a new turn.
struct ChatFraming {
    /// Before the instructions, between instructions and prompt, and after the prompt.
    let parts: [String]

    private static let systemSentinel = "\u{1}SYSTEM\u{1}"
    private static let userSentinel = "\u{1}USER\u{1}"

    init(template: String, modelPath: String) throws(LlamaError) {
        let messages: [(String, String)] = [("system", Self.systemSentinel), ("user", Self.userSentinel)]
        let formatted = Self.apply(template: template, messages: messages)
        guard let formatted,
              let system = formatted.range(of: Self.systemSentinel),
              let user = formatted.range(of: Self.userSentinel, range: system.upperBound..<formatted.endIndex)
        else { throw .modelHasNoChatTemplate(path: modelPath) }
        parts = [
            String(formatted[..<system.lowerBound]),
            String(formatted[system.upperBound..<user.lowerBound]),
            String(formatted[user.upperBound...]),
        ]
    }

    private static func apply(template: String, messages: [(String, String)]) -> String? {
        let roles = messages.map { strdup($0.0)! }
        let contents = messages.map { strdup($0.1)! }
        defer { (roles + contents).forEach { free($0) } }
        let chat = zip(roles, contents).map { llama_chat_message(role: $0, content: $1) }
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = llama_chat_apply_template(template, chat, chat.count, true, &buffer, Int32(buffer.count))
        guard length > 0, Int(length) <= buffer.count else { return nil }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func tokens(instructions: SealedText, prompt: SealedText, model: LlamaModel) -> [Int32] {
        tokensAndInstructionPrefix(instructions: instructions, prompt: prompt, model: model).tokens
    }

    /// The request's tokens, and how many of them come before the prompt's words: the framing
    /// and the instructions, the same for every request of a job in a language.
    func tokensAndInstructionPrefix(instructions: SealedText, prompt: SealedText, model: LlamaModel) -> (tokens: [Int32], prefix: Int) {
        let framing = model.framingTokens
        var tokens = framing[0]
        tokens += model.instructionTokens(instructions)
        tokens += framing[1]
        let prefix = tokens.count
        tokens += prompt.withUnsealedText { model.tokenize($0) }
        tokens += framing[2]
        return (tokens, prefix)
    }
}
