import Testing
@testable import Export

/// The vector scan for a string's next special byte must find exactly what the byte-by-byte
/// scan finds.
@Suite struct StringScanTests {
    /// Every byte value at every offset around the 16- and 32-byte boundaries, from every start
    /// before it, in buffers whose ends fall on and around those boundaries.
    @Test func everyByteAtEveryOffsetAroundTheVectorBoundaries() {
        for length in [15, 16, 17, 31, 32, 33, 48] {
            var buffer = [UInt8](repeating: UInt8(ascii: "a"), count: length)
            for offset in 0..<length {
                for value in 0...255 {
                    buffer[offset] = UInt8(value)
                    buffer.withUnsafeBufferPointer { bytes in
                        guard let base = bytes.baseAddress else { return }
                        for start in Set([0, 1, max(0, offset - 16), max(0, offset - 15), offset]) where start <= offset {
                            let vector = JSONParser.firstSpecialByte(base, from: start, end: length)
                            let scalar = JSONParser.scalarFirstSpecialByte(base, from: start, end: length)
                            if vector != scalar {
                                Issue.record("byte \(value) at \(offset) of \(length), from \(start): \(vector) vs \(scalar)")
                            }
                        }
                    }
                    buffer[offset] = UInt8(ascii: "a")
                }
            }
        }
    }

    /// Random bytes, mostly plain ASCII with a few special ones, from random starts.
    @Test func randomBuffersAgree() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...100, using: &generator)
            let rate = Int.random(in: 1...64, using: &generator)
            let buffer = (0..<length).map { _ in
                Int.random(in: 0..<rate, using: &generator) == 0 ? UInt8.random(in: 0...255, using: &generator)
                    : UInt8.random(in: 0x20...0x7E, using: &generator)
            }
            buffer.withUnsafeBufferPointer { bytes in
                guard let base = bytes.baseAddress else { return }
                let start = Int.random(in: 0...length, using: &generator)
                #expect(JSONParser.firstSpecialByte(base, from: start, end: length)
                        == JSONParser.scalarFirstSpecialByte(base, from: start, end: length))
            }
        }
    }

    /// A string's special bytes at every position relative to the vector width: parsing finds
    /// the same string end, the same escapes and the same errors as where the scan is trivial.
    @Test func stringsParseTheSameAtEveryAlignment() throws {
        let specials: [(String, Bool)] = [("\"", true), ("\\n", true), ("\\u00e9", true), ("é", true), ("\u{1}", false), ("\\x", false)]
        for padding in 0..<40 {
            for (special, valid) in specials {
                let body = String(repeating: "a", count: padding) + special + String(repeating: "b", count: 40 - padding)
                let line = #"{"k":""# + body + #""}"#
                let parsed = Result { () throws(JSONSyntaxError) in try JSONValue(parsing: line) }
                if special == "\"" {
                    // The quote ends the string early: the rest is not valid JSON.
                    guard case .failure = parsed else { Issue.record("an early quote at \(padding) parsed"); continue }
                } else if valid {
                    guard case .success(.object(let members)) = parsed, case .string(let value) = members.first?.1 else {
                        Issue.record("\(special.count)-byte special at \(padding) did not parse")
                        continue
                    }
                    #expect(value.hasPrefix(String(repeating: "a", count: padding)))
                    #expect(value.hasSuffix(String(repeating: "b", count: 40 - padding)))
                } else {
                    guard case .failure(let error) = parsed else { Issue.record("invalid special at \(padding) parsed"); continue }
                    // `{"k":"` is 6 bytes: the offending byte is column 7 + padding.
                    #expect(error.column == 7 + padding)
                }
            }
        }
    }
}
