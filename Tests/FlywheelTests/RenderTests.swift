import Foundation
import Spawn
import Testing
import TestSupport
@testable import Flywheel

/// Loads dashboard.html in headless Chromium and checks it rendered, offline.
///
/// Needs Debian's `chromium` (and `strace` for the network check); without chromium the test is
/// reported as disabled with the reason. Set FLYWHEEL_RENDER_DIR to keep the screenshots.
@Suite(.tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct RenderTests {
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
    static let strace = ["/usr/bin/strace", "/bin/strace"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(.enabled(if: chromium != nil, "chromium is not installed (Debian package 'chromium'); the render check needs it"),
          .timeLimit(.minutes(3)))
    func dashboardRendersOfflineAndIsNotBlank() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let counter = try HandCorpus.count(SyntheticCorpus.jsonl(), in: directory)
        let out = directory.path + "/out"
        try FlywheelFiles.write(counter, replayed: OutputTests.replayed, to: out)
        let blank = try directory.write("blank.html", text: "<!DOCTYPE html><html><head><meta name=\"color-scheme\" content=\"light dark\"></head><body></body></html>")

        let dashboard = try Self.render(out + "/dashboard.html", in: directory, name: "dashboard")
        let empty = try Self.render(blank, in: directory, name: "blank")
        let dark = try Self.render(out + "/dashboard.html", in: directory, name: "dashboard-dark", dark: true)
        let (dashboardPNG, blankPNG, darkPNG) = (dashboard.png, empty.png, dark.png)

        for png in [dashboardPNG, blankPNG, darkPNG] {
            let size = try #require(Self.pngSize(png))
            #expect(size.width == 1200 && size.height == 2000)
        }
        // A solid page compresses to almost nothing; charts, text and tables do not.
        #expect(dashboardPNG.count > 8 * blankPNG.count, "dashboard \(dashboardPNG.count) bytes vs blank \(blankPNG.count)")
        #expect(darkPNG.count > 8 * blankPNG.count)
        #expect(dashboardPNG != darkPNG, "prefers-color-scheme: dark changed nothing")
        // No network request from the page: Chromium itself asks for updates, the time and
        // accounts even for an empty page (all fail: DNS is mapped to NOTFOUND), so the page's
        // requests are whatever loading the dashboard adds to what loading the blank page does.
        for run in [dashboard, dark] {
            let added = run.requestedHosts.subtracting(empty.requestedHosts)
            #expect(added.isEmpty, "the page requested \(added.sorted())")
            #expect(run.fileURLs.allSatisfy { $0.hasSuffix("/dashboard.html") }, "the page loaded \(run.fileURLs)")
            if let connects = run.connects, let baseline = empty.connects {
                let added = Set(connects.filter { $0.contains("AF_INET") }).subtracting(baseline)
                #expect(added.isEmpty, "the page opened network sockets: \(added.sorted())")
            }
        }
        if let keep = ProcessInfo.processInfo.environment["FLYWHEEL_RENDER_DIR"] {
            try FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
            for (name, data) in [("dashboard.png", dashboardPNG), ("dashboard-dark.png", darkPNG), ("blank.png", blankPNG)] {
                try data.write(to: URL(fileURLWithPath: keep + "/" + name))
            }
            try Data(Dashboard.render(counter, replayed: OutputTests.replayed).utf8).write(to: URL(fileURLWithPath: keep + "/dashboard.html"))
        }
    }

    /// What one Chromium run gave: the screenshot, the hosts of every URL request in its NetLog,
    /// the file: URLs it loaded, and (with strace) the destinations of its network `connect`s.
    struct Run {
        let png: Data
        let requestedHosts: Set<String>
        let fileURLs: Set<String>
        let connects: Set<String>?
    }

    /// Screenshots `page` at 1200×2000 with DNS mapped to nothing, logging the network.
    static func render(_ page: String, in directory: TemporaryDirectory, name: String, dark: Bool = false) throws -> Run {
        let png = directory.path + "/\(name).png", trace = directory.path + "/\(name).strace"
        let netlog = directory.path + "/\(name).netlog.json"
        var arguments = ["--headless", "--disable-gpu", "--no-sandbox", "--no-first-run",
                         "--disable-background-networking", "--disable-component-update", "--disable-sync",
                         "--disable-default-apps", "--hide-scrollbars", "--host-resolver-rules=MAP * ~NOTFOUND",
                         "--log-net-log=" + netlog, "--user-data-dir=" + directory.path + "/profile-" + name,
                         "--screenshot=" + png, "--window-size=1200,2000"]
        if dark { arguments += ["--force-dark-mode", "--blink-settings=preferredColorScheme=0"] }
        arguments.append(URL(fileURLWithPath: page).absoluteString)
        let command = strace.map { [$0, "-f", "-qq", "-e", "trace=connect", "-o", trace, chromium!] } ?? [chromium!]
        let browser = try ChildProcess(command[0], Array(command.dropFirst()) + arguments)
        if browser.wait(timeout: 90).timedOut { Issue.record("chromium did not finish within 90 s") }
        let data = try Data(contentsOf: URL(fileURLWithPath: png))
        // "connect(fd, {sa_family=AF_INET, …}, 16) = 0" minus the pid and fd, so runs compare.
        let connects = strace == nil ? nil : Set((try String(contentsOfFile: trace, encoding: .utf8))
            .split(separator: "\n").filter { $0.contains("connect(") && $0.contains("AF_INET") }
            .map { line in line.split(separator: "{", maxSplits: 1).last.map { String($0.prefix { $0 != "}" }) } ?? String(line) })
        let log = (try? String(contentsOfFile: netlog, encoding: .utf8)) ?? ""
        var hosts = Set<String>(), files = Set<String>()
        for match in log.matches(of: /"url":"([a-z]+):\/\/([^\/"?]*)([^"]*)"/) {
            if match.1 == "file" { files.insert("file://" + match.2 + match.3) } else { hosts.insert(String(match.1) + "://" + match.2) }
        }
        return Run(png: data, requestedHosts: hosts, fileURLs: files, connects: connects)
    }

    /// Width and height from a PNG's IHDR chunk, or `nil` if it is not a PNG.
    static func pngSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
              bytes[12..<16] == [0x49, 0x48, 0x44, 0x52] else { return nil }
        func be32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (be32(16), be32(20))
    }
}
