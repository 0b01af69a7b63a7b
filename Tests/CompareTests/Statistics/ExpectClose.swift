import Testing

/// Expects `actual` within `relative` · |expected| of `expected` (or within `absolute`, for
/// expected values at or near zero); nil fails. `label` names the value in a failure.
func expectClose(_ actual: Double?, _ expected: Double, relative: Double = 1e-12, absolute: Double = 0,
                 _ label: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
    guard let actual else {
        Issue.record(Comment(rawValue: "\(label): expected \(expected), got nil"), sourceLocation: sourceLocation)
        return
    }
    let tolerance = max(relative * abs(expected), absolute)
    #expect(actual == expected || abs(actual - expected) <= tolerance,
            Comment(rawValue: "\(label): \(actual) is not within \(tolerance) of \(expected)"),
            sourceLocation: sourceLocation)
}
