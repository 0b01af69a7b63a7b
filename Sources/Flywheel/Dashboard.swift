import Privacy

/// dashboard.html: one self-contained page of the flywheel metrics, for a team to open as a file.
///
/// Inline CSS and SVG only: no script, no font, no image, no link to anything (a Content
/// Security Policy of `default-src 'none'` says so to the browser too), so it opens offline and
/// leaks nothing when opened. Per feature: rates over ISO weeks, bars by app build, by model
/// version and by locale, each with a table of the same numbers. The spec's contract checks
/// (`SpecContract`) get a verdict at the top (all zero, or how many places broke the spec) and
/// a section of tables: each check over the whole corpus, by app build and by model version,
/// zero shown as 0. Light and dark follow `prefers-color-scheme`.
/// Only counts, rates and labels appear: labels from the corpus have passed their `ReportLabel`
/// rule (or are hashes), at most 20 per dimension (`FlywheelCounter.capped`), and every label is
/// escaped for HTML.
public enum Dashboard {
    /// The page for `counter`, with the "Replayed coverage vs real usage" section when `replayed`
    /// is given.
    public static func render(_ counter: FlywheelCounter, replayed: [ReplayedJobSummary]? = nil) -> String {
        var page = Page(counter: counter.capped())
        return page.render(replayed: replayed)
    }
}

/// Builds the page; numbers the charts so their ids are unique.
private struct Page {
    let counter: FlywheelCounter
    var chartCount = 0

    init(counter: FlywheelCounter) { self.counter = counter }

    mutating func render(replayed: [ReplayedJobSummary]?) -> String {
        var out = head()
        out += "<header>\n<h1>On-device features: real usage</h1>\n"
        out += "<p>From message metadata only: \(counter.threads) threads, \(counter.messages) messages. "
        out += "Every rate is a share with its numerator, denominator and 95% Wilson interval; "
        out += "cells with fewer than \(RateCell.smallSampleThreshold) in the denominator are marked as small samples "
        out += "(hollow points, faint dashed bars, “small” in the tables), never hidden.</p>\n"
        out += contractVerdict()
        out += "<nav><ul>" + Feature.allCases.map { "<li><a href=\"#\($0.rawValue)\">\(HTMLText.escape($0.title))</a></li>" }.joined()
        if replayed != nil { out += "<li><a href=\"#replayed\">Replayed coverage vs real usage</a></li>" }
        out += "</ul></nav>\n</header>\n<main>\n"
        out += overview()
        for feature in Feature.allCases { out += section(feature) }
        if let replayed { out += replayedSection(replayed) }
        out += "</main>\n<footer><p>Schema \(MetricsDocument.schema). The same numbers, by agent too, are in metrics.csv and metrics.json.</p></footer>\n"
        return out + "</body>\n</html>\n"
    }

    private mutating func nextID() -> String {
        chartCount += 1
        return "chart\(chartCount)"
    }

    // MARK: - Sections

    private func overview() -> String {
        var out = "<section id=\"overview\">\n<h2>Overview</h2>\n<div class=\"table-wrap\"><table>\n<caption>Every metric over the whole corpus</caption>\n"
        out += "<thead><tr><th scope=\"col\">Feature</th><th scope=\"col\">Metric</th><th scope=\"col\" class=\"num\">Numerator</th>"
        out += "<th scope=\"col\" class=\"num\">Denominator</th><th scope=\"col\" class=\"num\">Rate</th><th scope=\"col\">95% interval</th><th scope=\"col\">Sample</th></tr></thead>\n<tbody>\n"
        for metric in Metric.allCases {
            let value = ChartValue(counter.cell(metric))
            out += value.small ? "<tr class=\"small\">" : "<tr>"
            out += "<td>\(HTMLText.escape(metric.feature.title))</td><th scope=\"row\">\(HTMLText.escape(metric.label))</th>"
            out += "<td class=\"num\">\(value.numerator ?? 0)</td><td class=\"num\">\(value.denominator ?? 0)</td>"
            out += "<td class=\"num\">\(HTMLText.escape(value.rateText))</td><td>\(HTMLText.escape(value.intervalText))</td>"
            out += "<td>\(value.small ? "small (n &lt; \(RateCell.smallSampleThreshold))" : "ok")</td></tr>\n"
        }
        return out + "</tbody></table></div>\n</section>\n"
    }

