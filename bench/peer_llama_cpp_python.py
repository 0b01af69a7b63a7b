#!/usr/bin/env python3
"""The peer of replay's model stage: llama-cpp-python, one request after the other, greedy.

Reads the same corpus as `replay-bench model`, rebuilds each job's requests with the same
instructions, prompt layout, token cuts (in the phone's tokens, by the built-in profiles'
estimate) and GBNF grammars as the Swift jobs (Sources/Jobs), route's drawer places included (its
agents gathered from the whole corpus first, as a run does), and
answers them with llama-cpp-python's ordinary API (`Llama.create_completion`, temperature 0, the
grammar as a `LlamaGrammar`) on the same libllama.so and model. Like replay it prints digests
and counts only, never a word:

    prompt  INDEX  HMAC(instructions)  HMAC(prompt)  HMAC(grammar)  HMAC(token ids)  TOKENS
    output  INDEX  HMAC(output) | failure:REASON  OUTPUT_TOKENS

Each HMAC is HMAC-SHA-256 under the key in --digest-key (bench/model.sh makes a fresh one per
run and gives it to replay too), so the digests compare between the two sides and confirm no
guess to anyone without the key.
    summary JOB  REQUESTS  SECONDS  PROMPT_TOKENS  OUTPUT_TOKENS  -  peer

`bench/model.sh` compares the prompt lines with replay's: the same digests mean the same
requests. The corpus must have no bad lines (the sample has none); a difference shows there.

usage: peer_llama_cpp_python.py --job JOB [--limit N] [--requests N] [--threads N] [--plan-only] --model PATH --digest-key FILE CORPUS

With --requests N, threads are read until they give N requests, and the first N are answered (as
`replay-bench model --requests N` does).
"""
import argparse
import ctypes
import hashlib
import hmac
import json
import re
import subprocess
import sys
import time

LIST_SEPARATOR = "\n"


# Digests are HMAC-SHA-256 under the benchmark's key, after this domain and a NUL, exactly as
# replay-bench model computes them (LlamaModel.benchDigestDomain): comparable by the two sides,
# and no guess oracle for anyone without the key.
DIGEST_DOMAIN = b"replay.bench-digest/1\x00"
DIGEST_KEY = None


def keyed(data):
    return hmac.new(DIGEST_KEY, DIGEST_DOMAIN + data, hashlib.sha256).hexdigest()


def read_key(path):
    data = open(path, "rb").read()
    if len(data) == 32:
        return data
    text = data[:-1] if data.endswith(b"\n") else data
    if len(text) == 64:
        return bytes.fromhex(text.decode("ascii"))
    raise SystemExit(f"{path}: not a key (32 raw bytes or 64 hex digits)")


def sha(text):
    return keyed(text.encode("utf-8"))


# --- Export records (Sources/Export/Records) ---------------------------------------------------


class Node:
    TAPPABLE = {"choose", "pick", "ask", "form", "slide"}

    def __init__(self, raw):
        (self.kind, value), = raw.items()
        self.value = value

    def words(self):
        v = self.value
        if self.kind == "say":
            return [v]
        if self.kind == "card":
            return [v["title"], v["body"]]
        if self.kind == "stat":
            figure = v["label"] + ": " + v["value"]
            return [figure] if v.get("unit") is None else [figure + " " + v["unit"]]
        if self.kind == "list":
            return ([] if v.get("title") is None else [v["title"]]) + list(v["items"])
        if self.kind in ("choose", "pick"):
            return [] if v.get("prompt") is None else [v["prompt"]]
        return []


class Screen:
    def __init__(self, raw):
        self.nodes = [Node(n) for n in raw]

    def words(self):
        return "\n".join(w for n in self.nodes for w in n.words())

    def last_say(self):
        for node in reversed(self.nodes):
            if node.kind == "say":
                return node.value
        return None

    def is_chip_eligible(self):
        if any(n.kind in Node.TAPPABLE for n in self.nodes):
            return False
        say = self.last_say()
        if say is None:
            return False
        stripped = [c for c in say if not c.isspace()]
        return bool(stripped) and stripped[-1] in ("?", "\uff1f")


class Message:
    def __init__(self, raw):
        self.sender = raw["from"]
        self.text = raw.get("text")
        self.screen = None if raw.get("screen") is None else Screen(raw["screen"])
        push = raw.get("push")
        self.push = None if push is None else (push["kind"], push.get("batch") or 1)
        self.lang = raw.get("lang")
        meta = raw.get("meta") or {}
        self.offline = bool(meta.get("offline") or False)
        group = meta.get("group") or {}
        self.group_to = group.get("to")

    @property
    def is_person(self):
        return self.sender == "person"


