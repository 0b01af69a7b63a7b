import Foundation
import Jobs
import Privacy
import Testing
@testable import Compare
@testable import ReplayKit
import RunTestSupport
import TestSupport

/// compare.md, compare.html and the forest plot: their order and structure, their escaping,
/// and the plot's axes.
@Suite(.serialized) struct CompareOutputTests {
    typealias F = CompareFixtures

    /// A report of the known tables, with a build label that holds every character the writers
    /// escape (no rule keeps such a label; a writer must still not let it change the page).
    static func report(in work: TemporaryDirectory) throws -> CompareReport {
        let (base, new) = try CompareCommandTests.knownRuns(in: work)
        let odd = "2.5|<b>&[x](y)"
        let relabel = { (items: [ItemOutcome]) in
            ItemTable(items.map { item in var copy = item; if copy.build == "2.4.0" { copy.build = odd }; return copy })
        }
        let comparison = Comparison(base: relabel(F.baseItems()), new: relabel(F.newItems()))
        let gate = try ComparisonGate(parsing: "chips.answered=0.02")
        return CompareReport(base: try RunDirectory.read(base, key: StateFixtures.key), new: try RunDirectory.read(new, key: StateFixtures.key), comparison: comparison,
                             gates: gate.judge(comparison))
    }

    @Test func markdownGivesEachJobItsWholeTableFirstThenItsSlices() throws {
        let work = try TemporaryDirectory(prefix: "compare-md")
        let md = CompareMarkdown.render(try Self.report(in: work))
        let all = try #require(md.range(of: "### All items")), build = try #require(md.range(of: "### App build 2.3.0"))
        let model = try #require(md.range(of: "### Model version 26.1"))
        #expect(all.lowerBound < build.lowerBound && build.lowerBound < model.lowerBound)
        #expect(md.contains("## Gates\n\n| gate | margin | bound | value | limit | result |"))
        #expect(md.contains("| chips.answered | 0.02 | lower |"))
        #expect(md.contains("| chips | 40 | 40 | 40 | 0 | 0 | 0 |"))
        #expect(md.contains("| fallback.invalid_output | share | 50% | 35% | -15 pp |"))
        // Four significant digits: numpy's p95 of 10·t + j is 101.05 (binary 101.0499…), so 101.
        #expect(md.contains("| latency.host.p95 | ms | 101 | 106 | +5 | [+5, +5] |"))
        // The odd label is escaped: it neither ends a cell nor makes a link or HTML.
        #expect(md.contains(#"### App build 2.5\|\<b\>\&\[x\]\(y\)"#))
        #expect(!md.contains("|<b>"))
    }

    @Test func thePageIsSelfContainedWithAPlotPerSliceInLightAndDark() throws {
        let work = try TemporaryDirectory(prefix: "compare-html")
        let html = CompareHTML.render(try Self.report(in: work))
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.hasSuffix("</html>\n"))
        #expect(html.contains(#"content="default-src 'none'; style-src 'unsafe-inline'""#))
        #expect(html.contains("@media (prefers-color-scheme: dark)"))
        #expect(!html.lowercased().contains("<script") && !html.contains("http://") && !html.contains("https://"))
        // chips: all items, builds 2.3.0 and the odd one, model 26.1, locale unknown, and the two
        // build × model cells.
        #expect(html.components(separatedBy: "<svg class=\"forest\"").count - 1 == 7)
        #expect(html.components(separatedBy: "<details").count - 1 == 7 && html.contains("<details open>"))
        #expect(html.contains("chips, app build × model version 2.3.0 × 26.1"))
        #expect(html.contains("2.5|&lt;b&gt;&amp;[x](y)") && !html.contains("<b>&"))
        #expect(html.contains("<td class=\"v-better\">passed</td>"))
    }

    @Test func thePlotGroupsByUnitOnSymmetricAxesWideEnoughForEveryInterval() throws {
        let overall = try #require(Comparison(base: ItemTable(F.baseItems()), new: ItemTable(F.newItems())).job(.chips)?.overall)
        let plot = ForestPlot(id: "p", title: "t", metrics: overall.metrics)
        let groups = plot.groups
        #expect(groups.map(\.rows.first!.metric.unit) == [.fraction, .score, .tokens, .ms])
        for group in groups {
            let widest = group.rows.flatMap { [$0.lower, $0.upper].compactMap { $0 }.map(abs) }.max() ?? 0
            #expect(group.extent >= widest, "\(group.title)")
        }
        #expect(groups[0].scale == 100 && groups[0].extent == 0.5)     // ±25.8 pp → ±50 pp
        #expect(groups[2].extent == 20)                                 // tokens: +10 → ±20
        #expect(groups[1].prefix == "quality." && groups[1].title.contains("what the person saw"))
        #expect(ForestPlot.niceExtent(0) == 1 && ForestPlot.niceExtent(3) == 5 && ForestPlot.niceExtent(0.021) == 0.025)
        let svg = plot.svg()
        #expect(svg.contains("<title id=\"p-title\">t</title>") && svg.contains("aria-describedby=\"p-desc\""))
        #expect(svg.contains(">exact_match</text>") && svg.contains("class=\"zero\""))
        #expect(svg.contains("<tspan class=\"verdict v-worse\">worse</tspan>"))
    }
}
