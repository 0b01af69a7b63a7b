/// A chart of the dashboard as inline SVG, with its legend and a table of the same numbers.
///
/// Pure markup: colours come from CSS classes (`s1`…`s6`) the page defines for light and dark,
/// small samples are drawn hollow (points) or faint and dashed (bars), and every SVG has
/// `role="img"`, an `aria-label`, a `<title>` and a `<desc>` that says what it shows in words.
struct Chart: Sendable {
    enum Style: Sendable {
        /// Lines over ordered categories (weeks), with interval whiskers.
        case lines
        /// Horizontal bars per category (builds, model versions), with interval whiskers.
        case bars
    }

    /// Unique in the page; used for the title and desc ids.
    let id: String
    let title: String
    /// What a category is ("ISO week", "App build"), for the axis and the table header.
    let categoryName: String
    let categories: [String]
    let series: [ChartSeries]
    let style: Style

    static let width = 760.0

    /// The figure: caption, legend, SVG and table.
    func figure() -> String {
        var out = "<figure>\n<figcaption>\(HTMLText.escape(title))</figcaption>\n"
        out += legend()
        out += svg()
        out += table()
        return out + "</figure>\n"
    }

    // MARK: - Text alternatives

    /// What the chart shows, in words.
    var summary: String {
        var text = style == .lines ? "Line chart" : "Bar chart"
        text += " of \(series.count == 1 ? series[0].name : series.map(\.name).joined(separator: ", "))"
        text += " by \(categoryName.lowercased()), \(categories.count) \(categories.count == 1 ? "value" : "values")"
        if let first = categories.first, let last = categories.last, categories.count > 1 {
            text += " from \(first) to \(last)"
        } else if let first = categories.first {
            text += ": \(first)"
        }
        text += "."
        if !hasData { return text + " There is no data for this chart." }
        let highlights = series.compactMap { line -> String? in
            let best = zip(categories, line.values).filter { $0.1.rate != nil }
            guard let top = best.max(by: { ($0.1.rate ?? 0) < ($1.1.rate ?? 0) }),
                  let bottom = best.min(by: { ($0.1.rate ?? 0) < ($1.1.rate ?? 0) }) else { return nil }
            if best.count == 1 { return "\(line.name): \(top.1.summaryText) at \(top.0)" }
            return "\(line.name): highest \(top.1.summaryText) at \(top.0), lowest \(bottom.1.summaryText) at \(bottom.0)"
        }
        text += " " + highlights.joined(separator: "; ") + "."
        return text + " Hollow or faint marks are small samples (fewer than \(RateCell.smallSampleThreshold)). The table below lists every value."
    }

    private var hasData: Bool { series.contains { $0.values.contains { $0.rate != nil } } }

    private func legend() -> String {
        var out = "<ul class=\"legend\">"
        for (index, line) in series.enumerated() {
            out += "<li><span class=\"swatch s\(index % 6 + 1)\"></span>\(HTMLText.escape(line.name))</li>"
        }
        out += "<li><span class=\"swatch hollow\"></span>small sample (n &lt; \(RateCell.smallSampleThreshold))</li>"
        out += "<li><span class=\"swatch whisker-key\"></span>95% Wilson interval</li>"
        return out + "</ul>\n"
    }

    private func open(height: Double) -> String {
        let label = HTMLText.escape(title + ". " + summary)
        return "<svg class=\"chart\" role=\"img\" aria-label=\"\(label)\" aria-describedby=\"\(id)-desc\" "
            + "viewBox=\"0 0 \(Int(Chart.width)) \(Int(height))\" width=\"100%\" preserveAspectRatio=\"xMinYMin meet\">\n"
            + "<title id=\"\(id)-title\">\(HTMLText.escape(title))</title>\n"
            + "<desc id=\"\(id)-desc\">\(HTMLText.escape(summary))</desc>\n"
    }

    private func svg() -> String {
        style == .lines ? lineSVG() : barSVG()
    }

    private func c(_ value: Double) -> String { HTMLText.coordinate(value) }

    // MARK: - Lines

