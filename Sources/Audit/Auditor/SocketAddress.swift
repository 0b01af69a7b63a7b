import Confinement
import Privacy

/// A socket address as strace decoded it (`-xx`), read by its family's structure rather than by
/// the look of its text: a named AF_UNIX path that happens to begin with `UNIX` is a path, not the
/// annotation of a connected socket.
public enum SocketAddress: Sendable, Equatable {
    /// No address: the call sent on a connected socket (or one of a socketpair); the text is what
    /// strace's `-yy` says the descriptor is (`UDP:[a->b]`, `UNIX-STREAM:[7->8]`).
    case connected(String)
    /// A named AF_UNIX socket: its path as given (relative paths are the caller's to resolve).
    case unixPath(String)
    /// An abstract AF_UNIX name (`sun_path=@"…"`), without its leading NUL.
    case unixAbstract(String)
    /// An AF_UNIX address with no name (an autobind, or `bind` of a bare family).
    case unixUnnamed
    /// An AF_INET or AF_INET6 address: host (IPv6 in brackets) and port.
    case inet(host: String, port: String?)
    /// An address of another family: strace's decoding of it, never shown, only hashed.
    case other(String)

    /// Decodes the sockaddr in `decoded` (the call's arguments after the descriptor, which hold
    /// `sa_family=…`) by `family`.
    init(family: String, decoded text: String) {
        switch family {
        case "AF_UNIX", "AF_LOCAL", "PF_UNIX", "PF_LOCAL":
            guard let range = text.range(of: "sun_path=") else { self = .unixUnnamed; return }
            var rest = Substring(text[range.upperBound...])
            let abstract = rest.hasPrefix("@")
            if abstract { rest = rest.dropFirst() }
            guard let name = StraceLog.string(String(rest)) else { self = .other(text); return }
            if abstract { self = .unixAbstract(name) } else { self = name.isEmpty ? .unixUnnamed : .unixPath(name) }
        case "AF_INET", "AF_INET6":
            var port: String?
            for key in ["sin_port=htons(", "sin6_port=htons("] {
                if let range = text.range(of: key) { port = String(text[range.upperBound...].prefix { $0.isNumber }) }
            }
            for marker in ["inet_addr(", "inet_pton(AF_INET6, ", "inet_pton(AF_INET, "] {
                guard let range = text.range(of: marker), let host = StraceLog.string(String(text[range.upperBound...])) else { continue }
                self = .inet(host: marker.contains("INET6") ? "[\(host)]" : host, port: port)
                return
            }
            self = .other(text)
        default:
            self = .other(text)
        }
    }

    /// Whether the call named no address of its own (it sent on a connected socket).
    var isConnected: Bool {
        if case .connected = self { return true }
        return false
    }

    /// The text the verdict hashes to tell two addresses apart (never shown as it is).
    var key: String {
        switch self {
        case .connected(let socket): socket
        case .unixPath(let path): path
        case .unixAbstract(let name): "@" + name
        case .unixUnnamed: ""
        case .inet(let host, let port): host + (port.map { ":" + $0 } ?? "")
        case .other(let text): text
        }
    }
}
