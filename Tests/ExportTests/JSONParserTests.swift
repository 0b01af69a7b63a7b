import Testing
@testable import Export

@Suite struct JSONParserTests {
    @Test(arguments: [
        (#"null"#, JSONValue.null),
        (#"true"#, .bool(true)),
        (#" false "#, .bool(false)),
        (#"0"#, .number(0)),
        (#"-0"#, .number(-0.0)),
        (#"42"#, .number(42)),
        (#"-17"#, .number(-17)),
        (#"3.25"#, .number(3.25)),
        (#"1e3"#, .number(1000)),
        (#"1E+2"#, .number(100)),
        (#"-2.5e-3"#, .number(-0.0025)),
        (#"1.7976931348623157e308"#, .number(1.7976931348623157e308)),
        (#""""#, .string("")),
        (#""plain""#, .string("plain")),
        (#""a\"b\\c\/d""#, .string("a\"b\\c/d")),
        (#""\b\f\n\r\t""#, .string("\u{8}\u{C}\n\r\t")),
        (#""\u0041\u00e9\u4E2D""#, .string("Aé中")),
        (#""\u0000""#, .string("\u{0}")),
        (#""\uD83D\uDE00""#, .string("😀")),
        (#""x\ud834\udd1ey""#, .string("x𝄞y")),
        (#""héllo 中文 😀""#, .string("héllo 中文 😀")),
        // Escapes first, last, side by side and between runs of plain bytes (copied whole).
        (#""\nline one\nline \"two\"\t\u00e9t\u00E9 中\\""#, .string("\nline one\nline \"two\"\t\u{E9}t\u{E9} 中\\")),
        (#""\"\"""#, .string("\"\"")),
        (#""a\/b\u4e2d\uD83D\uDE00z""#, .string("a/b中😀z")),
        (#"[]"#, .array([])),
        (#"[1, "two", [true, null]]"#, .array([.number(1), .string("two"), .array([.bool(true), .null])])),
        (#"{}"#, .object([])),
        (#"{"a":1,"b":{"c":[]}}"#, .object([("a", .number(1)), ("b", .object([("c", .array([]))]))])),
        (#" { "k\u0065y" : "v" } "#, .object([("key", .string("v"))])),
        ("\t{\r\n\"a\"\t:\n[ ]\r}\n", .object([("a", .array([]))])),
    ])
    func parsesValidJSON(text: String, expected: JSONValue) throws {
        let value = try JSONValue(parsing: text)
        #expect(value == expected)
    }

    @Test(arguments: [
        ("", 1),
        ("   ", 4),
        ("{", 2),
        ("{\"a\"}", 5),
        ("{\"a\":}", 6),
        ("{\"a\":1,}", 8),
        ("{a:1}", 2),
        ("[1,]", 4),
        ("[1 2]", 4),
        ("[", 2),
        ("tru", 1),
        ("nul", 1),
        ("True", 1),
        ("01", 2),
        ("-", 2),
        ("1.", 3),
        (".5", 1),
        ("1e", 3),
        ("+1", 1),
        ("0x10", 2),
        ("\"abc", 1),
        ("\"a\\x\"", 3),
        ("\"\\u12G4\"", 6),
        ("\"\\uD800\"", 2),
        ("\"\\uDC00\"", 2),
        ("\"\\uD800\\u0041\"", 2),
        ("\"tab\there\"", 5),
        ("{} {}", 4),
        ("[1] x", 5),
        ("NaN", 1),
        ("[Infinity]", 2),
    ])
    func rejectsInvalidJSON(text: String, column: Int) {
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: text) }
        do {
            _ = try JSONValue(parsing: text)
        } catch {
            #expect(error.column == column)
            #expect(error.description.hasPrefix("invalid JSON at column \(column): "))
        }
    }

    @Test(arguments: [
        [0x22, 0xFF, 0x22],              // a byte that never starts UTF-8
        [0x22, 0xC3, 0x22],              // a sequence cut short
        [0x22, 0xC0, 0xAF, 0x22],        // overlong '/'
        [0x22, 0xED, 0xA0, 0x80, 0x22],  // an encoded surrogate
        [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF
        [0x22, 0xE2, 0x82, 0x22],        // three-byte sequence missing its last byte
    ] as [[UInt8]])
    func rejectsInvalidUTF8(bytes: [UInt8]) {
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: bytes) }
    }

    @Test func acceptsNestingUpToTheLimitAndRejectsDeeper() throws {
        let depth = JSONParser.maximumDepth
        let fits = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        _ = try JSONValue(parsing: fits)
        let deeper = String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1)
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: deeper) }
        let deepObjects = String(repeating: "{\"a\":", count: 100_000) + "1" + String(repeating: "}", count: 100_000)
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: deepObjects) }
    }

    @Test func duplicateKeysAreKeptInOrder() throws {
        let value = try JSONValue(parsing: #"{"a":1,"a":2}"#)
        #expect(value == .object([("a", .number(1)), ("a", .number(2))]))
    }

    @Test func errorsNeverQuoteTheInput() {
        do {
            _ = try JSONValue(parsing: #"{"text":"secret-canary" oops}"#)
            Issue.record("expected a syntax error")
        } catch {
            #expect(!error.description.contains("canary"))
            #expect(!error.description.contains("oops"))
        }
    }

    @Test(arguments: [
        ("0", 0), ("-12", -12), ("9223372036854775807", Int.max), ("-9223372036854775808", Int.min),
    ])
    func integersAreExact(text: String, expected: Int) throws {
        let bytes = Array(text.utf8)
        var tokens: [JSONToken] = []
        try bytes.withUnsafeBytes { raw in
            try JSONParser.parse(raw, into: &tokens)
            tokens.withUnsafeBufferPointer { tape in
                #expect(JSONDocument(bytes: raw, tokens: tape).integer(0) == expected)
            }
        }
    }

    @Test(arguments: ["9223372036854775808", "1.0", "1e2", "-0.5"])
    func nonIntegersAreNotIntegers(text: String) throws {
        let bytes = Array(text.utf8)
        var tokens: [JSONToken] = []
        try bytes.withUnsafeBytes { raw in
            try JSONParser.parse(raw, into: &tokens)
            tokens.withUnsafeBufferPointer { tape in
                #expect(JSONDocument(bytes: raw, tokens: tape).integer(0) == nil)
            }
        }
    }
}
