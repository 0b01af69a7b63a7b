import Confinement
import Foundation

/// The leak scan over a stream of any length, a buffer at a time: memory stays bounded however
/// much is fed.
///
/// Bytes are searched in buffers of about `bufferSize`. Each buffer keeps the last
/// `2 × overlap` bytes of the one before, and a match counts in the buffer where it starts at
/// least `overlap` bytes from either end (the first buffer from its start, the last to its
/// end), so every match is counted once and seen with at least `overlap` bytes around it: more
/// than any canary encoding or run of three words needs.
struct StreamSearch {
    static let overlap = 8 << 10
    static let bufferSize = 1 << 20

    let scanner: LeakScanner
    let canaryOnly: Bool
    private var pending: [UInt8] = []
    /// The stream offset of `pending[0]`, and the line breaks before it.
    private var base = 0
    private var linesBefore = 0
    /// Matches, by stream offset, with the 1-based line of the first.
    private(set) var canary: [Int] = []
    private(set) var outputs: [Int] = []
    private(set) var firstCanaryLine: Int?
    private(set) var firstOutputLine: Int?
    /// Bytes fed so far, and the first six of them (a magic number, for a stream inside).
    private(set) var count = 0
    private(set) var leading: [UInt8] = []

    init(scanner: LeakScanner, canaryOnly: Bool) {
        self.scanner = scanner
        self.canaryOnly = canaryOnly
    }

    mutating func feed(_ bytes: some Collection<UInt8>) {
        if leading.count < 6 { leading += bytes.prefix(6 - leading.count) }
        pending.append(contentsOf: bytes)
        count += bytes.count
        if pending.count >= Self.bufferSize + 2 * Self.overlap { search(final: false) }
    }

    /// Searches what is left; call once, at the end of the stream.
    mutating func finish() { search(final: true) }

    private mutating func search(final: Bool) {
        var hits = scanner.hits(in: pending)
        if canaryOnly { hits.outputs = [] }
        let from = base == 0 ? 0 : Self.overlap
        let to = final ? pending.count : pending.count - Self.overlap
        func line(_ offset: Int) -> Int {
            linesBefore + 1 + pending[..<offset].reduce(0) { $0 + ($1 == 0x0a ? 1 : 0) }
        }
        for offset in hits.canary where offset >= from && offset < to {
            if firstCanaryLine == nil { firstCanaryLine = line(offset) }
            canary.append(base + offset)
        }
        for offset in hits.outputs where offset >= from && offset < to {
            if firstOutputLine == nil { firstOutputLine = line(offset) }
            outputs.append(base + offset)
        }
        guard !final else { pending = []; return }
        let dropped = pending.count - 2 * Self.overlap
        linesBefore += pending[..<dropped].reduce(0) { $0 + ($1 == 0x0a ? 1 : 0) }
        base += dropped
        pending.removeFirst(dropped)
    }
}
