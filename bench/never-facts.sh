#!/usr/bin/env bash
# What the fact-reading never rules cost (issue 44, point 3; docs/never-rules.md): planning reads
# every reply a push sums up into SourceFacts, and every offline message a draft answers; the
# check reads one line or one draft. Timed on synthetic texts written here (no corpus), with the
# rule files compiled alone with -O (Jobs/Rules/*.swift, PushLineRule and SealedText, `import
# Privacy` dropped), each the smallest of RUNS runs. Only times and sizes are printed.
#
# usage: bench/never-facts.sh [RUNS] (default 6)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-6}
[[ $runs =~ ^[0-9]+$ ]] || { echo "usage: bench/never-facts.sh [RUNS]" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/replay-bench-never-facts.XXXXXX")
trap 'rm -rf "$work"' EXIT

for file in "$root"/Sources/Jobs/Rules/*.swift "$root/Sources/Jobs/Push/PushLineRule.swift" "$root/Sources/Privacy/SealedText.swift"; do
    sed '/^import Privacy/d' "$file" > "$work/$(basename "$file")"
done
# The rules the timing loop does not call need types of the Jobs module; they are left out.
rm -f "$work/ChipLanguageRule.swift" "$work/RouteOutsideGroupRule.swift" "$work/ShortTextLanguage.swift" "$work/ExpertTopic.swift"
cat > "$work/main.swift" <<'EOF'
import Foundation
var numbers = ""
for i in 0..<60 { numbers += "Week \(i % 9): 4 runs, \(30 + i).5 km in total, long run Sunday at 7:30, pace 5:4\(i % 10)/km. Rest day Friday. " }
let prose = String(repeating: "Nice week overall. The long run went well and your legs felt fresh after the rest day on Friday, so let's keep the plan as it is: an easy run on Tuesday, intervals on Thursday and 12 km on Saturday. ", count: 25)
let japanese = String(repeating: "今週は三回走りました。明日は休みです。体重：-1.5kg。土曜日は10キロ走です。", count: 40)
let spec = "Weight: -2.3 lb\nNice week. Rest day or a light 3k tomorrow?"
let message = "make me a packing list for race day with everything I need"
func time(_ name: String, _ n: Int, _ body: () -> Void) {
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<n { body() }
    print(name + "\t" + String(format: "%.1f", Double(DispatchTime.now().uptimeNanoseconds - start) / 1000 / Double(n)))
}
var sink = 0
for (name, text) in [("reply, prose, en", prose), ("reply, numbers, en", numbers), ("reply, ja", japanese), ("reply, the spec's", spec)] {
    time("planning: \(name), \(text.utf8.count) bytes", text.utf8.count > 1000 ? 500 : 20000) {
        sink &+= SourceFacts(reading: text, agent: "Coach", counts: [1, 1]).supports(.weekday(5)) ? 1 : 0
    }
}
let facts = SourceFacts(reading: spec, agent: "Coach", counts: [1, 1])
time("check: a push line", 20000) { sink &+= PushUnfaithfulRule.invents("Weight down 2.3 lb. Rest day or a light 3k tomorrow?", source: facts, language: "en") ? 1 : 0 }
time("planning: a draft's message, \(message.utf8.count) bytes", 20000) { sink &+= SourceFacts(reading: message, keepsParts: true).holds(word: "race") ? 1 : 0 }
let kept = SourceFacts(reading: message, keepsParts: true)
time("check: a draft of five fields", 20000) {
    for field in ["Race day", "Running shoes", "Remember to hydrate the day before", "Here's your list", "Gels x4"] {
        sink &+= DraftAdviceRule.advises(field, message: kept) ? 1 : 0
        sink &+= DraftAgentVoiceRule.speaksAsAgent(field, agent: "Coach", message: kept) ? 1 : 0
    }
}
if sink < 0 { print(sink) }
EOF
swiftc -O -module-name NeverFacts "$work"/*.swift -o "$work/never-facts"
for _ in $(seq "$runs"); do "$work/never-facts"; done \
    | awk -F'\t' '{ if (!($1 in best) || $2 + 0 < best[$1] + 0) best[$1] = $2; if (!($1 in order)) order[$1] = n++ }
                  END { for (k in order) print order[k] "\t" k "\t" best[k] " µs" }' | sort -n | cut -f2-
