/// One HTTP/1.1 response read off a `LoopbackConnection`: its status and body.
///
/// The body comes as the server sends it: `Content-Length` bytes, `Transfer-Encoding: chunked`
/// (chunk extensions and trailers skipped), or, with neither, everything until the server closes.
/// A problem is a `Problem`, which says where it was found (a byte offset into the response) and
/// never what the bytes were.
struct HTTPResponse: Sendable {
    /// The status code (200, 429, …).
    var status: Int
    /// The body, decoded from its transfer coding.
    var body: [UInt8]
    /// Whether the server will close the connection after this response (`Connection: close`,
    /// or a body that ran to the close): no request can follow it.
    var closes: Bool

    /// Why no response could be read.
    enum Problem: Error, Sendable, Equatable {
        /// No byte came for the reader's timeout.
        case timedOut
        /// The server closed the connection before the response ended.
        case closed(offset: Int)
        /// The response is not HTTP/1.x as this reader knows it, at this byte offset.
        case malformed(offset: Int)
        /// The headers or the body are larger than a Chat Completions answer should be.
        case tooLarge(offset: Int)
    }

    /// The largest header block and body read.
    static let maximumHeaderBytes = 64 << 10
    static let maximumBodyBytes = 16 << 20

    /// Reads one response from `connection`, waiting up to `timeoutMilliseconds` for each piece.
    static func read(from connection: LoopbackConnection, timeoutMilliseconds: Int32) throws(Problem) -> HTTPResponse {
        var reader = Reader(connection: connection, timeout: timeoutMilliseconds)
        return try reader.response()
    }

    /// The bytes of one response, pulled from the connection as they are needed.
    private struct Reader {
        let connection: LoopbackConnection
        let timeout: Int32
        var bytes: [UInt8] = []
        var position = 0
        var ended = false

        init(connection: LoopbackConnection, timeout: Int32) {
            self.connection = connection
            self.timeout = timeout
        }

        /// Reads more bytes; false when the server closed the connection.
        mutating func fill() throws(Problem) -> Bool {
            guard !ended else { return false }
            guard let piece = connection.receive(timeoutMilliseconds: timeout) else { throw .timedOut }
            if piece.isEmpty { ended = true; return false }
            bytes += piece
            return true
        }

        /// The next line without its CRLF (or LF).
        mutating func line(limit: Int) throws(Problem) -> [UInt8] {
            while true {
                if let newline = bytes[position...].firstIndex(of: UInt8(ascii: "\n")) {
                    var line = Array(bytes[position..<newline])
                    if line.last == UInt8(ascii: "\r") { line.removeLast() }
                    position = newline + 1
                    return line
                }
                guard bytes.count - position <= limit else { throw .tooLarge(offset: position) }
                guard try fill() else { throw .closed(offset: bytes.count) }
            }
        }

        /// Exactly `count` more bytes.
        mutating func take(_ count: Int) throws(Problem) -> ArraySlice<UInt8> {
            while bytes.count - position < count {
                guard try fill() else { throw .closed(offset: bytes.count) }
            }
            defer { position += count }
            return bytes[position..<position + count]
        }

        mutating func response() throws(Problem) -> HTTPResponse {
            var status: Int
            var headers: [(String, String)]
            // A 1xx interim response (100 Continue) is followed by the real one.
            repeat {
                let statusLine = try line(limit: maximumHeaderBytes)
                let parts = statusLine.split(separator: UInt8(ascii: " "), maxSplits: 2)
                guard parts.count >= 2, parts[0].starts(with: Array("HTTP/1.".utf8)),
                      parts[1].count == 3, let code = Int(String(decoding: parts[1], as: UTF8.self)) else {
                    throw .malformed(offset: 0)
                }
                status = code
                headers = []
                let headerStart = position
                while true {
                    let offset = position
                    let header = try line(limit: maximumHeaderBytes)
                    if header.isEmpty { break }
                    guard position - headerStart <= maximumHeaderBytes else { throw .tooLarge(offset: offset) }
                    guard let colon = header.firstIndex(of: UInt8(ascii: ":")) else { throw .malformed(offset: offset) }
                    let name = String(decoding: header[..<colon], as: UTF8.self).lowercased()
                    let value = String(decoding: header[(colon + 1)...], as: UTF8.self).trimmingSpaces
                    headers.append((name, value))
                }
            } while (100..<200).contains(status)
            func header(_ name: String) -> String? { headers.last { $0.0 == name }?.1 }
            var closes = header("connection")?.lowercased().contains("close") == true
            var body: [UInt8] = []
            if status == 204 || status == 304 {
                // No body.
            } else if header("transfer-encoding")?.lowercased().contains("chunked") == true {
                while true {
                    let offset = position
                    let sizeLine = try line(limit: 1024)
                    let digits = sizeLine.prefix { $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: " ") }
                    guard !digits.isEmpty, digits.count <= 8, let size = Int(String(decoding: digits, as: UTF8.self), radix: 16) else {
                        throw .malformed(offset: offset)
                    }
                    if size == 0 {
                        // Trailers, up to the empty line.
                        while try !line(limit: maximumHeaderBytes).isEmpty {}
                        break
                    }
                    guard body.count + size <= maximumBodyBytes else { throw .tooLarge(offset: offset) }
                    body += try take(size)
                    let end = position
                    guard try line(limit: 2).isEmpty else { throw .malformed(offset: end) }
                }
            } else if let length = header("content-length") {
                guard let count = Int(length), count >= 0 else { throw .malformed(offset: 0) }
                guard count <= maximumBodyBytes else { throw .tooLarge(offset: position) }
                body = Array(try take(count))
            } else {
                // Until the server closes.
                while try fill() {
                    guard bytes.count - position <= maximumBodyBytes else { throw .tooLarge(offset: bytes.count) }
                }
                body = Array(bytes[position...])
                position = bytes.count
                closes = true
            }
            return HTTPResponse(status: status, body: body, closes: closes)
        }
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
