import Foundation
import Privacy
import Testing

/// `ReportValueEncoder` and `ReportValueDecoder`: the `Codable` bridge state files are written and
/// read through. Expected values are written out by hand from the encoder's documented mapping
/// (Int → .int, Double → .number, String → .label, Bool → .bool, nil → .null, keys in the order
/// encoded).
@Suite struct ReportValueCoderTests {
    enum Colour: String, Codable, Equatable { case red, deepBlue = "deep_blue" }

    enum Shape: Codable, Equatable {
        case dot
        case circle(radius: Double)
        case box(width: Int, height: Int)
    }

    struct Leg: Codable, Equatable {
        var name: String
        var metres: Double
        var colour: Colour
    }

    /// Keys deliberately not alphabetical; its `Codable` is the synthesized one, which writes an
    /// optional with `encodeIfPresent` and reads it with `decodeIfPresent`.
    struct Trip: Codable, Equatable {
        var zone: Int
        var alpha: String
        var legs: [Leg]
        var best: Leg?
        var limit: Int?
        var note: String?
        var flags: [Bool]
        var shape: Shape
    }

    static let trip = Trip(zone: 3, alpha: "a", legs: [Leg(name: "out", metres: 1500, colour: .red), Leg(name: "back", metres: 0.1, colour: .deepBlue)],
                           best: Leg(name: "out", metres: 1500, colour: .red), limit: nil, note: nil, flags: [true, false], shape: .box(width: 2, height: 5))

    @Test func aNestedStructEncodesInItsKeysOrderAndReadsBack() throws {
        let value = try ReportValueEncoder().encode(Self.trip)
        let out: ReportValue = .object([("name", .label("out")), ("metres", .number(1500)), ("colour", .label("red"))])
        let expected: ReportValue = .object([
            ("zone", .int(3)),
            ("alpha", .label("a")),
            ("legs", .array([out, .object([("name", .label("back")), ("metres", .number(0.1)), ("colour", .label("deep_blue"))])])),
            ("best", out),
            ("limit", .null),
            ("note", .null),
            ("flags", .array([.bool(true), .bool(false)])),
            // Swift's synthesized coding of an enum with associated values: {case: {label: value}}.
            ("shape", .object([("box", .object([("width", .int(2)), ("height", .int(5))]))])),
        ])
        #expect(value == expected)
        #expect(try ReportValueDecoder().decode(Trip.self, from: value) == Self.trip)
        // Through the exact JSON text and back, too.
        #expect(try ReportValueDecoder().decode(Trip.self, from: ReportValue(parsingExactJSON: value.exactJSON())) == Self.trip)
    }

    @Test(arguments: [Shape.dot, .circle(radius: 2.5), .box(width: -1, height: 0)])
    func enumsWithAndWithoutValuesReadBack(shape: Shape) throws {
        let value = try ReportValueEncoder().encode(shape)
        #expect(try ReportValueDecoder().decode(Shape.self, from: value) == shape)
        #expect(try ReportValueDecoder().decode(Colour.self, from: ReportValueEncoder().encode(Colour.deepBlue)) == .deepBlue)
    }

    /// The result files' rule: every key is written, an optional without a value as null, and
    /// every key is read, so a file missing one is refused by name (`encodeIfPresent` and
    /// `decodeIfPresent` included: a synthesized `Codable` is strict).
    @Test func optionalsAreAlwaysWrittenAndMustBeThere() throws {
        var trip = Self.trip
        trip.best = nil
        trip.limit = 7
        trip.note = "n"
        let value = try ReportValueEncoder().encode(trip)
        #expect(value["best"] == .null && value["limit"] == .int(7) && value["note"] == .label("n"))
        #expect(try ReportValueDecoder().decode(Trip.self, from: value) == trip)
        #expect(try ReportValueEncoder().encode(Self.trip)["note"] == .null)
        guard case .object(let fields) = value else { Issue.record("a trip is an object"); return }
        let withoutNote = ReportValue.object(fields.filter { $0.0 != "note" })
        #expect(throws: StateFormatError("note: missing")) { try ReportValueDecoder().decode(Trip.self, from: withoutNote) }
        #expect(try ReportValueEncoder().encode(Int?.none) == .null)
        #expect(try ReportValueDecoder().decode(Int?.self, from: .null) == nil)
        #expect(try ReportValueDecoder().decode([Int?].self, from: .array([.int(1), .null])) == [1, nil])
    }

