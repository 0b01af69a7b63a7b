import Privacy

/// Every word the writers of `replay`'s result files use in text they compose: report.md,
/// junit.xml, dashboard.html, and the prose strings of report.json, state.json and metrics.json
/// (a device profile's source, metric definitions, bad line reasons, input errors).
///
/// A reviewed constant, derived from the writers: the words are the runs of letters in the string
/// literals of the files in `writerSources`. `ResultVocabularyTests` reads those files and fails
/// when a literal there holds a word missing here, so a writer that adds a word fails the test
/// until the word is added (and reviewed) here; and a clean run's files must pass with zero
/// findings. Corpus words are not here: the corpus generator's phrasebooks are no writer.
/// The auditor adds `systemWords`: the C library's messages for every errno (`SystemError`),
/// which input errors and a model's unavailability quote.
public enum ResultVocabulary {
    /// Source files and folders (relative to the package root) whose string literals are the
    /// writers' words.
    public static let writerSources = [
        "Sources/ReplayKit/Report",
        "Sources/Flywheel",
        "Sources/Engine/DeviceProfile.swift",
        "Sources/Engine/ModelProfiles+BuiltIn.swift",
        "Sources/ReplayKit/Command/ProfilesFile.swift",
        "Sources/Llama/LlamaError.swift",
        "Sources/Llama/Bindings/LlamaModel.swift",
        "Sources/ReplayKit/State/RunState.swift",
        "Sources/ReplayKit/State/OptionFlag.swift",
        "Sources/Export",
        "Sources/Compare/Output",
        "Sources/Compare/GateVerdict.swift",
        "Sources/Suite/Output",
        "Sources/Probe/Output",
    ]

