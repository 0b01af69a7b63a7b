import Foundation

/// Suite files (`replay.suite/1`) for tests, written as text: a file of `cases` (each a JSON
/// object's text), and the bundled suite's path.
public enum SuiteText {
    /// A suite file named `name` holding `cases` in order.
    public static func file(_ cases: [String], name: String = "test") -> String {
        #"{"schema": "replay.suite/1", "name": "\#(name)", "cases": ["# + "\n" + cases.joined(separator: ",\n") + "\n]}\n"
    }

    /// The suite written from the spec, `suites/spec.json`.
    public static var bundledPath: String { BuiltProducts.packageRoot + "/suites/spec.json" }

    /// A chips case whose screen is `screen` (JSON of nodes), in `lang`.
    public static func chips(_ id: String, must: Bool = true, screen: String = #"[{"say": "How was the run?"}]"#, lang: String = "en",
                             expect: String, given: String? = nil) -> String {
        #"{"id": "\#(id)", "job": "chips", "must": \#(must), "input": {"agent": "Coach", "screen": \#(screen), "lang": "\#(lang)"}, "#
            + (given.map { #""given": \#($0), "# } ?? "") + #""expect": \#(expect)}"#
    }

    /// A routing case in a group of Coach (the lead), Sage and Penny.
    public static func route(_ id: String, must: Bool = true, message: String, lang: String = "en", expect: String,
                             given: String? = nil) -> String {
        #"{"id": "\#(id)", "job": "route", "must": \#(must), "input": {"members": [{"name": "Coach", "about": "training"}, "#
            + #"{"name": "Sage", "about": "sleep"}, {"name": "Penny", "about": "money"}], "lead": "Coach", "message": "\#(message)", "#
            + #""lang": "\#(lang)"}, "# + (given.map { #""given": \#($0), "# } ?? "") + #""expect": \#(expect)}"#
    }

    /// A push case of `kind` covering `batch` of `replies` (JSON of screens).
    public static func push(_ id: String, must: Bool = true, kind: String = "reply", batch: Int = 1,
                            replies: String = #"[[{"say": "Weight down this week."}]]"#, lang: String = "en", expect: String,
                            given: String? = nil) -> String {
        #"{"id": "\#(id)", "job": "push", "must": \#(must), "input": {"agent": "Coach", "kind": "\#(kind)", "batch": \#(batch), "#
            + #""replies": \#(replies), "lang": "\#(lang)"}, "# + (given.map { #""given": \#($0), "# } ?? "") + #""expect": \#(expect)}"#
    }

    /// A draft case of `message`, offline unless told.
    public static func draft(_ id: String, must: Bool = true, message: String, offline: Bool = true, lang: String = "en",
                             expect: String, given: String? = nil) -> String {
        #"{"id": "\#(id)", "job": "draft", "must": \#(must), "input": {"message": "\#(message)", "offline": \#(offline), "#
            + #""lang": "\#(lang)"}, "# + (given.map { #""given": \#($0), "# } ?? "") + #""expect": \#(expect)}"#
    }

    /// `phrase` repeated `count` times, joined by spaces: a long input by construction.
    public static func repeated(_ phrase: String, _ count: Int) -> String {
        Array(repeating: phrase, count: count).joined(separator: " ")
    }
}
