import Foundation

/// What a generated corpus holds, measured from its JSONL lines with `JSONSerialization`.
///
/// `problems` names line numbers and rules only, never the generated words, so a failing test
/// prints no corpus text.
struct CorpusFacts: Sendable {
    static let header = #"{"type":"export","version":1,"created":"2026-10-02T00:00:00Z","anonymised":true}"#
    static let knownKinds: Set<String> = ["say", "card", "stat", "list", "picture", "choose", "pick", "ask", "form", "slide"]
    static let tappableKinds: Set<String> = ["choose", "pick", "ask", "form", "slide"]
    static let builds: Set<String> = ["2.3.0 (512)", "2.4.0 (530)", "2.4.1 (534)"]
    static let models: Set<String> = ["26.0", "26.4", "27.0"]
    static let locales: Set<String> = ["en-US", "en-GB", "fr-FR", "de-DE", "es-ES", "ja-JP"]

    var problems: [String] = []
    var lines = 0
    var threads = 0
    var groupThreads = 0
    var personMessages = 0
    var agentMessages = 0
    var screens = 0
    var eligibleScreens = 0
    var nodeKinds: [String: Int] = [:]
    var unknownNodes = 0
    var unknownLineTypes: Set<String> = []
    var unknownLines = 0
    var longScreens = 0
    var veryLongScreens = 0
    var repliesAfterEligible = 0
    var suggestedAfterEligible = 0
    var suggestedElsewhere = 0
    var longestSuggested = 0
    var typedVia = 0
    var offline = 0
    var draftTicks = 0
    var pushes: [String: Int] = [:]
    var batchesOverOne = 0
    var builds: Set<String> = []
    var models: Set<String> = []
    var locales: Set<String> = []
    var langOverrides = 0
    var routing: [String: Int] = [:]
    var wrongResponder = 0
    var japaneseEligible = 0
    var japaneseEligibleFullWidth = 0
    var questionsWithTrailingSpace = 0
    var unresolvedPlaceholders = 0
    var threadsWithMultipleBuilds = 0

    var groupShare: Double { Double(groupThreads) / Double(max(1, threads)) }
    var eligibleShare: Double { Double(eligibleScreens) / Double(max(1, screens)) }
    var suggestedShare: Double { Double(suggestedAfterEligible) / Double(max(1, repliesAfterEligible)) }
    var offlineShare: Double { Double(offline) / Double(max(1, personMessages)) }
    var pushShare: Double { Double(pushes.values.reduce(0, +)) / Double(max(1, agentMessages)) }

    // Per-thread state while reading.
    private var threadIDs: Set<String> = []
    private var currentThread: String?
    private var currentLocale = ""
    private var members: [String] = []
    private var lead = ""
    private var isGroup = false
    private var messageIDs: Set<String> = []
    private var lastAt = ""
    private var lastScreenEligible = false
    private var expectedResponder: String?
    private var threadBuilds: Set<String> = []

    init(lines source: [String]) {
        for (number, line) in source.enumerated() { read(line, number: number + 1) }
        finishThread()
    }

    private mutating func problem(_ number: Int, _ rule: String) {
        if problems.count < 50 { problems.append("line \(number): \(rule)") }
    }

    private mutating func finishThread() {
        if threadBuilds.count > 1 { threadsWithMultipleBuilds += 1 }
        threadBuilds = []
    }