    /// The words, lower case.
    public static let words: Set<String> = [
        // The documents' keys of one word (a Codable property's name is its key: the probe report's sandbox).
        "audit", "breakdown", "buffer", "capacity", "categories", "cell", "checkpoint", "counter", "date", "definition",
        "descriptor", "dictionary", "direction", "document", "entries", "event", "extent", "fatal", "free", "indexes",
        "info", "inode", "jobs", "language", "ledgers", "length", "lengths", "location", "method", "mutex", "native",
        "offset", "prefix", "problem", "replicates", "sandbox", "screens", "seconds", "settings", "started", "stats",
        "status", "storage", "tail", "tallies", "tape", "threshold", "tool", "totals", "violations", "vocab", "words",
        // The phone's one queue: report.md's column, and the built-in profiles' source of its figures.
        "bits", "cold", "composer", "flash", "focus", "gives", "guess", "idle", "order", "parameters", "preparing",
        "prewarm", "publishes", "queue", "queued", "reading", "send", "they", "timing", "unload", "unloaded",
        // replay probe injection: report.json's keys and report.md's words.
        "already", "attack", "attacked", "baseline", "injection", "marker", "maximum", "outputs", "plain", "probe", "set",
        "succeeded", "success", "trials",
        // Routing's drawer and push lines written at the next app run (--push-mode), in report.json and report.md.
        "delay", "drawer", "followed", "next", "outside", "switcher",
        // An upgrade preview (--as-model-version), in report.md, on stderr and in compare's pages.
        "preview", "recorded", "speed", "slices", "keep", "upgrade",
        // replay probe compare's compare.md.
        "attacks", "cluster", "hash", "keyed", "measure", "measures", "nobody", "pooled", "utility",
        // replay suite compare's pages.
        "minus", "gained", "judged", "carry", "later", "large", "lost", "hide", "says",
        // Literals inside the writers' interpolations.
        "ok", "values", "flag", "flags", "option", "trial", "twice", "arrays",
        // A file cut short or changed while it was read (ExportError).
        "decompressed", "may", "mix", "modified", "opened", "short", "throughout", "versions", "when", "while",
        // A file edited or replaced after the run took its identity (ExportError).
        "another", "hashed", "identity", "put", "took",
        "bench", "digest", "labels",
        // replay compare's writers (Compare/Output, GateVerdict).
        "accent", "across", "adjusted", "adjustment", "answer", "anywhere", "base", "bec", "better",
        "bootstrap", "both", "bound", "budgets", "centred", "change", "characters", "clustered", "clusters", "colour",
        "compare", "confidence", "crosses", "cursor", "details", "detect", "detectable", "differ", "difference", "differences",
        "discordant", "do", "draws", "each", "edf", "evidence", "exact", "forest", "gate", "gates",
        "grouped", "have", "higher", "holm", "how", "if", "included", "intervals", "item", "join", "joined",
        "labelledby", "lower", "mcnemar", "md", "mdd", "minimum", "more", "neither", "new", "normal",
        "nowrap", "open", "own", "paired", "pairs", "passed", "passes", "percentage", "percentiles",
        "plot", "point", "pointer", "power", "pp", "rates", "repeated", "result", "runs", "saw",
        "scores", "see", "seed", "show", "shown", "shows", "side", "smallest", "so", "space", "standard",
        "stripe", "strong", "summary", "test", "their", "these", "tspan", "upper", "verdict", "white", "wholly",
        "worse",
        // replay suite run's writers (Suite/Output).
        "cases", "checked", "decided", "dependent", "deterministic", "expectation", "expectations", "fail", "fails", "judge",
        "late", "observed", "ones", "pass", "rules", "suite", "watch", "whatever", "writes", "yes",
        // The engine's and the state's reasons for a model that cannot be used.
        "denied", "differs", "loaded", "merges", "off", "permission", "state", "turned",
        // The state's words for two runs that asked with other prompt sets.
        "prompts", "ran",
        // The state's keys, spelled in its parts' coding keys.
        "approximate", "events", "segments",
        // The built-in model-version and device profiles' sources (ModelProfiles+BuiltIn), and
        // what stands for a team's own (ProfilesFile). The language subtags are the JSON's.
        "accelerators", "against", "although", "assumed", "bandwidth", "built", "com", "contextsize", "da", "de",
        "decoding", "engines", "estimate", "faster", "gb", "gpu", "ground", "intelligence", "ios", "ja", "ko",
        "languages", "lpddr", "make", "managing", "modelled", "nb", "neural", "newer", "nl", "norwegian", "pt",
        "published", "rebuilt", "scaled", "session", "sets", "stated", "support", "sv", "team", "tn", "up", "updating",
        "vi", "which", "window", "written", "wwdc", "zh",
        "checks", "devices", "es", "figures", "hold", "inject", "kib", "larger", "modelprofilestests", "pass", "profiles",
        "reports", "should", "sources", "tops", "us", "why",
        // The phone's token estimate: its source, its scripts and keys, the report's token sizes.
        "cautious", "corpora", "endpoint", "framing", "han", "hangul", "japanese", "k", "kana", "latin", "measured",
        "phone", "proxy", "qwen", "rule", "scripts", "thumb", "unmeasured", "vocabulary",
        // The never rules' line of report.md.
        "broken", "checked", "rules",
        // The flywheel's spec contract checks (metrics.json's definitions, the dashboard's section).
        "alarm", "allow", "always", "asks", "br", "broke", "check", "code", "contract", "counts", "define", "does",
        "extra", "gets", "gives", "last", "made", "offered", "overall", "rows", "spec", "taken", "typed", "where",
        "whose", "wins",
        "a", "aab", "about", "above", "acff", "after", "agent", "align", "all", "allocate", "amp", "an", "anchor",
        "and", "anonymised", "answered", "answers", "app", "apple", "architecture", "archive", "are", "aria", "array", "as", "ask",
        "asked", "at", "auto", "axis", "b", "back", "background", "bad", "bar", "bars", "batch", "be",
        "before", "beginning", "below", "beside", "beyond", "bg", "block", "body", "bool", "border", "bottom", "box",
        "bucket", "budget", "build", "by", "byte", "bytes", "bzip", "c", "calling", "cannot", "caption",
        "card", "carried", "case", "cd", "cells", "cfd", "changed", "character", "chars", "charset", "chart", "chat",
        "chip", "chips", "choose", "chose", "circle", "class", "classname", "col", "collapse", "color", "colspan",
        "column", "columns", "comes", "command", "compared", "compressed", "confusion", "content",
        "context", "control", "corpus", "corrupt", "could", "count", "counted", "counters", "coverage",
        "covering", "cpp", "create", "created", "csv", "custom", "cut", "cx", "cy", "d", "dae", "dark",
        "dasharray", "dashboard", "dashed", "data", "dd", "decode", "decoded", "decompression", "deeper", "default",
        "definitions", "delta", "denominator", "desc", "describedby", "description", "device", "did",
        "digit", "digits", "dimension", "directly", "directory", "display", "div", "dl", "doctype", "dot", "draft",
        "drafts", "dry", "dt", "e", "ed", "eligible", "em", "empty", "en", "encoding", "end", "ending", "ends", "equiv",
        "error", "errors", "escape", "escaped", "estimated", "every", "exactly", "expected", "exponent",
        "export", "f", "failed", "failure", "failures", "faint", "fallbacks", "false", "feature", "features", "fewer",
        "ff", "ffa", "ffffff", "fg", "field", "figcaption", "figure", "file", "files", "fill", "first", "flex",
        "flywheel", "follow", "following", "font", "footer", "for", "form", "format", "found", "foundation", "four",
        "fr", "fraction", "frame", "from", "full", "gap", "general", "ggml", "gguf", "given", "grammar", "grid", "group", "groups", "gt",
        "guessed", "gzip", "h", "handoff", "hands", "has", "head", "header", "height", "held", "hex", "hidden", "high",
        "highest", "holds", "hollow", "host", "href", "html", "http", "id", "img", "in", "index",
        "initial", "ink", "inline", "input", "inputs", "insensitive", "inside", "integer", "integers", "interval",
        "introducing", "invalid", "iphone", "is", "iso", "it", "italic", "items", "its", "job", "json", "jsonl",
        "june", "keeps", "kept", "key", "keys", "kind", "kinds", "knows", "label", "lang", "latency", "lead",
        "leading", "least", "left", "legend", "levels", "li", "libzstd", "light", "limit", "line", "lines", "list",
        "listed", "lists", "literal", "llama", "load", "locale", "long", "longer", "low", "lowest", "lt", "m", "magic",
        "main", "margin", "marked", "marks", "mask", "matching", "max", "mean", "means", "media", "meet", "member",
        "members", "memory", "message", "messages", "met", "meta", "metadata", "metric", "metricdimension", "metrics",
        "mib", "middle", "min", "missing", "ml", "mode", "model", "models", "most", "ms", "must", "muted", "n", "name",
        "named", "names", "naming", "nav", "near", "needs", "nesting", "never", "no", "nodata", "node", "nodes", "non", "none",
        "not", "nothing", "noto", "null", "num", "number", "numbers", "numerator", "numeric", "nums", "object", "of",
        "offer", "offline", "on", "once", "one", "only", "opacity", "options", "or", "other", "out", "outline",
        "output", "over", "overflow", "overview", "p", "padding", "page", "panel", "parse", "path",
        "paths", "peek", "people", "per", "person", "pick", "picture", "pill", "place", "places", "points", "policy",
        "polyline", "population", "prefers", "prefill", "preserveaspectratio", "pro", "profile", "prompt", "push",
        "pushes", "px", "quality", "question", "quot", "quote", "r", "radius", "range", "rate", "read", "reader",
        "reads", "real", "reason", "record", "rect", "rem", "repeat", "replay", "replayed", "replies", "reply",
        "report", "research", "right", "roboto", "role", "root", "route", "routed", "routing", "row", "run", "s",
        "same", "sample", "samples", "sans", "saved", "say", "scale", "scanned", "schema", "scheme", "scope",
        "screen", "section", "security", "segoe", "sent", "sequence", "sequences", "series", "serif",
        "server", "sha", "shard", "shards", "share", "shares", "size", "sizes", "sizing", "skipped", "slice", "slide",
        "slot", "small", "solid", "source", "span", "splitter", "src", "start",
        "starts", "stat", "stdin", "step", "stopped", "strict", "string", "strings", "stroke", "style",
        "such", "suggested", "sum", "sums", "supported", "surrogate", "svg", "swatch", "system", "t", "table", "tables",
        "tabular", "tap", "tbody", "td", "template", "testcase", "tests", "testsuite", "testsuites", "text", "th",
        "than", "that", "the", "thead", "then", "there", "this", "though", "thread", "threads", "thresholds", "ticks",
        "time", "title", "to", "token", "tokenizer", "tokens", "too", "top", "total", "tr", "true",
        "truncated", "two", "type", "types", "u", "ui", "ul", "unavailable", "uncompressed", "unexpected", "unit",
        "unknown", "unpaired", "unread", "unsafe", "unsandboxed", "unterminated", "usage", "used", "utf", "v", "valid",
        "value", "var", "variant", "version", "vertical", "via", "viewbox", "viewport", "vs", "w", "was", "week",
        "weight", "went", "were", "what", "whisker", "whole", "width", "wilson", "with", "within", "without", "would",
        "wrap", "written", "x", "xminymin", "xml", "xz", "y", "z", "zero", "zip", "zst", "zstd",
    ]

    /// Characters beyond printable ASCII the writers use.
    public static let symbols: Set<Unicode.Scalar> = [
        "\u{00A7}", "\u{00d7}", "\u{2013}", "\u{2014}", "\u{201c}", "\u{201d}", "\u{2026}", "\u{2212}",
    ]
}
