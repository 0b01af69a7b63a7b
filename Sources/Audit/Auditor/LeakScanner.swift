import Confinement
import Foundation
import Glibc
import Privacy

/// Looks for the canary and for model outputs in bytes a run wrote, and says where, never what.
///
/// **The canary** (`AuditCanary`: eight random words) is searched in every form a program could
/// turn it into on its way out: any four consecutive of its words (44 random bits, so they cannot
/// occur by chance) standing as whole words joined by anything but letters (spaces, `_`, `-`,
/// `%20`, `\u0020`, line breaks: at most `separatorLimit` bytes between two) or by nothing at
/// all (`ravelkinship`, `RavelKinship`); the whole canary as hex of its characters; UTF-16 LE
/// and BE; JSON `\u` escapes; percent-encoding; and base64 and base64url at each of the three
/// alignments a byte string can start at. All but base64 are matched without regard to case.
/// Runs of hex digits and of base64 are also decoded (`DecodedRuns`: a hex dump with separators
/// or a dump's layout, base64 wrapped at any width) and what they decode to is searched for the
/// canary and for outputs alike. A zstd, gzip,
/// xz, bzip2 or zip file is also scanned decompressed, to its end, a buffer at a time
/// (`CompressedStream`, `StreamSearch`: memory stays bounded whatever the size); a zip's member
/// names are scanned too. A stream its tool cannot read to its end is an `unscanned-entry`
/// finding, except in scans for the canary alone (files other programs leave in /tmp).
///
/// `scan(directory:places:)` walks a directory by the bytes of each name (`DirectoryEntries`),
/// so a name that is not UTF-8 or a path past `PATH_MAX` is scanned like any other.
///
/// **Outputs** are recognised by their salted fingerprints (`OutputFingerprint`). A finding names
/// the file or stream, the first line and byte offset and how many places matched: the matching
/// text itself is never kept.
public struct LeakScanner: Sendable {
    /// Needles compared byte for byte, after folding ASCII letters to lower case. The first is
    /// the canary as planted; its length is the width within which matches count once.
    let foldedNeedles: [[UInt8]]
    /// Needles compared exactly (base64).
    let exactNeedles: [[UInt8]]
    /// The canary's words (folded), looked for as runs of letters however they are joined.
    let words: [[UInt8]]
    let fingerprint: OutputFingerprint
    let digests: Set<UInt64>

    /// The most bytes that may stand between two of the canary's words for them to count as
    /// consecutive (`"\u0020"` is 6; a line break and indentation fit too).
    public static let separatorLimit = 8

