import Privacy

/// Counts and cuts text in a model's own tokens.
///
/// Separate from `LanguageModel` because sizing a corpus (`--dry-run`) needs the tokenizer and
/// nothing else: it loads the vocabulary only, which takes milliseconds instead of the weights.
public protocol Tokenizer: AnyObject, Sendable {
    /// The number of tokens `text` takes as plain words (special-token syntax is not parsed).
    func tokenCount(of text: SealedText) -> Int

    /// `tokenCount(of:)` of `parts` joined by `separator`, reusing `knownCounts[i]` (part i's own
    /// `tokenCount`, or nil) where the tokenizer can prove the sum exact: lines counted once for
    /// many prompts (routing's members) are not tokenized again in each.
    func tokenCount(joining parts: [SealedText], separator: String, knownCounts: [Int?]) -> Int

    /// The last `maxTokens` tokens of `text` as text, and whether the whole text had more.
    ///
    /// Cutting from the end keeps what the person saw last, which is what the spec asks for.
    /// The whole text's count is not part of the answer, so a tokenizer may cut a long text
    /// without tokenizing the start it drops.
    func suffix(of text: SealedText, maxTokens: Int) -> TokenCut

    /// Tokens of a whole request as the model would see it: chat template, instructions, prompt.
    func promptTokenCount(for request: GenerationRequest) -> Int

    /// `promptTokenCount(for: request)` of a request whose prompt is `parts` joined by `separator`,
    /// reusing `knownCounts[i]` (part i's own `tokenCount`, or nil) where the tokenizer can prove
    /// the sum exact, so words already counted for a cut are not tokenized again.
    func promptTokenCount(for request: GenerationRequest, promptParts parts: [SealedText], separator: String,
                          knownCounts: [Int?]) -> Int

    /// The tokenizer that counts a place of model version `model` (`meta.model`): itself, unless
    /// it counts each version its own way (`PhoneTokenizers`).
    func tokenizer(forModel model: String) -> any Tokenizer
}

extension Tokenizer {
    public func tokenizer(forModel model: String) -> any Tokenizer { self }

    /// Counts the joined text: exact for any tokenizer, and what one that cannot do better does.
    public func tokenCount(joining parts: [SealedText], separator: String, knownCounts: [Int?]) -> Int {
        tokenCount(of: SealedText.joined(parts, separator: separator))
    }

    /// Counts the whole request again: exact for any tokenizer, and what one that cannot do better does.
    public func promptTokenCount(for request: GenerationRequest, promptParts parts: [SealedText], separator: String,
                                 knownCounts: [Int?]) -> Int {
        promptTokenCount(for: request)
    }
}

/// The result of cutting a text to a token budget.
public struct TokenCut: Sendable {
    /// The kept words.
    public var text: SealedText
    /// Tokens in the kept words.
    public var keptTokens: Int
    /// `tokenCount(of: text)` when known without counting again (nil otherwise): `keptTokens` when
    /// nothing was cut; after a cut the kept text can tokenize differently from the tokens kept
    /// (its first piece may start mid-word), so it is known only if the tokenizer counted it.
    public var textTokens: Int?
    /// Whether anything was dropped: the whole text had more than `keptTokens` tokens.
    public var wasCut: Bool

    public init(text: SealedText, keptTokens: Int, wasCut: Bool, textTokens: Int? = nil) {
        self.text = text
        self.keptTokens = keptTokens
        self.wasCut = wasCut
        self.textTokens = textTokens
    }
}

/// A language model the jobs can ask, in the shape of Apple's `LanguageModel` protocol.
///
/// Every request is a fresh session: instructions plus one prompt, no history, greedy decoding
/// under the request's grammar. Requests are taken in batches so an engine can decode several
/// sequences per step; the answers come back in the same order.
public protocol LanguageModel: Tokenizer {
    /// What the model is, for the report: never anything a request contained.
    var info: ModelInfo { get }

    /// Answers each request; one outcome per request, in order.
    func respond(to requests: [GenerationRequest]) -> [GenerationOutcome]

    /// Answers each request as `respond(to:)` does, unless `stop` is raised before the call has
    /// answered them all: then nil, and every answer of the call is dropped (a call counts whole
    /// or not at all, so what was counted never depends on when the stop came).
    ///
    /// The default asks the whole call unless `stop` is already raised; an engine that can end
    /// a call between its steps (`LlamaEngine`) stops within one step.
    func respond(to requests: [GenerationRequest], unless stop: StopRequest) -> [GenerationOutcome]?
}

extension LanguageModel {
    public func respond(to requests: [GenerationRequest], unless stop: StopRequest) -> [GenerationOutcome]? {
        stop.isRaised ? nil : respond(to: requests)
    }
}

