import Foundation

/// Fixed-point decimals exactly as `String(format: "%.Nf", value)` writes them, through the C
/// library's `vsnprintf` directly.
///
/// Foundation's `String(format:)` on Linux formats a `%f` with the C library too, after parsing
/// the format into a CFString with a locale-aware machinery around it; for the dashboard's
/// hundreds of coordinates and rates that machinery was most of the time spent writing the
/// files, which runs after reading, on one core. The process never sets a C locale, so the
/// decimal point is `.`, as Foundation's (no locale) is. Non-finite values and any output too
/// long for the buffer go to `String(format:)` itself.
enum DecimalText {
    /// The longest output formatted here (a `%.6f` of up to about 1e250 fits).
    private static let capacity = 256

    /// `value` with `digits` decimals, as `String(format: "%.<digits>f", value)`.
    static func fixed(_ value: Double, digits: Int) -> String {
        guard value.isFinite, digits >= 0, digits <= 20 else { return String(format: "%.\(digits)f", value) }
        let text: String? = withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer in
            guard let base = buffer.baseAddress else { return nil }
            let written = withVaList([Int32(digits), value]) { vsnprintf(base, capacity, "%.*f", $0) }
            guard written > 0, Int(written) < capacity else { return nil }
            return String(decoding: UnsafeRawBufferPointer(start: base, count: Int(written)), as: UTF8.self)
        }
        return text ?? String(format: "%.\(digits)f", value)
    }
}
