import Privacy
import ReplayKit

/// A prompt suite (`replay.suite/1`, docs/suite.md): fixed cases with known answers for the four
/// jobs, run against one model and one prompt set by `replay suite run` (spec §10: "a prompt
/// suite per model version").
///
/// The file is the team's, as a prompt set file is: its case ids are shown in the results, its
/// inputs, given outputs and descriptions never are (inputs are sealed as soon as they are read).
public struct SuiteFile: Sendable {
    /// The schema a suite file names.
    public static let schema = "replay.suite/1"
    /// The largest suite file read: cases, not a corpus.
    public static let maximumBytes = 8 << 20

    /// The suite's name, a token (letters, digits and `._+-/:`, at most 40): the results show it.
    public var name: String
    /// SHA-256 of the file's bytes, in hex.
    public var sha256: String
    /// The cases in the file's order.
    public var cases: [SuiteCase]

    public init(name: String, sha256: String, cases: [SuiteCase]) {
        self.name = name
        self.sha256 = sha256
        self.cases = cases
    }

    /// Reads a suite file's bytes; `file` is how errors name it. Every key and value is checked:
    /// the first problem is thrown, naming the case and the key path.
    public init(parsing bytes: [UInt8], file: String) throws(SuiteError) {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            var offset = 0
            var iterator = bytes.makeIterator()
            var decoder = UTF8()
            loop: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar): offset += UTF8.width(scalar)
                case .emptyInput, .error: break loop
                }
            }
            throw .notJSON(file: file, problem: "not UTF-8 text at byte \(offset)")
        }
        let document: ReportValue
        do {
            document = try ReportValue(parsingExactJSON: text)
        } catch {
            throw .notJSON(file: file, problem: error.description)
        }
        let reader = SuiteFileReader(file: file)
        guard case .object = document else { throw .wrongValue(file: file, place: "the top level", expected: "an object") }
        guard document["schema"] == .label(Self.schema) else { throw .anotherSchema(file: file) }
        let top = try reader.fields(of: document, at: "", allowed: ["schema", "name", "description", "cases"],
                                    optional: ["description"])
        guard case .label(let name)? = top["name"], SuiteFileReader.isToken(name) else {
            throw .wrongValue(file: file, place: "name", expected: "a name of at most 40 letters, digits and . _ + - / :, "
                              + "starting with a letter or digit (the results show it)")
        }
        if let description = top["description"], !SuiteFileReader.isString(description) {
            throw .wrongValue(file: file, place: "description", expected: "a string")
        }
        guard case .array(let items)? = top["cases"], !items.isEmpty else {
            throw .wrongValue(file: file, place: "cases", expected: "an array of one case or more")
        }
        var cases: [SuiteCase] = []
        var firstIndex: [String: Int] = [:]
        for (index, item) in items.enumerated() {
            let suiteCase = try reader.suiteCase(item, index: index)
            if let first = firstIndex[suiteCase.id] {
                throw .idTwice(file: file, place: SuiteFileReader.place(index, id: suiteCase.id, "id"), first: first)
            }
            firstIndex[suiteCase.id] = index
            cases.append(suiteCase)
        }
        self.init(name: name, sha256: SHA256.hex(bytes), cases: cases)
    }
}
