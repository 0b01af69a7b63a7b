import Foundation
import Privacy

/// `NeverRule.routeOutsideGroup`: a route naming someone outside the group (spec §3: "It cannot
/// name anyone outside the group").
///
/// Exact, not a heuristic: the output is read as JSON, and an object whose `"to"` is a string that
/// is none of the group's choices (its members' names and "lead", without regard to case or
/// surrounding spaces, as `@Name` compares) names an outsider. Under the route grammar this cannot
/// happen (NeverRuleRouteGrammarTests proves it for llama.cpp's grammar sampler); the routing job
/// counts it anyway, beside its rejection, so that a broken grammar, engine or model file would
/// show in the report instead of passing as an ordinary invalid output.
public enum RouteOutsideGroupRule {
    /// Whether `output` is a JSON object whose `"to"` names none of `choices` (nor the lead, in a
    /// group; the drawer's choices, `withLead` false, are the person's agents alone: spec §8, "no
    /// messages to anyone but the person's own agents").
    public static func namesOutsider(_ output: SealedText, choices: [String], withLead: Bool = true) -> Bool {
        output.withUnsealedText { text in
            guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                  let to = object["to"] as? String else { return false }
            let name = fold(to)
            return !(choices + (withLead ? [Route.lead] : [])).contains { fold($0) == name }
        }
    }

    /// A name as choices are compared: trimmed and lowercased.
    static func fold(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }
}
