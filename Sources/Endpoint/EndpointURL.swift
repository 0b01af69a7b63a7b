/// A Chat Completions server's URL, held to this machine: plain HTTP to a loopback address.
///
/// `http://127.0.0.1:1976` (what `fm serve` listens on), `http://[::1]:8000/v1` and
/// `http://localhost:8000/v1/chat/completions` are all the same kind of place. A URL without a
/// path, or with `/v1`, asks `/v1/chat/completions`. `localhost` is taken as 127.0.0.1 without
/// asking a resolver, whose hosts file could point it anywhere; any other host, a name or an
/// address, is refused (`EndpointError.notLoopback`), and so is `https` (a loopback server needs
/// no TLS, and the process would have no way to check a certificate once confined).
public struct EndpointURL: Sendable, Equatable, CustomStringConvertible {
    /// The address family: IPv4 (127.0.0.1) or IPv6 (::1).
    public enum Family: Sendable, Equatable { case ipv4, ipv6 }

    public let family: Family
    public let port: UInt16
    /// The request target, such as `/v1/chat/completions`.
    public let path: String
    /// The URL as given, for messages.
    public let given: String

    /// The `Host` header's value.
    public var hostHeader: String { (family == .ipv4 ? "127.0.0.1" : "[::1]") + ":\(port)" }

    public var description: String { given }

    /// The chat completions path asked when the URL names none (or only `/v1`).
    public static let defaultPath = "/v1/chat/completions"

    /// Reads `text`, refusing anything but plain HTTP to a loopback address.
    public init(_ text: String) throws(EndpointError) {
        given = text
        let lowered = text.lowercased()
        guard lowered.hasPrefix("http://") else {
            if lowered.hasPrefix("https://") {
                throw .urlNotUnderstood(url: text, problem: "https is not needed on this machine's loopback: use http://")
            }
            throw .urlNotUnderstood(url: text, problem: "it must start with http://")
        }
        let rest = text.dropFirst("http://".count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let tail = rest.dropFirst(authority.count)
        guard !tail.contains("?"), !tail.contains("#") else {
            throw .urlNotUnderstood(url: text, problem: "a query or fragment is not part of a Chat Completions URL")
        }
        guard !authority.contains("@") else { throw .urlNotUnderstood(url: text, problem: "it must not carry a user name or password") }
        var host: Substring
        var portText: Substring? = nil
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .urlNotUnderstood(url: text, problem: "an IPv6 address needs its closing ]") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .urlNotUnderstood(url: text, problem: "only :PORT may follow the address") }
                portText = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        guard !host.isEmpty else { throw .urlNotUnderstood(url: text, problem: "it names no host") }
        switch host.lowercased() {
        case "127.0.0.1", "localhost": family = .ipv4
        case "::1", "0:0:0:0:0:0:0:1": family = .ipv6
        default: throw .notLoopback(url: text)
        }
        if let portText {
            guard let number = UInt16(portText), number > 0 else {
                throw .urlNotUnderstood(url: text, problem: "the port must be a number from 1 to 65535")
            }
            port = number
        } else {
            port = 80
        }
        let given = String(tail)
        switch given {
        case "", "/", "/v1", "/v1/": path = Self.defaultPath
        default:
            guard given.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
                throw .urlNotUnderstood(url: text, problem: "the path must be plain ASCII without spaces")
            }
            path = given
        }
    }
}
