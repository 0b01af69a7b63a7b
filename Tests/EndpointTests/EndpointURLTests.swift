@testable import Endpoint
import Testing

/// `--endpoint URL`: plain HTTP to this machine's loopback, and nothing else.
@Suite struct EndpointURLTests {
    @Test func loopbackURLsAreTakenWithTheChatCompletionsPath() throws {
        let fm = try EndpointURL("http://127.0.0.1:1976")
        #expect(fm.family == .ipv4 && fm.port == 1976 && fm.path == "/v1/chat/completions")
        #expect(fm.hostHeader == "127.0.0.1:1976")
        #expect(try EndpointURL("http://localhost:8000/v1").path == "/v1/chat/completions")
        #expect(try EndpointURL("HTTP://LOCALHOST:8000/").family == .ipv4)
        let six = try EndpointURL("http://[::1]:8080/v1/chat/completions")
        #expect(six.family == .ipv6 && six.port == 8080 && six.hostHeader == "[::1]:8080")
        #expect(try EndpointURL("http://127.0.0.1:9/other/path").path == "/other/path")
        #expect(try EndpointURL("http://127.0.0.1").port == 80)
    }

    @Test func anyOtherHostIsRefusedNamingTheURL() {
        for url in ["http://10.0.0.2:1976", "http://example.com/v1", "http://192.168.1.5:1976", "http://0.0.0.0:1976",
                    "http://127.0.0.1.example.com:1976", "http://[::2]:1976", "http://[fe80::1]:1976"] {
            #expect(throws: EndpointError.notLoopback(url: url)) { try EndpointURL(url) }
            let text = EndpointError.notLoopback(url: url).description
            #expect(text.hasPrefix("--endpoint \(url): the server must be on this machine"))
        }
    }

    @Test func whatIsNotAPlainHTTPURLIsRefused() {
        for url in ["https://127.0.0.1:1976", "127.0.0.1:1976", "ftp://127.0.0.1", "http://127.0.0.1:0", "http://127.0.0.1:99999",
                    "http://user@127.0.0.1:1976", "http://127.0.0.1:1976/v1?x=1", "http://:1976", "http://[::1:1976"] {
            do throws(EndpointError) {
                _ = try EndpointURL(url)
                Issue.record("\(url) was taken")
            } catch {
                guard case .urlNotUnderstood(let given, _) = error else { Issue.record("\(url): \(error)"); continue }
                #expect(given == url)
            }
        }
    }
}