class Thread:
    def __init__(self, raw):
        self.agent = raw.get("agent")
        self.about = raw.get("about")
        self.locale = raw.get("locale")
        group = raw.get("group")
        self.group = None if group is None else (group["lead"], [(m["name"], m.get("about") or "") for m in group["members"]])
        self.messages = []

    def language(self, message):
        return message.lang if message.lang is not None else self.locale


def threads(path, limit):
    """The corpus's threads in order, each once its next thread (or the end) is read."""
    reader = subprocess.Popen(["zstd", "-dcq", path], stdout=subprocess.PIPE) if path.endswith(".zst") else None
    stream = reader.stdout if reader else open(path, "rb")
    current, completed = None, 0
    try:
        for line in stream:
            if not line.strip():
                continue
            record = json.loads(line)
            kind = record.get("type")
            if kind in ("export", "thread"):
                if current is not None:
                    yield current
                    completed += 1
                    if limit is not None and completed >= limit:
                        return
                current = Thread(record) if kind == "thread" else None
            elif kind == "message" and current is not None:
                current.messages.append(Message(record))
        if current is not None:
            yield current
    finally:
        if reader:
            reader.kill()
            reader.wait()


# --- Languages (Sources/Jobs/Core/Language.swift, SupportedLanguages.swift) --------------------

NAMES = {"en": "English", "fr": "French", "de": "German", "es": "Spanish", "it": "Italian", "pt": "Portuguese",
         "nl": "Dutch", "ja": "Japanese", "zh": "Chinese", "ko": "Korean", "sv": "Swedish", "da": "Danish",
         "nb": "Norwegian", "fi": "Finnish", "pl": "Polish", "tr": "Turkish", "vi": "Vietnamese"}
SUPPORTED = {"en", "fr", "de", "it", "pt", "es", "zh", "ja", "ko", "da", "nl", "nb", "no", "sv", "tr", "vi"}


def language_code(tag):
    if tag is None:
        return None
    parts = [p for p in re.split("[-_]", tag) if p]
    return parts[0].lower() if parts else None


def language_name(tag):
    return NAMES.get(language_code(tag), "English")


def supports(tag):
    code = language_code(tag)
    return tag is None or code is None or code in SUPPORTED


# --- The phone's tokens (Sources/Engine/PhoneTokenizer.swift, PhoneTokenRates.swift) ----------
#
# The jobs cut their inputs in the phone model's tokens, by the built-in profiles' estimate: a
# weight per character by its script, in thousandths of a token (1000 / characters per token,
# rounded: latin 3.5, han and kana 1.4, hangul and other scripts 1.0).

PHONE_MILLI_TOKENS = {"latin": 286, "han": 714, "kana": 714, "hangul": 1000, "other": 1000}


def script(value):
    if value < 0x250 or 0x1E00 <= value <= 0x1EFF or 0x2000 <= value <= 0x206F or 0x20A0 <= value <= 0x20CF:
        return "latin"
    if 0x3040 <= value <= 0x30FF or 0x31F0 <= value <= 0x31FF or 0xFF66 <= value <= 0xFF9F:
        return "kana"
    if (0x3000 <= value <= 0x303F or 0x3400 <= value <= 0x4DBF or 0x4E00 <= value <= 0x9FFF or 0xF900 <= value <= 0xFAFF
            or 0xFF00 <= value <= 0xFF65 or 0x20000 <= value <= 0x3FFFF):
        return "han"
    if 0x1100 <= value <= 0x11FF or 0x3130 <= value <= 0x318F or 0xAC00 <= value <= 0xD7AF:
        return "hangul"
    return "other"


def phone_suffix(text, max_tokens):
    """The longest end of `text` within `max_tokens` of the phone's tokens (PhoneTokenizer.suffix)."""
    budget, kept, start = max(0, max_tokens) * 1000, 0, len(text)
    while start > 0:
        weight = PHONE_MILLI_TOKENS[script(ord(text[start - 1]))]
        if kept + weight > budget:
            break
        kept += weight
        start -= 1
    return text[start:]


# --- Grammars (Sources/Jobs/Guided/GrammarWriter.swift) ----------------------------------------