    private mutating func read(_ line: String, number: Int) {
        lines += 1
        if number == 1 {
            if line != CorpusFacts.header { problem(number, "the first line is not the export header") }
            return
        }
        guard let data = line.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            problem(number, "not a JSON object")
            return
        }
        guard let type = object["type"] as? String else { return problem(number, "no type") }
        switch type {
        case "thread": readThread(object, number)
        case "message": readMessage(object, number)
        case "export": problem(number, "a second export line")
        default:
            unknownLines += 1
            unknownLineTypes.insert(type)
            if object["thread"] as? String != currentThread { problem(number, "unknown line outside its thread") }
        }
    }

    private mutating func readThread(_ object: [String: Any], _ number: Int) {
        finishThread()
        threads += 1
        guard let id = object["id"] as? String, let locale = object["locale"] as? String else {
            return problem(number, "thread without id or locale")
        }
        if !threadIDs.insert(id).inserted { problem(number, "thread id repeated") }
        if !CorpusFacts.locales.contains(locale) { problem(number, "unexpected locale") }
        locales.insert(locale)
        currentThread = id
        currentLocale = locale
        messageIDs = []
        lastAt = ""
        lastScreenEligible = false
        expectedResponder = nil
        if let group = object["group"] as? [String: Any] {
            groupThreads += 1
            isGroup = true
            if !id.hasPrefix("g_") { problem(number, "group thread id not g_") }
            let list = group["members"] as? [[String: Any]] ?? []
            members = list.compactMap { $0["name"] as? String }
            lead = group["lead"] as? String ?? ""
            if !(2 ... 4).contains(list.count) { problem(number, "group does not have 2 to 4 members") }
            if list.contains(where: { ($0["about"] as? String)?.isEmpty ?? true }) { problem(number, "member without about") }
            if Set(members).count != members.count { problem(number, "member names repeat") }
            if !members.contains(lead) { problem(number, "lead is not a member") }
        } else {
            isGroup = false
            if !id.hasPrefix("t_") { problem(number, "one-agent thread id not t_") }
            guard let agent = object["agent"] as? String, let about = object["about"] as? String, !about.isEmpty else {
                return problem(number, "one-agent thread without agent or about")
            }
            members = [agent]
            lead = agent
        }
    }

    private mutating func readMessage(_ object: [String: Any], _ number: Int) {
        guard let thread = object["thread"] as? String, thread == currentThread else {
            return problem(number, "message not right after its own thread")
        }
        guard let id = object["id"] as? String, id.hasPrefix("m_"), Int(id.dropFirst(2)) != nil else {
            return problem(number, "message id not m_N")
        }
        if !messageIDs.insert(id).inserted { problem(number, "message id repeated in thread") }
        guard let at = object["at"] as? String, at.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil else {
            return problem(number, "at is not ISO 8601 UTC")
        }
        if at <= lastAt { problem(number, "at does not increase") }
        if at >= "2026-10-02T00:00:00Z" { problem(number, "at after the export was created") }
        lastAt = at
        if let lang = object["lang"] {
            if !(lang is String) { problem(number, "lang not a string") }
            langOverrides += 1
        }
        guard let from = object["from"] as? String else { return problem(number, "message without from") }
        if from == "person" {
            readPerson(object, number)
        } else {
            readAgent(object, from: from, number)
        }
    }

    private mutating func readPerson(_ object: [String: Any], _ number: Int) {
        personMessages += 1
        guard let text = object["text"] as? String, !text.isEmpty else { return problem(number, "person message without text") }
        if text.contains("{") || text.contains("}") { unresolvedPlaceholders += 1 }
        guard let meta = object["meta"] as? [String: Any] else { return problem(number, "person message without meta") }
        if object["screen"] != nil { problem(number, "person message with a screen") }
        if let build = meta["build"] as? String, CorpusFacts.builds.contains(build) {
            builds.insert(build)
            threadBuilds.insert(build)
        } else {
            problem(number, "build missing or unknown")
        }
        if let model = meta["model"] as? String, CorpusFacts.models.contains(model) { models.insert(model) } else {
            problem(number, "model missing or unknown")
        }
        let via = meta["via"] as? String
        if let via, via != "suggested", via != "typed" { problem(number, "via not suggested or typed") }
        if lastScreenEligible { repliesAfterEligible += 1 }
        if via == "suggested" {
            if lastScreenEligible { suggestedAfterEligible += 1 } else { suggestedElsewhere += 1 }
            longestSuggested = max(longestSuggested, text.count)
        }
        if via == "typed" { typedVia += 1 }
        if isTrue(meta["offline"]) { offline += 1 }
        if let ticks = meta["draft_ticks"] {
            draftTicks += 1
            let values = (ticks as? [Any])?.compactMap { $0 as? Int } ?? []
            if values.isEmpty || values.contains(where: { $0 < 0 || $0 > 20 }) { problem(number, "draft_ticks not small ints") }
            if !isTrue(meta["offline"]) { problem(number, "draft_ticks on a message that was not offline") }
        }
        if let group = meta["group"] as? [String: Any] {
            if !isGroup { problem(number, "group meta in a one-agent thread") }
            guard let to = group["to"] as? String, members.contains(to) else { return problem(number, "group.to not a member") }
            if let routed = group["routed"] {
                if routed as? String != "on-device" { problem(number, "routed not on-device") }
                routing["routed", default: 0] += 1
            } else if text.hasPrefix("@") {
                routing["named", default: 0] += 1
                if !text.hasPrefix("@" + to + " ") { problem(number, "@name does not match group.to") }
            } else {
                routing["chosen", default: 0] += 1
            }
            expectedResponder = to
        } else {
            if isGroup { routing["lead", default: 0] += 1 }
            if text.hasPrefix("@") { problem(number, "@name without group.to") }
            expectedResponder = lead
        }
        lastScreenEligible = false
    }

    private mutating func readAgent(_ object: [String: Any], from: String, _ number: Int) {
        agentMessages += 1
        screens += 1
        if !members.contains(from) { problem(number, "agent message from someone outside the thread") }
        if let expected = expectedResponder, from != expected, from != lead { wrongResponder += 1 }
        expectedResponder = nil
        if object["text"] != nil || object["meta"] != nil { problem(number, "agent message with text or meta") }
        guard let screen = object["screen"] as? [Any], !screen.isEmpty else { return problem(number, "agent message without a screen") }
        var words: [String] = []
        var lastSay: String?
        var tappable = false
        for element in screen {
            guard let node = element as? [String: Any], node.count == 1, let (kind, value) = node.first else {
                return problem(number, "node is not an object with one key")
            }
            nodeKinds[kind, default: 0] += 1
            if CorpusFacts.tappableKinds.contains(kind) { tappable = true }
            switch kind {
            case "say":
                guard let say = value as? String else { return problem(number, "say is not a string") }
                lastSay = say
                words.append(say)
            case "card":
                guard let card = value as? [String: Any], let title = card["title"] as? String, let body = card["body"] as? String else {
                    return problem(number, "card without title and body")
                }
                if let id = card["id"], !(id is String) { problem(number, "card id not a string") }
                if let picture = card["picture"], !(picture is String) { problem(number, "card picture not a string") }
                if let props = card["props"], !(props is [String: Any]) { problem(number, "card props not an object") }
                words += [title, body]
            case "stat":
                guard let stat = value as? [String: Any], let label = stat["label"] as? String, let figure = stat["value"] as? String else {
                    return problem(number, "stat without label and value")
                }
                if let unit = stat["unit"], !(unit is String) { problem(number, "stat unit not a string") }
                words += [label, figure, stat["unit"] as? String ?? ""]
            case "list":
                guard let list = value as? [String: Any], let items = list["items"] as? [String], !items.isEmpty else {
                    return problem(number, "list without items")
                }
                words += [list["title"] as? String ?? ""] + items
            case "picture":
                guard let picture = value as? [String: Any], let url = picture["url"] as? String, url.hasPrefix("https://") else {
                    return problem(number, "picture without url")
                }
            case "choose", "pick":
                guard let choice = value as? [String: Any], let options = choice["options"] as? [String], !options.isEmpty else {
                    return problem(number, "choose or pick without options")
                }
                words.append(choice["prompt"] as? String ?? "")
            case "ask", "form", "slide":
                if !(value is [String: Any]) { problem(number, "ask, form or slide not an object") }
            default:
                unknownNodes += 1
            }
        }
        for word in words where word.contains("{") || word.contains("}") { unresolvedPlaceholders += 1 }
        let wordCount = words.joined(separator: " ").split(whereSeparator: \.isWhitespace).count
        if wordCount > 600 { longScreens += 1 }
        if wordCount > 2_500 { veryLongScreens += 1 }

        let trimmed = lastSay.map { String($0.reversed().drop(while: \.isWhitespace).reversed()) }
        let asks = trimmed.map { $0.hasSuffix("?") || $0.hasSuffix("？") } ?? false
        let eligible = asks && !tappable
        if eligible {
            eligibleScreens += 1
            if let lastSay, lastSay != trimmed { questionsWithTrailingSpace += 1 }
            if currentLocale == "ja-JP", object["lang"] == nil {
                japaneseEligible += 1
                if trimmed?.hasSuffix("？") == true { japaneseEligibleFullWidth += 1 }
            }
        }
        lastScreenEligible = eligible

        if let push = object["push"] {
            guard let push = push as? [String: Any], let kind = push["kind"] as? String, let batch = push["batch"] as? Int else {
                return problem(number, "push without kind and batch")
            }
            if !["reply", "handoff", "quote"].contains(kind) { problem(number, "push kind unknown") }
            if !(1 ... 6).contains(batch) { problem(number, "push batch outside 1...6") }
            pushes[kind, default: 0] += 1
            if batch > 1 { batchesOverOne += 1 }
        }
    }

    private func isTrue(_ value: Any?) -> Bool {
        if let flag = value as? Bool { return flag }
        return (value as? NSNumber)?.boolValue ?? false
    }
}
