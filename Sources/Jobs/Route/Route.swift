import Privacy

/// Who a group message is for: the routing job's output type (spec §3).
///
/// Mirrors `@Generable struct Route { @Guide(.anyOf(memberNames + ["lead"])) var to: String }`:
/// the choices are known only at run time, so the schema is made per group. The answer is what
/// the model wrote, so it stays sealed even though the schema allows only the choices; the job
/// asks it questions (`chose(_:)`) instead of reading it. See `SealedOutput`.
public struct Route: SealedOutput {
    /// A member's name, or `Route.lead`.
    public var to: SealedText

    /// The answer that means "the lead, as today".
    public static let lead = "lead"

    /// The choices the model has: the members' names that can be written in the output's JSON
    /// (no quote, backslash or control character), each once, then "lead" (`withLead`: a group's;
    /// the drawer has no lead, and its choices are the agents alone).
    ///
    /// A name that cannot be written can still be reached by `@Name`; it is only never guessed.
    public static func choices(members: [String], withLead: Bool = true) -> [String] {
        var seen: Set<String> = []
        var result: [String] = []
        for name in members + (withLead ? [lead] : []) where !name.isEmpty && seen.insert(name).inserted {
            let writable = name.unicodeScalars.allSatisfy { $0 != "\"" && $0 != "\\" && $0.value >= 0x20 && $0.value != 0x7F }
            if writable { result.append(name) }
        }
        return result
    }

    /// Every output the schema allows, one per choice in `choices(members:)`'s order: the
    /// compact JSON the grammar's language holds (`{"to":"Coach"}`), for an engine that scores
    /// each choice as a whole (`GenerationRequest.choices`).
    public static func outputs(members: [String], withLead: Bool = true) -> [SealedText] {
        choices(members: members, withLead: withLead).map { SealedText(#"{"to":""# + $0 + #""}"#) }
    }

    /// The schema the model fills for a group with these members (or, without the lead, the
    /// drawer with these agents).
    public static func schema(members: [String], withLead: Bool = true) -> GenerationSchema {
        .object([.init("to", .anyOf(choices(members: members, withLead: withLead)))])
    }

    /// Reads a model's output against the group's schema (the drawer's, without the lead); nil
    /// when it does not fit.
    public init?(output: SealedText, members: [String], withLead: Bool = true) {
        guard let content = try? ContentDecoder.decode(output, as: Self.schema(members: members, withLead: withLead)),
              let to = content["to"]?.stringValue else { return nil }
        self.to = to
    }

    /// A route to `to`.
    public init(to: SealedText) {
        self.to = to
    }

    /// Whether the answer is exactly `name` (the schema's choices are exact).
    public func chose(_ name: String) -> Bool {
        to.withUnsealedText { $0 == name }
    }

    /// Whether the answer is `name` without regard to case, as `@Name` compares.
    public func chose(caseInsensitive name: String) -> Bool {
        to.withUnsealedText { $0.lowercased() == name.lowercased() }
    }
}