def literal(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def repeated(item, low, high):
    return f"{item}{{{low}}}" if low == high else f"{item}{{{low},{high}}}"


def same_length(low, high):
    if not low:
        return [""]
    a, b = low[0], high[0]
    rest_low, rest_high = low[1:], high[1:]

    def join(head, tail):
        return head if not tail else head + " " + tail

    def digit_class(x, y):
        return literal(x) if x == y else f"[{x}-{y}]"

    any_tail = "" if not rest_low else "[0-9]" + (f"{{{len(rest_low)}}}" if len(rest_low) > 1 else "")
    if a == b:
        return [join(literal(a), t) for t in same_length(rest_low, rest_high)]
    if all(c == "0" for c in rest_low) and all(c == "9" for c in rest_high):
        return [join(digit_class(a, b), any_tail)]
    result = []
    first, last = a, b
    if not all(c == "0" for c in rest_low):
        result += [join(literal(a), t) for t in same_length(rest_low, "9" * len(rest_low))]
        first = chr(ord(a) + 1)
    high_is_full = all(c == "9" for c in rest_high)
    if not high_is_full:
        last = chr(ord(b) - 1)
    if first <= last:
        result.append(join(digit_class(first, last), any_tail))
    if not high_is_full:
        result += [join(literal(b), t) for t in same_length("0" * len(rest_high), rest_high)]
    return result


def integer_expression(low, high):
    alternatives = []
    lo, hi = str(low), str(high)
    for digits in range(len(lo), len(hi) + 1):
        start = lo if digits == len(lo) else "1" + "0" * (digits - 1)
        end = hi if digits == len(hi) else "9" * digits
        alternatives += same_length(start, end)
    return " | ".join(alternatives)


def rule(schema, name, rules):
    def define(expression):
        rules.append(f"{name} ::= {expression}")
        return name

    kind = schema[0]
    if kind == "string":
        return define('"\\"" ' + repeated("char", *schema[1]) + ' "\\""')
    if kind == "integer":
        return define(integer_expression(*schema[1]))
    if kind == "anyOf":
        return define(" | ".join(literal('"' + v + '"') for v in schema[1]))
    if kind == "array":
        _, element, (low, high) = schema
        item = rule(element, name + "-item", rules)
        rest = " " + repeated(f'("," {item})', max(0, low - 1), high - 1) if high > 1 else ""
        body = f"({item}{rest})?" if low == 0 else f"{item}{rest}"
        return define('"[" ' + body + ' "]"')
    if kind == "object":
        return define(object_expression(schema[1], None, name, rules))
    if kind == "union":
        alternatives = [object_expression(props, tag, name + "-" + tag, rules) for tag, props in schema[1]]
        return define(" | ".join(f"({a})" for a in alternatives))
    raise ValueError("unknown schema")


def object_expression(properties, tag, name, rules):
    parts = []
    if tag is not None:
        parts.append(literal('{"kind":"' + tag + '"'))
    for index, (prop, schema) in enumerate(properties):
        opener = "{" if index == 0 and tag is None else ","
        value = rule(schema, name + "-" + prop, rules)
        parts.append(literal(opener + '"' + prop + '":') + " " + value)
    if not parts:
        parts.append(literal("{"))
    parts.append(literal("}"))
    return " ".join(parts)


def grammar(schema):
    rules = []
    rule(schema, "root", rules)
    rules = [r for r in rules if r.startswith("root ::=")] + list(reversed([r for r in rules if not r.startswith("root ::=")]))
    rules.append(r'char ::= [^"\\\x00-\x1F\x7F]')
    return "\n".join(rules) + "\n"


REPLIES = grammar(("object", [("replies", ("array", ("string", (1, 40)), (1, 3)))]))
PUSH_LINE = grammar(("object", [("line", ("string", (1, 90)))]))
DRAFT = grammar(("union", [
    ("checklist", [("title", ("string", (1, 40))), ("items", ("array", ("string", (1, 60)), (1, 8)))]),
    ("timer", [("label", ("string", (1, 40))), ("minutes", ("integer", (1, 180)))]),
    ("card", [("title", ("string", (1, 40))), ("body", ("string", (1, 200)))]),
    ("none", []),
]))


def route_choices(members, with_lead=True):
    seen, result = set(), []
    for name in members + (["lead"] if with_lead else []):
        if name and name not in seen:
            seen.add(name)
            if all(c not in '"\\' and ord(c) >= 0x20 and ord(c) != 0x7F for c in name):
                result.append(name)
    return result


# --- Jobs (Sources/Jobs) -------------------------------------------------------------------------


class Request:
    def __init__(self, instructions, prompt, grammar_text, max_tokens):
        self.instructions, self.prompt, self.grammar, self.max_tokens = instructions, prompt, grammar_text, max_tokens


def chips(thread, facts):
    last_from_person = None
    for index, message in enumerate(thread.messages):
        if message.is_person:
            last_from_person = message.text if message.text is not None else last_from_person
            continue
        if message.screen is None or not message.screen.is_chip_eligible():
            continue
        following = thread.messages[index + 1] if index + 1 < len(thread.messages) else None
        language = thread.language(following or message)
        if not supports(language):
            continue
        words = phone_suffix(message.screen.words(), 600)
        agent = message.sender
        instructions = ("You suggest short replies that a person could send in a chat with an assistant. "
                        f"Write one to three different replies, each under 40 characters, in {language_name(language)}, "
                        "as the person would say them. Answer only with JSON.")
        parts = [f"{agent} wrote:", words]
        if last_from_person is not None:
            parts += ["\nThe person's last message was:", last_from_person]
        parts.append(f"\nSuggest replies to {agent}.")
        yield Request(instructions, "\n".join(parts), REPLIES, 160)


def is_word(c):
    return c.isalpha() or c.isnumeric() or c == "_"


def mentions_member(text, members):
    for at, c in enumerate(text):
        if c != "@" or (at > 0 and is_word(text[at - 1])):
            continue
        rest = text[at + 1:]
        for name in members:
            if not name or len(rest) < len(name) or rest[:len(name)].lower() != name.lower():
                continue
            after = rest[len(name):len(name) + 1]
            if not after or not is_word(after):
                return True
    return False


ROUTE_INSTRUCTIONS = ("You route a message in a group chat to the member it is for. Each member has a name and "
                      "a line saying what they are for. Answer with the name of the member the message is for, "
                      'or "lead" when it is not clearly for one member. Answer only with JSON.')


DRAWER_INSTRUCTIONS = ("You pick which of a person's assistants a message is for. The person typed it in the app's "
                       "list of assistants, where each has a name and a line saying what it is for. Answer with the name "
                       "of the assistant the message is for. Answer only with JSON.")
DRAWER_MAXIMUM_AGENTS = 12  # DrawerAgents.maximumCount
DRAWER_TRACKED_NAMES = 4096  # DrawerAgents.Collector.trackedNames


def drawer_agents(path):
    """The agents the drawer offers (DrawerAgents.Collector over the whole corpus, before the run):
    the agents of one-agent threads, most threads first, then by name's bytes, at most 12, each
    with the first `about` of its threads."""
    counts, about = {}, {}
    for thread in threads(path, None):
        name = thread.agent
        if thread.group is not None or not name:
            continue
        if name not in counts and len(counts) >= DRAWER_TRACKED_NAMES:
            continue
        counts[name] = counts.get(name, 0) + 1
        if name not in about and thread.about:
            about[name] = thread.about
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0].encode("utf-8")))[:DRAWER_MAXIMUM_AGENTS]
    return [(name, about.get(name, "")) for name, _ in ranked]


