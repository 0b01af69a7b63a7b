import Flywheel
import Privacy
import ReplayKit

/// compare.html: the comparison as one self-contained page, a forest plot per job and slice
/// with a table of its numbers beside it.
///
/// Inline CSS and SVG only, like the flywheel's dashboard: no script, no font, no image, no link
/// out (a Content Security Policy of `default-src 'none'` says so to the browser too). Light and
/// dark follow `prefers-color-scheme`. Only numbers, labels (which passed their rule when the
/// runs wrote them) and the writer's words appear, every label and path escaped.
public enum CompareHTML {
    public static func render(_ report: CompareReport) -> String {
        var page = Page(report: report)
        return page.render()
    }
}

private struct Page {
    let report: CompareReport
    var plots = 0

    init(report: CompareReport) { self.report = report }

    func h(_ text: String) -> String { CompareText.html(text) }

    mutating func render() -> String {
        let comparison = report.comparison
        var out = head()
        out += "<header>\n<h1>replay compare: NEW − BASE, item by item</h1>\n<dl class=\"runs\">"
        out += "<dt>BASE</dt><dd>\(CompareMarkdown.runFacts(report.base).map(h).joined(separator: ", "))</dd>"
        out += "<dt>NEW</dt><dd>\(CompareMarkdown.runFacts(report.new).map(h).joined(separator: ", "))</dd></dl>\n"
        let options = report.optionDifferences
        out += "<p>Options that differ: \(options.isEmpty ? "none" : options.map(h).joined(separator: ", ")). "
        out += "Model file: \(report.modelDiffers ? "differs" : "the same").</p>\n"
        out += "<p class=\"how\">Each plot shows, for one job and one slice of its items, every metric as NEW − BASE over the items both runs have: "
        out += "the dot is the difference, the line its 95% interval (standard errors clustered by thread), the strong vertical line zero. "
        out += "An interval that crosses zero is no detectable change; one wholly on one side is a difference. "
        out += "Metrics of one unit share an axis; each unit has its own. Colour is the verdict after Holm's adjustment across the job's metrics: "
        out += "<span class=\"key v-better\">better</span>, <span class=\"key v-worse\">worse</span>, "
        out += "<span class=\"key v-changed\">changed</span> (a size, with no better side), <span class=\"key v-none\">no detectable change</span>. "
        out += "No detectable change is not evidence of no change: MDD in the tables is the smallest difference these items could detect at 80% power. "
        out += "Rates: exact McNemar test of the discordant pairs; means: normal test; percentiles: paired bootstrap over threads "
        out += "(seed \(comparison.seed), \(comparison.replicates) draws).</p>\n"
        out += "<nav><ul>" + comparison.jobs.map { "<li><a href=\"#job-\(h($0.job.rawValue))\">\(h($0.job.rawValue))</a></li>" }.joined()
        out += "</ul></nav>\n</header>\n<main>\n"
        if !report.gates.isEmpty { out += gates() }
        out += joinTable()
        for job in comparison.jobs { out += section(job) }
        out += "</main>\n<footer><p>Schema \(CompareDocument.schema). The same numbers, every slice included, are in compare.json and compare.md.</p></footer>\n"
        return out + "</body>\n</html>\n"
    }

    func gates() -> String {
        var out = "<section id=\"gates\">\n<h2>Gates</h2>\n<div class=\"table-wrap\"><table>\n<caption>Each gate passes only if the data show NEW is not worse than BASE by its margin</caption>\n"
        out += "<thead><tr><th scope=\"col\">Gate</th><th scope=\"col\" class=\"num\">Margin</th><th scope=\"col\">Bound</th>"
        out += "<th scope=\"col\" class=\"num\">Value</th><th scope=\"col\" class=\"num\">Limit</th><th scope=\"col\">Result</th></tr></thead>\n<tbody>\n"
        for verdict in report.gates {
            out += "<tr><th scope=\"row\">\(h(verdict.gate.name))</th><td class=\"num\">\(h(CompareText.number(verdict.gate.margin)))</td>"
            out += "<td>\(verdict.testsUpperBound ? "upper" : "lower")</td><td class=\"num\">\(h(verdict.bound.map(CompareText.number) ?? "no pairs"))</td>"
            out += "<td class=\"num\">\(h(CompareText.number(verdict.limit)))</td>"
            out += "<td class=\"\(verdict.passed ? "v-better" : "v-worse")\">\(verdict.passed ? "passed" : "failed")</td></tr>\n"
        }
        return out + "</tbody></table></div>\n</section>\n"
    }

