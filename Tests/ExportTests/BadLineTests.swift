import Foundation
import Testing
@testable import Export
import TestSupport

@Suite struct BadLineTests {
    /// One line after a thread line for `t1`: the bad line's reason, which must be exact.
    @Test(arguments: [
        (#"not json"#, "invalid JSON at column 2: invalid literal (expected true, false or null)"),
        (#"<html>"#, "invalid JSON at column 1: expected a value"),
        (#"{"type":"message","#, "invalid JSON at column 19: expected a string key"),
        (#"[1,2]"#, "the line is an array, expected an object"),
        (#""a string""#, "the line is a string, expected an object"),
        (#"{"id":"x"}"#, "missing field 'type'"),
        (#"{"type":7}"#, "field 'type' is a number, expected a string"),
        (#"{"type":"thread"}"#, "missing field 'id'"),
        (#"{"type":"thread","id":5}"#, "field 'id' is a number, expected a string"),
        (#"{"type":"thread","id":"t2","about":["x"]}"#, "field 'about' is an array, expected a string"),
        (#"{"type":"thread","id":"t2","group":{"members":[]}}"#, "missing field 'group.lead'"),
        (#"{"type":"thread","id":"t2","group":{"lead":"A","members":{}}}"#, "field 'group.members' is an object, expected an array"),
        (#"{"type":"thread","id":"t2","group":{"lead":"A","members":[{"name":"A","about":1}]}}"#, "field 'group.members[0].about' is a number, expected a string"),
        (#"{"type":"message","id":"m1","from":"person"}"#, "missing field 'thread'"),
        (#"{"type":"message","thread":"t1","from":"person"}"#, "missing field 'id'"),
        (#"{"type":"message","thread":"t1","id":"m1"}"#, "missing field 'from'"),
        (#"{"type":"message","thread":"t1","id":"m1","from":""}"#, "field 'from' is an empty string, expected a name or id"),
        (#"{"type":"message","thread":"t1","id":"m1","from":"person","text":42}"#, "field 'text' is a number, expected a string"),
        (#"{"type":"message","thread":"t1","id":"m1","from":"person","at":false}"#, "field 'at' is a bool, expected a string"),
        (#"{"type":"message","thread":"t1","id":"m1","from":"A","screen":{"say":"x"}}"#, "field 'screen' is an object, expected an array of nodes"),
        (#"{"type":"message","thread":"t1","id":"m1","from":"A","screen":["x"]}"#, "field 'screen[0]' is a string, expected an object with one key (the node's kind)"),
        (#"{"type":"message","thread":"t1","id":"m1","from":"A","screen":[{"say":"a"},{}]}"#, "field 'screen[1]' is an object with 0 keys, expected exactly one (the node's kind)"),
        (#"{"type":"message","thread":"t1","id":"m1","from":"A","screen":[{"say":"a","card":{}}]}"#, "field 'screen[0]' is an object with 2 keys, expected exactly one (the node's kind)"),
        (#"{"type":"message","thread":"t1","id":"m1","from":"A","screen":[{"say":3}]}"#, "field 'screen[0].say' is a number, expected a string"),
        (#"{"type":"message","thread":"t1","id":"m1","from":"A","screen":[{"card":{"title":"t"}}]}"#, "missing field 'screen[0].card.body'"),
        (#"{"type":"message","thread":"t1","id":"m1","from":"A","screen":[{"stat":{"label":"l","value":2.5}}]}"#, "field 'screen[0].stat.value' is a number, expected a string"),
        (#"{"type":"message","thread":"t1","id":"m1","from":"A","screen":[{"list":{"items":"a"}}]}"#, "field 'screen[0].list.items' is a string, expected an array of strings"),
        (#"{"type":"message","thread":"t1","id":"m1","from":"A","screen":[{"list":{"items":["a",1]}}]}"#, "field 'screen[0].list.items[1]' is a number, expected a string"),
        (#"{"type":"message","thread":"t1","id":"m1","from":"A","screen":[{"choose":{"prompt":"p"}}]}"#, "missing field 'screen[0].choose.options'"),
        (#"{"type":"message","thread":"t1","id":"m1","from":"A","screen":[{"pick":{"options":[null]}}]}"#, "field 'screen[0].pick.options[0]' is null, expected a string"),
        (#"{"type":"message","thread":"t1","id":"m1","from":"A","screen":[{"ask":"x"}]}"#, "field 'screen[0].ask' is a string, expected an object"),
        (#"{"type":"message","thread":"t1","id":"m1","from":"A","push":{"batch":2}}"#, "missing field 'push.kind'"),
        (#"{"type":"message","thread":"t1","id":"m1","from":"A","push":{"kind":"reply","batch":"2"}}"#, "field 'push.batch' is a string, expected an integer"),
        (#"{"type":"message","thread":"t1","id":"m1","from":"A","push":{"kind":"reply","batch":2.5}}"#, "field 'push.batch' is a number with a fraction or exponent, expected an integer"),
        (#"{"type":"message","thread":"t1","id":"m1","from":"A","push":{"kind":"reply","batch":0}}"#, "field 'push.batch' is 0, expected a count of at least 1"),
        (#"{"type":"message","thread":"t1","id":"m1","from":"person","meta":[]}"#, "field 'meta' is an array, expected an object"),
        (#"{"type":"message","thread":"t1","id":"m1","from":"person","meta":{"offline":"yes"}}"#, "field 'meta.offline' is a string, expected a bool"),
        (#"{"type":"message","thread":"t1","id":"m1","from":"person","meta":{"draft_ticks":3}}"#, "field 'meta.draft_ticks' is a number, expected an array of integers"),
        (#"{"type":"message","thread":"t1","id":"m1","from":"person","meta":{"draft_ticks":[1,"2"]}}"#, "field 'meta.draft_ticks[1]' is a string, expected an integer of at least 0"),
        (#"{"type":"message","thread":"t1","id":"m1","from":"person","meta":{"group":"Sage"}}"#, "field 'meta.group' is a string, expected an object"),
        (#"{"type":"message","thread":"t1","id":"m1","from":"person","meta":{"group":{"to":1}}}"#, "field 'meta.group.to' is a number, expected a string"),
        (#"{"type":"message","thread":"t1","id":"m1","from":"person","meta":{"via":true}}"#, "field 'meta.via' is a bool, expected a string"),
        (#"{"type":"message","thread":"t1","id":"m1","from":"person","lang":{}}"#, "field 'lang' is an object, expected a string"),
        (#"{"type":"export","version":"1"}"#, "field 'version' is a string, expected an integer"),
        (#"{"type":"message","thread":"t7","id":"m1","from":"person"}"#, "message for thread 't7' comes before its thread line"),
        (#"{"type":"export","version":1}"#, "an export line must be the first line of its file"),
    ])
    func badLineReasons(line: String, reason: String) throws {
        let event = try singleEvent(line)
        let bad = try #require(event?.badLine)
        #expect(bad.reason == reason)
        #expect(bad.location.line == 2)
        #expect(bad.description == "\(bad.location.file):2: \(reason)")
    }

    @Test func reasonsNeverQuoteWords() throws {
        let lines = [
            #"{"type":"message","thread":"t1","id":"m1","from":"person","text":"canary-words", "x" }"#,
            #"{"type":"message","thread":"t1","id":"m1","from":"A","screen":[{"say":"canary-words","card":{}}]}"#,
            #"{"type":"message","thread":"t1","id":"m1","from":"A","screen":[{"list":{"title":"canary-words","items":[1]}}]}"#,
            #"{"type":"thread","id":"t1","about":"canary-words","group":{"lead":7}}"#,
        ]
        for line in lines {
            let bad = try #require(try singleEvent(line)?.badLine)
            #expect(!bad.description.contains("canary"))
        }
    }

    @Test func versionOneHeaderIsARecordOnlyFirst() throws {
        let directory = try TemporaryDirectory()
        let header = #"{"type":"export","version":1}"#
        let file = try directory.write("h.jsonl", text: "\n" + header + "\n" + threadLines(id: "t1", messages: 1) + header + "\n")
        let (events, stats) = try readEvents([file])
        #expect(events.first?.header?.version == 1)
        #expect(events.first?.location?.line == 2)
        #expect(events.last?.badLine?.location.line == 5)
        #expect(stats.records == 3)
        #expect(stats.badLines == 1)
    }

    @Test func messagesMustFollowTheirThreadInTheSameFile() throws {
        let directory = try TemporaryDirectory()
        let first = try directory.write("1.jsonl", text: threadLines(id: "t1", messages: 1, prefix: "a"))
        let text = #"{"type":"message","thread":"t1","id":"x1","from":"person"}"# + "\n"   // t1 was in another file
            + threadLines(id: "t2", messages: 1, prefix: "b")
            + #"{"type":"message","thread":"t1","id":"x2","from":"person"}"# + "\n"   // t1 is no longer open
            + #"{"type":"thread","id":"t3","agent":5}"# + "\n"                           // a bad thread line
            + #"{"type":"message","thread":"t3","id":"x3","from":"person"}"# + "\n"
            + #"{"type":"message","thread":"t2","id":"x4","from":"person"}"# + "\n"   // t2 was closed by t3
        let second = try directory.write("2.jsonl", text: text)
        let (events, stats) = try readEvents([first, second])
        #expect(messageIDs(events) == ["a0", "b0"])
        let bad = events.compactMap(\.badLine)
        #expect(bad.map(\.location) == [1, 4, 5, 6, 7].map { Export.SourceLocation(file: second, line: $0) })
        #expect(bad[0].reason == "message for thread 't1' comes before its thread line")
        #expect(bad[2].reason == "field 'agent' is a number, expected a string")
        #expect(bad[3].reason == "message for thread 't3' comes before its thread line")
        #expect(stats.badLines == 5)
    }

    @Test func idsInReasonsAreEscapedAndCut() {
        #expect(CorpusReader.quoted("t1") == "'t1'")
        #expect(CorpusReader.quoted("a\u{1B}[2Jb'c") == "'a\\u{1B}[2Jb\\'c'")
        #expect(CorpusReader.quoted(String(repeating: "x", count: 100)) == "'" + String(repeating: "x", count: 64) + "…'")
    }

    @Test func unknownTypesAreCountedNotBad() throws {
        let directory = try TemporaryDirectory()
        let text = threadLines(id: "t1", messages: 1)
            + #"{"type":"reaction","emoji":"x"}"# + "\n"
            + #"{"type":"reaction"}"# + "\n"
            + #"{"type":"v2.note-x_1"}"# + "\n"
            + #"{"type":"has space"}"# + "\n"
            + #"{"type":""}"# + "\n"
            + #"{"type":"\#(String(repeating: "a", count: 33))"}"# + "\n"
            + #"{"type":"message","thread":"t1","id":"m9","from":"person"}"# + "\n"
        let file = try directory.write("u.jsonl", text: text)
        let (events, stats) = try readEvents([file])
        #expect(messageIDs(events) == ["m0", "m9"])
        #expect(stats.unknownTypes == ["reaction": 2, "v2.note-x_1": 1, "(other)": 3])
        #expect(stats.badLines == 0)
        #expect(stats.lines == 9)
        #expect(stats.records == 3)
        #expect(stats.lines == stats.records + stats.badLines + stats.unknownTypes.values.reduce(0, +))
        #expect(events.last?.location?.line == 9)
    }

    @Test func sanitizedNames() {
        #expect(CountedName.sanitized("abc-1.2_X") == "abc-1.2_X")
        #expect(CountedName.sanitized(String(repeating: "a", count: 32)) == String(repeating: "a", count: 32))
        #expect(CountedName.sanitized(String(repeating: "a", count: 33)) == "(other)")
        #expect(CountedName.sanitized("") == "(other)")
        #expect(CountedName.sanitized("é") == "(other)")
        #expect(CountedName.sanitized("a b") == "(other)")
    }
}