class Facts:
    """What a run gathers of the whole corpus before it (CorpusFacts): the drawer's agents, for route."""

    def __init__(self, drawer=()):
        self.drawer = list(drawer)
        self.drawer_choices = route_choices([name for name, _ in self.drawer], with_lead=False)
        self.drawer_grammar = grammar(("object", [("to", ("anyOf", self.drawer_choices))]))


def drawer(thread, facts):
    """The drawer's place of a one-agent thread (RouteJob.planDrawer): its first message, when the
    person sent it with words, asked against the agents offered."""
    choices = facts.drawer_choices
    if len(choices) < 2 or not thread.agent or not thread.messages:
        return
    message = thread.messages[0]
    if not message.is_person or not message.text:
        return
    if mentions_member(message.text, choices) or thread.agent not in choices:
        return
    if not supports(thread.language(message)):
        return
    lines = [f"- {name}" if not about else f"- {name}: {about}" for name, about in facts.drawer if name in choices]
    parts = ["Assistants:"] + lines + ["\nMessage:", message.text, "\nWhich assistant is this message for?"]
    yield Request(DRAWER_INSTRUCTIONS, "\n".join(parts), facts.drawer_grammar, 48)


def route(thread, facts):
    if thread.group is None:
        yield from drawer(thread, facts)
        return
    _, members = thread.group
    names = [name for name, _ in members]
    route_grammar = grammar(("object", [("to", ("anyOf", route_choices(names)))]))
    for message in thread.messages:
        if not message.is_person or not message.text:
            continue
        if mentions_member(message.text, names):
            continue
        if not supports(thread.language(message)):
            continue
        parts = ["Members:"] + [f"- {name}" if not about else f"- {name}: {about}" for name, about in members]
        parts += ["\nMessage:", message.text, "\nWho is this message for?"]
        yield Request(ROUTE_INSTRUCTIONS, "\n".join(parts), route_grammar, 48)


