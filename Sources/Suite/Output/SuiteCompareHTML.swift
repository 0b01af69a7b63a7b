import Flywheel
import Jobs

/// compare.html of `replay suite compare`: compare.md's tables as one self-contained page
/// (inline CSS only: no script, font, image or link out), every label and path escaped.
public enum SuiteCompareHTML {
    public static func render(_ document: SuiteCompareDocument) -> String {
        func h(_ text: String) -> String { HTMLText.escape(text) }
        var out = HTMLText.pageHead(title: "replay suite compare", css: css)
        out += "<header>\n<h1>replay suite compare</h1>\n"
        out += "<p class=\"how\">Each later run is compared with run 1 over the case runs both judged: the difference in pass rate "
        out += "(later minus first) with its 95% interval (clustered by case), an exact McNemar test, p adjusted by Holm across the "
        out += "expectations of that run, and the smallest difference these pairs could detect (80% power). Pass rates carry Wilson 95% "
        out += "intervals. No detectable change is not evidence of no change.</p>\n</header>\n<main>\n"
        out += "<div class=\"table-wrap\"><table>\n<caption>The runs compared</caption>\n<thead><tr><th scope=\"col\">Run</th>"
        out += "<th scope=\"col\">Directory</th><th scope=\"col\">Suite</th><th scope=\"col\">Model</th><th scope=\"col\">Model version</th>"
        out += "<th scope=\"col\">Prompts</th></tr></thead>\n<tbody>\n"
        for (index, run) in document.runs.enumerated() {
            out += "<tr><th scope=\"row\">\(index + 1)\(index == 0 ? " (base)" : "")</th><td>\(h(run.directory.text))</td><td>\(h(run.suite.text))</td>"
            out += "<td>\(run.model.map { h($0.name.text) } ?? "none")</td><td>\(run.modelVersion.map { h($0.text) } ?? "none given")</td>"
            out += "<td>\(h(run.prompts.name))</td></tr>\n"
        }
        out += "</tbody></table></div>\n"
        for job in JobKind.allCases {
            let rows = document.expectations.filter { $0.job == job }
            guard !rows.isEmpty else { continue }
            out += "<section id=\"job-\(job.rawValue)\">\n<h2>\(job.rawValue)</h2>\n<div class=\"table-wrap\"><table>\n"
            out += "<caption>Model-dependent expectations of \(job.rawValue)</caption>\n<thead><tr><th scope=\"col\">Expectation</th>"
            out += "<th scope=\"col\" class=\"num\">Run</th><th scope=\"col\">Pass rate [95%]</th><th scope=\"col\">Against run 1 [95%]</th>"
            out += "<th scope=\"col\">Pairs (lost, gained)</th><th scope=\"col\" class=\"num\">p</th><th scope=\"col\" class=\"num\">p (Holm)</th>"
            out += "<th scope=\"col\" class=\"num\">Detectable</th><th scope=\"col\">Verdict</th></tr></thead>\n<tbody>\n"
            for row in rows {
                for (index, rate) in row.rates.enumerated() {
                    out += "<tr><th scope=\"row\">\(row.expectation.rawValue)</th><td class=\"num\">\(index + 1)</td>"
                    out += "<td>\(h(SuiteCompareText.rate(rate)))</td>"
                    guard index > 0 else {
                        out += "<td></td><td></td><td></td><td></td><td></td><td></td></tr>\n"
                        continue
                    }
                    let paired = row.paired[index - 1]
                    out += "<td>\(h(SuiteCompareText.difference(paired)))</td><td>\(paired.pairs) (\(paired.baseOnly), \(paired.newOnly))</td>"
                    out += "<td class=\"num\">\(h(SuiteCompareText.p(paired.pValue)))</td><td class=\"num\">\(h(SuiteCompareText.p(paired.adjustedPValue)))</td>"
                    out += "<td class=\"num\">\(h(SuiteCompareText.points(paired.minimumDetectable)))</td>"
                    out += "<td class=\"v-\(paired.verdict == .better ? "better" : paired.verdict == .worse ? "worse" : "none")\">\(h(paired.verdict.rawValue))</td></tr>\n"
                }
            }
            out += "</tbody></table></div>\n</section>\n"
        }
        if !document.gates.isEmpty {
            out += "<section id=\"gates\">\n<h2>Gates</h2>\n<div class=\"table-wrap\"><table>\n<caption>Each gate needs the lower 95% bound of the pass rate at its minimum or above, in every run</caption>\n"
            out += "<thead><tr><th scope=\"col\">Gate</th><th scope=\"col\" class=\"num\">Run</th><th scope=\"col\" class=\"num\">Lower bound</th>"
            out += "<th scope=\"col\" class=\"num\">Minimum</th><th scope=\"col\">Met</th></tr></thead>\n<tbody>\n"
            for gate in document.gates {
                out += "<tr><th scope=\"row\">\(gate.job.rawValue).\(gate.expectation.rawValue)</th><td class=\"num\">\(gate.run + 1)</td>"
                out += "<td class=\"num\">\(h(gate.low.map { String(format: "%.3f", $0) } ?? "no data"))</td><td class=\"num\">\(gate.minimum)</td>"
                out += "<td>\(gate.met ? "yes" : "no")</td></tr>\n"
            }
            out += "</tbody></table></div>\n</section>\n"
        }
        out += "</main>\n<footer><p>Schema \(SuiteCompareDocument.schema). The same numbers are in compare.json and compare.md.</p></footer>\n"
        return out + "</body>\n</html>\n"
    }

    static let css = """
    :root { color-scheme: light dark;
      --bg: #ffffff; --fg: #1b1f24; --muted: #56606c; --grid: #d5dae1; --panel: #f4f6f9; --line: #c9cfd8; --stripe: #e9edf2;
      --better: #15804a; --worse: #b42d4b; --none: #4a5562; --accent: #1f63c6; }
    @media (prefers-color-scheme: dark) {
      :root { --bg: #101317; --fg: #e6e9ed; --muted: #a0aab6; --grid: #313842; --panel: #181d23; --line: #3a424d; --stripe: #20262e;
        --better: #52d18e; --worse: #ff7d98; --none: #b4bec9; --accent: #78acff; }
    }
    \(HTMLText.frameCSS(maxWidth: 1260))
    p.how { font-size: .9rem; color: var(--muted); }
    td.v-better { color: var(--better); font-weight: 600; }
    td.v-worse { color: var(--worse); font-weight: 600; }
    td.v-none { color: var(--none); }
    """
}
