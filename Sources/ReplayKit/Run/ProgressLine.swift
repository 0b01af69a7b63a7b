import Engine
import Foundation

/// A live progress line on stderr when it is a terminal; silent otherwise.
///
/// Shows counts and rates only. The fraction done comes from input bytes read against the
/// files' sizes, which is known up front even for compressed input.
final class ProgressLine {
    private let enabled: Bool
    private let started = ContinuousClock.now
    private var lastDrawn = ContinuousClock.now - .seconds(1)
    private var drewSomething = false

    init(enabled: Bool = isatty(2) == 1) {
        self.enabled = enabled
    }

    /// Redraws at most five times a second.
    func update(threads: Int, asked: Int, fraction: @autoclosure () -> Double?, force: Bool = false) {
        guard enabled else { return }
        let now = ContinuousClock.now
        guard force || now - lastDrawn >= .milliseconds(200) else { return }
        lastDrawn = now
        let seconds = max(0.001, started.millisecondsSince / 1000)
        var line = "replay: \(threads) threads, \(asked) model requests, \(String(format: "%.1f", Double(threads) / seconds)) threads/s"
        if let fraction = fraction(), fraction > 0.001 {
            let remaining = seconds / fraction * (1 - fraction)
            line += String(format: ", %.0f%%, ETA %@", fraction * 100, Self.duration(remaining))
        }
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
        drewSomething = true
    }

    /// Clears the line.
    func finish() {
        guard enabled, drewSomething else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? "\(s / 3600)h\(s % 3600 / 60)m" : s >= 60 ? "\(s / 60)m\(s % 60)s" : "\(s)s"
    }
}