def push(thread, facts):
    for index, message in enumerate(thread.messages):
        if message.is_person or message.push is None:
            continue
        kind, batch = message.push
        if kind != "reply":
            continue
        count = min(max(batch, 1), 3)
        replies = []
        if message.screen is not None:
            own = [m for m in thread.messages[:index + 1] if m.sender == message.sender and m.screen is not None]
            replies = own[-count:]
        words = "\n\n".join(w for w in (r.screen.words() for r in replies) if w)
        if not words:
            continue
        language = thread.language(message)
        if not supports(language):
            continue
        cut = phone_suffix(words, 1000)
        instructions = ("You write the one-line preview of a push notification for a reply in a chat app. "
                        f"Say in one plain line, under 90 characters, in {language_name(language)}, what the reply holds. "
                        "Start with the content: no greeting, do not say who wrote it, give no advice of your own. "
                        "Answer only with JSON.")
        header = f"The newest {len(replies)} replies:" if len(replies) > 1 else "The reply:"
        yield Request(instructions, "\n".join([header, cut, "\nWrite the line."]), PUSH_LINE, 160)


def draft(thread, facts):
    for message in thread.messages:
        if not message.is_person or not message.offline or not message.text:
            continue
        language = thread.language(message)
        if not supports(language):
            continue
        agent = next((a for a in (thread.agent, message.group_to, thread.group[0] if thread.group else None) if a is not None),
                     "the agent")
        instructions = (f"The person has no signal and sent a message to {agent}; it waits until they are back online. "
                        f"Until {agent} answers, the phone can draw a draft the person can use: a checklist when "
                        "they ask for a list, a timer when they ask for a timer, a card when they ask for a note. "
                        f"A question about health, money or anything only {agent} knows gets none. "
                        f"Write the draft in {language_name(language)}. Answer only with JSON.")
        yield Request(instructions, "Message:\n" + message.text, DRAFT, 256)


JOBS = {"chips": chips, "route": route, "push": push, "draft": draft}


# --- Tokens (Sources/Llama: Bindings/LlamaModel.swift, ChatFraming.swift) -----------------------


class Tokenizer:
    """llama.cpp's tokenizer and chat framing of the model, through libllama (`model` is a
    llama-cpp-python `_internals.LlamaModel`, loaded whole or with its vocabulary only)."""

    def __init__(self, llama_cpp, model):
        self.lib = llama_cpp
        self.model = model  # kept: the vocabulary's pointers live only as long as the model object
        self.vocab = model.vocab
        self.framing = self._framing(model.model)

    @classmethod
    def vocabulary_only(cls, model_path):
        """The tokenizer of the GGUF at `model_path` with no weights loaded (for a peer whose
        model runs in another process)."""
        import llama_cpp
        from llama_cpp import _internals
        params = llama_cpp.llama_model_default_params()
        params.vocab_only = True
        return cls(llama_cpp, _internals.LlamaModel(path_model=model_path, params=params, verbose=False))

    def tokenize(self, text, add_special=False, special=False):
        data = text.encode("utf-8")
        if not data and not add_special:
            return []
        capacity = len(data) + 8
        tokens = (self.lib.llama_token * capacity)()
        count = self.lib.llama_tokenize(self.vocab, data, len(data), tokens, capacity, add_special, special)
        if count < 0:
            capacity = -count
            tokens = (self.lib.llama_token * capacity)()
            count = self.lib.llama_tokenize(self.vocab, data, len(data), tokens, capacity, add_special, special)
        return list(tokens[:max(0, count)])

    def _framing(self, model):
        template = self.lib.llama_model_chat_template(model, None)
        system, user = "\x01SYSTEM\x01", "\x01USER\x01"
        messages = (self.lib.llama_chat_message * 2)()
        messages[0].role, messages[0].content = b"system", system.encode()
        messages[1].role, messages[1].content = b"user", user.encode()
        buffer = ctypes.create_string_buffer(4096)
        length = self.lib.llama_chat_apply_template(template, messages, 2, True, buffer, 4096)
        formatted = buffer.raw[:length].decode("utf-8")
        before, rest = formatted.split(system, 1)
        between, after = rest.split(user, 1)
        return [self.tokenize(before, True, True), self.tokenize(between, False, True), self.tokenize(after, False, True)]

    def prompt_tokens(self, request):
        return (self.framing[0] + self.tokenize(request.instructions) + self.framing[1]
                + self.tokenize(request.prompt) + self.framing[2])