    private mutating func section(_ feature: Feature) -> String {
        let shares: [Metric]
        switch feature {
        case .contract: return contractSection()
        case .chips: shares = [.chipsSuggested]
        case .route: shares = [.routeNamed, .routeGuessedKept, .routeChose, .routeLead]
        case .draft: shares = [.draftUsed]
        case .push: shares = [.pushReply, .pushHandoff, .pushQuote, .pushOther]
        }
        var out = "<section id=\"\(feature.rawValue)\">\n<h2>\(HTMLText.escape(feature.title))</h2>\n"
        out += "<p class=\"population\">Of \(HTMLText.escape(feature.population)).</p>\n<dl class=\"definitions\">"
        for metric in shares {
            out += "<dt>\(HTMLText.escape(metric.label))</dt><dd>\(HTMLText.escape(metric.definition))</dd>"
        }
        out += "</dl>\n"
        let what = shares.count == 1 ? shares[0].label : "shares"
        out += chart(feature.title + ": " + what + " by ISO week", .week, "ISO week", shares, .lines)
        out += chart(feature.title + ": " + what + " by app build", .build, "App build", shares, .bars)
        out += chart(feature.title + ": " + what + " by model version", .model, "Model version", shares, .bars)
        out += chart(feature.title + ": " + what + " by locale", .locale, "Locale", shares, .bars)
        switch feature {
        case .draft:
            out += meanTable(.draftTicksMean, "Ticks per used draft")
        case .push:
            let buckets: [Metric] = [.pushBatch1, .pushBatch2, .pushBatch3, .pushBatch4, .pushBatch5to9, .pushBatch10Plus]
            let values = buckets.map { ChartValue(counter.cell($0)) }
            out += Chart(id: nextID(), title: "Pushes: batch size (unread replies per push), whole corpus",
                         categoryName: "Batch size", categories: buckets.map(\.label),
                         series: [ChartSeries(name: "share of pushes", values: values)], style: .bars).figure()
            out += meanTable(.pushBatchMean, "Replies per push")
        case .chips, .route, .contract:
            break
        }
        return out + "</section>\n"
    }

    // MARK: - Contract checks

    /// The places where the export shows the app broke the spec, summed over the checks (a
    /// message that breaks two checks is two places).
    private var contractPlaces: Int {
        Feature.contract.metrics.reduce(0) { $0 + counter.cell($1).numerator }
    }

    /// The line at the top: every check 0, or how many places broke the spec, linking to the section.
    private func contractVerdict() -> String {
        let places = contractPlaces
        let checks = Feature.contract.metrics.count
        if places == 0 {
            return "<p class=\"verdict ok\" id=\"contract-verdict\">Spec contract: all \(checks) checks are 0, "
                + "nothing in the export shows the app broke the spec (<a href=\"#contract\">checks</a>).</p>\n"
        }
        let broken = Feature.contract.metrics.filter { counter.cell($0).numerator > 0 }.count
        return "<p class=\"verdict alarm\" id=\"contract-verdict\"><strong>Spec contract: \(places) "
            + (places == 1 ? "place" : "places") + " where the export shows the app broke the spec</strong>, in \(broken) of \(checks) checks "
            + "(<a href=\"#contract\">see which</a>).</p>\n"
    }