    /// A block only some files carry: `@OmittedWhenNil` keeps the synthesized coding but leaves
    /// the key out when there is no value, and reads an absent key as nil and a null as an error.
    struct Block: Codable, Equatable {
        var name: String
        @OmittedWhenNil var extra: Leg?
        var after: Int
    }

    @Test func anOmittedFieldHasNoKeyWithoutAValue() throws {
        let leg = Leg(name: "x", metres: 1, colour: .red)
        let without = try ReportValueEncoder().encode(Block(name: "a", extra: nil, after: 2))
        #expect(without == .object([("name", .label("a")), ("after", .int(2))]))
        #expect(try ReportValueDecoder(strict: true).decode(Block.self, from: without) == Block(name: "a", extra: nil, after: 2))
        let with = try ReportValueEncoder().encode(Block(name: "a", extra: leg, after: 2))
        #expect(with == .object([("name", .label("a")), ("extra", try ReportValueEncoder().encode(leg)), ("after", .int(2))]))
        #expect(try ReportValueDecoder(strict: true).decode(Block.self, from: with) == Block(name: "a", extra: leg, after: 2))
        let null = ReportValue.object([("name", .label("a")), ("extra", .null), ("after", .int(2))])
        #expect(throws: StateFormatError.self) { try ReportValueDecoder().decode(Block.self, from: null) }
    }

