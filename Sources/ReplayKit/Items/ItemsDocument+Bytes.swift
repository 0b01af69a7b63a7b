import Jobs
import Privacy

/// The document as compact JSON straight into bytes: what `ReportValueEncoder` and
/// `ReportValue.compactJSON()` give (`ItemTableTests` holds them equal), without a node and a
/// value for each of hundreds of thousands of small numbers.
extension ItemsDocument {
    func jsonBytes() -> [UInt8] {
        var out = JSONBytes(capacity: 256 + count * 64)
        out.raw("{\"schema\":"); out.string(Self.schema)
        out.raw(",\"count\":"); out.int(count)
        out.raw(",\"jobs\":"); out.array(jobs) { $0.string($1.rawValue) }
        out.raw(",\"fallbacks\":"); out.array(fallbacks) { $0.string($1.rawValue) }
        out.raw(",\"never_rules\":"); out.array(neverRules) { $0.string($1.rawValue) }
        out.raw(",\"threads\":"); out.array(threads) { $0.hex16($1.value) }
        out.raw(",\"builds\":"); out.array(builds) { $0.string($1.text) }
        out.raw(",\"models\":"); out.array(models) { $0.string($1.text) }
        out.raw(",\"locales\":"); out.array(locales) { $0.string($1.text) }
        out.raw(",\"columns\":{")
        out.raw("\"key\":"); out.array(columns.key) { $0.hex16($1.value) }
        let ints: [(StaticString, [Int])] = [
            (",\"thread\":", columns.thread), (",\"job\":", columns.job), (",\"build\":", columns.build), (",\"model\":", columns.model),
            (",\"locale\":", columns.locale), (",\"flags\":", columns.flags), (",\"fallback\":", columns.fallback),
            (",\"host_us\":", columns.hostMicroseconds), (",\"device_us\":", columns.deviceMicroseconds),
            (",\"tokens_in\":", columns.tokensIn), (",\"tokens_out\":", columns.tokensOut), (",\"violations\":", columns.violations),
        ]
        for (key, column) in ints { out.raw(key); out.array(column) { $0.int($1) } }
        out.raw(",\"quality\":"); Self.appendMeasures(columns.quality, into: &out)
        out.raw(",\"quality_all_answers\":"); Self.appendMeasures(columns.qualityAllAnswers, into: &out)
        out.raw("}}\n")
        return out.bytes
    }

    /// `{"name":[value or null, …], …}`.
    private static func appendMeasures(_ measures: ResultMap<QualityName, [Int?]>, into out: inout JSONBytes) {
        out.raw("{")
        for (position, (name, column)) in measures.pairs.enumerated() {
            if position > 0 { out.raw(",") }
            out.string(name.name)
            out.raw(":")
            out.array(column) { out, value in if let value { out.int(value) } else { out.raw("null") } }
        }
        out.raw("}")
    }
}
