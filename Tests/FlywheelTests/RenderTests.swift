import Foundation
import Spawn
import Testing
import TestSupport
@testable import Flywheel

/// Loads dashboard.html in headless Chromium and checks it rendered, offline, and that the spec's
/// contract checks show in it.
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

    /// The contract checks as Chromium shows them. The DOM it builds from the whole page holds
    /// the verdict and, inside the contract section, the three tables with every check's numbers
    /// under every build and model version, 0 included (read back from the cells). The section
    /// alone, drawn with the page's own style, is not blank, in light and dark, and a corpus that
    /// breaks the spec does not look like one that keeps it.
    @Test(.enabled(if: chromium != nil, "chromium is not installed (Debian package 'chromium'); the render check needs it"),
          .timeLimit(.minutes(3)))
    func contractChecksShowInTheBrowser() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let broken = try HandCorpus.count(HandCorpus.jsonl(ContractCheckTests.byBuild), in: directory, name: "broken.jsonl")
        let kept = try HandCorpus.count(HandCorpus.jsonl(), in: directory, name: "kept.jsonl")
        let brokenPage = Dashboard.render(broken), keptPage = Dashboard.render(kept)

        let dom = try Self.dumpDOM(try directory.write("broken.html", text: brokenPage), in: directory)
        #expect(dom.contains(#"<p class="verdict alarm" id="contract-verdict"><strong>Spec contract: 5 places where"#))
        let section = try #require(Self.slice(dom, from: #"<section id="contract">"#, to: "</section>"), "no contract section in the DOM")
        let overall = Self.rows(try #require(Self.slice(section, from: #"id="contract-overall""#, to: "</table>")))
        #expect(overall.count == Feature.contract.metrics.count)
        for check in Feature.contract.metrics {
            let cell = broken.cell(check)
            #expect(overall[check.label].map { Array($0.prefix(3)) } == [check.specSection ?? "", "\(cell.numerator)", "\(cell.denominator)"],
                    "\(check.name)")
        }
        for (id, dimension) in [("contract-build", MetricDimension.build), ("contract-model", .model)] {
            let rows = Self.rows(try #require(Self.slice(section, from: #"id="\#(id)""#, to: "</table>"), "no table \(id) in the section"))
            #expect(Set(rows.keys) == Set(broken.keys(dimension)))
            for key in broken.keys(dimension) {
                let expected = Feature.contract.metrics.map { broken.cell($0, dimension, key) }.map { "\($0.numerator) of \($0.denominator)" }
                #expect(rows[key] == expected, "\(id) \(key)")
            }
        }

        let blank = try directory.write("blank.html", text: "<!DOCTYPE html><html><head><meta name=\"color-scheme\" content=\"light dark\"></head><body></body></html>")
        let brokenSection = try directory.write("broken-section.html", text: try #require(Self.sectionAlone(brokenPage, id: "contract")))
        let keptSection = try directory.write("kept-section.html", text: try #require(Self.sectionAlone(keptPage, id: "contract")))
        let empty = try Self.render(blank, in: directory, name: "contract-blank", traced: false).png
        let brokenPNG = try Self.render(brokenSection, in: directory, name: "broken-section", traced: false).png
        let brokenDarkPNG = try Self.render(brokenSection, in: directory, name: "broken-section-dark", dark: true, traced: false).png
        let keptPNG = try Self.render(keptSection, in: directory, name: "kept-section", traced: false).png
        for png in [brokenPNG, brokenDarkPNG, keptPNG] {
            #expect(png.count > 8 * empty.count, "a section of \(png.count) bytes vs blank \(empty.count)")
        }
        #expect(brokenPNG != keptPNG && brokenPNG != brokenDarkPNG)
        if let keep = ProcessInfo.processInfo.environment["FLYWHEEL_RENDER_DIR"] {
            try FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
            for (name, data) in [("contract-broken.png", brokenPNG), ("contract-broken-dark.png", brokenDarkPNG), ("contract-kept.png", keptPNG)] {
                try data.write(to: URL(fileURLWithPath: keep + "/" + name))
            }
        }
    }

    /// The DOM Chromium builds from `page`, serialized (`--dump-dom`); the page has no script,
    /// so it is the parse of its HTML as a browser makes it.
    static func dumpDOM(_ page: String, in directory: TemporaryDirectory) throws -> String {
        let result = try ChildProcess.run(chromium!, ["--headless", "--disable-gpu", "--no-sandbox", "--no-first-run",
                                                      "--disable-background-networking", "--disable-component-update", "--disable-sync",
                                                      "--host-resolver-rules=MAP * ~NOTFOUND", "--user-data-dir=" + directory.path + "/profile-dom",
                                                      "--dump-dom", URL(fileURLWithPath: page).absoluteString],
                                          errors: .null, timeout: 90)
        #expect(result.succeeded, "chromium --dump-dom ended with \(result.status)")
        return String(decoding: result.standardOutput, as: UTF8.self)
    }

    /// The text of `text` from the first `start` to the first `end` after it, both included.
    static func slice(_ text: String, from start: String, to end: String) -> String? {
        guard let first = text.range(of: start), let last = text.range(of: end, range: first.upperBound..<text.endIndex) else { return nil }
        return String(text[first.lowerBound..<last.upperBound])
    }

    /// The body rows of a table's HTML, by the text of each row's header cell: the texts of its other cells.
    static func rows(_ table: String) -> [String: [String]] {
        var rows: [String: [String]] = [:]
        for row in table.matches(of: /<tr[^>]*><th scope="row">([^<]*)<\/th>(.*?)<\/tr>/) {
            rows[String(row.1)] = row.2.matches(of: /<td[^>]*>([^<]*)<\/td>/).map { String($0.1) }
        }
        return rows
    }

    /// The page with only the section `id` in its body: the same head, style and markup, so the
    /// section is drawn at the top of the window.
    static func sectionAlone(_ page: String, id: String) -> String? {
        guard let body = page.range(of: "<header>"), let section = slice(page, from: #"<section id="\#(id)">"#, to: "</section>") else { return nil }
        return String(page[..<body.lowerBound]) + "<main>\n" + section + "\n</main>\n</body>\n</html>\n"
    }

    /// What one Chromium run gave: the screenshot, the hosts of every URL request in its NetLog,
    /// the file: URLs it loaded, and (with strace) the destinations of its network `connect`s.
    struct Run {
        let png: Data
        let requestedHosts: Set<String>
        let fileURLs: Set<String>
        let connects: Set<String>?
    }

    /// Screenshots `page` at 1200×2000 with DNS mapped to nothing, logging the network (its
    /// `connect`s only when `traced` and strace is there).
    static func render(_ page: String, in directory: TemporaryDirectory, name: String, dark: Bool = false, traced: Bool = true) throws -> Run {
        let png = directory.path + "/\(name).png", trace = directory.path + "/\(name).strace"
        let netlog = directory.path + "/\(name).netlog.json"
        var arguments = ["--headless", "--disable-gpu", "--no-sandbox", "--no-first-run",
                         "--disable-background-networking", "--disable-component-update", "--disable-sync",
                         "--disable-default-apps", "--hide-scrollbars", "--host-resolver-rules=MAP * ~NOTFOUND",
                         "--log-net-log=" + netlog, "--user-data-dir=" + directory.path + "/profile-" + name,
                         "--screenshot=" + png, "--window-size=1200,2000"]
        if dark { arguments += ["--force-dark-mode", "--blink-settings=preferredColorScheme=0"] }
        arguments.append(URL(fileURLWithPath: page).absoluteString)
        let tracer = traced ? strace : nil
        let command = tracer.map { [$0, "-f", "-qq", "-e", "trace=connect", "-o", trace, chromium!] } ?? [chromium!]
        let browser = try ChildProcess(command[0], Array(command.dropFirst()) + arguments)
        if browser.wait(timeout: 90).timedOut { Issue.record("chromium did not finish within 90 s") }
        let data = try Data(contentsOf: URL(fileURLWithPath: png))
        // "connect(fd, {sa_family=AF_INET, …}, 16) = 0" minus the pid and fd, so runs compare.
        let connects = tracer == nil ? nil : Set((try String(contentsOfFile: trace, encoding: .utf8))
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