    func joinTable() -> String {
        var out = "<section id=\"join\">\n<h2>Items joined</h2>\n<div class=\"table-wrap\"><table>\n<caption>Items of each run, paired on their keys</caption>\n"
        out += "<thead><tr><th scope=\"col\">Job</th>" + ["BASE", "NEW", "Paired", "BASE only", "NEW only", "Repeated keys"].map {
            "<th scope=\"col\" class=\"num\">\($0)</th>"
        }.joined() + "</tr></thead>\n<tbody>\n"
        for job in report.comparison.jobs { out += "<tr><th scope=\"row\">\(h(job.job.rawValue))</th>\(cells(job.join))</tr>\n" }
        out += "<tr class=\"total\"><th scope=\"row\">all</th>\(cells(report.comparison.join))</tr>\n"
        return out + "</tbody></table></div>\n</section>\n"
    }

    func cells(_ c: JoinCounts) -> String {
        [c.base, c.new, c.paired, c.baseOnly, c.newOnly, c.repeated].map { "<td class=\"num\">\($0)</td>" }.joined()
    }

    mutating func section(_ job: JobComparison) -> String {
        var out = "<section id=\"job-\(h(job.job.rawValue))\">\n<h2>Job: \(h(job.job.rawValue))</h2>\n"
        out += figure(job, job.overall, title: "\(job.job.rawValue), all items", open: true)
        for (title, noun, slices) in [("By app build", "app build", job.byBuild), ("By model version", "model version", job.byModel),
                                      ("By locale", "locale", job.byLocale),
                                      ("By app build × model version", "app build × model version", job.byBuildModel)] where !slices.isEmpty {
            out += "<h3>\(title)</h3>\n"
            let shown = CompareMarkdown.shown(slices)
            for slice in shown {
                out += figure(job, slice, title: "\(job.job.rawValue), \(noun) \(CompareMarkdown.name(slice))", open: false)
            }
            if shown.count < slices.count { out += "<p class=\"more\">\(slices.count - shown.count) more in compare.json.</p>\n" }
        }
        return out + "</section>\n"
    }

    mutating func figure(_ job: JobComparison, _ slice: SliceComparison, title: String, open: Bool) -> String {
        plots += 1
        let plot = ForestPlot(id: "plot\(plots)", title: title + ": NEW − BASE with 95% intervals", metrics: slice.metrics)
        let e = slice.eligible
        var out = "<figure>\n<figcaption>\(h(title))</figcaption>\n"
        out += "<p class=\"eligible\">Eligible items: BASE \(e.base), NEW \(e.new), paired \(e.paired), BASE only \(e.baseOnly), NEW only \(e.newOnly)"
        out += (e.repeated > 0 ? ", repeated keys \(e.repeated)" : "") + ".</p>\n"
        out += plot.svg()
        out += "<details\(open ? " open" : "")><summary>The numbers</summary>\n<div class=\"table-wrap\"><table>\n"
        out += "<thead><tr>" + ["Metric", "Unit", "BASE", "NEW", "NEW − BASE", "95% interval", "p", "Holm p", "MDD", "Pairs", "Clusters", "Verdict"]
            .enumerated().map { index, name in "<th scope=\"col\"\([2, 3, 4, 6, 7, 8, 9, 10].contains(index) ? " class=\"num\"" : "")>\(name)</th>" }
            .joined() + "</tr></thead>\n<tbody>\n"
        for m in slice.metrics {
            let metric = m.metric
            out += "<tr><th scope=\"row\">\(h(metric.key))</th><td>\(h(CompareText.unit(metric)))</td>"
            out += "<td class=\"num\">\(h(CompareText.value(m.base, metric)))</td><td class=\"num\">\(h(CompareText.value(m.new, metric)))</td>"
            out += "<td class=\"num\">\(h(CompareText.difference(m.difference, metric)))</td><td>\(h(CompareText.interval(m.lower, m.upper, metric)))</td>"
            out += "<td class=\"num\">\(h(CompareText.pValue(m.pValue)))</td><td class=\"num\">\(h(CompareText.pValue(m.adjustedPValue)))</td>"
            out += "<td class=\"num\">\(h(CompareText.magnitude(m.minimumDetectable, metric)))</td>"
            out += "<td class=\"num\">\(m.pairs)</td><td class=\"num\">\(m.clusters)</td>"
            out += "<td class=\"verdict \(ForestPlot.verdictClass(m.verdict))\">\(h(m.verdict.rawValue))</td></tr>\n"
        }
        return out + "</tbody></table></div>\n</details>\n</figure>\n"
    }

