import Engine
import Foundation
import Privacy
import Synchronization

/// A `LanguageModel` answered by a Chat Completions server on this machine, such as macOS 27's
/// `fm serve`, which serves the phone's own on-device model (`replay suite run --endpoint URL`).
///
/// Each request is one HTTP exchange on the one keep-alive connection
/// (`LoopbackConnection`, connected before confinement), asked as the phone's model is asked
/// (`ChatCompletionsRequest`), one at a time, in order; the server's answer becomes the output or
/// a named failure (`ChatCompletionsAnswer`). Sizes are counted in the phone's tokens
/// (`PhoneTokenizer(.builtIn)`), as every size is, since the server's tokenizer cannot be asked
/// in-process. A response that never comes, or a connection the server closed, fails that request
/// and every later one with `decodeFailed(status: -2)`: a confined process cannot connect again.
///
/// Only for a suite's own words: `--endpoint` is an option of `replay suite run` alone, so no
/// corpus word is ever sent, even to this machine.
public final class EndpointModel: LanguageModel {
    public let url: EndpointURL
    /// The `model` each request names (`--endpoint-model`); nil names none.
    public let modelName: String?
    /// How each request spells its schema (`--response-format`).
    public let format: ResponseFormat
    /// How long to wait for each piece of a response, in milliseconds.
    public let timeoutMilliseconds: Int32
    private let connection: LoopbackConnection
    /// Whether the connection can still carry a request.
    private let usable = Mutex(true)
    private let tokens = PhoneTokenizer(.builtIn)
    /// How the requests ended so far: answered, or each failure with its HTTP status.
    private let tally = Mutex<[String: Int]>([:])

    /// How long a response may take by default: a small on-device model answers a suite's
    /// request in seconds; a stalled server is given up on after this.
    public static let defaultTimeoutMilliseconds: Int32 = 120_000

    /// A model over `connection`, already connected to `url`.
    public init(url: EndpointURL, connection: LoopbackConnection, modelName: String? = nil, format: ResponseFormat = .jsonSchema,
                timeoutMilliseconds: Int32 = EndpointModel.defaultTimeoutMilliseconds) {
        self.url = url
        self.connection = connection
        self.modelName = modelName
        self.format = format
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    /// Connects to `url` (before confinement: see `LoopbackConnection`).
    public static func connect(_ url: EndpointURL, modelName: String? = nil, format: ResponseFormat = .jsonSchema,
                               timeoutMilliseconds: Int32 = EndpointModel.defaultTimeoutMilliseconds) throws(EndpointError) -> EndpointModel {
        EndpointModel(url: url, connection: try LoopbackConnection.connect(to: url), modelName: modelName, format: format,
                      timeoutMilliseconds: timeoutMilliseconds)
    }

    /// The descriptor of the connection, which the sandbox must keep open.
    public var descriptor: Int32 { connection.descriptor }

    /// For the report: fixed words the audit's shape check takes as a model's (`endpoint`, `HTTP
    /// chat server`) and the URL as its file. Never `modelName`, which is the user's free text,
    /// as a report's labels must not be.
    public var info: ModelInfo {
        ModelInfo(name: "endpoint", description: "HTTP chat server", path: url.given,
                  parameters: 0, contextPerSequence: 4096, batchSize: 1)
    }

    public func respond(to requests: [GenerationRequest]) -> [GenerationOutcome] {
        requests.map(respond)
    }

    /// One request, one exchange.
    private func respond(to request: GenerationRequest) -> GenerationOutcome {
        let clock = ContinuousClock.now
        let promptTokens = tokens.promptTokenCount(for: request)
        func outcome(_ output: Result<SealedText, GenerationOutcome.Failure>) -> GenerationOutcome {
            // A failure wrote nothing shown, but one cut at `max_tokens` wrote the whole allowance.
            let written = (try? output.get()).map(tokens.tokenCount(of:)) ?? (output == .failure(.outputTruncated) ? request.maxOutputTokens : 0)
            tally.withLock { $0[Self.name(of: output), default: 0] += 1 }
            let elapsed = clock.duration(to: .now)
            let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            return GenerationOutcome(output: output, promptTokens: promptTokens, outputTokens: written, hostMilliseconds: milliseconds)
        }
        guard usable.withLock({ $0 }) else { return outcome(.failure(.decodeFailed(status: ChatCompletionsAnswer.noResponseStatus))) }
        guard connection.send(ChatCompletionsRequest.bytes(for: request, url: url, model: modelName, format: format)) else {
            lose()
            return outcome(.failure(.decodeFailed(status: ChatCompletionsAnswer.noResponseStatus)))
        }
        let response: HTTPResponse
        do {
            response = try HTTPResponse.read(from: connection, timeoutMilliseconds: timeoutMilliseconds)
        } catch {
            lose()
            return outcome(.failure(.decodeFailed(status: ChatCompletionsAnswer.noResponseStatus)))
        }
        if response.closes { lose() }
        return outcome(ChatCompletionsAnswer.output(of: response, for: request, promptTokens: promptTokens))
    }

    /// One line of how the requests ended: counts, failures' names and HTTP statuses, never a
    /// word of a request or an answer (`replay suite: the endpoint answered 3 of 4 requests; …`).
    /// Says at a glance why every case failed when the server refuses the requests' form.
    public var summary: String {
        let counts = tally.withLock { $0 }
        let total = counts.values.reduce(0, +)
        let failures = counts.filter { $0.key != "answered" }.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
        var line = "the endpoint answered \(counts["answered"] ?? 0) of \(total) request\(total == 1 ? "" : "s")"
        if !failures.isEmpty { line += "; " + failures.map { "\($0.value) \($0.key)" }.joined(separator: ", ") }
        return line
    }

    /// The name an outcome is tallied under.
    private static func name(of output: Result<SealedText, GenerationOutcome.Failure>) -> String {
        switch output {
        case .success: "answered"
        case .failure(.refused): "refused"
        case .failure(.outputTruncated): "cut at max_tokens"
        case .failure(.guardrailViolation): "stopped by guardrails"
        case .failure(.rateLimited): "rate limited"
        case .failure(.contextExceeded): "over the context window"
        case .failure(.decodeFailed(let status)) where status == ChatCompletionsAnswer.malformedStatus: "not a Chat Completions response"
        case .failure(.decodeFailed(let status)) where status == ChatCompletionsAnswer.noResponseStatus: "without a response"
        case .failure(.decodeFailed(let status)): "failed with HTTP \(status)"
        case .failure(.grammarDeadEnd): "failed"
        }
    }

    /// The connection can carry nothing more: closed, so a late response cannot be read as the next one's.
    private func lose() {
        usable.withLock { $0 = false }
        connection.close()
    }

    // Counted in the phone's tokens.
    public func tokenCount(of text: SealedText) -> Int { tokens.tokenCount(of: text) }
    public func suffix(of text: SealedText, maxTokens: Int) -> TokenCut { tokens.suffix(of: text, maxTokens: maxTokens) }
    public func promptTokenCount(for request: GenerationRequest) -> Int { tokens.promptTokenCount(for: request) }
}
