import Foundation
import Testing
import Privacy
@testable import Flywheel

@Suite struct OutputTests {
    static let replayed = [
        ReplayedJobSummary(job: .chips, eligible: 3, answered: 2, inBudgetDevice: 0.5),
        ReplayedJobSummary(job: .route, eligible: 4, answered: 4, inBudgetDevice: 1),
        ReplayedJobSummary(job: .push, eligible: 2, answered: 0, inBudgetDevice: nil),
        ReplayedJobSummary(job: .draft, eligible: 2, answered: 1, inBudgetDevice: 0.25),
    ]

    /// Writes the hand-made corpus's three files into `directory` (in a nested directory the
    /// writer has to make) and returns that directory's path.
    static func written(in directory: TemporaryDirectory, replayed: [ReplayedJobSummary]? = OutputTests.replayed) throws -> String {
        let counter = try HandCorpus.count(HandCorpus.jsonl(), in: directory)
        let out = directory.path + "/out/nested"
        let paths = try FlywheelFiles.write(counter, replayed: replayed, to: out)
        #expect(paths.map { ($0 as NSString).lastPathComponent } == ["metrics.csv", "metrics.json", "dashboard.html"])
        return out
    }

    /// The three texts, rendered side by side, are each what rendering that file alone gives, in
    /// `names` order, with and without a replay's summaries.
    @Test(arguments: [true, false])
    func contentsAreEachFileRenderedAlone(withReplayed: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let counter = try HandCorpus.count(HandCorpus.jsonl(), in: directory)
        let replayed = withReplayed ? Self.replayed : nil
        let contents = FlywheelFiles.contents(counter, replayed: replayed)
        #expect(contents.map(\.name) == FlywheelFiles.names)
        #expect(contents.map(\.text) == [MetricsCSV.render(counter), MetricsDocument(counter, replayed: replayed).json(),
                                         Dashboard.render(counter, replayed: replayed)])
        #expect(!contents.contains { $0.text.isEmpty })
    }

    @Test func csvHasTheTidyShape() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let out = try Self.written(in: directory)
        let text = try String(contentsOfFile: out + "/metrics.csv", encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "metric,dimension,key,numerator,denominator,rate,low,high")
        #expect(lines.last == "")
        #expect(lines.contains("chips.suggested,all,all,2,3,0.666667,0.207660,0.938508"))
        #expect(lines.contains("chips.suggested,build,\"2.3.0 (512)\",2,3,0.666667,0.207660,0.938508"))
        #expect(lines.contains("chips.suggested,week,2026-W38,0,0,,,"))
        #expect(lines.contains("draft.used,build,\"2.4.0 (530)\",0,1,0.000000,0.000000,0.793451"))
        #expect(lines.contains("draft.ticks_mean,all,all,2,1,2.000000,,"))
        #expect(lines.contains("push.batch.10+,all,all,1,4,0.250000,0.045587,0.699358"))
        // Every data row has 8 fields once quoted fields are read as one.
        for line in lines.dropFirst() where !line.isEmpty {
            #expect(Self.csvFields(line).count == 8, "\(line)")
        }
    }

    @Test(arguments: [
        ("2.3.0 (512)", "\"2.3.0 (512)\""),
        ("en-US", "en-US"),
        ("Rex, \"the\" dog", "\"Rex, \"\"the\"\" dog\""),
        ("=cmd()", "\"'=cmd()\""),
        ("-1", "\"'-1\""),
        ("+1", "\"'+1\""),
        ("@SUM(A1)", "\"'@SUM(A1)\""),
        ("\tx", "\"'\tx\""),
        ("\rx", "\"'\rx\""),
        ("a-1", "a-1"),
        ("#h:3f9a1c2e", "\"#h:3f9a1c2e\""),
        ("line\nbreak", "\"line\nbreak\""),
    ])
    func csvQuoting(_ raw: String, _ field: String) {
        #expect(MetricsCSV.field(raw) == field)
    }

    @Test func jsonHasTheDocumentedShape() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let out = try Self.written(in: directory)
        let data = try Data(contentsOf: URL(fileURLWithPath: out + "/metrics.json"))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(root["schema"] as? String == "replay.flywheel/1")
        #expect(root["interval"] as? String == "wilson")
        #expect(root["smallSampleBelow"] as? Int == 30)
        let totals = try #require(root["totals"] as? [String: Any])
        #expect(totals["threads"] as? Int == 4)
        #expect(totals["messages"] as? Int == 14)
        let metrics = try #require(root["metrics"] as? [[String: Any]])
        #expect(metrics.map { $0["metric"] as? String } == Metric.allCases.map(\.name))
        let chips = try #require(metrics.first)
        #expect(chips["kind"] as? String == "share")
        let cells = try #require(chips["cells"] as? [String: [[String: Any]]])
        #expect(Set(cells.keys) == Set(MetricDimension.allCases.map(\.name)))
        let week38 = try #require(cells["week"]?.first { $0["key"] as? String == "2026-W38" })
        #expect(week38["numerator"] as? Int == 0)
        #expect(week38["denominator"] as? Int == 0)
        #expect(week38["rate"] is NSNull)
        #expect(week38["smallSample"] as? Bool == true)
        let all = try #require(cells["all"]?.first)
        #expect(all["numerator"] as? Int == 2)
        #expect(all["denominator"] as? Int == 3)
        #expect(abs((all["low"] as? Double ?? 0) - 0.207660) < 1e-6)
        let replayed = try #require(root["replayed"] as? [[String: Any]])
        #expect(replayed.count == 4)
        let usage = try #require(replayed[0]["usage"] as? [String: Any])
        #expect(usage["metric"] as? String == "chips.suggested")
        #expect(usage["numerator"] as? Int == 2)
        #expect(replayed[2]["usage"] is NSNull)
        #expect(replayed[2]["inBudgetDevice"] is NSNull)
    }

    @Test func jsonLeavesOutReplayedWhenNotGiven() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let out = try Self.written(in: directory, replayed: nil)
        let data = try Data(contentsOf: URL(fileURLWithPath: out + "/metrics.json"))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(root["replayed"] == nil)
        let html = try String(contentsOfFile: out + "/dashboard.html", encoding: .utf8)
        #expect(!html.contains("id=\"replayed\""))
    }

    @Test func dashboardIsSelfContainedAndAccessible() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let out = try Self.written(in: directory)
        let html = try String(contentsOfFile: out + "/dashboard.html", encoding: .utf8)
        let lower = html.lowercased()
        #expect(lower.hasPrefix("<!doctype html>"))
        #expect(!lower.contains("<script"))
        #expect(!lower.contains("http://") && !lower.contains("https://") && !lower.contains("//www"))
        #expect(!lower.contains("src=") && !lower.contains("<link") && !lower.contains("@import") && !lower.contains("url("))
        #expect(!Self.hasEventHandler(lower))
        // Every href is a fragment in the page.
        for href in Self.attributeValues("href", in: html) { #expect(href.hasPrefix("#"), "\(href)") }
        #expect(html.contains("@media (prefers-color-scheme: dark)"))
        #expect(html.contains("<title>"))
        // Every chart is an SVG with role, label, title and desc.
        let svgs = html.components(separatedBy: "<svg ").dropFirst().map { $0.components(separatedBy: "</svg>")[0] }
        #expect(svgs.count == 4 * 4 + 1 + 1)  // week, build, model, locale per feature; push batches; replayed
        for svg in svgs {
            #expect(svg.contains("role=\"img\""))
            #expect(svg.contains("aria-label=\""))
            #expect(svg.contains("<title id="))
            #expect(svg.contains("<desc id="))
        }
        // A table under each chart with the numbers.
        #expect(html.components(separatedBy: "<figure>").count - 1 == svgs.count)
        #expect(html.components(separatedBy: "<figure>").dropFirst().allSatisfy { $0.contains("<table>") })
        #expect(html.contains("small (n &lt; 30)"))
        #expect(html.contains("Replayed coverage vs real usage"))
        // The week axis has the empty week and the build with one message.
        #expect(html.contains(">2026-W38<"))
        #expect(html.contains("2.4.0 (530)"))
    }

    @Test func noOutputHoldsTheCorpusWords() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let out = try Self.written(in: directory)
        for name in FlywheelFiles.names {
            let text = try String(contentsOfFile: out + "/" + name, encoding: .utf8)
            for (index, word) in HandCorpus.secretWords.enumerated() {
                let leaked = text.localizedCaseInsensitiveContains(word)   // a boolean, so a failure cannot show the word
                #expect(!leaked, "\(name) holds secret word #\(index)")
            }
        }
    }

    @Test func labelsThatAreNotTokensAreHashedInEveryFile() throws {
        let directory = try TemporaryDirectory()
        let agent = #"Rex <b>&\"x\", <script>"#
        let corpus = """
        {"type":"thread","id":"t9","agent":"\(agent)","locale":"en-US"}
        {"type":"message","thread":"t9","id":"a","at":"2026-09-01T00:00:00Z","from":"\(agent)","screen":[{"say":"Why?"}],"push":{"kind":"<img src=x>","batch":1}}
        {"type":"message","thread":"t9","id":"b","at":"2026-09-01T00:01:00Z","from":"person","meta":{"via":"suggested","build":"1,2 <i>"}}

        """
        let counter = try HandCorpus.count(corpus, in: directory)
        #expect(counter.cell(.chipsSuggested).numerator == 1)
        #expect(counter.cell(.pushOther).numerator == 1)
        let agentLabel = ReportLabel(agent: #"Rex <b>&"x", <script>"#), buildLabel = ReportLabel(build: "1,2 <i>")
        #expect(agentLabel.isHashed && buildLabel.isHashed)
        #expect(counter.keys(.agent) == [agentLabel.text])
        #expect(counter.keys(.build) == [buildLabel.text])   // the push counts under the person's next message
        let html = Dashboard.render(counter)
        #expect(!html.contains("<b>") && !html.contains("<script") && !html.contains("<i>") && !html.contains("<img"))
        #expect(!html.contains("Rex") && !html.contains("1,2"))
        #expect(html.contains(">" + buildLabel.text + "<"))
        let json = MetricsDocument(counter).json()
        #expect(json.contains(#""key": "\#(agentLabel.text)""#) && !json.contains("Rex"))
        let csv = MetricsCSV.render(counter)
        #expect(csv.contains(#"chips.suggested,agent,"\#(agentLabel.text)",1,1,"#))
        #expect(csv.contains(#"chips.suggested,build,"\#(buildLabel.text)",1,1,"#))
        #expect(!csv.contains("Rex") && !csv.contains("1,2 "))
    }

    /// Labels can no longer hold markup, but the dashboard still escapes every one it draws.
    @Test func theDashboardEscapesWhatItIsGiven() {
        let categories = [#"<script>x</script>"#, #"a "quoted" & 'single'"#]
        let value = ChartValue(rate: 0.5, low: 0.25, high: 0.75, numerator: 1, denominator: 2, small: true)
        for style in [Chart.Style.bars, .lines] {
            let figure = Chart(id: "c1", title: "<b>title</b>", categoryName: "<i>name</i>", categories: categories,
                               series: [ChartSeries(name: "<u>series</u>", values: [value, value])], style: style).figure()
            #expect(!figure.contains("<script") && !figure.contains("<b>") && !figure.contains("<i>") && !figure.contains("<u>"))
            #expect(figure.contains("&lt;script&gt;x&lt;/script&gt;"))
            #expect(figure.contains("a &quot;quoted&quot; &amp; &#39;single&#39;"))
            #expect(!Self.hasEventHandler(figure))
        }
        #expect(HTMLText.escape(#"<a href="x" onclick='y'>&"#) == "&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;")
    }

    // MARK: - Helpers

    /// The fields of one CSV line (RFC 4180 quoting).
    static func csvFields(_ line: String) -> [String] {
        var fields: [String] = [], field = "", quoted = false
        var characters = line.makeIterator()
        var pending: Character? = nil
        while let character = pending ?? characters.next() {
            pending = nil
            if quoted {
                if character == "\"" {
                    if let next = characters.next() {
                        if next == "\"" { field.append("\"") } else { quoted = false; pending = next }
                    } else { quoted = false }
                } else { field.append(character) }
            } else if character == "\"" { quoted = true }
            else if character == "," { fields.append(field); field = "" }
            else { field.append(character) }
        }
        fields.append(field)
        return fields
    }

    static func attributeValues(_ name: String, in html: String) -> [String] {
        html.components(separatedBy: " \(name)=\"").dropFirst().map { $0.components(separatedBy: "\"")[0] }
    }

    /// Whether a tag carries an `on…=` event handler attribute.
    static func hasEventHandler(_ html: String) -> Bool {
        html.range(of: #"<[^>]*\son[a-z]+\s*="#, options: .regularExpression) != nil
    }
}
