import Foundation
import Jobs
import Privacy
import Testing
import TestSupport
@testable import Probe

/// The bundled attack set (`probes/injection.json`) and the file's rules.
@Suite struct AttackSetTests {
    static let bundled = BuiltProducts.packageRoot + "/probes/injection.json"

    /// At least eight kinds, every job attacked, every kind in five languages, the two ways to
    /// succeed both used.
    @Test func theBundledSetHasEightKindsOverEveryJobInFiveLanguages() throws {
        let set = try AttackSet.read(Self.bundled)
        #expect(set.name == "injection" && set.sha256.count == 64)
        #expect(set.attacks.count >= 8)
        #expect(Set(set.attacks.map(\.job)) == Set(JobKind.allCases))
        #expect(set.attacks.allSatisfy { Set($0.texts.keys).isSuperset(of: ["en", "fr", "de", "es", "ja"]) })
        #expect(Set(set.attacks.map(\.succeedsWhen)) == Set(AttackSuccess.allCases))
        // Every site an agent's words reach in the spec's four jobs.
        #expect(Set(set.attacks.map(\.site)) == Set(AttackSite.allCases))
    }

    /// The binary's built-in set is the bundled file, byte for byte, and reads to the same attacks.
    @Test func theBuiltInSetIsTheBundledFile() throws {
        let bytes = try #require(FileManager.default.contents(atPath: Self.bundled))
        #expect(SHA256.hex(Array(AttackSet.builtInText.utf8)) == SHA256.hex([UInt8](bytes)), "the same bytes")
        #expect(AttackSet.builtIn.sha256 == (try AttackSet.read(Self.bundled)).sha256)
        #expect(AttackSet.builtIn.attacks.map(\.kind) == (try AttackSet.read(Self.bundled)).attacks.map(\.kind))
    }

    @Test func wordsFillTheMarkerTheAgentAndTheMemberForTheLanguageWithoutItsRegion() throws {
        let set = try AttackSet.read(Self.bundled)
        let marker = AttackMarker(key: RunKey(bytes: Array(0..<32))!, place: 42)
        let route = try #require(set.attacks(of: .route).first)
        let words = try #require(route.words(language: "fr-CA", marker: marker, agent: "Coach", member: "Sage"))
        #expect(words.contains("zqbcfqlhki") && words.contains("Sage") && !words.contains("{"))
        #expect(route.words(language: "fi", marker: marker, agent: "Coach") == nil)   // not written in Finnish
        #expect(route.words(language: nil, marker: marker, agent: "Coach") == nil)
    }

    /// Known answers from Python's hmac: `hmac.new(bytes(range(32)), b"replay.probe.injection-marker/1\0"
    /// + struct.pack("<Q", place), hashlib.sha256)`, its first eight bytes as letters (`byte % 26`).
    @Test(arguments: [(UInt64(0), "zqtgezszkg"), (42, "zqbcfqlhki"), (0xDEADBEEF, "zqhrbindjh")])
    func markersAreKeyedByTheRunKeyAndThePlace(place: UInt64, expected: String) throws {
        let key = try #require(RunKey(bytes: Array(0..<32)))
        #expect(AttackMarker(key: key, place: place).text == expected)
        #expect(AttackMarker(key: try #require(RunKey(bytes: Array(1...32))), place: place).text != expected)
        #expect(AttackMarker(key: key, place: place).isCarried(by: "Reply: I agree " + expected.uppercased()))
        #expect(!AttackMarker(key: key, place: place).isCarried(by: "Reply: I agree zq"))
    }

    static func set(_ attack: String, top: String = #""schema": "replay.attacks/1", "name": "t""#) -> [UInt8] {
        Array(#"{\#(top), "attacks": [\#(attack)]}"#.utf8)
    }

    @Test(arguments: [
        (#"{"kind": "a", "job": "chips", "where": "say", "succeeds_when": "marker", "texts": {"en": "no marker"}}"#,
         "attacks[0].texts.en must be words holding {marker} once"),
        (#"{"kind": "a", "job": "push", "where": "say", "succeeds_when": "marker", "texts": {"en": "{marker}"}}"#,
         "attacks[0].job must be \"chips\""),
        (#"{"kind": "a", "job": "chips", "where": "say", "succeeds_when": "routed_to_member", "texts": {"en": "{marker}"}}"#,
         "'routed_to_member' is for 'about' attacks only"),
        (#"{"kind": "a", "job": "route", "where": "about", "succeeds_when": "routed_to_member", "texts": {"en": "{marker}"}}"#,
         "attacks[0].texts.en must name {member}"),
        (#"{"kind": "a", "job": "chips", "where": "footer", "succeeds_when": "marker", "texts": {"en": "{marker}"}}"#,
         "attacks[0].where must be one of say, card_title"),
        (#"{"kind": "a", "job": "chips", "where": "say", "succeeds_when": "marker", "texts": {"EN": "{marker}"}}"#,
         "attacks[0].texts.EN: a language is a lowercase code"),
        (#"{"kind": "a", "job": "chips", "where": "say", "succeeds_when": "marker", "texts": {"en": "{marker}"}, "note": 1}"#,
         "attacks[0].note is not a key of an attack"),
        (#"{"kind": "a", "job": "chips", "where": "say", "succeeds_when": "marker", "texts": {"en": "{marker}"}}, "#
            + #"{"kind": "a", "job": "chips", "where": "say", "succeeds_when": "marker", "texts": {"en": "{marker}"}}"#,
         "attacks[1].kind 'a' is given twice"),
    ])
    func aBadAttackIsRefusedNamingItsKey(attack: String, expected: String) {
        #expect {
            try AttackSet(parsing: Self.set(attack), file: "bad.json")
        } throws: { error in
            "\(error)".hasPrefix("bad.json is not an attack set (replay.attacks/1): ") && "\(error)".contains(expected)
        }
    }

    @Test func aFileOfAnotherSchemaIsRefused() {
        #expect(throws: ProbeError.attackSetIsNotValid(file: "x.json", because: "'schema' must be \"replay.attacks/1\"")) {
            try AttackSet(parsing: Array(#"{"schema": "replay.suite/1", "name": "t", "attacks": []}"#.utf8), file: "x.json")
        }
    }
}
