import Endpoint

/// The one network connection the audit accepts: `replay suite run --endpoint URL`'s, to a Chat
/// Completions server on this machine's loopback (docs/suite.md, "The phone's own model").
///
/// Accepted only as the command makes it, and only when the command is that one: `replay suite
/// run` given `--endpoint` with a loopback URL (`EndpointURL`). In the trace, the process must
/// open one IPv4 or IPv6 socket and connect it to exactly the URL's address and port, both
/// before the same process confines itself (`landlock_restrict_self`); after that, sends on a
/// connected socket whose peer is that address and port (strace's `TCP:[a->127.0.0.1:PORT]`) are
/// the requests. Every other socket, connect or send, a second socket or connect to the same
/// place, one made after confinement, or any of them from a command that is not `replay suite
/// run --endpoint`, is judged as before: `network-egress`.
struct EndpointConnection: Sendable, Equatable {
    /// The host as strace decodes it: `127.0.0.1`, or `[::1]`.
    let host: String
    let port: String

    /// What of a trace the connection is: the entries of its socket and its connect.
    struct Accepted: Sendable, Equatable {
        let socket: Int
        let connect: Int
    }

    /// The endpoint `command` connects to when it is `replay suite run … --endpoint URL …` with a
    /// loopback URL; nil for any other command.
    static func of(_ command: [String]) -> EndpointConnection? {
        guard let program = command.first, program.split(separator: "/").last == "replay",
              command.count > 3, command[1] == "suite", command[2] == "run" else { return nil }
        var rest = command.dropFirst(3)
        var found: String? = nil
        while let argument = rest.popFirst(), argument != "--" {
            if argument == "--endpoint" {
                guard found == nil, let value = rest.popFirst() else { return nil }
                found = value
            }
        }
        guard let found, let url = try? EndpointURL(found) else { return nil }
        return EndpointConnection(host: url.family == .ipv4 ? "127.0.0.1" : "[::1]", port: String(url.port))
    }

    /// The socket and connect of this connection in `log`: the first IPv4 or IPv6 socket and the
    /// first connect to this address, both succeeded, made by one process before it confined
    /// itself, with no other such socket before the connect; nil when the trace shows otherwise
    /// (then nothing is accepted).
    func accepted(in log: StraceLog) -> Accepted? {
        var socket: (index: Int, pid: Int)? = nil
        var connect: (index: Int, pid: Int)? = nil
        for (index, entry) in log.entries.enumerated() {
            switch entry.event {
            case let .socket(family, outcome) where family == "AF_INET" || family == "AF_INET6":
                guard outcome.succeeded else { continue }
                guard socket == nil else { return nil }   // a second before confinement: neither is the endpoint's
                socket = (index, entry.pid)
            case let .send("connect", _, address, outcome) where address == .inet(host: host, port: port):
                guard outcome.succeeded, connect == nil, let made = socket, made.pid == entry.pid else { return nil }
                connect = (index, entry.pid)
            case let .confined(outcome):
                guard outcome.succeeded else { continue }
                guard let socket, let connect, connect.pid == entry.pid else { return nil }
                return Accepted(socket: socket.index, connect: connect.index)
            default:
                continue
            }
        }
        return nil
    }

    /// Whether a connected socket's annotation (`TCP:[127.0.0.1:40000->127.0.0.1:1976]`) is a TCP
    /// connection to this endpoint.
    func isPeer(of annotation: String) -> Bool {
        (annotation.hasPrefix("TCP:[") || annotation.hasPrefix("TCPv6:[")) && annotation.hasSuffix("->" + host + ":" + port + "]")
    }
}