    /// The contract section: what each check means and its spec section, each check over the
    /// whole corpus, then by app build and by model version. A count is always shown, 0 too.
    private func contractSection() -> String {
        let checks = Feature.contract.metrics
        var out = "<section id=\"contract\">\n<h2>\(HTMLText.escape(Feature.contract.title))</h2>\n"
        out += "<p class=\"population\">Of \(HTMLText.escape(Feature.contract.population)). "
        out += "Each counts the places where the export shows the app broke the on-device spec: a build that keeps the spec gives 0. "
        out += "Counts only: no value and no key name from a message is shown.</p>\n<dl class=\"definitions\">"
        for metric in checks {
            out += "<dt>\(HTMLText.escape(metric.label))<br><code>\(HTMLText.escape(metric.name))</code></dt>"
            out += "<dd>\(HTMLText.escape(metric.definition)) (spec \(HTMLText.escape(metric.specSection ?? "")))</dd>"
        }
        out += "</dl>\n"
        out += "<div class=\"table-wrap\"><table class=\"contract\" id=\"contract-overall\">\n<caption>Every check over the whole corpus</caption>\n"
        out += "<thead><tr><th scope=\"col\">Check</th><th scope=\"col\">Spec</th><th scope=\"col\" class=\"num\">Places</th>"
        out += "<th scope=\"col\" class=\"num\">Of messages</th><th scope=\"col\" class=\"num\">Share</th><th scope=\"col\">95% interval</th></tr></thead>\n<tbody>\n"
        for metric in checks {
            let value = ChartValue(counter.cell(metric))
            let places = value.numerator ?? 0
            out += places > 0 ? "<tr class=\"alarm\">" : "<tr>"
            out += "<th scope=\"row\">\(HTMLText.escape(metric.label))</th><td>\(HTMLText.escape(metric.specSection ?? ""))</td>"
            out += "<td class=\"num\">\(places)</td><td class=\"num\">\(value.denominator ?? 0)</td>"
            out += "<td class=\"num\">\(HTMLText.escape(value.rateText))</td><td>\(HTMLText.escape(value.intervalText))</td></tr>\n"
        }
        out += "</tbody></table></div>\n"
        out += contractTable(.build, "By app build", id: "contract-build")
        out += contractTable(.model, "By model version", id: "contract-model")
        return out + "</section>\n"
    }

    /// One row per key of `dimension`, one column per check: "places of messages", 0 included.
    private func contractTable(_ dimension: MetricDimension, _ title: String, id: String) -> String {
        let checks = Feature.contract.metrics
        var out = "<div class=\"table-wrap\"><table class=\"contract\" id=\"\(id)\">\n<caption>\(HTMLText.escape(title)): places of messages checked</caption>\n"
        out += "<thead><tr><th scope=\"col\">\(HTMLText.escape(dimension == .build ? "App build" : "Model version"))</th>"
        for metric in checks { out += "<th scope=\"col\" class=\"num\">\(HTMLText.escape(metric.label))</th>" }
        out += "</tr></thead>\n<tbody>\n"
        let keys = counter.keys(dimension)
        if keys.isEmpty {
            out += "<tr><td colspan=\"\(checks.count + 1)\">no messages</td></tr>\n"
        }
        for key in keys {
            let cells = checks.map { counter.cell($0, dimension, key) }
            out += cells.contains { $0.numerator > 0 } ? "<tr class=\"alarm\">" : "<tr>"
            out += "<th scope=\"row\">\(HTMLText.escape(key))</th>"
            for cell in cells {
                out += cell.numerator > 0 ? "<td class=\"num alarm\">" : "<td class=\"num\">"
                out += "\(cell.numerator) of \(cell.denominator)</td>"
            }
            out += "</tr>\n"
        }
        return out + "</tbody></table></div>\n"
    }

    private mutating func chart(_ title: String, _ dimension: MetricDimension, _ name: String, _ metrics: [Metric], _ style: Chart.Style) -> String {
        let categories = dimension == .week ? weekAxis() : counter.keys(dimension)
        let series = metrics.map { metric in
            ChartSeries(name: metric.label, values: categories.map { ChartValue(counter.cell(metric, dimension, $0)) })
        }
        return Chart(id: nextID(), title: title, categoryName: name, categories: categories, series: series, style: style).figure()
    }

    /// The weeks seen, with the weeks between them that have no data filled in (so a gap shows
    /// as a gap), and "unknown" last when some timestamps could not be read.
    private func weekAxis() -> [String] {
        let seen = counter.keys(.week)
        let known = seen.filter { $0 != MetricDimension.unknownKey }
        var axis = known
        if let first = known.first, let last = known.last, let span = ISOWeek.span(from: first, to: last, limit: 260) {
            axis = span
        }
        if seen.contains(MetricDimension.unknownKey) { axis.append(MetricDimension.unknownKey) }
        return axis
    }