    /// A scanner for `canary` (`AuditCanary.text`; any text of words joined by single spaces)
    /// and for the outputs whose fingerprints are `digests`.
    public init(canary: String, fingerprint: OutputFingerprint, digests: Set<UInt64>) {
        let text = Array(canary.lowercased().utf8)
        let words = text.split(separator: UInt8(ascii: " ")).map(Array.init)
        let run = min(AuditCanary.runLength, words.count)
        var folded: [[UInt8]] = [text]
        for start in 0...(words.count - run) { folded.append(Array(words[start..<start + run].joined())) }
        folded.append(Array(text.map { Self.hexPair($0) }.joined()))
        folded.append(Array(text.map { [$0, 0] }.joined()))
        folded.append(Array(text.map { [0, $0] }.joined()))
        folded.append(Array(text.map { Array("\\u00".utf8) + Self.hexPair($0) }.joined()))
        folded.append(Array(text.map { [UInt8(ascii: "%")] + Self.hexPair($0) }.joined()))
        var exact: [[UInt8]] = []
        for variant in [text, Array(canary.uppercased().utf8)] {
            for alignment in 0..<3 {
                let stable = Self.base64Stable(variant, alignment: alignment)
                exact.append(stable)
                exact.append(stable.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: "-") : $0 == UInt8(ascii: "/") ? UInt8(ascii: "_") : $0 })
            }
        }
        foldedNeedles = folded
        exactNeedles = exact
        self.words = words
        self.fingerprint = fingerprint
        self.digests = digests
    }

    /// Where in some bytes the canary or an output was found.
    public struct Hits: Sendable, Equatable {
        public var canary: [Int] = []
        public var outputs: [Int] = []
        public var isEmpty: Bool { canary.isEmpty && outputs.isEmpty }
    }

    /// Byte offsets of canary and output matches in `bytes`, and in what its runs of hex and
    /// base64 decode to (`DecodedRuns`; a match there is placed at the encoding's first byte).
    public func hits(in bytes: [UInt8]) -> Hits {
        var hits = directHits(in: bytes)
        let decoded = DecodedRuns(bytes)
        guard !decoded.isEmpty else { return hits }
        let inner = directHits(in: decoded.bytes)
        guard !inner.isEmpty else { return hits }
        let width = foldedNeedles.first?.count ?? 1
        var canary: [Int] = []
        for offset in Set(hits.canary + inner.canary.map { Int(decoded.origins[$0]) }).sorted()
        where canary.last.map({ offset >= $0 + width }) ?? true {
            canary.append(offset)
        }
        hits.canary = canary
        hits.outputs = Set(hits.outputs + inner.outputs.map { Int(decoded.origins[$0]) }).sorted()
        return hits
    }

    /// Byte offsets of canary and output matches in `bytes` as they are.
    func directHits(in bytes: [UInt8]) -> Hits {
        var hits = Hits()
        var found: Set<Int> = []
        let folded = bytes.map(Self.fold)
        for needle in foldedNeedles { Self.search(needle, in: folded, into: &found) }
        for needle in exactNeedles { Self.search(needle, in: bytes, into: &found) }
        Self.searchWords(words, in: folded, into: &found)
        // A whole canary and its halves found at one place count once.
        let width = foldedNeedles.first?.count ?? 1
        for offset in found.sorted() where hits.canary.last.map({ offset >= $0 + width }) ?? true {
            hits.canary.append(offset)
        }
        if !digests.isEmpty {
            hits.outputs = fingerprint.matches(in: String(decoding: bytes, as: UTF8.self), digests: digests).map(\.offset)
        }
        return hits
    }

    /// Findings for the bytes written to `location` (a path, or `stdout`/`stderr`); `what` says
    /// what the bytes were when they are not the file's contents ("the name of an entry").
    /// `canaryOnly`: look for the canary alone (in files other programs may have written too).
    public func findings(in bytes: [UInt8], location: String, what: String? = nil, canaryOnly: Bool = false) -> [AuditFinding] {
        var findings = judge(bytes, location: location, what: what, canaryOnly: canaryOnly)
        if what == nil, CompressedStream.format(of: bytes) != nil {
            // The tools read a descriptor (unzip must seek): an unnamed copy, never linked.
            guard let copy = Self.unnamedCopy(bytes) else {
                if !canaryOnly { findings.append(Self.unscanned(location, "no unnamed temporary file could hold its compressed bytes for the tool")) }
                return findings
            }
            defer { close(copy) }
            findings += decompressedFindings(descriptor: copy, leading: bytes.prefix(6), location: location, canaryOnly: canaryOnly)
        }
        return findings
    }

    /// Findings for the regular file open at `descriptor`, read from its start to its end a
    /// buffer at a time (and decompressed, when it is a compressed stream); and its size.
    public func findings(inFile descriptor: Int32, location: String, canaryOnly: Bool = false) -> (findings: [AuditFinding], bytes: Int) {
        guard lseek(descriptor, 0, SEEK_SET) == 0 else { return ([Self.unscanned(location, "it could not be read from its start")], 0) }
        var search = StreamSearch(scanner: self, canaryOnly: canaryOnly)
        var leading: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count < 0 { return ([Self.unscanned(location, "reading it failed")], search.count) }
            if count == 0 { break }
            if leading.count < 6 { leading += buffer[..<min(count, 6 - leading.count)] }
            search.feed(buffer[..<count])
        }
        search.finish()
        var findings = report(search, location: location, what: nil)
        if CompressedStream.format(of: leading) != nil {
            findings += decompressedFindings(descriptor: descriptor, leading: leading, location: location, canaryOnly: canaryOnly)
        }
        return (findings, search.count)
    }

    /// Findings in the decompressed contents of the compressed file at `descriptor` (and, for
    /// a zip, in its members' names); when what comes out is itself a compressed stream, in its
    /// contents too, up to `CompressedStream.depthLimit` streams deep.
    func decompressedFindings(descriptor: Int32, leading: some Collection<UInt8>, location: String, canaryOnly: Bool) -> [AuditFinding] {
        guard let format = CompressedStream.format(of: leading) else { return [] }
        var findings: [AuditFinding] = []
        var formats = [format]
        while true {
            let name = formats.map(\.rawValue).joined(separator: "+")
            var contents = StreamSearch(scanner: self, canaryOnly: canaryOnly)
            let outcome = CompressedStream.decompress(formats, descriptor: descriptor) { contents.feed($0) }
            contents.finish()
            findings += report(contents, location: location, what: "the \(name)-decompressed contents")
            if !canaryOnly { findings += Self.unread(outcome, location: location, what: "\(name)-compressed contents") }
            guard outcome == .read, let inner = CompressedStream.format(of: contents.leading) else { break }
            guard formats.count < CompressedStream.depthLimit else {
                if !canaryOnly { findings.append(Self.unscanned(location, "it nests compressed streams deeper than \(CompressedStream.depthLimit)")) }
                break
            }
            formats.append(inner)
        }
        if format == .zip {
            var names = StreamSearch(scanner: self, canaryOnly: canaryOnly)
            let listed = CompressedStream.memberNames(zipAt: descriptor) { names.feed($0) }
            names.finish()
            findings += report(names, location: location, what: "the names of the zip members")
            if !canaryOnly { findings += Self.unread(listed, location: location, what: "zip member names") }
        }
        return findings
    }

    /// An `unscanned-entry` finding when a decompression did not read `what` to its end.
    static func unread(_ outcome: CompressedStream.Outcome, location: String, what: String) -> [AuditFinding] {
        switch outcome {
        case .read: []
        case .toolMissing(let tool): [unscanned(location, "\(tool) is not installed, so its \(what) could not be read")]
        case .failed: [unscanned(location, "its \(what) could not be read to the end")]
        case .nestedZip: [unscanned(location, "its \(what) hold a zip, which unzip cannot read from a stream")]
        }
    }

    /// Findings from a finished stream search, as `judge` words them.
    func report(_ search: StreamSearch, location: String, what: String?) -> [AuditFinding] {
        var findings: [AuditFinding] = []
        let place = what.map { "\($0) of \(location)" } ?? location
        func detail(_ offsets: [Int], _ line: Int?) -> String {
            "\(offsets.count) place\(offsets.count == 1 ? "" : "s"), first at line \(line ?? 1), byte \(offsets[0])"
        }
        if let first = search.canary.first {
            findings.append(AuditFinding(
                rule: .canaryInOutput,
                message: "The canary planted in the prompts was written to \(place) (\(detail(search.canary, search.firstCanaryLine))).",
                location: location, line: what == nil ? search.firstCanaryLine : nil, byteOffset: what == nil ? first : nil,
                occurrences: search.canary.count))
        }
        if let first = search.outputs.first {
            findings.append(AuditFinding(
                rule: .modelOutputInOutput,
                message: "Words of a model output were written to \(place) (\(detail(search.outputs, search.firstOutputLine))).",
                location: location, line: what == nil ? search.firstOutputLine : nil, byteOffset: what == nil ? first : nil,
                occurrences: search.outputs.count))
        }
        return findings
    }

    static func unscanned(_ location: String, _ why: String) -> AuditFinding {
        AuditFinding(rule: .unscannedEntry, message: "\(location) was not scanned whole: \(why).", location: location)
    }

    /// What a directory scan found, and how much it read.
    public struct DirectoryScan: Sendable {
        public var findings: [AuditFinding] = []
        /// Files read (contents), and bytes read from them (before decompression) and from
        /// names, link targets and extended attributes.
        public var sources = 0
        public var bytes = 0
    }

    /// Scans everything beneath `directory`: each entry's name (its bytes, as the kernel holds
    /// them), a symbolic link's target, every extended attribute, and each regular file's
    /// contents to their end (decompressed too). An entry that cannot be read is an
    /// `unscanned-entry` finding. `places` names the entries in findings.
    public func scan(directory: String, places: PlaceNames) -> DirectoryScan {
        var scan = DirectoryScan()
        let walk = DirectoryEntries(root: directory)
        guard walk.rootOpened else {
            scan.findings.append(Self.unscanned(directory, "the directory could not be opened"))
            return scan
        }
        for entry in walk.entries {
            let relative = entry.relativePath
            // A name that is not UTF-8 is shown by its hash (PlaceNames withholds what is not a plain token).
            let location = places.show(directory + "/" + String(decoding: relative, as: UTF8.self))
            var texts: [(String, [UInt8])] = [("the name of an entry", relative)]
            if entry.kind == .symbolicLink {
                let target: [UInt8]? = walk.withShortPath(entry) { path in
                    var bytes = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
                    let length = readlink(path, &bytes, bytes.count - 1)
                    return length > 0 ? bytes[..<length].map { UInt8(bitPattern: $0) } : nil
                } ?? nil
                if let target { texts.append(("a symbolic link's target", target)) }
            }
            texts += walk.withShortPath(entry) { ExtendedAttributes.texts(atPath: $0) } ?? []
            for (what, bytes) in texts {
                scan.bytes += bytes.count
                scan.findings += findings(in: bytes, location: location, what: what)
            }
            guard entry.kind == .regularFile else { continue }
            let descriptor = walk.openFile(entry)
            guard descriptor >= 0 else {
                scan.findings.append(Self.unscanned(location, "the file could not be opened"))
                continue
            }
            let (found, bytes) = findings(inFile: descriptor, location: location)
            close(descriptor)
            scan.sources += 1
            scan.bytes += bytes
            scan.findings += found
        }
        for entry in walk.unreachable {
            let location = places.show(directory + "/" + String(decoding: entry.relativePath, as: UTF8.self))
            scan.findings.append(Self.unscanned(location, "the directory could not be read (or lies deeper than \(DirectoryEntries.depthLimit) directories)"))
        }
        return scan
    }

    /// An unnamed temporary file (`O_TMPFILE`: never linked into the file system, gone when
    /// closed) holding `bytes`, read from its start; nil when none can be made.
    static func unnamedCopy(_ bytes: [UInt8]) -> Int32? {
        // O_TMPFILE is a macro Swift does not import: __O_TMPFILE | O_DIRECTORY, the same on
        // every Linux architecture Swift runs on.
        let temporaryFile: Int32 = 0o20000000 | O_DIRECTORY
        let descriptor = open(NSTemporaryDirectory(), temporaryFile | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { close(descriptor); return nil }
            written += count
        }
        return descriptor
    }

    func judge(_ bytes: [UInt8], location: String, what: String?, canaryOnly: Bool) -> [AuditFinding] {
        var hits = hits(in: bytes)
        if canaryOnly { hits.outputs = [] }
        var findings: [AuditFinding] = []
        let place = what.map { "\($0) of \(location)" } ?? location
        func detail(_ offsets: [Int]) -> String {
            let first = offsets[0]
            let count = "\(offsets.count) place\(offsets.count == 1 ? "" : "s")"
            return what == nil || what!.hasSuffix("contents") ? "\(count), first at line \(Self.line(of: first, in: bytes)), byte \(first)" : count
        }
        if let first = hits.canary.first {
            findings.append(AuditFinding(
                rule: .canaryInOutput,
                message: "The canary planted in the prompts was written to \(place) (\(detail(hits.canary))).",
                location: location, line: what == nil ? Self.line(of: first, in: bytes) : nil, byteOffset: what == nil ? first : nil,
                occurrences: hits.canary.count))
        }
        if let first = hits.outputs.first {
            findings.append(AuditFinding(
                rule: .modelOutputInOutput,
                message: "Words of a model output were written to \(place) (\(detail(hits.outputs))).",
                location: location, line: what == nil ? Self.line(of: first, in: bytes) : nil, byteOffset: what == nil ? first : nil,
                occurrences: hits.outputs.count))
        }
        return findings
    }

    /// Adds every offset where `needle` starts in `bytes`.
    static func search(_ needle: [UInt8], in bytes: [UInt8], into found: inout Set<Int>) {
        guard let first = needle.first, needle.count <= bytes.count else { return }
        let last = bytes.count - needle.count
        bytes.withUnsafeBufferPointer { haystack in
            needle.withUnsafeBufferPointer { pattern in
                var at = 0
                while at <= last {
                    // memchr finds the next candidate first byte far faster than a loop here.
                    guard let hit = memchr(haystack.baseAddress! + at, Int32(first), last - at + 1) else { return }
                    at = haystack.baseAddress!.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    var index = 1
                    while index < pattern.count, haystack[at + index] == pattern[index] { index += 1 }
                    if index == pattern.count { found.insert(at) }
                    at += 1
                }
            }
        }
    }

    /// Adds every offset where `AuditCanary.runLength` consecutive words of `words` start, each a
    /// whole run of letters in `folded`, with 1 to `separatorLimit` bytes other than letters (or
    /// escape sequences: `\n`, `\u0020`) between one and the next.
    static func searchWords(_ words: [[UInt8]], in folded: [UInt8], into found: inout Set<Int>) {
        let run = min(AuditCanary.runLength, words.count)
        guard run > 0 else { return }
        let lengths = Set(words.map(\.count))
        let firsts = Set(words.compactMap(\.first))
        // chain[q]: how many runs just read were the canary's words up to its word q, in order.
        var chain = [Int](repeating: 0, count: words.count)
        var starts: [Int] = []   // where the last `run` of those runs start, the newest last
        var previousEnd = Int.min / 2
        func breakChain() {
            chain = chain.map { _ in 0 }
            starts = []
        }
        folded.withUnsafeBufferPointer { bytes in
            var at = 0
            while at < bytes.count {
                if bytes[at] == UInt8(ascii: "\\"), at + 1 < bytes.count, isLetter(bytes[at + 1]) {
                    at = escapeEnd(bytes, at)
                    continue
                }
                guard isLetter(bytes[at]) else { at += 1; continue }
                let start = at
                while at < bytes.count, isLetter(bytes[at]) { at += 1 }
                let length = at - start
                if start - previousEnd > separatorLimit { breakChain() }
                previousEnd = at
                guard lengths.contains(length), firsts.contains(bytes[start]) else { breakChain(); continue }
                var next = chain
                for (index, word) in words.enumerated() {
                    let equal = word.count == length && word.withUnsafeBufferPointer {
                        memcmp($0.baseAddress!, bytes.baseAddress! + start, length) == 0
                    }
                    next[index] = equal ? (index > 0 ? chain[index - 1] : 0) + 1 : 0
                }
                chain = next
                guard chain.contains(where: { $0 > 0 }) else { starts = []; continue }
                starts.append(start)
                if starts.count > run { starts.removeFirst() }
                if chain.contains(where: { $0 >= run }) { found.insert(starts[starts.count - run]) }
            }
        }
    }

    static func isLetter(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7a }

    /// Where the escape sequence at `at` (a backslash before a letter) ends: `\n`, `\t` and the
    /// like are two bytes, `\u0020` six, `\x20` four. An escape joins words like a space does,
    /// so its letter must not read as a word.
    static func escapeEnd(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int) -> Int {
        let digits = bytes[at + 1] == UInt8(ascii: "u") ? 4 : bytes[at + 1] == UInt8(ascii: "x") ? 2 : 0
        var end = at + 2
        while end < min(bytes.count, at + 2 + digits), isHexDigit(bytes[end]) { end += 1 }
        return end
    }

    static func isHexDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) }

    static func fold(_ byte: UInt8) -> UInt8 { (0x41...0x5a).contains(byte) ? byte | 0x20 : byte }

    static func hexPair(_ byte: UInt8) -> [UInt8] {
        let digits = Array("0123456789abcdef".utf8)
        return [digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]]
    }

    /// The base64 characters that depend on `bytes` alone when they start `alignment` bytes into
    /// an encoded string: what any encoding of a text holding them contains at that alignment.
    static func base64Stable(_ bytes: [UInt8], alignment: Int) -> [UInt8] {
        let encoded = Array(Data([UInt8](repeating: 0, count: alignment) + bytes).base64EncodedString().utf8)
        let firstBit = alignment * 8, endBit = (alignment + bytes.count) * 8
        let first = (firstBit + 5) / 6, end = endBit / 6
        return first < end ? Array(encoded[first..<end]) : []
    }

    /// The 1-based line of a byte offset.
    static func line(of offset: Int, in bytes: [UInt8]) -> Int {
        var line = 1
        for byte in bytes[..<min(offset, bytes.count)] where byte == 0x0a { line += 1 }
        return line
    }
}