    /// A strict reading refuses what no type reads: a key at any depth, or a key given twice,
    /// named by its path; a plain reading passes over both. Keys taken whole (a dictionary, a
    /// `ReportValue`) are read.
    @Test func aStrictReadingRefusesAKeyNoTypeReads() throws {
        let value = try ReportValueEncoder().encode(Self.trip)
        #expect(try ReportValueDecoder(strict: true).decode(Trip.self, from: value) == Self.trip)
        guard case .object(var fields) = value, case .array(var legs)? = value["legs"], case .object(var leg) = legs[1] else {
            Issue.record("a trip is an object with legs")
            return
        }
        leg.append(("hidden", .label("x")))
        legs[1] = .object(leg)
        fields[2] = ("legs", .array(legs))
        let deep = ReportValue.object(fields)
        #expect(try ReportValueDecoder().decode(Trip.self, from: deep) == Self.trip)
        #expect(throws: StateFormatError("legs[1]{3}: a key this file's type does not have")) {
            try ReportValueDecoder(strict: true).decode(Trip.self, from: deep)
        }
        let twice = ReportValue.object(fields.prefix(1) + [("zone", .int(4))] + fields.dropFirst())
        #expect(throws: StateFormatError("{1}: a key given twice")) { try ReportValueDecoder(strict: true).decode(Trip.self, from: twice) }
        let whole: ReportValue = .object([("a", .object([("b", .int(1))])), ("c", .int(2))])
        #expect(try ReportValueDecoder(strict: true).decode([String: ReportValue].self, from: whole).count == 2)
    }

    @Test func keysKeepTheOrderEncodedNotAnAlphabeticalOne() throws {
        let names = ["zeta", "alpha", "mu", "beta", "omega", "delta"]
        struct Pairs: Codable {
            let items: ResultMap<TokenLabel, Int>
        }
        let value = try ReportValueEncoder().encode(Pairs(items: ResultMap(names.enumerated().map { (TokenLabel($1), $0) })))
        guard case .object(let fields)? = value["items"] else { Issue.record("items are an object"); return }
        #expect(fields.map(\.0) == names)
        #expect(fields.map(\.1) == (0..<names.count).map { .int($0) })
        #expect(try ReportValueDecoder(strict: true).decode(Pairs.self, from: value).items.keys.map(\.text) == names)
    }

    /// Doubles survive writing and reading to the bit; an integer stays an integer and a whole
    /// double a number. The values are edge cases of binary64 (IEEE 754): the smallest subnormal,
    /// the largest finite, 0.1 (not exact in binary), a third, and negative zero.
    @Test(arguments: [0.1, 1.0 / 3.0, 800.0, Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude, -0.0, 123456789.125, 2.5e-7])
    func doublesReadBackExactly(d: Double) throws {
        let value = try ReportValueEncoder().encode([d])
        #expect(value == .array([.number(d)]))
        let back = try ReportValueDecoder().decode([Double].self, from: ReportValue(parsingExactJSON: value.exactJSON()))
        #expect(back.count == 1 && back[0].bitPattern == d.bitPattern)
        #expect(try ReportValueEncoder().encode(800) == .int(800))
        #expect(try ReportValueDecoder().decode(Double.self, from: .int(800)) == 800)   // a budget written as 800 reads as a number
    }

    struct Budgets: Codable { var chips: Double }
    struct Options: Codable { var budgets: Budgets }
    struct Top: Codable { var options: Options }

    @Test func aDecodeErrorNamesItsPathAndNotTheValue() throws {
        let value: ReportValue = .object([("options", .object([("budgets", .object([("chips", .label("a secret sentence"))]))]))])
        #expect(throws: StateFormatError("options.budgets.chips: expected a number")) {
            try ReportValueDecoder().decode(Top.self, from: value)
        }
        #expect(throws: StateFormatError("options.budgets.chips: missing")) {
            try ReportValueDecoder().decode(Top.self, from: .object([("options", .object([("budgets", .object([]))]))]))
        }
        var trip = try ReportValueEncoder().encode(Self.trip)
        guard case .object(var fields) = trip else { Issue.record("a trip is an object"); return }
        fields[2].1 = .array([.object([("name", .label("x")), ("metres", .int(1)), ("colour", .label("red"))]),
                              .object([("name", .int(4)), ("metres", .int(1)), ("colour", .label("red"))])])
        trip = .object(fields)
        #expect(throws: StateFormatError("legs[1].name: expected a string")) { try ReportValueDecoder().decode(Trip.self, from: trip) }
        #expect(throws: StateFormatError("[0]: an integer out of range")) { try ReportValueDecoder().decode([Int8].self, from: .array([.int(300)])) }
        #expect(throws: StateFormatError("[1]: expected an integer")) { try ReportValueDecoder().decode([Int].self, from: .array([.int(1), .number(1.5)])) }
        #expect(throws: StateFormatError("expected an object")) { try ReportValueDecoder().decode(Top.self, from: .array([])) }
        // A decoding error thrown by a type's own init (here Swift's, for an unknown raw value) keeps its path too.
        do {
            _ = try ReportValueDecoder().decode(Leg.self, from: .object([("name", .label("x")), ("metres", .int(1)), ("colour", .label("green"))]))
            Issue.record("an unknown colour was read")
        } catch {
            #expect(error.description == "colour: not a value this field can hold")
        }
        // A path given for a part read on its own prefixes the errors.
        #expect(throws: StateFormatError("options.budgets.chips: expected a number")) {
            try ReportValueDecoder().decode(Budgets.self, from: .object([("chips", .bool(true))]),
                                            at: [ReportKey("options"), ReportKey("budgets")])
        }
    }

    @Test func aReportValueInsideAValueIsKeptAsItIs() throws {
        struct Holder: Codable, Equatable { var block: ReportValue; var n: Int }
        let block: ReportValue = .object([("z", .array([.int(1), .number(2), .null, .label("k")])), ("a", .object([])), ("b", .bool(false))])
        let value = try ReportValueEncoder().encode(Holder(block: block, n: 1))
        #expect(value == .object([("block", block), ("n", .int(1))]))
        #expect(try ReportValueDecoder().decode(Holder.self, from: value) == Holder(block: block, n: 1))
    }

    @Test func userInfoReachesNestedValues() throws {
        struct Listed: Decodable { let agents: Set<String>; init(from decoder: any Decoder) throws { agents = decoder.teamLabels.agents } }
        struct Outer: Decodable { let inner: [Listed] }
        let list = TeamLabels(agents: ["Coach"], members: [])
        let value: ReportValue = .object([("inner", .array([.object([])]))])
        #expect(try ReportValueDecoder(userInfo: [.teamLabels: list]).decode(Outer.self, from: value).inner.first?.agents == ["Coach"])
        #expect(try ReportValueDecoder().decode(Outer.self, from: value).inner.first?.agents == [])
    }
}