    private func meanTable(_ metric: Metric, _ title: String) -> String {
        var out = "<div class=\"table-wrap\"><table class=\"means\">\n<caption>\(HTMLText.escape(title)) (\(HTMLText.escape(metric.definition)))</caption>\n"
        out += "<thead><tr><th scope=\"col\">MetricDimension</th><th scope=\"col\">Key</th><th scope=\"col\" class=\"num\">Sum</th>"
        out += "<th scope=\"col\" class=\"num\">Count</th><th scope=\"col\" class=\"num\">Mean</th><th scope=\"col\">Sample</th></tr></thead>\n<tbody>\n"
        for dimension in [MetricDimension.overall, .build, .model, .locale] {
            for key in counter.keys(dimension) {
                let cell = counter.cell(metric, dimension, key)
                out += cell.smallSample ? "<tr class=\"small\">" : "<tr>"
                out += "<td>\(HTMLText.escape(dimension.name))</td><th scope=\"row\">\(HTMLText.escape(key))</th>"
                out += "<td class=\"num\">\(cell.numerator)</td><td class=\"num\">\(cell.denominator)</td>"
                out += "<td class=\"num\">\(HTMLText.mean(cell.rate))</td>"
                out += "<td>\(cell.smallSample ? "small (n &lt; \(RateCell.smallSampleThreshold))" : "ok")</td></tr>\n"
            }
        }
        return out + "</tbody></table></div>\n"
    }

    private mutating func replayedSection(_ summaries: [ReplayedJobSummary]) -> String {
        var out = "<section id=\"replayed\">\n<h2>Replayed coverage vs real usage</h2>\n"
        out += "<p>What the model would offer, replayed over this corpus, beside what people used: "
        out += "coverage is answered of eligible places; in budget is the share of eligible places answered within the time budget "
        out += "on the device profile (as report.json's in_budget.device); real usage is the matching metric above (chips: sent from a chip; route: guessed and kept; "
        out += "draft: draft used).</p>\n"
        let jobs = summaries.map(\.job.rawValue)
        let coverage = summaries.map { summary -> ChartValue in
            let share = summary.coverage
            return ChartValue(rate: share.rate, low: share.interval?.low, high: share.interval?.high,
                              numerator: summary.answered, denominator: summary.eligible,
                              small: summary.eligible < RateCell.smallSampleThreshold)
        }
        let budget = summaries.map { ChartValue(rate: $0.inBudgetDevice.flatMap { $0.isFinite ? min(max($0, 0), 1) : nil }) }
        let usage = summaries.map { summary -> ChartValue in
            guard let metric = summary.usageMetric else { return ChartValue(rate: nil) }
            return ChartValue(counter.cell(metric))
        }
        out += Chart(id: nextID(), title: "Replayed coverage and in-budget rate beside real usage, by job",
                     categoryName: "Job", categories: jobs,
                     series: [ChartSeries(name: "replayed coverage", values: coverage),
                              ChartSeries(name: "in budget (device)", values: budget),
                              ChartSeries(name: "real usage", values: usage)],
                     style: .bars).figure()
        return out + "</section>\n"
    }

    // MARK: - Head

    private func head() -> String {
        HTMLText.pageHead(title: "Flywheel: on-device features, real usage", css: Page.css)
    }

