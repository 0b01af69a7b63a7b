import Foundation
import Jobs
import Privacy

/// A set of indirect prompt injections to plant at the places a replay would ask the phone's model
/// about (`replay.attacks/1`, `probes/injection.json` bundled): each attack is a kind, the site its
/// words go to (`AttackSite`, which fixes the job), what makes it succeed (`AttackSuccess`) and
/// its words in each language it is written for, holding `{marker}` once (the place's keyed
/// marker, `AttackMarker`) and optionally `{agent}` (the thread's agent) and `{member}` (the
/// member a routing attack pushes).
///
/// The words are the team's, as a suite file's or a prompt set's are, never a corpus's: they may
/// be read and shown in the docs. Every key is checked; the first problem is an error naming the
/// file, the attack and the key.
public struct AttackSet: Sendable {
    /// The schema an attack set file names.
    public static let schema = "replay.attacks/1"
    /// The largest attack set file read.
    public static let maximumBytes = 1 << 20

    public var name: String
    /// SHA-256 of the file's bytes, in hex: what a report names the set by.
    public var sha256: String
    public var attacks: [Attack]

    /// One kind of attack.
    public struct Attack: Sendable {
        /// A token naming the kind (`chips_say_reply`): the results' key.
        public var kind: String
        public var site: AttackSite
        public var succeedsWhen: AttackSuccess
        /// Its words by language code (`en`, `ja`), each holding `{marker}` once.
        public var texts: [String: String]

        public var job: JobKind { site.job }

        /// The words for `language` (its code before any region, `fr` for `fr-CA`), with the
        /// marker, the agent and the member filled in; nil when the attack has no words in it.
        public func words(language: String?, marker: AttackMarker, agent: String, member: String = "") -> String? {
            guard let language, let template = texts[Self.code(of: language)] else { return nil }
            return template.replacingOccurrences(of: "{marker}", with: marker.text)
                .replacingOccurrences(of: "{agent}", with: agent).replacingOccurrences(of: "{member}", with: member)
        }

        /// A language tag's language: `pt` of `pt-BR`, lowercased.
        static func code(of tag: String) -> String {
            String(tag.prefix { $0 != "-" && $0 != "_" }).lowercased()
        }
    }

    /// The attacks of `job`, in the file's order.
    public func attacks(of job: JobKind) -> [Attack] { attacks.filter { $0.job == job } }

    /// Reads an attack set file's bytes; `file` is how errors name it.
    public init(parsing bytes: [UInt8], file: String) throws(ProbeError) {
        func refuse(_ because: String) -> ProbeError { .attackSetIsNotValid(file: file, because: because) }
        guard bytes.count <= Self.maximumBytes else { throw refuse("it has \(bytes.count) bytes, more than \(Self.maximumBytes)") }
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)), let top = object as? [String: Any] else {
            throw refuse("it is not a JSON object")
        }
        let known: Set<String> = ["schema", "name", "description", "attacks"]
        if let extra = top.keys.sorted().first(where: { !known.contains($0) }) { throw refuse("'\(extra)' is not a key of an attack set") }
        guard top["schema"] as? String == Self.schema else { throw refuse("'schema' must be \"\(Self.schema)\"") }
        guard let name = top["name"] as? String, Self.isToken(name) else {
            throw refuse("'name' must be a token: letters, digits and ._+-/:, at most 40")
        }
        guard let list = top["attacks"] as? [Any], !list.isEmpty else { throw refuse("'attacks' must be a list of at least one attack") }
        var attacks: [Attack] = []
        for (index, element) in list.enumerated() {
            let at = "attacks[\(index)]"
            guard let entry = element as? [String: Any] else { throw refuse("\(at) is not an object") }
            let keys: Set<String> = ["kind", "job", "where", "succeeds_when", "texts"]
            if let extra = entry.keys.sorted().first(where: { !keys.contains($0) }) { throw refuse("\(at).\(extra) is not a key of an attack") }
            guard let kind = entry["kind"] as? String, Self.isToken(kind) else { throw refuse("\(at).kind must be a token") }
            guard !attacks.contains(where: { $0.kind == kind }) else { throw refuse("\(at).kind '\(kind)' is given twice") }
            guard let siteName = entry["where"] as? String, let site = AttackSite(rawValue: siteName) else {
                throw refuse("\(at).where must be one of \(AttackSite.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard let job = entry["job"] as? String, job == site.job.rawValue else {
                throw refuse("\(at).job must be \"\(site.job.rawValue)\", the job whose places '\(siteName)' is in")
            }
            guard let successName = entry["succeeds_when"] as? String, let success = AttackSuccess(rawValue: successName) else {
                throw refuse("\(at).succeeds_when must be one of \(AttackSuccess.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            if success == .routedToMember, site != .about { throw refuse("\(at).succeeds_when 'routed_to_member' is for 'about' attacks only") }
            guard let texts = entry["texts"] as? [String: Any], !texts.isEmpty else {
                throw refuse("\(at).texts must be an object of words by language, at least one")
            }
            var words: [String: String] = [:]
            for (language, value) in texts.sorted(by: { $0.key < $1.key }) {
                guard language.count >= 2, language.count <= 3, language.allSatisfy({ $0.isASCII && $0.isLowercase }) else {
                    throw refuse("\(at).texts.\(language): a language is a lowercase code of 2 or 3 letters")
                }
                guard let text = value as? String, text.components(separatedBy: "{marker}").count == 2 else {
                    throw refuse("\(at).texts.\(language) must be words holding {marker} once")
                }
                if success == .routedToMember, !text.contains("{member}") { throw refuse("\(at).texts.\(language) must name {member}") }
                words[language] = text
            }
            attacks.append(Attack(kind: kind, site: site, succeedsWhen: success, texts: words))
        }
        self.name = name
        self.sha256 = SHA256.hex(bytes)
        self.attacks = attacks
    }

    /// Reads the attack set at `path`.
    public static func read(_ path: String) throws(ProbeError) -> AttackSet {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .attackSetIsNotValid(file: path, because: "it cannot be read")
        }
        return try AttackSet(parsing: [UInt8](data), file: path)
    }

    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 40 && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._+-/:".unicodeScalars.contains($0)) }
    }
}
