/// One value of a chart and its table row: a rate, its interval and its counts.
struct ChartValue: Sendable {
    let rate: Double?
    let low: Double?
    let high: Double?
    /// `nil` for a value given without counts (a replay's in-budget share).
    let numerator: Int?
    let denominator: Int?
    let small: Bool
    let isMean: Bool

    init(rate: Double?, low: Double? = nil, high: Double? = nil, numerator: Int? = nil, denominator: Int? = nil,
         small: Bool = false, isMean: Bool = false) {
        self.rate = rate
        self.low = low
        self.high = high
        self.numerator = numerator
        self.denominator = denominator
        self.small = small
        self.isMean = isMean
    }

    init(_ cell: RateCell) {
        self.init(rate: cell.rate, low: cell.low, high: cell.high, numerator: cell.numerator,
                  denominator: cell.denominator, small: cell.smallSample, isMean: cell.metric.isMean)
    }

    /// The rate as shown: a percentage, or a mean.
    var rateText: String { isMean ? HTMLText.mean(rate) : HTMLText.percent(rate) }

    /// "38.1% – 46.0%", or "—".
    var intervalText: String {
        guard let low, let high else { return "—" }
        return HTMLText.percent(low) + " – " + HTMLText.percent(high)
    }

    /// "42.0% (84 of 200)", for titles and descriptions.
    var summaryText: String {
        guard let numerator, let denominator else { return rateText }
        return rateText + " (\(numerator) of \(denominator)" + (small ? ", small sample)" : ")")
    }
}

/// One line or bar series of a chart, its values aligned with the chart's categories.
struct ChartSeries: Sendable {
    let name: String
    let values: [ChartValue]
}
