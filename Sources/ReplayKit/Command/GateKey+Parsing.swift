import Jobs

extension GateKey {
    /// Reads `JOB[SLICE].PATH` (the slice optional).
    public init(parsing text: String) throws(Problem) {
        var rest = Substring(text)
        let jobName = rest.prefix { $0 != "[" && $0 != "." }
        rest = rest.dropFirst(jobName.count)
        guard let job = JobKind(rawValue: String(jobName)) else {
            throw Problem(description: "'\(jobName)' is not a job (\(JobKind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        var labels: [(String, Label)] = []
        if rest.first == "[" {
            rest = rest.dropFirst()
            while true {
                let name = rest.prefix { $0 != "=" && $0 != "]" && $0 != "," }
                rest = rest.dropFirst(name.count)
                guard rest.first == "=" else { throw Problem(description: "a slice is written [DIMENSION=LABEL], such as [build=2.4.1 (534)]") }
                rest = rest.dropFirst()
                labels.append((String(name), try Self.label(&rest)))
                guard let next = rest.first else { throw Problem(description: "the slice has no closing ]") }
                rest = rest.dropFirst()
                if next == "]" { break }
                guard next == "," else { throw Problem(description: "a label ends at , or ] (quote one that holds them)") }
            }
        }
        guard rest.first == ".", rest.count > 1 else { throw Problem(description: "give the number's path after the job and a dot, such as \(job.rawValue).answered_rate") }
        let path = String(rest.dropFirst())
        guard !path.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) else {
            throw Problem(description: "the path '\(path)' has an empty part")
        }
        let names = labels.map(\.0)
        let slice: Slice
        switch names {
        case []: slice = .overall
        case ["build"]: slice = .build(labels[0].1)
        case ["model"]: slice = .model(labels[0].1)
        case ["locale"]: slice = .locale(labels[0].1)
        case ["build", "model"]: slice = .cell(build: labels[0].1, model: labels[1].1)
        case ["model", "build"]: slice = .cell(build: labels[1].1, model: labels[0].1)
        default:
            throw Problem(description: "a slice is one of [build=…], [model=…], [locale=…] or [build=…,model=…], not [\(names.joined(separator: ","))]")
        }
        self.init(job: job, slice: slice, path: path)
    }

    /// A label up to the next `,` or `]`, or a quoted one; `*` unquoted is every label.
    private static func label(_ rest: inout Substring) throws(Problem) -> Label {
        guard rest.first == "\"" else {
            let text = rest.prefix { $0 != "," && $0 != "]" && $0 != "\"" && $0 != "\\" }
            rest = rest.dropFirst(text.count)
            guard !text.isEmpty else { throw Problem(description: "a slice's label is empty") }
            if let next = rest.first, next == "\"" || next == "\\" {
                throw Problem(description: "a label holding \" or \\ is written in quotes, with \\\" and \\\\ inside")
            }
            return text == "*" ? .every : .named(String(text))
        }
        rest = rest.dropFirst()
        var text = ""
        while let character = rest.first {
            rest = rest.dropFirst()
            switch character {
            case "\"":
                guard !text.isEmpty else { throw Problem(description: "a slice's label is empty") }
                return .named(text)
            case "\\":
                guard let escaped = rest.first, escaped == "\"" || escaped == "\\" else {
                    throw Problem(description: "inside a quoted label only \\\" and \\\\ are escapes")
                }
                text.append(escaped)
                rest = rest.dropFirst()
            default: text.append(character)
            }
        }
        throw Problem(description: "a quoted label has no closing \"")
    }

    /// Reads `KEY=NUMBER`, the number after the last `=` (a label may hold `=` only in quotes,
    /// and the path never does).
    public static func parsingAssignment(_ text: String) throws(Problem) -> (key: GateKey, value: Double) {
        guard let equals = text.lastIndex(of: "="), let value = Double(text[text.index(after: equals)...]), value.isFinite else {
            throw Problem(description: "give KEY=NUMBER")
        }
        return (try GateKey(parsing: String(text[..<equals])), value)
    }
}
