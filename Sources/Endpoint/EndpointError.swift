/// Why `replay suite run --endpoint URL` cannot use the Chat Completions server it was given.
///
/// Each case reads as a sentence naming the URL. A server's answers to single requests are not
/// errors but outcomes (`GenerationOutcome.Failure`, mapped by `ChatCompletionsAnswer`); and
/// nothing here ever carries a request's or an answer's words: status codes and byte offsets only.
public enum EndpointError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL is not `http://HOST[:PORT][/PATH]`; `problem` says what is wrong with it.
    case urlNotUnderstood(url: String, problem: String)
    /// The URL names a host other than this machine's loopback (127.0.0.1, ::1, localhost).
    case notLoopback(url: String)
    /// Nothing answered at the URL: the reason the connection failed (`connect`'s error).
    case unreachable(url: String, reason: String)

    public var description: String {
        switch self {
        case let .urlNotUnderstood(url, problem):
            "--endpoint \(url): \(problem) (give http://127.0.0.1:PORT, as fm serve prints it)"
        case let .notLoopback(url):
            "--endpoint \(url): the server must be on this machine (127.0.0.1, ::1 or localhost): "
                + "the suite's words are sent only to a loopback address"
        case let .unreachable(url, reason):
            "no Chat Completions server answers at \(url): \(reason) (start it first, for example with fm serve)"
        }
    }
}