def token_digest(tokens):
    data = b"".join(int(t & 0xFFFFFFFF).to_bytes(4, "little") for t in tokens)
    return keyed(data)


# --- Plan and report (shared with bench/peer_llama_server.py) ------------------------------------


CONTEXT_PER_SEQUENCE = 4096  # replay-bench model's KV buffer per sequence (the phone's session ceiling)


def arguments(parser):
    """The arguments every peer takes, added to `parser`."""
    parser.add_argument("--job", required=True, choices=sorted(JOBS))
    parser.add_argument("--limit", type=int)
    parser.add_argument("--requests", type=int)
    parser.add_argument("--threads", type=int)
    parser.add_argument("--plan-only", action="store_true")
    parser.add_argument("--model", required=True)
    parser.add_argument("--digest-key", required=True)
    parser.add_argument("corpus")


def plan(args, tokenizer):
    """The job's requests as `replay-bench model` plans them, and each one's prompt tokens; prints
    their `prompt` lines (and `planned` with --plan-only). Sets the digest key first."""
    global DIGEST_KEY
    DIGEST_KEY = read_key(args.digest_key)
    facts = Facts(drawer_agents(args.corpus) if args.job == "route" else ())
    requests = []
    for thread in threads(args.corpus, args.limit):
        requests += JOBS[args.job](thread, facts)
        if args.requests is not None and len(requests) >= args.requests:
            break
    if args.requests is not None:
        requests = requests[:args.requests]
    prompts = [tokenizer.prompt_tokens(r) for r in requests]
    for index, (request, tokens) in enumerate(zip(requests, prompts)):
        print("prompt", index, sha(request.instructions), sha(request.prompt), sha(request.grammar),
              token_digest(tokens), len(tokens), sep="\t")
    if args.plan_only:
        print("planned", args.job, len(requests), sep="\t")
    sys.stdout.flush()
    return requests, prompts


def fits(request, tokens):
    """Whether prompt and answer fit one sequence's KV buffer (else replay fails the request)."""
    return len(tokens) + request.max_tokens <= CONTEXT_PER_SEQUENCE


def report(job, prompts, outputs, seconds, engine):
    """The `output` lines (OUTPUTS: (digest or failure:REASON, output tokens) per request) and the
    `summary` line."""
    for index, (answer, count) in enumerate(outputs):
        print("output", index, answer, count, sep="\t")
    print("summary", job, len(prompts), f"{seconds:.3f}", sum(len(t) for t in prompts),
          sum(c for _, c in outputs), "-", engine, sep="\t")
    sys.stdout.flush()


def run(main):
    """Runs `main`, reporting a failure by its type only: a message could quote a prompt."""
    try:
        main()
    except Exception as error:
        print(f"peer: failed with {type(error).__name__}", file=sys.stderr)
        sys.exit(1)


# --- Main ------------------------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser()
    arguments(parser)
    args = parser.parse_args()

    import llama_cpp
    from llama_cpp import Llama, LlamaGrammar

    threads_ = args.threads or None
    llm = Llama(model_path=args.model, n_ctx=CONTEXT_PER_SEQUENCE, n_threads=threads_, n_threads_batch=threads_, verbose=False)
    requests, prompts = plan(args, Tokenizer(llama_cpp, llm._model))
    if args.plan_only:
        return

    grammars = {}
    outputs = []
    started = time.perf_counter()
    for request, tokens in zip(requests, prompts):
        if not fits(request, tokens):
            outputs.append(("failure:contextExceeded", 0))
            continue
        if request.grammar not in grammars:
            grammars[request.grammar] = LlamaGrammar.from_string(request.grammar, verbose=False)
        completion = llm.create_completion(tokens, max_tokens=request.max_tokens, temperature=0.0, repeat_penalty=1.0,
                                           grammar=grammars[request.grammar])
        choice = completion["choices"][0]
        count = completion["usage"]["completion_tokens"]
        outputs.append(("failure:outputTruncated" if choice["finish_reason"] == "length" else sha(choice["text"]), count))
    report(args.job, prompts, outputs, time.perf_counter() - started, "peer")


if __name__ == "__main__":
    run(main)