    private func lineSVG() -> String {
        let height = 270.0, left = 52.0, right = 16.0, top = 14.0, bottom = 58.0
        let plotWidth = Chart.width - left - right, plotHeight = height - top - bottom
        let count = max(categories.count, 1)
        func x(_ index: Int) -> Double { left + plotWidth * (Double(index) + 0.5) / Double(count) }
        func y(_ value: Double) -> Double { top + (1 - min(max(value, 0), 1)) * plotHeight }
        var out = open(height: height)
        for step in 0...4 {
            let value = Double(step) / 4
            out += "<line class=\"grid\" x1=\"\(c(left))\" x2=\"\(c(left + plotWidth))\" y1=\"\(c(y(value)))\" y2=\"\(c(y(value)))\"/>"
            out += "<text class=\"axis\" x=\"\(c(left - 6))\" y=\"\(c(y(value) + 4))\" text-anchor=\"end\">\(step * 25)%</text>\n"
        }
        let labelStep = max(1, (categories.count + 9) / 10)
        for (index, category) in categories.enumerated() where index % labelStep == 0 {
            out += "<text class=\"axis\" x=\"\(c(x(index)))\" y=\"\(c(top + plotHeight + 18))\" text-anchor=\"middle\">\(HTMLText.escape(HTMLText.shortened(category, 12)))</text>"
        }
        out += "\n<text class=\"axis caption\" x=\"\(c(left + plotWidth / 2))\" y=\"\(c(height - 10))\" text-anchor=\"middle\">\(HTMLText.escape(categoryName))</text>\n"
        guard hasData else {
            return out + "<text class=\"nodata\" x=\"\(c(left + plotWidth / 2))\" y=\"\(c(top + plotHeight / 2))\" text-anchor=\"middle\">No data</text>\n</svg>\n"
        }
        let spread = min(4.0, plotWidth / Double(count) / Double(series.count + 1))
        for (index, line) in series.enumerated() {
            let colour = "s\(index % 6 + 1)"
            let dx = (Double(index) - Double(series.count - 1) / 2) * spread
            // Lines join neighbouring categories that both have a rate; "unknown" is never joined.
            var run: [String] = []
            func flush() {
                if run.count > 1 { out += "<polyline class=\"line \(colour)\" points=\"\(run.joined(separator: " "))\"/>\n" }
                run = []
            }
            for (position, value) in line.values.enumerated() {
                if let rate = value.rate, categories[position] != MetricDimension.unknownKey {
                    run.append(c(x(position) + dx) + "," + c(y(rate)))
                } else {
                    flush()
                }
            }
            flush()
            for (position, value) in line.values.enumerated() {
                guard let rate = value.rate else { continue }
                let px = x(position) + dx
                if let low = value.low, let high = value.high {
                    out += "<line class=\"whisker \(colour)\" x1=\"\(c(px))\" x2=\"\(c(px))\" y1=\"\(c(y(low)))\" y2=\"\(c(y(high)))\"/>"
                }
                out += "<circle class=\"dot \(colour)\(value.small ? " small" : "")\" cx=\"\(c(px))\" cy=\"\(c(y(rate)))\" r=\"3.5\">"
                out += "<title>\(HTMLText.escape(categories[position] + ", " + line.name + ": " + value.summaryText))</title></circle>\n"
            }
        }
        return out + "</svg>\n"
    }

    // MARK: - Bars