/// One fresh-session request: instructions, a prompt and the shape of the answer.
public struct GenerationRequest: Sendable {
    /// The system turn: what the job is.
    public var instructions: SealedText
    /// The user turn: the words the job gives the model.
    ///
    /// Kept as the parts a job built it from and joined when read: a dry run plans hundreds of
    /// thousands of requests whose prompts only their token counts are taken of (from the
    /// parts), and a model run reads each prompt a few times.
    public var prompt: SealedText {
        get { promptParts.count == 1 ? promptParts[0] : SealedText.joined(promptParts, separator: promptSeparator) }
        set {
            promptParts = [newValue]
            promptSeparator = ""
        }
    }
    private var promptParts: [SealedText]
    private var promptSeparator: String
    /// A GBNF grammar the output must match, or nil for free text. Grammars hold structure and
    /// fixed labels only (member names at most), never a thread's words.
    public var grammar: String?
    /// The same shape as `grammar`, as a JSON Schema, for an engine that takes schemas instead of
    /// grammars (`EndpointModel`); nil for free text. Set by the job with its grammar.
    public var responseSchema: ResponseSchema? = nil
    /// The most tokens the model may write; reaching it means the output is incomplete.
    public var maxOutputTokens: Int
    /// The session's token ceiling (prompt plus output), like the phone's 4,096.
    public var contextLimit: Int
    /// Every output the answer may be, complete (`{"to":"Coach"}`, one per choice), for a job
    /// whose answer is one choice among a few (routing); nil for the others. An engine that can
    /// score (`LlamaEngine`) scores each as a sequence of the model's own tokens after the prompt,
    /// answers the most likely and reports its share of the choices' probability
    /// (`GenerationOutcome.choiceProbability`); one that cannot generates under `grammar`, which
    /// must allow exactly these (and `responseSchema` too). Structure and fixed labels only (member names), as grammars.
    public var choices: [SealedText]?

    public init(instructions: SealedText, prompt: SealedText, grammar: String?, maxOutputTokens: Int, contextLimit: Int = 4096,
                choices: [SealedText]? = nil) {
        self.choices = choices
        self.instructions = instructions
        self.promptParts = [prompt]
        self.promptSeparator = ""
        self.grammar = grammar
        self.maxOutputTokens = maxOutputTokens
        self.contextLimit = contextLimit
    }

    /// A request whose prompt is `parts` joined by `separator`, joined only when it is read.
    public init(instructions: SealedText, promptParts parts: [SealedText], separator: String, grammar: String?,
                maxOutputTokens: Int, contextLimit: Int = 4096, choices: [SealedText]? = nil) {
        self.init(instructions: instructions, prompt: .empty, grammar: grammar, maxOutputTokens: maxOutputTokens,
                  contextLimit: contextLimit, choices: choices)
        promptParts = parts
        promptSeparator = separator
    }
}

/// What became of one request: the output or why there is none, with its sizes and timing.
public struct GenerationOutcome: Sendable {
    /// Why a request produced no usable output.
    public enum Failure: Error, Sendable, Equatable {
        /// The prompt and the output allowance do not fit the session's ceiling.
        case contextExceeded(promptTokens: Int, limit: Int)
        /// The model reached `maxOutputTokens` before it finished.
        case outputTruncated
        /// The grammar allowed no token at all: the model cannot continue in shape.
        case grammarDeadEnd
        /// The engine failed to evaluate the batch (llama_decode's status).
        case decodeFailed(status: Int32)
        /// The model declined to answer (Apple's `LanguageModelError.refusal`).
        case refused
        /// The framework's guardrails stopped the request or the answer
        /// (`LanguageModelError.guardrailViolation`).
        case guardrailViolation
        /// Too many requests: the framework refused this one for now
        /// (`LanguageModelSession.GenerationError.rateLimited`).
        case rateLimited
    }

    /// The words written, or the failure.
    public var output: Result<SealedText, Failure>
    /// Tokens in the formatted prompt (template and instructions included).
    public var promptTokens: Int
    /// Tokens the model wrote.
    public var outputTokens: Int
    /// Host compute time attributed to this request, in milliseconds: its share of every batch
    /// evaluation it took part in (by tokens) plus its own sampling time. With batching this
    /// approximates the cost of running it alone, not the wall time of the batch.
    public var hostMilliseconds: Double
    /// For a request with `choices`, scored: the answer's probability among the choices, 0 to 1,
    /// each choice's probability being that of its whole token sequence after the prompt (the
    /// product of its tokens' probabilities), normalised over the choices. A confidence in the
    /// chosen answer as a whole, however many tokens it takes. 1 when nothing was scored.
    public var choiceProbability: Double
    /// Wall-clock time from the start of the call that carried the request to its first output
    /// token, in milliseconds: the wait a person would see (time queued behind the call's other
    /// requests included). A scored request, which writes no token, has its answer's time. Nil
    /// from a model that does not clock it (a scripted one, a server's).
    public var firstTokenMilliseconds: Double?
    /// Wall-clock time from the start of the call to the request's answer, in milliseconds; nil
    /// likewise.
    public var answerMilliseconds: Double?

    public init(output: Result<SealedText, Failure>, promptTokens: Int, outputTokens: Int,
                hostMilliseconds: Double, choiceProbability: Double = 1, firstTokenMilliseconds: Double? = nil,
                answerMilliseconds: Double? = nil) {
        self.output = output
        self.promptTokens = promptTokens
        self.outputTokens = outputTokens
        self.hostMilliseconds = hostMilliseconds
        self.choiceProbability = choiceProbability
        self.firstTokenMilliseconds = firstTokenMilliseconds
        self.answerMilliseconds = answerMilliseconds
    }
}

/// What a model is, for reports: its description, size and where it came from.
public struct ModelInfo: Sendable, Equatable {
    /// The model's own name from its metadata (for example "SmolLM2 135M Instruct").
    public var name: String
    /// llama.cpp's one-line description: architecture, size and quantisation.
    public var description: String
    /// The file the weights came from, as given (a path, or "scripted" in tests).
    public var path: String
    /// Parameters in the model.
    public var parameters: UInt64
    /// Tokens each sequence may hold in this engine.
    public var contextPerSequence: Int
    /// Sequences decoded together per step.
    public var batchSize: Int

    public init(name: String, description: String, path: String, parameters: UInt64, contextPerSequence: Int, batchSize: Int) {
        self.name = name
        self.description = description
        self.path = path
        self.parameters = parameters
        self.contextPerSequence = contextPerSequence
        self.batchSize = batchSize
    }
}