    static let css = """
    :root { color-scheme: light dark;
      --bg: #ffffff; --fg: #1b1f24; --muted: #56606c; --grid: #d5dae1; --panel: #f4f6f9; --line: #c9cfd8;
      --s1: #1f63c6; --s2: #c05000; --s3: #15804a; --s4: #8338b8; --s5: #b42d4b; --s6: #1f7f8e; }
    @media (prefers-color-scheme: dark) {
      :root { --bg: #101317; --fg: #e6e9ed; --muted: #a0aab6; --grid: #313842; --panel: #181d23; --line: #3a424d;
        --s1: #78acff; --s2: #ffa05a; --s3: #52d18e; --s4: #c796ff; --s5: #ff7d98; --s6: #5cd3e3; }
    }
    \(HTMLText.frameCSS(maxWidth: 1000))
    a { color: var(--s1); }
    nav ul { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .4rem 1.2rem; }
    .population { color: var(--muted); margin: .2rem 0; }
    dl.definitions { display: grid; grid-template-columns: max-content 1fr; gap: .1rem 1rem; font-size: .85rem; color: var(--muted); }
    dl.definitions dt { font-weight: 600; color: var(--fg); }
    dl.definitions dd { margin: 0; }
    figure { margin: 1.4rem 0; padding: 12px 14px; background: var(--panel); border-radius: 8px; }
    figcaption { font-weight: 600; margin-bottom: .3rem; }
    svg.chart { display: block; width: 100%; height: auto; max-width: 760px; }
    svg text { fill: var(--muted); font-size: 11px; }
    svg text.label { fill: var(--fg); font-size: 12px; }
    svg text.value { fill: var(--fg); font-size: 11px; }
    svg text.caption { font-size: 12px; }
    svg text.nodata { font-size: 14px; font-style: italic; }
    svg text.small-text { font-size: 11px; }
    .grid { stroke: var(--grid); stroke-width: 1; }
    .line { fill: none; stroke-width: 2; }
    .whisker { stroke-width: 1.5; opacity: .75; fill: none; }
    .whisker.ink { stroke: var(--fg); opacity: .6; stroke-width: 1.2; }
    .dot { stroke-width: 2; }
    .dot.small { fill: var(--bg); }
    .bar.small { fill-opacity: .3; stroke-dasharray: 3 2; stroke-width: 1; }
    .line.s1, .whisker.s1 { stroke: var(--s1); } .dot.s1 { stroke: var(--s1); fill: var(--s1); } .bar.s1 { fill: var(--s1); stroke: var(--s1); }
    .line.s2, .whisker.s2 { stroke: var(--s2); } .dot.s2 { stroke: var(--s2); fill: var(--s2); } .bar.s2 { fill: var(--s2); stroke: var(--s2); }
    .line.s3, .whisker.s3 { stroke: var(--s3); } .dot.s3 { stroke: var(--s3); fill: var(--s3); } .bar.s3 { fill: var(--s3); stroke: var(--s3); }
    .line.s4, .whisker.s4 { stroke: var(--s4); } .dot.s4 { stroke: var(--s4); fill: var(--s4); } .bar.s4 { fill: var(--s4); stroke: var(--s4); }
    .line.s5, .whisker.s5 { stroke: var(--s5); } .dot.s5 { stroke: var(--s5); fill: var(--s5); } .bar.s5 { fill: var(--s5); stroke: var(--s5); }
    .line.s6, .whisker.s6 { stroke: var(--s6); } .dot.s6 { stroke: var(--s6); fill: var(--s6); } .bar.s6 { fill: var(--s6); stroke: var(--s6); }
    .dot.small { fill: var(--bg); }
    ul.legend { list-style: none; padding: 0; margin: 0 0 .4rem; display: flex; flex-wrap: wrap; gap: .2rem 1rem; font-size: .85rem; }
    .swatch { display: inline-block; width: .8em; height: .8em; border-radius: 2px; margin-right: .35em; vertical-align: -.05em; }
    .swatch.s1 { background: var(--s1); } .swatch.s2 { background: var(--s2); } .swatch.s3 { background: var(--s3); }
    .swatch.s4 { background: var(--s4); } .swatch.s5 { background: var(--s5); } .swatch.s6 { background: var(--s6); }
    .swatch.hollow { border: 2px solid var(--muted); border-radius: 50%; }
    .swatch.whisker-key { width: 2px; height: 1em; background: var(--fg); opacity: .6; margin: 0 .6em 0 .3em; }
    .table-wrap { overflow-x: auto; margin-top: .6rem; }
    table { border-collapse: collapse; font-size: .85rem; min-width: 60%; }
    caption { text-align: left; color: var(--muted); padding-bottom: .3rem; }
    th, td { padding: .2rem .6rem; border-bottom: 1px solid var(--line); text-align: left; }
    thead th { border-bottom: 2px solid var(--line); }
    tbody th { font-weight: 500; }
    th.repeat { color: var(--muted); font-weight: 400; }
    .num { text-align: right; font-variant-numeric: tabular-nums; }
    tr.small td, tr.small th { color: var(--muted); font-style: italic; }
    .verdict { padding: .5rem .8rem; border-radius: 6px; border-left: 4px solid var(--s3); background: var(--panel); }
    .verdict.alarm { border-left-color: var(--s5); }
    code { font-size: .85em; }
    td.alarm, tr.alarm th { color: var(--s5); font-weight: 600; }
    table.contract tbody th { white-space: nowrap; }
    footer { margin-top: 2.5rem; color: var(--muted); font-size: .85rem; border-top: 1px solid var(--line); }
    """
}