    private func barSVG() -> String {
        let left = 168.0, right = 96.0, top = 10.0, barHeight = 12.0, barGap = 3.0, groupGap = 14.0
        let plotWidth = Chart.width - left - right
        let groupHeight = Double(series.count) * barHeight + Double(series.count - 1) * barGap + groupGap
        let plotHeight = max(Double(categories.count), 1) * groupHeight
        let height = top + plotHeight + 40
        func x(_ value: Double) -> Double { left + min(max(value, 0), 1) * plotWidth }
        var out = open(height: height)
        for step in 0...4 {
            let value = Double(step) / 4
            out += "<line class=\"grid\" x1=\"\(c(x(value)))\" x2=\"\(c(x(value)))\" y1=\"\(c(top))\" y2=\"\(c(top + plotHeight))\"/>"
            out += "<text class=\"axis\" x=\"\(c(x(value)))\" y=\"\(c(top + plotHeight + 16))\" text-anchor=\"middle\">\(step * 25)%</text>\n"
        }
        out += "<text class=\"axis caption\" x=\"\(c(left + plotWidth / 2))\" y=\"\(c(height - 6))\" text-anchor=\"middle\">share</text>\n"
        if categories.isEmpty {
            return out + "<text class=\"nodata\" x=\"\(c(left + plotWidth / 2))\" y=\"\(c(top + groupHeight / 2))\" text-anchor=\"middle\">No data</text>\n</svg>\n"
        }
        for (row, category) in categories.enumerated() {
            let groupTop = top + Double(row) * groupHeight + groupGap / 2
            let middle = groupTop + (groupHeight - groupGap) / 2
            out += "<text class=\"label\" x=\"\(c(left - 8))\" y=\"\(c(middle + 4))\" text-anchor=\"end\">"
            out += "<title>\(HTMLText.escape(category))</title>\(HTMLText.escape(HTMLText.shortened(category, 24)))</text>\n"
            for (index, line) in series.enumerated() {
                let value = line.values[row]
                let colour = "s\(index % 6 + 1)"
                let barTop = groupTop + Double(index) * (barHeight + barGap)
                let centre = barTop + barHeight / 2
                guard let rate = value.rate else {
                    out += "<text class=\"nodata small-text\" x=\"\(c(left + 4))\" y=\"\(c(centre + 4))\">no data</text>\n"
                    continue
                }
                out += "<rect class=\"bar \(colour)\(value.small ? " small" : "")\" x=\"\(c(left))\" y=\"\(c(barTop))\" "
                out += "width=\"\(c(max(x(rate) - left, 1)))\" height=\"\(c(barHeight))\">"
                out += "<title>\(HTMLText.escape(category + ", " + line.name + ": " + value.summaryText))</title></rect>"
                var end = x(rate)
                if let low = value.low, let high = value.high {
                    out += "<path class=\"whisker ink\" d=\"M\(c(x(low))) \(c(centre))H\(c(x(high)))M\(c(x(low))) \(c(centre - 4))v8M\(c(x(high))) \(c(centre - 4))v8\"/>"
                    end = max(end, x(high))
                }
                out += "<text class=\"value\" x=\"\(c(end + 6))\" y=\"\(c(centre + 4))\">\(HTMLText.escape(value.rateText))\(value.small ? " *" : "")</text>\n"
            }
        }
        return out + "</svg>\n"
    }

    // MARK: - Table

    private func table() -> String {
        let many = series.count > 1
        var out = "<div class=\"table-wrap\"><table>\n<caption>\(HTMLText.escape(title)): the numbers</caption>\n<thead><tr>"
        out += "<th scope=\"col\">\(HTMLText.escape(categoryName))</th>"
        if many { out += "<th scope=\"col\">Series</th>" }
        out += "<th scope=\"col\" class=\"num\">Numerator</th><th scope=\"col\" class=\"num\">Denominator</th>"
        out += "<th scope=\"col\" class=\"num\">Rate</th><th scope=\"col\">95% interval</th><th scope=\"col\">Sample</th></tr></thead>\n<tbody>\n"
        for (row, category) in categories.enumerated() {
            for (index, line) in series.enumerated() {
                let value = line.values[row]
                out += value.small ? "<tr class=\"small\">" : "<tr>"
                out += index == 0 || !many ? "<th scope=\"row\">\(HTMLText.escape(category))</th>" : "<th scope=\"row\" class=\"repeat\">\(HTMLText.escape(category))</th>"
                if many { out += "<td><span class=\"swatch s\(index % 6 + 1)\"></span>\(HTMLText.escape(line.name))</td>" }
                out += "<td class=\"num\">\(value.numerator.map(String.init) ?? "—")</td>"
                out += "<td class=\"num\">\(value.denominator.map(String.init) ?? "—")</td>"
                out += "<td class=\"num\">\(HTMLText.escape(value.rateText))</td>"
                out += "<td>\(HTMLText.escape(value.intervalText))</td>"
                out += "<td>\(value.denominator == nil ? "—" : value.small ? "small (n &lt; \(RateCell.smallSampleThreshold))" : "ok")</td></tr>\n"
            }
        }
        if categories.isEmpty {
            out += "<tr><td colspan=\"\(many ? 7 : 6)\">No data</td></tr>\n"
        }
        return out + "</tbody></table></div>\n"
    }
}