    func head() -> String {
        HTMLText.pageHead(title: "replay compare: NEW − BASE, item by item", css: Page.css)
    }

    static let css = """
    :root { color-scheme: light dark;
      --bg: #ffffff; --fg: #1b1f24; --muted: #56606c; --grid: #d5dae1; --panel: #f4f6f9; --line: #c9cfd8; --stripe: #e9edf2;
      --better: #15804a; --worse: #b42d4b; --changed: #8338b8; --none: #4a5562; --accent: #1f63c6; }
    @media (prefers-color-scheme: dark) {
      :root { --bg: #101317; --fg: #e6e9ed; --muted: #a0aab6; --grid: #313842; --panel: #181d23; --line: #3a424d; --stripe: #20262e;
        --better: #52d18e; --worse: #ff7d98; --changed: #c796ff; --none: #b4bec9; --accent: #78acff; }
    }
    \(HTMLText.frameCSS(maxWidth: 1260))
    h3 { font-size: 1.05rem; margin: 1.6rem 0 .2rem; }
    a { color: var(--accent); }
    dl.runs { display: grid; grid-template-columns: max-content 1fr; gap: .1rem 1rem; margin: .4rem 0; }
    dl.runs dt { font-weight: 600; }
    dl.runs dd { margin: 0; overflow-wrap: anywhere; }
    p.how { font-size: .9rem; color: var(--muted); }
    .key { font-weight: 600; }
    nav ul { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .4rem 1.2rem; }
    figure { margin: 1.2rem 0; padding: 12px 14px; background: var(--panel); border-radius: 8px; }
    figcaption { font-weight: 600; margin-bottom: .2rem; }
    p.eligible, p.more { color: var(--muted); font-size: .85rem; margin: 0 0 .4rem; }
    svg.forest { display: block; width: 100%; height: auto; max-width: 760px; }
    svg text { fill: var(--muted); font-size: 11px; font-variant-numeric: tabular-nums; }
    svg text.group { fill: var(--fg); font-size: 12px; font-weight: 600; }
    svg text.label { fill: var(--fg); font-size: 12px; }
    svg text.value { fill: var(--fg); }
    svg text.nodata { font-style: italic; }
    svg tspan.verdict { font-weight: 600; }
    .stripe { fill: var(--stripe); }
    .grid { stroke: var(--grid); stroke-width: 1; }
    .zero { stroke: var(--fg); stroke-width: 1.5; opacity: .7; }
    .whisker { fill: none; stroke-width: 2; }
    .point { stroke-width: 1.5; }
    .whisker.v-better { stroke: var(--better); } .point.v-better { fill: var(--better); stroke: var(--better); }
    .whisker.v-worse { stroke: var(--worse); } .point.v-worse { fill: var(--worse); stroke: var(--worse); }
    .whisker.v-changed { stroke: var(--changed); } .point.v-changed { fill: var(--changed); stroke: var(--changed); }
    .whisker.v-none { stroke: var(--none); } .point.v-none { fill: var(--bg); stroke: var(--none); }
    tspan.v-better { fill: var(--better); } tspan.v-worse { fill: var(--worse); } tspan.v-changed { fill: var(--changed); }
    span.v-better, td.v-better { color: var(--better); } span.v-worse, td.v-worse { color: var(--worse); }
    span.v-changed, td.v-changed { color: var(--changed); } span.v-none, td.v-none { color: var(--none); }
    details { margin-top: .4rem; }
    summary { cursor: pointer; color: var(--muted); font-size: .85rem; }
    .table-wrap { overflow-x: auto; margin-top: .4rem; }
    table { border-collapse: collapse; font-size: .78rem; min-width: 60%; }
    caption { text-align: left; color: var(--muted); padding-bottom: .3rem; }
    th, td { padding: .2rem .4rem; border-bottom: 1px solid var(--line); text-align: left; white-space: nowrap; }
    td.verdict { white-space: normal; min-width: 10.5em; }
    thead th { border-bottom: 2px solid var(--line); }
    tbody th { font-weight: 500; }
    tr.total th, tr.total td { font-weight: 600; }
    .num { text-align: right; font-variant-numeric: tabular-nums; }
    footer { margin-top: 2.5rem; color: var(--muted); font-size: .85rem; border-top: 1px solid var(--line); }
    """
}
