import Confinement
import Glibc
import Llama
import Privacy
import ReplayKit

/// Checks a `replay` run's `--out` directory against the schemas of what `replay` writes there,
/// rather than searching it: every file must be one `replay` writes, and every byte of it must be
/// where its writer puts one.
///
/// A content scan finds only the encodings it knows (the canary, an output's fingerprints); a
/// prompt written as token ids, a sentence joined by `_`, or bits in white space pass it. Here
/// instead:
/// - names: each entry must be one of `fileNames` or a checkpoint (`checkpoint-000001.json`), a
///   regular file, with a UTF-8 name, its path within `PATH_MAX`;
/// - JSON files (report.json, a run's or `replay suite run`'s, state.json, checkpoints,
///   metrics.json, manifest.json, compare.json): parsed, then rendered again by the writers' own
///   renderer (`ReportValue.json()` or `.exactJSON()`), which must give the file's bytes exactly
///   (no other white space, escape, number spelling or trailing byte); then decoded strictly with
///   the writer's own type (`ResultDocument`, from the commands' `documents`): no key the type
///   does not read, every fixed word one of its enum's, every other string judged by its rule
///   (`ResultJudge`: a label its `ReportLabel` rule keeps, a time, a digest, a path the run was
///   given, the writers' words), every number where a number belongs;
/// - metrics.csv: its header, then rows of eight cells, each a metric, a dimension, a label or a
///   number; junit.xml: the writer's lines, gate names in the `JOB.KEY` shapes of the report;
/// - report.md and dashboard.html (compare.md and compare.html): with the labels of report.json
///   and metrics.json (compare.json), already checked, blanked, nothing but the writers' words,
///   numbers and punctuation (`ResultProse`);
/// - items.json.zst and checkpoints' segments: decompressed by the system's zstd, compact JSON as
///   its writer renders it, decoded as `ItemsDocument`, whose reader holds every index within its
///   list and the items in order.
///
/// A finding names the file (or, for a name `replay` never writes, a salted hash of it) and the
/// JSON path or line; never the text found there.
public enum ResultSchemaCheck {
    /// Every name a `replay` run (or `replay merge`, `replay flywheel`, `replay audit`) leaves
    /// beneath `--out`, besides checkpoints. Reviewed: a name added here needs its check below.
    public static let fileNames: Set<String> = [
        "report.json", "report.md", "junit.xml", "state.json", "metrics.csv", "metrics.json", "dashboard.html",
        // A run's completion manifest, written last (`RunManifest`).
        "manifest.json",
        // A run's item outcomes (`ItemsDocument`), and `replay compare`'s results.
        "items.json.zst", "compare.json", "compare.md", "compare.html",
        // `replay probe injection`'s trial outcomes (`ProbeTrialsDocument`, read by its schema as report.json is).
        "trials.json",
        // `replay audit`'s own: the hashes file the run writes, the marker the auditor makes.
        AuditTap.hashesFileName, Auditor.markerFileName,
    ]

    /// The largest file read; anything larger is a finding unread (replay writes none so big).
    static let readLimit = 512 << 20

    /// Findings for the directory at `directory`, a `replay` run's `--out`. `knownPaths`: the
    /// paths the run was given (corpus files and directories, model; `knownPaths(replayCommand:
    /// workingDirectory:)` reads them off the command line), which its files may name, and the
    /// files beneath a given directory that exist (relative ones from `workingDirectory`); the
    /// directory itself is always known.
    /// `teamLabels`: the run's `--labels` list (ReplayKit's `LabelsFile` reads it), without
    /// which a name the team listed reads as a label no rule keeps.
    public static func check(directory: String, knownPaths: Set<String> = [], workingDirectory: String? = nil,
                             teamLabels: TeamLabels = .none, documents: [any ResultDocument.Type] = []) -> [AuditFinding] {
        var checker = Checker(directory: directory, knownPaths: knownPaths, workingDirectory: workingDirectory, teamLabels: teamLabels)
        checker.documents = documents
        checker.run()
        return checker.findings
    }

    /// The paths a `replay` command line gives the run, as `check` wants them: each corpus
    /// argument and the `--model`, `--config`, `--labels`, `--attacks` and `--prompts` values (never
    /// `--run-key`'s), as given and made absolute against `workingDirectory`. `command` is the
    /// audited command, the program first (`Auditor.Plan`), then `probe injection` when it is the probe.
    public static func knownPaths(replayCommand command: [String], workingDirectory: String) -> Set<String> {
        let valued: Set<String> = ["--job", "--jobs", "--out", "--model", "--device", "--budget", "--fail-under", "--config",
                                   "--labels", "--run-key", "--limit", "--batch", "--shard", "--shards", "--shard-by", "--checkpoint-every",
                                   "--fail-if-worse", "--seed", "--fail-over", "--attacks", "--prompts"]
        var paths: [String] = []
        var arguments = command.dropFirst()[...]
        if arguments.starts(with: ["probe", "injection"]) { arguments = arguments.dropFirst(2) }
        var optionsEnded = false
        while let argument = arguments.popFirst() {
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                paths.append(argument)
            } else if argument == "--" {
                optionsEnded = true
            } else if valued.contains(argument), let value = arguments.popFirst() {
                if ["--model", "--config", "--labels", "--attacks", "--prompts"].contains(argument) { paths.append(value) }
                // An installed model named (`--model qwen2.5-coder-0.5b`) is the file the run resolved it to.
                if argument == "--model", let file = try? DefaultModel.file(forModelArgument: value), file != value { paths.append(file) }
            }
        }
        var known: Set<String> = []
        for path in paths where path != "-" {
            known.insert(path)
            known.insert(path.hasPrefix("/") ? path : workingDirectory + "/" + path)
        }
        return known
    }

    /// Whether `name` is a checkpoint's: `checkpoint-`, six or more digits naming a number from
    /// 1 without extra leading zeros, `.json` (`OutputDirectory.checkpointName`).
    static func isCheckpointName(_ name: String) -> Bool { OutputDirectory.checkpointSequence(of: name) != nil }

    struct Checker {
        let directory: String
        var context: ResultText.Context
        let salt: [UInt8]
        var findings: [AuditFinding] = []
        /// The writers' types of the JSON result files (`Subcommand.documents`).
        var documents: [any ResultDocument.Type] = []
        /// Strings and keys of report.json, metrics.json and compare.json, once they are read.
        var reportLabels: [String] = []
        var metricsLabels: [String] = []
        var compareLabels: [String] = []

        init(directory: String, knownPaths: Set<String>, workingDirectory: String?, teamLabels: TeamLabels) {
            self.directory = directory
            context = ResultText.Context(knownPaths: knownPaths.union([directory]), teamLabels: teamLabels, workingDirectory: workingDirectory)
            salt = AuditSecret.bytes(16) ?? Array(directory.utf8)
        }

        mutating func add(_ message: String, location: String, line: Int? = nil, occurrences: Int = 1) {
            findings.append(AuditFinding(rule: .unexpectedResultContent, message: message, location: location, line: line,
                                         occurrences: occurrences))
        }

        /// A name shown only as a salted hash: it was not one replay writes, so it could be the leak.
        func withheld(_ bytes: [UInt8]) -> String {
            var hasher = SHA256()
            hasher.update(salt)
            hasher.update([0x6e])   // "n": names
            hasher.update(bytes)
            return directory + "/(a name withheld, h:" + String(hasher.finalizeHex().prefix(12)) + ")"
        }

        mutating func run() {
            let walk = DirectoryEntries(root: directory)
            guard walk.rootOpened else {
                add("The run's directory could not be opened, so nothing in it could be checked.", location: directory)
                return
            }
            var files: [String: DirectoryEntries.Entry] = [:]
            for entry in walk.entries {
                let relative = entry.relativePath
                let total = directory.utf8.count + 1 + relative.count
                let location = withheld(relative)
                if !entry.isUTF8 {
                    add("An entry's name is not UTF-8: replay writes no such name.", location: location)
                    continue
                }
                if total >= Int(PATH_MAX) {
                    add("An entry's path is longer than PATH_MAX (\(total) bytes): replay writes no such path.", location: location)
                    continue
                }
                let name = String(decoding: relative, as: UTF8.self)
                guard entry.components.count == 1, Self.isAllowed(name) else {
                    add(entry.kind == .directory ? "A directory replay does not make." : "A file replay does not write (\(entry.size) bytes).",
                        location: location)
                    continue
                }
                guard entry.kind == .regularFile else {
                    add("A result's name on something that is not a regular file.", location: directory + "/" + name)
                    continue
                }
                files[name] = entry
            }
            for entry in walk.unreachable {
                add("A directory that could not be read: what it holds was not checked.", location: withheld(entry.relativePath))
            }
            // The sources of report.md, dashboard.html and compare's pages first: their labels are what those may show.
            let sources = ["report.json", "metrics.json", "compare.json"]
            let order = sources + files.keys.filter { !sources.contains($0) }.sorted()
            for name in order {
                guard let entry = files[name] else { continue }
                let location = directory + "/" + name
                if name == "items.json.zst" || OutputDirectory.checkpointSequence(of: name, suffix: OutputDirectory.segmentSuffix) != nil {
                    checkItems(entry, walk, location: location)
                    continue
                }
                guard entry.size <= ResultSchemaCheck.readLimit, let bytes = read(entry, walk) else {
                    add("The file could not be read whole (or is larger than replay writes), so it could not be checked.", location: location)
                    continue
                }
                check(name, bytes, location: location)
            }
        }

        static func isAllowed(_ name: String) -> Bool { fileNames.contains(name) || isCheckpointName(name) || OutputDirectory.checkpointSequence(of: name, suffix: OutputDirectory.segmentSuffix) != nil }

        /// items.json.zst or a checkpoint's segment: one zstd frame, decompressed by the system's
        /// zstd to its end, holding compact JSON as `ItemTable` writes it, in `replay.items/1`'s shape.
        mutating func checkItems(_ entry: DirectoryEntries.Entry, _ walk: DirectoryEntries, location: String) {
            let name = location.split(separator: "/").last.map(String.init) ?? location
            let descriptor = walk.openFile(entry)
            guard descriptor >= 0 else {
                add("The file could not be read whole, so it could not be checked.", location: location)
                return
            }
            defer { close(descriptor) }
            var leading = [UInt8](repeating: 0, count: 4)
            let got = leading.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 4, 0) }
            guard got == 4, CompressedStream.format(of: leading) == .zstd else {
                add("\(name) does not start with a zstd frame, as replay writes it.", location: location)
                return
            }
            var bytes: [UInt8] = []
            var tooLarge = false
            let outcome = CompressedStream.decompress([.zstd], descriptor: descriptor) { piece in
                guard !tooLarge else { return }
                if bytes.count + piece.count > ResultSchemaCheck.readLimit { tooLarge = true; return }
                bytes += piece
            }
            switch outcome {
            case .read where !tooLarge: break
            case .toolMissing(let tool):
                add("\(name) could not be decompressed (\(tool) is not installed), so it could not be checked.", location: location)
                return
            default:
                add("\(name) could not be decompressed to its end (or holds more than replay writes), so it could not be checked.", location: location)
                return
            }
            guard let text = String(validating: bytes, as: UTF8.self), let value = try? ReportValue(parsingExactJSON: text) else {
                add("\(name) does not hold JSON as replay writes it.", location: location)
                return
            }
            if !bytes.elementsEqual(value.compactJSON().utf8) {
                let line = Self.firstDifferingLine(bytes, [Array(value.compactJSON().utf8)])
                add("\(name) holds bytes its writer does not write (white space, escapes, spelling of numbers or bytes after the end), first at line \(line).",
                    location: location, line: line)
            }
            guard let document = documents.first(where: { $0.isFileName(name) }) else { return unchecked(name, location: location) }
            decode(value, as: document, name: name, location: location)
        }

        /// `value` decoded strictly with its writer's type, every string judged (`ResultJudge`);
        /// the first place unlike the type is a finding.
        mutating func decode(_ value: ReportValue, as document: any ResultDocument.Type, name: String, location: String) {
            do {
                _ = try ReportValueDecoder(userInfo: [.resultStringJudge: ResultJudge(context: context), .teamLabels: context.teamLabels],
                                           strict: true).decode(document, from: value)
            } catch {
                add("\(name), at \(error.description).", location: location)
            }
        }

        /// A result file no writer's type was given for (`Subcommand.documents`): nothing says what it may hold.
        mutating func unchecked(_ name: String, location: String) {
            add("\(name) is a result whose writer's type the audit was not given, so it could not be checked.", location: location)
        }

        func read(_ entry: DirectoryEntries.Entry, _ walk: DirectoryEntries) -> [UInt8]? {
            let descriptor = walk.openFile(entry)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while bytes.count <= ResultSchemaCheck.readLimit {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count < 0 { return nil }
                if count == 0 { return bytes }
                bytes += buffer[..<count]
            }
            return nil
        }

        mutating func check(_ name: String, _ bytes: [UInt8], location: String) {
            guard let text = String(validating: bytes, as: UTF8.self) else {
                add("The file is not UTF-8 text, as every file replay writes is.", location: location)
                return
            }
            if let labels = checkDocument(name, text, bytes, location: location) {
                if name == "report.json" { reportLabels = labels }
                if name == "metrics.json" { metricsLabels = labels }
                if name == "compare.json" { compareLabels = Self.withMeasureNames(labels) }
                return
            }
            switch name {
            case "compare.md":
                checkProse(text, labels: compareLabels, markup: .markdown, location: location)
            case "compare.html":
                checkProse(text, labels: compareLabels, markup: .html, location: location)
            case "report.md":
                checkProse(text, labels: reportLabels, markup: .markdown, location: location)
            case "dashboard.html":
                checkProse(text, labels: metricsLabels, markup: .html, location: location)
            case "metrics.csv":
                for (line, what) in ResultTables.metricsCSVProblems(text, context: context).prefix(10) {
                    add("metrics.csv, line \(line): \(what).", location: location, line: line)
                }
            case "junit.xml":
                for (line, what) in ResultTables.junitProblems(text, context: context).prefix(10) {
                    add("junit.xml, line \(line): \(what).", location: location, line: line)
                }
            case AuditTap.hashesFileName:
                for line in ResultTables.hashesProblems(text).prefix(10) {
                    add("The audit's hashes file, line \(line): not a line the audit tap writes.", location: location, line: line)
                }
            case Auditor.markerFileName:
                if !bytes.isEmpty { add("The audit's marker file is not empty.", location: location) }
            default:   // report.json, state.json, a checkpoint…: JSON no type was given for
                unchecked(name, location: location)
            }
        }

        /// The forest plot labels a quality row by its measure (`best_f1` of `quality.best_f1`,
        /// its group saying which family): the parts after a key's dots are its labels too.
        static func withMeasureNames(_ labels: [String]) -> [String] {
            labels + labels.flatMap { label in
                label.split(separator: ".").indices.dropFirst().map { label.split(separator: ".")[$0...].joined(separator: ".") }
            }
        }

        /// A file one of the writers' types is for (by its name, and by its `schema` when
        /// several are): parsed, compared with the writers' rendering, and decoded strictly with
        /// that type, every string judged (`ResultJudge`). Nil when no type is for the file;
        /// else the file's strings and keys (empty when it did not parse).
        mutating func checkDocument(_ name: String, _ text: String, _ bytes: [UInt8], location: String) -> [String]? {
            let candidates = documents.filter { $0.isFileName(name) }
            guard !candidates.isEmpty else { return nil }
            guard let value = try? ReportValue(parsingExactJSON: text) else {
                add("\(name) is not JSON as replay writes it.", location: location)
                return []
            }
            guard let document = candidates.first(where: { value["schema"] == .label($0.schema) }) ?? candidates.first else { return nil }
            if !Self.isWritersLayout(value, bytes) {
                let line = Self.firstDifferingLine(bytes, [Array(value.json().utf8), Array(value.exactJSON().utf8)])
                add("\(name) holds bytes its writer does not write (white space, escapes, spelling of numbers or bytes after the end), first at line \(line).",
                    location: location, line: line)
            }
            learnModelWords(value)
            decode(value, as: document, name: name, location: location)
            var strings: [String] = []
            Self.collectStrings(value, into: &strings)
            return strings
        }

        /// The model's name may use the words of its file's name, when that file is the run's:
        /// every `model` block's `file` (`path`, `description.file`), at the top or in a list of
        /// runs (`replay suite compare`'s `runs[i].model`).
        mutating func learnModelWords(_ value: ReportValue) {
            context.modelWords = []
            var models: [ReportValue] = []
            func collect(_ value: ReportValue) {
                switch value {
                case .object(let fields):
                    for (key, child) in fields {
                        if key == "model" { models.append(child) }
                        collect(child)
                    }
                case .array(let items): items.forEach(collect)
                default: break
                }
            }
            collect(value)
            for model in models {
                for key in ["file", "path", "description.file"] {
                    if case .label(let path)? = model.at(key), ResultText.isPath(path, context: context) {
                        context.modelWords.formUnion(ResultText.modelWords(ofFile: path))
                        // The name the file itself gives its model (an installed model's file is
                        // named for the install: `qwen2.5-coder-0.5b.gguf` lacks "Instruct").
                        let file = path.hasPrefix("/") ? path : (context.workingDirectory ?? ".") + "/" + path
                        if path.hasSuffix(".gguf"), let name = GGUFMetadata.generalName(ofFile: file) {
                            context.modelWords.formUnion(ResultProse.words(of: name))
                        }
                    }
                }
            }
        }

        static func isWritersLayout(_ value: ReportValue, _ bytes: [UInt8]) -> Bool {
            bytes.elementsEqual(value.json().utf8) || bytes.elementsEqual(value.exactJSON().utf8)
        }

        /// The 1-based line where `bytes` first differ from the closest of `renderings`.
        static func firstDifferingLine(_ bytes: [UInt8], _ renderings: [[UInt8]]) -> Int {
            var best = 0
            for rendering in renderings {
                var index = 0
                while index < bytes.count, index < rendering.count, bytes[index] == rendering[index] { index += 1 }
                best = max(best, index)
            }
            return 1 + bytes[..<best].filter { $0 == 0x0a }.count
        }

        static func collectStrings(_ value: ReportValue, into strings: inout [String]) {
            switch value {
            case .label(let text): strings.append(text)
            case .array(let items): for item in items { collectStrings(item, into: &strings) }
            case .object(let fields):
                for (key, child) in fields {
                    strings.append(key)
                    collectStrings(child, into: &strings)
                }
            default: break
            }
        }

        mutating func checkProse(_ text: String, labels: [String], markup: ResultProse.Markup, location: String) {
            let name = location.split(separator: "/").last.map(String.init) ?? location
            if let line = ResultProse.firstUnknown(in: text, labels: labels, context: context, markup: markup) {
                add("\(name), line \(line): a word or character none of replay's writers uses there.", location: location, line: line)
            }
        }
    }
}
