"""Find the gates of TripleA's rules: what makes a trigger, national objective, user action or political action inert.

A rule written as an attachment only acts when the engine's code reaches it: a delegate of the
right class runs a step of the right player, the game property that delegate reads first is on, and
no option value rules it out. This script finds those facts in the engine's code:

    python scripts/catalog/extract_gates.py --engine 1.9 [--jar /usr/share/games/triplea/bin/triplea.jar]
    python scripts/catalog/extract_gates.py --engine 2.x --repo <git dir of triplea-game/triplea> [--rev HEAD]
    python scripts/catalog/extract_gates.py --engine 2.x --repo <git dir> --digest \
        > scripts/catalog/raw/gates-2.x.source.json
    python scripts/catalog/extract_gates.py --from-digest scripts/catalog/raw/gates-2.x.source.json

It works in two stages.

1. **Digest** (needs the engine's code): 1.9 is read from the jar's bytecode (``javap -c -p``), 2.x
   from the source (``git show``, regular expressions). For every delegate class a game's
   ``<delegate javaClass>`` may name, its superclasses, and the rule attachments (``TriggerAttachment``,
   ``RulesAttachment``, ``UserActionAttachment``, ``PoliticalActionAttachment`` and their abstract
   bases), each method's calls to those classes and to ``Properties`` / ``GameStepPropertiesHelper``,
   each call with its *guards* (the boolean calls it is conditional on: enclosing ``if``, ``else``,
   early ``return``; in bytecode, the ``ifeq``/``ifne`` whose other branch cannot reach it) and the
   players it is given (the step's player, or every player). Also the ``*Match()`` predicates and
   the trigger getters they test, the attachment-name prefixes the engine looks rules up by, and
   the defaults of the ``Properties`` getters. The facts of ``gates.yaml`` beside this script (what
   cannot be read off the call graph: what a step condition means, option values that rule a rule
   out) are checked there: each names evidence (a class and method, and the instructions or source
   text it must contain) and the digest records which were found. Missing evidence is an error.
2. **Assembly** (digest + ``gates.yaml`` only): from each delegate's ``start``/``end`` (and the
   action delegates' ``getValidActions``/``attemptAction``) the call graph is walked with the
   game's delegate as the receiver (so a subclass's overrides count), collecting every place a
   rule is looked up or fired with the guards on the way; the result is the gates JSON.

Only facts are printed (JSON, sorted keys), never engine code. ``scripts/catalog/raw/gates-2.x.source.json``
keeps the 2.x digest, since the suite has no 2.x source; ``tests/checks/test_gate_catalog.py`` re-runs the 1.9
extraction on the installed jar and the 2.x assembly on that digest.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]  # the repository: the option catalogs it reads are ours, in generator/catalog
DEFAULT_JAR = "/usr/share/games/triplea/bin/triplea.jar"
GATES_YAML = HERE / "gates.yaml"
SCHEMA_VERSION = 1

# The rule attachments: the walk goes into the action/objective ones, and stops at the trigger ones
# (a call into them is what the walk looks for).
TRIGGER_CLASSES = ("TriggerAttachment", "AbstractTriggerAttachment")
ACTION_CLASSES = (
    "RulesAttachment",
    "UserActionAttachment",
    "AbstractUserActionAttachment",
    "PoliticalActionAttachment",
)
ATTACHMENTS = TRIGGER_CLASSES + ACTION_CLASSES
HELPERS = ("Properties", "GameStepPropertiesHelper")  # their boolean calls are what guards test
# Where the engine calls a delegate: the step's start and end; the action delegates' remote methods.
ENTRIES = ("start", "end", "getValidActions", "attemptAction")
# Lookups of each kind of rule (a call to one of these is where the engine finds the rules).
LOOKUPS = {
    "objective": "RulesAttachment.getNationalObjectives",
    "userAction": "UserActionAttachment.getUserActionAttachments",
    "politicalAction": "PoliticalActionAttachment.getPoliticalActionAttachments",
}
OFFERED = {  # the lookup that makes the list of actions a player may take
    "userAction": "UserActionAttachment.getValidActions",
    "politicalAction": "PoliticalActionAttachment.getValidActions",
}
RULE_CLASSES = {
    "objective": "RulesAttachment",
    "userAction": "UserActionAttachment",
    "politicalAction": "PoliticalActionAttachment",
    "trigger": "TriggerAttachment",
}
COLLECT = "TriggerAttachment.collectForAllTriggersMatching"
COLLECT_AND_FIRE = "TriggerAttachment.collectAndFireTriggers"
FIRE_ALL = "TriggerAttachment.fireTriggers"
NOT_PREDICATES = ("isSatisfiedMatch", "whenOrDefaultMatch")  # *Match() that say nothing of the options
PLAYER_WORDS = {"step": "attached", "all": "any"}


def key(qualified: str) -> str:
    """The name a class goes by here: short for the engine's triplea packages, else qualified."""
    for package in (
        "games.strategy.triplea.delegate.",
        "games.strategy.triplea.attachments.",
        "games.strategy.triplea.",
    ):
        rest = qualified.removeprefix(package)
        if rest != qualified and "." not in rest:
            return rest
    return qualified


class GateError(Exception):
    """A fact the assembly needs is missing or contradicts another."""


# --- the digest's shape -----------------------------------------------------------------------
#
# {"engine", "source",
#  "stepDelegates": {name a game's javaClass gives (package games.strategy.triplea.delegate. left out): class key},
#  "classes": {class key: {"parent": key | null, "methods": {name: {
#        "static"?, "private"?, "returnsProperty"?: getter, "prefixes"?: [...], "getters"?: [...],
#        "calls"?: [{"owner", "name", "kind": virtual|special|static, "guards"?: [["Owner.name", bool]],
#                    "player"?: step|all|param, "nullArgs"?: true}]}}}},
#  "properties": {getter: {"name", "default"}},
#  "evidence": {fact id: ["Class.method" where it was found]}}


def _call(
    owner: str, name: str, kind: str, guards: list[list[Any]], player: str | None, null_args: bool
) -> dict[str, Any]:
    call: dict[str, Any] = {"owner": owner, "name": name, "kind": kind}
    if guards:
        call["guards"] = sorted(guards, key=lambda g: (g[0], g[1]))
    if player:
        call["player"] = player
    if null_args:
        call["nullArgs"] = True
    return call


def _method(
    static: bool,
    private: bool,
    calls: list[dict[str, Any]],
    prefixes: set[str],
    getters: set[str],
    returns_property: str | None,
) -> dict[str, Any]:
    m: dict[str, Any] = {}
    if static:
        m["static"] = True
    if private:
        m["private"] = True
    if calls:
        unique = {json.dumps(c, sort_keys=True) for c in calls}
        m["calls"] = [json.loads(c) for c in sorted(unique)]
    if prefixes:
        m["prefixes"] = sorted(prefixes)
    if getters:
        m["getters"] = sorted(getters)
    if returns_property:
        m["returnsProperty"] = returns_property
    return m


def _merge(into: dict[str, Any], more: dict[str, Any]) -> None:
    """Fold a method's facts into another's (overloads, and 1.9 lambdas into their method)."""
    for flag in ("static", "private", "returnsProperty"):
        if flag in more and flag not in into:
            into[flag] = more[flag]
    for listed in ("prefixes", "getters"):
        if listed in more:
            into[listed] = sorted(set(into.get(listed, [])) | set(more[listed]))
    if "calls" in more:
        unique = {json.dumps(c, sort_keys=True) for c in into.get("calls", []) + more["calls"]}
        into["calls"] = [json.loads(c) for c in sorted(unique)]


# --- 1.9: bytecode -----------------------------------------------------------------------------

_MODIFIERS = r"(?:(?:public|private|protected|static|final|synchronized|abstract|native|strictfp|default) )*"
_CLASS_LINE = re.compile(
    r"^(?:public |protected |private )?(?P<abstract>abstract )?(?:final )?(?:class|interface) (?P<name>[\w.$]+)"
    r"(?:<.*?>)?(?: extends (?P<parent>[\w.$]+))?"
)
_METHOD_LINE = re.compile(
    r"^  (?P<mods>" + _MODIFIERS + r")(?:<[^()]*?> )?(?:(?P<ret>[\w.$<>\[\], ?]+?) )?(?P<name>[\w.$]+)"
    r"\((?P<params>.*)\)(?: throws [\w.$, ]+)?;$"
)
_INSN_LINE = re.compile(r"^\s+(\d+): ([a-z_]\w*)\b\s*(.*)$")
_INVOKE = re.compile(r"(?:Interface)?Method (?:([\w/$]+)\.)?(\"?[\w$<>]+\"?):(\([^)]*\))(\S+)")
_CONDITIONAL = {"ifeq", "ifne", "iflt", "ifge", "ifgt", "ifle", "ifnull", "ifnonnull"} | {
    f"if_{kind}cmp{rel}" for kind in "ia" for rel in ("eq", "ne", "lt", "ge", "gt", "le")
}
_EXITS = {"return", "ireturn", "areturn", "lreturn", "dreturn", "freturn", "athrow"}


@dataclass
class Insn:
    offset: int
    op: str
    arg: str
    comment: str

    @property
    def target(self) -> int:
        return int(self.arg.split()[0])

    def invoke(self) -> tuple[str | None, str, str, str] | None:
        """(owner, name, parameter descriptor, return descriptor) of an invoke*."""
        if not self.op.startswith("invoke"):
            return None
        found = _INVOKE.match(self.comment)
        if not found:
            return None
        owner = found.group(1).replace("/", ".") if found.group(1) else None
        return owner, found.group(2).strip('"'), found.group(3), found.group(4)

    def slot(self) -> int | None:
        """The local variable slot of a load or store."""
        if re.fullmatch(r"[ai](?:load|store)_\d", self.op):
            return int(self.op[-1])
        if self.op in ("aload", "astore", "iload", "istore"):
            return int(self.arg.split()[0])
        return None


def _params(text: str) -> list[str]:
    parts, depth, cur = [], 0, ""
    for c in text:
        depth += c == "<"
        depth -= c == ">"
        if c == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += c
    return [p for p in [*parts, cur.strip()] if p]


def _enclosing(method: str) -> str:
    """`lambda$placeMatch$5` -> `placeMatch`: a lambda's facts belong to the method that wrote it."""
    found = re.fullmatch(r"lambda\$(\w+)\$\d+", method)
    return found.group(1) if found else method


@dataclass
class BytecodeMethod:
    cls: str  # qualified
    name: str
    static: bool
    private: bool
    returns: str
    params: list[str]
    insns: list[Insn]


def parse_javap(listing: str) -> tuple[str, str | None, list[BytecodeMethod]]:
    """A `javap -c -p` listing of one class: its qualified name, parent and methods."""
    name, parent = "", None
    methods: list[BytecodeMethod] = []
    for line in listing.splitlines():
        if not name:
            header = _CLASS_LINE.match(line)
            if header:
                name, parent = header.group("name"), header.group("parent")
            continue
        if line.strip() == "static {};":
            methods.append(BytecodeMethod(name, "<clinit>", True, True, "void", [], []))
            continue
        found = _METHOD_LINE.match(line)
        if found:
            mods = found.group("mods").split()
            mname = found.group("name")
            mname = "<init>" if mname == name else mname
            methods.append(
                BytecodeMethod(
                    name,
                    mname,
                    "static" in mods,
                    "private" in mods,
                    found.group("ret") or "void",
                    _params(found.group("params")),
                    [],
                )
            )
            continue
        insn = _INSN_LINE.match(line)
        if insn and methods:
            rest = insn.group(3)
            arg, _, comment = rest.partition("//")
            methods[-1].insns.append(Insn(int(insn.group(1)), insn.group(2), arg.strip(), comment.strip()))
    return name, parent, methods


class BytecodeFacts:
    """The guards, players and lookups of one method's instructions."""

    def __init__(self, method: BytecodeMethod, recognized: set[str]) -> None:
        self.m = method
        self.insns = method.insns
        self.recognized = recognized  # class keys whose boolean calls count as guards
        self.index = {insn.offset: i for i, insn in enumerate(self.insns)}

    def owner_of(self, insn: Insn) -> tuple[str, str, str, str] | None:
        inv = insn.invoke()
        if inv is None:
            return None
        owner, name, params, ret = inv
        return key(owner or self.m.cls), name, params, ret

    def _condition(self, j: int) -> str | None:
        """The recognized boolean call an `ifeq`/`ifne` at j tests (directly or through a local)."""
        if j == 0:
            return None
        prev = self.insns[j - 1]
        inv = self.owner_of(prev)
        if inv and inv[3] == "Z" and inv[0] in self.recognized:
            return f"{inv[0]}.{inv[1]}"
        slot = prev.slot() if prev.op.startswith("iload") else None
        if slot is None:
            return None
        for s in range(j - 2, 0, -1):
            store = self.insns[s]
            if store.op.startswith("istore") and store.slot() == slot:
                inv = self.owner_of(self.insns[s - 1])
                if inv and inv[3] == "Z" and inv[0] in self.recognized:
                    return f"{inv[0]}.{inv[1]}"
                return None
        return None

    def _reaches(self, start: int, offset: int) -> bool:
        """Does straight-line code from instruction `start` run into `offset`? (True when unsure.)"""
        i = start
        while i < len(self.insns):
            insn = self.insns[i]
            if insn.offset == offset:
                return True
            if insn.offset > offset or insn.op in _EXITS:
                return False
            if insn.op in ("goto", "goto_w"):
                return insn.target <= offset
            if insn.op in _CONDITIONAL or insn.op.endswith("switch"):
                return True
            i += 1
        return False

    def guards(self, k: int) -> list[list[Any]]:
        offset = self.insns[k].offset
        found: list[list[Any]] = []
        for j in range(k):
            jump = self.insns[j]
            if jump.op not in ("ifeq", "ifne"):
                continue
            condition = self._condition(j)
            if condition is None:
                continue
            target = jump.target
            taken = target <= offset and self._reaches(self.index[target], offset)
            fall = self._reaches(j + 1, offset)
            if taken == fall:
                continue
            # ifeq jumps when the call gave false, ifne when it gave true
            value = (jump.op == "ifne") == taken
            if [condition, value] not in found:
                found.append([condition, value])
        return found

    def _player_of_slot(self, slot: int, before: int) -> str | None:
        first = 0 if self.m.static else 1
        if first <= slot < first + len(self.m.params):
            kind = self.m.params[slot - first]
            return "param" if "PlayerID" in kind else None
        for s in range(before - 1, 0, -1):
            store = self.insns[s]
            if store.op.startswith("astore") and store.slot() == slot:
                return self._player_source(self.insns[s - 1])
        return None

    def _player_source(self, insn: Insn) -> str | None:
        if insn.op == "getfield" and re.search(r"Field \w*[pP]layer\w*:L[\w/]+/PlayerID;", insn.comment):
            return "step"
        inv = self.owner_of(insn)
        if inv:
            owner, name, params, _ = inv
            if name in ("getPlayerID", "getPlayerId") and params == "()":
                return "step"
            if name == "getPlayers" and owner.endswith("PlayerList"):
                return "all"
        return None

    def player(self, k: int) -> str | None:
        """Whose rules a call is given: the step's player, every player, or a parameter."""
        for i in range(k - 1, max(k - 16, -1), -1):
            insn = self.insns[i]
            if insn.op in _EXITS or insn.op in _CONDITIONAL or insn.op.startswith(("goto", "astore", "istore")):
                return None
            source = self._player_source(insn)
            if source:
                return source
            if insn.op.startswith("aload"):
                slot = insn.slot()
                if slot is not None and (found := self._player_of_slot(slot, i)):
                    return found
            inv = self.owner_of(insn)
            if inv and inv[3] == "V" and inv[1] != "<init>":
                return None  # the previous statement
        return None

    def facts(self, kept: set[str]) -> dict[str, Any]:
        calls: list[dict[str, Any]] = []
        prefixes: set[str] = set()
        getters: set[str] = set()
        properties: list[str] = []
        for k, insn in enumerate(self.insns):
            inv = self.owner_of(insn)
            if inv is None:
                continue
            owner, name, params, _ = inv
            if name == "startsWith" and owner == "java.lang.String" and k > 0:
                lit = self.insns[k - 1]
                if lit.op.startswith("ldc") and lit.comment.startswith("String "):
                    prefixes.add(lit.comment.removeprefix("String "))
            if owner in TRIGGER_CLASSES and params == "()" and re.fullmatch(r"get[A-Z]\w*", name):
                getters.add(name)
            if owner not in kept:
                continue
            if owner == "Properties":
                properties.append(name)
            kind = {"invokestatic": "static", "invokespecial": "special"}.get(insn.op, "virtual")
            null_args = k >= 2 and self.insns[k - 1].op == self.insns[k - 2].op == "aconst_null"
            player = self.player(k) if "PlayerID" in params or "Set;" in params else None
            calls.append(_call(owner, name, kind, self.guards(k), player, null_args))
        returns = None
        if len(properties) == 1:  # `return Properties.getX(data);`
            tail = [i.op for i in self.insns[-2:]]
            last_call = self.owner_of(self.insns[-2]) if len(self.insns) >= 2 else None
            if tail[-1] == "ireturn" and last_call and last_call[0] == "Properties":
                returns = properties[0]
        return _method(self.m.static, self.m.private, calls, prefixes, getters, returns)


def _javap(jar: str, names: list[str]) -> dict[str, str]:
    """`javap -c -p` listings by qualified class name (one JVM for them all)."""
    out = subprocess.run(["javap", "-c", "-p", "-cp", jar, *names], check=True, capture_output=True, text=True)
    listings = re.split(r"^(?=Compiled from )", out.stdout, flags=re.M)[1:]
    if len(listings) != len(names):
        raise GateError(f"javap listed {len(listings)} classes of {len(names)}")
    return dict(zip(names, listings, strict=True))


def _bytecode_properties(listing: str) -> dict[str, Any]:
    """Properties' boolean getters: the property each reads and its default."""
    props: dict[str, Any] = {}
    _, _, methods = parse_javap(listing)
    for m in methods:
        ops = m.insns
        for k, insn in enumerate(ops):
            inv = insn.invoke()
            if inv and inv[1] == "get" and inv[2] == "(Ljava/lang/String;Z)" and k >= 2:
                name, default = ops[k - 2], ops[k - 1]
                if (
                    name.op.startswith("ldc")
                    and name.comment.startswith("String ")
                    and default.op in ("iconst_0", "iconst_1")
                ):
                    props[m.name] = {"name": name.comment.removeprefix("String "), "default": default.op == "iconst_1"}
                break
    return props


def digest_19(jar: str) -> dict[str, Any]:
    sys.path.insert(0, str(HERE))
    from extract_checks import delegates_19  # a script beside this one

    games = delegates_19(jar)
    step_delegates = {key(q).removeprefix("games.strategy.triplea.delegate."): key(q) for q in games}
    wanted = set(games) | {f"games.strategy.triplea.attachments.{c}" for c in ATTACHMENTS}
    listings: dict[str, str] = {}
    parents: dict[str, str | None] = {}
    parsed: dict[str, list[BytecodeMethod]] = {}
    while missing := sorted(wanted - set(listings)):
        listings.update(_javap(jar, missing))
        for q in missing:
            name, parent, methods = parse_javap(listings[q])
            parents[q], parsed[q] = parent, methods
            if parent and parent.startswith("games.strategy.") and parent not in listings:
                wanted.add(parent)
    analyzed = {key(q) for q in listings}
    recognized = analyzed | set(HELPERS)
    classes: dict[str, Any] = {}
    for q, methods in sorted(parsed.items()):
        out: dict[str, Any] = {}
        for m in methods:
            facts = BytecodeFacts(m, recognized).facts(recognized)
            name = _enclosing(m.name)
            if m.name != name:  # a lambda: its own flags are not its method's
                facts.pop("static", None)
                facts.pop("private", None)
            _merge(out.setdefault(name, {}), facts)
        parent = parents[q]
        classes[key(q)] = {"parent": key(parent) if parent else None, "methods": out}
    helpers = _javap(jar, ["games.strategy.triplea.Properties"])
    return {
        "engine": "1.9",
        "source": f"{Path(jar).name} (javap -c -p)",
        "stepDelegates": step_delegates,
        "classes": classes,
        "properties": _bytecode_properties(helpers["games.strategy.triplea.Properties"]),
        "evidence": verify_evidence_19(jar, load_yaml()),
    }


def _code_lines(listing: str, method: str) -> Iterator[tuple[str, list[str]]]:
    """Name and instruction lines (`op operand // comment`) of each method whose name fully matches `method`."""
    _, _, methods = parse_javap(listing)
    for m in methods:
        if re.fullmatch(method, m.name):
            yield m.name, [f"{i.op} {i.arg} // {i.comment}".strip() for i in m.insns]


def _in_order(lines: list[str], patterns: list[str]) -> bool:
    i = 0
    for line in lines:
        if i < len(patterns) and re.search(patterns[i], line):
            i += 1
    return i == len(patterns)


def verify_evidence_19(jar: str, spec: dict[str, Any]) -> dict[str, list[str]]:
    wanted = {(f"{e['class']}", f["id"]) for f in _facts(spec) for e in f["evidence"].get("1.9", [])}
    listings = _javap(jar, sorted({c for c, _ in wanted}))
    found: dict[str, list[str]] = {}
    for fact in _facts(spec):
        evidence = fact["evidence"].get("1.9")
        if not evidence:
            continue
        where = []
        for e in evidence:
            hits = [
                name for name, lines in _code_lines(listings[e["class"]], e["method"]) if _in_order(lines, e["code"])
            ]
            if not hits:
                raise GateError(f"gates.yaml {fact['id']}: 1.9 has no {e['class']}.{e['method']} with {e['code']}")
            where.append(f"{key(e['class'])}.{hits[0]}")
        found[fact["id"]] = where
    return found


# --- 2.x: source -------------------------------------------------------------------------------

SOURCE_ROOT = "game-app/game-core/src/main/java/"
_KEYWORDS = {
    "if",
    "for",
    "while",
    "switch",
    "catch",
    "synchronized",
    "return",
    "new",
    "else",
    "throw",
    "try",
    "super",
    "this",
    "assert",
    "case",
    "do",
    "yield",
}
_SRC_METHOD = re.compile(
    r"^[ \t]*(?:@[\w.]+(?:\([^()]*\))?\s+)*(?P<mods>(?:(?:public|private|protected|static|final|synchronized|abstract"
    r"|default)\s+)*)(?:<[^>]+>\s+)?(?P<ret>[\w<>\[\],.? ]+?)\s+(?P<name>\w+)\s*\((?P<params>[^;{}]*?)\)\s*"
    r"(?:throws\s+[\w.,\s]+)?(?P<open>\{|;)",
    re.M,
)
_QUALIFIED_CALL = re.compile(r"(?<![\w.$])(super|this|[A-Z]\w*)\s*\.\s*(\w+)\s*\(")
_PLAIN_CALL = re.compile(r"(?<![\w.$:])([a-z]\w*)\s*\(")
_SET_WRAPPERS = re.compile(
    r"^(?:new\s+HashSet\s*<[^>]*>\s*|Set\s*\.\s*of|Set\s*\.\s*copyOf|Collections\s*\.\s*singleton|List\s*\.\s*of)\s*\((.*)\)$",
    re.S,
)


def _src_helpers() -> Any:
    sys.path.insert(0, str(HERE))
    import extract_2x  # a script beside this one

    return extract_2x


def _statement_end(src: str, i: int) -> int:
    """End (exclusive) of the Java statement starting at src[i] (an if with its else, a block, or up to `;`)."""
    x2 = _src_helpers()
    while src[i].isspace():
        i += 1
    if src.startswith("{", i):
        return int(x2.block_end(src, i))
    head = re.match(r"if\s*\(", src[i:])
    if head:
        cond_end = x2.closing(src, i + head.end() - 1, "(", ")")
        end = _statement_end(src, cond_end + 1)
        rest = re.match(r"\s*else\b", src[end:])
        return _statement_end(src, end + rest.end()) if rest else end
    depth, j = 0, i
    while j < len(src):
        c = src[j]
        if c == '"':
            j += 1
            while src[j] != '"':
                j += 2 if src[j] == "\\" else 1
        elif c in "({[":
            depth += 1
        elif c in ")}]":
            depth -= 1
        elif c == ";" and depth == 0:
            return j + 1
        j += 1
    return j


def _split_top(text: str, op: str) -> list[str]:
    parts, depth, start, i = [], 0, 0, 0
    while i < len(text):
        c = text[i]
        if c == '"':
            i += 1
            while text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif depth == 0 and text.startswith(op, i):
            parts.append(text[start:i].strip())
            start = i + len(op)
            i = start
            continue
        i += 1
    parts.append(text[start:].strip())
    return parts


def _unparen(text: str) -> str:
    text = text.strip()
    x2 = _src_helpers()
    while text.startswith("(") and x2.closing(text, 0, "(", ")") == len(text) - 1:
        text = text[1:-1].strip()
    return text


@dataclass
class SourceMethod:
    cls: str
    name: str
    static: bool
    private: bool
    params: str
    body: str


class SourceFacts:
    """The guards, players and lookups of one method's source."""

    def __init__(
        self,
        m: SourceMethod,
        chain_methods: dict[str, SourceMethod],
        parent: str | None,
        known: set[str],
        constants: dict[str, str],
    ) -> None:
        self.m = m
        self.body = m.body
        self.chain_methods = chain_methods  # name -> nearest declaration in the class's chain
        self.parent = parent
        self.known = known  # class keys whose calls are kept
        self.constants = constants
        x2 = _src_helpers()
        self.ifs: list[tuple[int, str, tuple[int, int], tuple[int, int] | None, int]] = []
        for head in re.finditer(r"(?<![\w.])if\s*\(", self.body):
            cond_end = x2.closing(self.body, head.end() - 1, "(", ")")
            cond = self.body[head.end() : cond_end]
            then_end = _statement_end(self.body, cond_end + 1)
            other = re.match(r"\s*else\b", self.body[then_end:])
            orelse = (then_end + other.end(), _statement_end(self.body, then_end + other.end())) if other else None
            self.ifs.append((head.start(), cond, (cond_end + 1, then_end), orelse, (orelse or (0, then_end))[1]))
        self.blocks: list[tuple[int, int]] = []
        for brace in re.finditer(r"\{", self.body):
            if not self._in_string(brace.start()):
                self.blocks.append((brace.start(), x2.block_end(self.body, brace.start())))

    def _in_string(self, pos: int) -> bool:
        return self.body[:pos].count('"') % 2 == 1

    def _innermost_block(self, pos: int) -> tuple[int, int]:
        inside = [b for b in self.blocks if b[0] < pos < b[1]]
        return max(inside, key=lambda b: b[0]) if inside else (0, len(self.body))

    def _exits(self, branch: str) -> bool:
        text = branch.strip()
        if text.startswith("{"):
            statements = [s for s in _split_top(text[1:-1], ";") if s]
            text = statements[-1] if statements else ""
        return bool(re.match(r"(?:return|throw)\b", text))

    def _literal(self, text: str, value: bool, before: int) -> list[list[Any]]:
        text = _unparen(text)
        while text.startswith("!"):
            value, text = not value, _unparen(text[1:])
        call = re.fullmatch(r"(?:(\w+)\s*\.\s*)?(\w+)\s*\((.*)\)", text, re.S)
        if call:
            owner = call.group(1)
            if owner is None and call.group(2) in self.chain_methods:
                owner = self.chain_methods[call.group(2)].cls
            if owner in self.known:
                return [[f"{owner}.{call.group(2)}", value]]
            return []
        if re.fullmatch(r"\w+", text):  # a local boolean holding a call
            local = list(re.finditer(r"\bboolean\s+" + text + r"\s*=\s*([^;]+);", self.body[:before]))
            if local:
                return self._literal(local[-1].group(1), value, local[-1].start())
        return []

    def _conditions(self, cond: str, value: bool, at: int) -> list[list[Any]]:
        parts = _split_top(cond, "&&" if value else "||")
        if len(parts) == 1 and len(_split_top(cond, "||" if value else "&&")) > 1:
            return []  # `a || b` true (or `a && b` false) says nothing of a or b alone
        return [g for part in parts for g in self._literal(part, value, at)]

    def guards(self, pos: int) -> list[list[Any]]:
        found: list[list[Any]] = []
        for start, cond, then, orelse, end in self.ifs:
            if then[0] <= pos < then[1]:
                found += self._conditions(cond, True, start)
            elif orelse and orelse[0] <= pos < orelse[1]:
                found += self._conditions(cond, False, start)
            elif pos >= end and orelse is None and self._exits(self.body[then[0] : then[1]]):
                block = self._innermost_block(start)
                if block[0] < pos < block[1]:
                    found += self._conditions(cond, False, start)
        unique: list[list[Any]] = []
        for g in found:
            if g not in unique:
                unique.append(g)
        return unique

    def _classify(self, arg: str) -> str | None:
        text = arg.strip()
        while wrapped := _SET_WRAPPERS.match(text):
            text = wrapped.group(1).strip()
        if re.search(r"\bgetPlayers\s*\(\s*\)$", text):
            return "all"
        if re.search(r"(?:getStep\s*\(\s*\)\s*\.\s*getPlayerId|getGamePlayer)\s*\(\s*\)$", text):
            return "step"
        ident = re.fullmatch(r"(?:this\s*\.\s*)?(\w*[pP]layer)", text)
        if not ident:
            return None
        name = ident.group(1)
        if re.search(r"\b(?:GamePlayer|PlayerID)\s+" + name + r"\b", self.m.params):
            return "param"
        local = re.search(r"\b(?:GamePlayer|PlayerID)\s+" + name + r"\s*=\s*([^;]+);", self.body)
        if local:
            return self._classify(local.group(1))
        return "step" if not text.startswith("this") or name in ("player", "m_player") else None

    def player(self, args: str) -> str | None:
        for arg in _split_top(args, ","):
            found = self._classify(arg)
            if found:
                return found
        return None

    def facts(self) -> dict[str, Any]:
        x2 = _src_helpers()
        calls: list[dict[str, Any]] = []
        properties: list[str] = []
        hits: list[tuple[int, str, str, str, int]] = []
        for call in _QUALIFIED_CALL.finditer(self.body):
            who, name = call.group(1), call.group(2)
            if who == "super":
                if self.parent:
                    hits.append((call.start(), self.parent, name, "special", call.end() - 1))
            elif who == "this":
                hits.append((call.start(), self.m.cls, name, "virtual", call.end() - 1))
            elif who in self.known:
                hits.append((call.start(), who, name, "static", call.end() - 1))
        for call in _PLAIN_CALL.finditer(self.body):
            name = call.group(1)
            if name in _KEYWORDS or re.search(r"\bnew\s+$", self.body[: call.start()]):
                continue
            declared = self.chain_methods.get(name)
            if declared is None:
                continue
            kind = "static" if declared.static else "special" if declared.private else "virtual"
            hits.append((call.start(), self.m.cls, name, kind, call.end() - 1))
        for pos, owner, name, kind, paren in sorted(hits):
            if self._in_string(pos):
                continue
            args = self.body[paren + 1 : x2.closing(self.body, paren, "(", ")")]
            if owner == "Properties":
                properties.append(name)
            null_args = re.fullmatch(r"\s*null\s*,\s*null\s*", args) is not None
            calls.append(_call(owner, name, kind, self.guards(pos), self.player(args), null_args))
        prefixes = set()
        for found in re.finditer(r"startsWith\(\s*(?:Constants\s*\.\s*)?([A-Z][A-Z0-9_]*|\"[^\"]*\")\s*\)", self.body):
            token = found.group(1)
            value = token.strip('"') if token.startswith('"') else self.constants.get(token)
            if value is not None:
                prefixes.add(value)
        getters = set()
        if self.m.cls in TRIGGER_CLASSES:
            # the trigger at hand is `t` in TriggerAttachment's predicates and trigger*() loops
            getters = set(re.findall(r"(?<![\w$.])t\s*\.\s*(get[A-Z]\w*)\s*\(\s*\)", self.body))
        returns = None
        single = re.fullmatch(r"\s*return\s+Properties\s*\.\s*(\w+)\s*\([^;]*\)\s*;\s*", self.body)
        if single:
            returns = single.group(1)
        return _method(self.m.static, self.m.private, calls, prefixes, getters, returns)


def _source_methods(src: str, cls: str) -> list[SourceMethod]:
    x2 = _src_helpers()
    methods = []
    for m in _SRC_METHOD.finditer(src):
        name, ret = m.group("name"), m.group("ret").split()
        if name in _KEYWORDS or not ret or ret[-1] in _KEYWORDS or ret[0] in ("return", "new", "else", "throw"):
            continue
        mods = m.group("mods").split()
        if m.group("open") == ";":  # abstract: no body
            if "abstract" in mods:
                methods.append(SourceMethod(cls, name, False, False, m.group("params"), ""))
            continue
        end = x2.block_end(src, m.end() - 1)
        methods.append(
            SourceMethod(cls, name, "static" in mods, "private" in mods, m.group("params"), src[m.end() : end - 1])
        )
    return methods


def digest_2x(repo: str, rev: str) -> dict[str, Any]:
    x2 = _src_helpers()

    def show(path: str) -> str:
        return subprocess.run(
            ["git", "-C", repo, "show", f"{rev}:{path}"], check=True, capture_output=True, text=True
        ).stdout

    commit = subprocess.run(
        ["git", "-C", repo, "rev-parse", rev], check=True, capture_output=True, text=True
    ).stdout.strip()
    files = subprocess.run(
        ["git", "-C", repo, "ls-tree", "-r", "--name-only", rev, "--", SOURCE_ROOT + "games/strategy/"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    by_simple: dict[str, list[str]] = {}
    for path in files:
        if path.endswith(".java"):
            by_simple.setdefault(Path(path).stem, []).append(path)

    def path_of(simple: str) -> str | None:
        paths = by_simple.get(simple, [])
        return paths[0] if len(paths) == 1 else None

    def qualified(path: str) -> str:
        return path.removeprefix(SOURCE_ROOT).removesuffix(".java").replace("/", ".")

    mapper = show(SOURCE_ROOT + "games/strategy/engine/data/gameparser/XmlGameElementMapper.java")
    start = re.search(r"Supplier<IDelegate>>\s+newDelegateFactories\(", mapper)
    end = re.search(r"AttachmentFactory>\s+newAttachmentFactories\(", mapper)
    if not (start and end):
        raise GateError("XmlGameElementMapper's delegate tables not found")
    step_delegates: dict[str, str] = {}
    paths: dict[str, str] = {}
    for name, made in re.findall(r'\.put\(\s*"([\w.]+)",\s*([\w.]+)::new\)', mapper[start.start() : end.start()]):
        made_path = path_of(made.rsplit(".", 1)[-1])
        if made_path is None:
            raise GateError(f"delegate class {made} not found")
        step_delegates[name] = key(qualified(made_path))
        paths[step_delegates[name]] = made_path
    constants = x2.parse_constants(x2.strip_comments(show(SOURCE_ROOT + "games/strategy/triplea/Constants.java")))

    sources: dict[str, str] = {}
    parents: dict[str, str | None] = {}
    todo = sorted(paths.values()) + [path_of(c) or "" for c in ATTACHMENTS]
    if "" in todo:
        raise GateError(f"attachment classes not found: {ATTACHMENTS}")
    while todo:
        path = todo.pop()
        cls = key(qualified(path))
        if cls in sources:
            continue
        src = x2.strip_comments(show(path))
        sources[cls] = src
        header = re.search(r"\bclass\s+" + re.escape(Path(path).stem) + r"\b[^{]*?\bextends\s+([\w.]+)", src)
        parent_path = path_of(header.group(1).rsplit(".", 1)[-1]) if header else None
        parents[cls] = key(qualified(parent_path)) if parent_path else None
        if parent_path:
            todo.append(parent_path)
    known = set(sources) | set(HELPERS)
    declared = {cls: _source_methods(src, cls) for cls, src in sources.items()}

    def chain_methods(cls: str | None) -> dict[str, SourceMethod]:
        found: dict[str, SourceMethod] = {}
        while cls is not None and cls in declared:
            for m in declared[cls]:
                found.setdefault(m.name, m)
            cls = parents[cls]
        return found

    classes: dict[str, Any] = {}
    for cls in sorted(sources):
        out: dict[str, Any] = {}
        visible = chain_methods(cls)
        for m in declared[cls]:
            facts = SourceFacts(m, visible, parents[cls], known, constants).facts()
            _merge(out.setdefault(m.name, {}), facts)
        classes[cls] = {"parent": parents[cls], "methods": out}
    x2.src_constants_methods = show(SOURCE_ROOT + "games/strategy/triplea/Constants.java")
    props = x2.parse_properties(
        x2.strip_comments(show(SOURCE_ROOT + "games/strategy/triplea/Properties.java")), constants
    )
    getters = {r: {"name": n, "default": p.get("default")} for n, p in props.items() for r in p.get("readers", [])}
    return {
        "engine": "2.x",
        "source": f"triplea-game/triplea@{commit}",
        "stepDelegates": step_delegates,
        "classes": classes,
        "properties": dict(sorted(getters.items())),
        "evidence": verify_evidence_2x(show, load_yaml()),
    }


def verify_evidence_2x(show: Any, spec: dict[str, Any]) -> dict[str, list[str]]:
    x2 = _src_helpers()
    found: dict[str, list[str]] = {}
    for fact in _facts(spec):
        evidence = fact["evidence"].get("2.x")
        if not evidence:
            continue
        where = []
        for e in evidence:
            src = x2.strip_comments(show(SOURCE_ROOT + "games/strategy/" + e["path"]))
            cls = Path(e["path"]).stem
            texts = [src]
            if "method" in e:
                texts = [m.body for m in _source_methods(src, cls) if re.fullmatch(e["method"], m.name)]
            if not any(re.search(e["regex"], t, re.S) for t in texts):
                raise GateError(f"gates.yaml {fact['id']}: 2.x {e['path']} {e.get('method', '')} lacks /{e['regex']}/")
            where.append(f"{cls}.{e['method']}" if "method" in e else f"{cls}.java")
        found[fact["id"]] = where
    return found


# --- gates.yaml --------------------------------------------------------------------------------


def load_yaml() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(GATES_YAML.read_text(encoding="utf-8"))
    return loaded


def _facts(spec: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every fact of gates.yaml that names evidence, with its id."""
    for name, cond in spec.get("conditions", {}).items():
        yield {"id": f"condition:{name}", **cond}
    for name, fact in spec.get("facts", {}).items():
        yield {"id": f"fact:{name}", **fact}
    for never in spec.get("neverOptions", []):
        yield {"id": f"never:{never['class']}.{never['option']}", **never}


# --- assembly: walking the call graph ----------------------------------------------------------


@dataclass(frozen=True)
class Event:
    """A call the walk looks for, reached from a step delegate's entry with these guards."""

    delegate: str  # the step delegate (a game's name for it)
    entry: str  # start, end, getValidActions, attemptAction
    site: str  # Class.method that makes the call
    target: str  # Class.method called
    guards: frozenset[tuple[str, bool]]
    player: str | None
    path: tuple[str, ...]


class Graph:
    def __init__(self, digest: dict[str, Any]) -> None:
        self.d = digest
        self.classes: dict[str, Any] = digest["classes"]

    def chain(self, cls: str | None) -> list[str]:
        out = []
        while cls is not None and cls in self.classes:
            out.append(cls)
            cls = self.classes[cls]["parent"]
        return out

    def find(self, cls: str | None, name: str) -> tuple[str, dict[str, Any]] | None:
        """The nearest declaration of `name` from `cls` up."""
        for c in self.chain(cls):
            if name in self.classes[c]["methods"]:
                return c, self.classes[c]["methods"][name]
        return None

    def declaring(self, owner: str, name: str) -> str:
        found = self.find(owner, name)
        return f"{found[0]}.{name}" if found else f"{owner}.{name}"

    def resolve(self, receiver: str, call: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        owner = call["owner"]
        if call["kind"] == "virtual" and owner in self.chain(receiver):
            return self.find(receiver, call["name"])
        return self.find(owner, call["name"])

    def atom(self, receiver: str, guard: str) -> tuple[str, str]:
        """What a guard asks: ("property", name) or ("condition", Class.method)."""
        owner, name = guard.rsplit(".", 1)
        if owner == "Properties":
            prop = self.d["properties"].get(name)
            if prop is None:
                raise GateError(f"Properties.{name} reads no known property")
            return "property", prop["name"]
        found = self.find(receiver, name) if owner in self.chain(receiver) else self.find(owner, name)
        if found and "returnsProperty" in found[1]:
            return self.atom(receiver, f"Properties.{found[1]['returnsProperty']}")
        return "condition", f"{found[0] if found else owner}.{name}"

    def walk(self, delegate: str, cls: str, entry: str) -> list[Event]:
        events: list[Event] = []
        seen: set[tuple[str, frozenset[tuple[str, bool]], str | None]] = set()
        start = self.find(cls, entry)
        if start is None:
            return events

        def visit(
            owner: str,
            name: str,
            method: dict[str, Any],
            guards: frozenset[tuple[str, bool]],
            player: str | None,
            path: tuple[str, ...],
        ) -> None:
            site = f"{owner}.{name}"
            if (site, guards, player) in seen:
                return
            seen.add((site, guards, player))
            for call in method.get("calls", []):
                g = set(guards)
                for atom, value in call.get("guards", []):
                    kind, what = self.atom(cls, atom)
                    g.add((f"{kind}:{what}", value))
                here = frozenset(g)
                who = call.get("player")
                who = player if who == "param" else who
                target = self.declaring(call["owner"], call["name"])
                if call["owner"] in TRIGGER_CLASSES or target in LOOKUPS.values():
                    events.append(Event(delegate, entry, site, target, here, who, (*path, site)))
                    continue
                found = self.resolve(cls, call)
                if found and f"{found[0]}.{call['name']}" not in path:
                    if call["owner"] in ACTION_CLASSES or found[0] in ACTION_CLASSES:
                        events.append(
                            Event(delegate, entry, site, f"{found[0]}.{call['name']}", here, who, (*path, site))
                        )
                    visit(found[0], call["name"], found[1], here, who, (*path, site))

        visit(start[0], entry, start[1], frozenset(), None, ())
        return events


def _words(delegate: str) -> str:
    """`TechActivationDelegate` -> `tech activation`."""
    return " ".join(w.lower() for w in re.findall(r"[A-Z][a-z]+|[A-Z]+(?![a-z])", delegate.removesuffix("Delegate")))


def _option(getter: str) -> str:
    name = getter.removeprefix("get")
    return name[:1].lower() + name[1:]


class Assembly:
    def __init__(self, digest: dict[str, Any], spec: dict[str, Any]) -> None:
        self.d = digest
        self.spec = spec
        self.engine = digest["engine"]
        self.g = Graph(digest)
        for fact in _facts(spec):
            if self.engine in fact["evidence"] and fact["id"] not in digest["evidence"]:
                raise GateError(f"gates.yaml {fact['id']}: no evidence found in {self.engine}; re-run the extraction")
        catalog = json.loads(
            (ROOT / "generator" / "catalog" / f"engine-{self.engine}.json").read_text(encoding="utf-8")
        )
        self.options = {c: set(a["options"]) for c, a in catalog["attachments"].items()}
        self.events: list[Event] = []
        for name, cls in sorted(digest["stepDelegates"].items()):
            for entry in ENTRIES:
                self.events += self.g.walk(name, cls, entry)

    # -- helpers
    def method(self, qualified: str) -> dict[str, Any]:
        owner, name = qualified.rsplit(".", 1)
        found = self.g.find(owner, name)
        if found is None:
            raise GateError(f"{qualified} not found in {self.engine}")
        return found[1]

    def calls(self, qualified: str) -> list[str]:
        return [self.g.declaring(c["owner"], c["name"]) for c in self.method(qualified).get("calls", [])]

    def predicates(self, qualified: str) -> list[str]:
        """The option predicates (`*Match()`) a method builds."""
        return sorted(
            {
                c.rsplit(".", 1)[1]
                for c in self.calls(qualified)
                if c.endswith("Match") and c.rsplit(".", 1)[0] in TRIGGER_CLASSES
            }
            - set(NOT_PREDICATES)
        )

    def fire_methods(self) -> dict[str, str]:
        """TriggerAttachment's trigger*() methods: each applies the triggers its one predicate matches."""
        out: dict[str, str] = {}
        for name in self.g.classes["TriggerAttachment"]["methods"]:
            if re.fullmatch(r"trigger[A-Z]\w*", name):
                matches = self.predicates(f"TriggerAttachment.{name}")
                if len(matches) == 1:
                    out[f"TriggerAttachment.{name}"] = matches[0]
        if not out:
            raise GateError("no TriggerAttachment.trigger*() method found")
        return out

    def options_of(self, predicate: str) -> list[str]:
        getters = self.method(self.g.declaring("TriggerAttachment", predicate)).get("getters", [])
        options = sorted(_option(g) for g in getters)
        unknown = [o for o in options if o not in self.options["TriggerAttachment"]]
        if not options or unknown:
            raise GateError(f"{predicate}: tests getters {getters}, not TriggerAttachment options ({unknown})")
        return options

    def requires(self, guards: frozenset[tuple[str, bool]]) -> list[dict[str, Any]]:
        out = []
        for atom, value in sorted(guards):
            kind, what = atom.split(":", 1)
            if kind == "condition" and what in self.spec.get("ownConditions", {}):
                continue
            if kind == "condition" and what not in self.spec.get("conditions", {}):
                raise GateError(f"{self.engine}: a rule needs {what} = {value}; describe it in gates.yaml conditions")
            out.append({kind: what, "is": value})
        return out

    def phase(self, entry: str, delegate: str, guards: frozenset[tuple[str, bool]]) -> str:
        words = _words(delegate.rsplit(".", 1)[-1])
        for atom, value in sorted(guards):
            cond = self.spec.get("conditions", {}).get(atom.removeprefix("condition:"), {})
            if value and "phase" in cond:
                words = cond["phase"]
        return f"the {entry} of the {words} step"

    def step_delegates(self, events: list[Event]) -> list[str]:
        return sorted({e.delegate for e in events})

    def player(self, events: list[Event]) -> str:
        players = {e.player for e in events}
        if len(players) != 1 or None in players:
            raise GateError(f"cannot tell whose rules {sorted({e.site for e in events})} take: {players}")
        return PLAYER_WORDS[players.pop() or ""]

    @staticmethod
    def owner(site: str) -> str:
        return site.rsplit(".", 1)[0]

    def delegate_of(self, event: Event) -> str:
        """The delegate class whose code made the call (the last delegate frame on the way)."""
        return next(self.owner(p) for p in reversed(event.path) if self.owner(p) not in ATTACHMENTS)

    # -- the parts of the catalog
    def trigger_kinds(self) -> list[dict[str, Any]]:
        fire = self.fire_methods()
        collects = [e for e in self.events if e.target == COLLECT]
        groups: dict[tuple[Any, ...], list[Event]] = {}
        for e in self.events:
            if e.target not in fire or any(p.startswith("TriggerAttachment.") for p in e.path[:-1]):
                continue
            match = fire[e.target]
            sources = [
                c
                for c in collects
                if c.delegate == e.delegate and c.entry == e.entry and match in self.predicates(c.site)
            ]
            if not sources:
                raise GateError(f"{e.site} fires {e.target} on triggers it never collected")
            for c in sources:
                if not any(
                    call["name"] == "whenOrDefaultMatch" and call.get("nullArgs")
                    for call in self.method(c.site).get("calls", [])
                ):
                    raise GateError(f"{c.site} collects triggers without asking for `when` unset")
                guards = e.guards | c.guards
                group = (match, e.target, self.owner(e.site), e.entry, c.player, guards)
                groups.setdefault(group, []).append(e)
        kinds = []
        for (match, target, site, entry, player, guards), events in sorted(groups.items(), key=lambda kv: repr(kv[0])):
            fires = self.method(target)
            reads = sorted(
                {_option(g) for g in fires.get("getters", [])}
                & self.options["TriggerAttachment"] - {*self.options_of(match), "name"}
            )
            kinds.append(
                {
                    "match": match,
                    "options": self.options_of(match),
                    "alsoReads": reads,
                    "fires": target.rsplit(".", 1)[1],
                    "delegates": [site],
                    "stepDelegates": self.step_delegates(events),
                    "phase": self.phase(entry, site, guards),
                    "entry": entry,
                    "player": PLAYER_WORDS[player or ""],
                    "requires": self.requires(guards),
                }
            )
        merged: dict[str, dict[str, Any]] = {}
        for kind in kinds:  # one entry per predicate and place; the step delegates of every path
            k = json.dumps({x: v for x, v in kind.items() if x != "stepDelegates"}, sort_keys=True)
            if k in merged:
                merged[k]["stepDelegates"] = sorted(set(merged[k]["stepDelegates"]) | set(kind["stepDelegates"]))
            else:
                merged[k] = kind
        return sorted(merged.values(), key=lambda k: (k["match"], k["delegates"], k["phase"]))

    def with_when(self) -> dict[str, Any]:
        events = [e for e in self.events if e.target == COLLECT_AND_FIRE and e.entry in ("start", "end")]
        if not events:
            raise GateError("no delegate fires triggers by their `when`")
        inner = self.calls(COLLECT_AND_FIRE)
        if COLLECT not in inner or FIRE_ALL not in inner:
            raise GateError(f"{COLLECT_AND_FIRE} does not collect and fire: {inner}")
        fire = self.fire_methods()
        fired = sorted({fire[c] for c in self.calls(FIRE_ALL) if c in fire})
        sites = sorted({self.owner(e.site) for e in events})
        for e in events:
            site_calls = self.method(e.site).get("calls", [])
            if any(c["name"] == "whenOrDefaultMatch" and c.get("nullArgs") for c in site_calls):
                raise GateError(f"{e.site} collects triggers without `when`, not by it")
        requires = {json.dumps(self.requires(e.guards)) for e in events}
        if len(requires) != 1:
            raise GateError(f"`when` triggers fire under different gates: {requires}")
        by_entry = {entry: self.step_delegates([e for e in events if e.entry == entry]) for entry in ("start", "end")}
        return {
            "delegates": sites,
            "stepDelegates": sorted(set(by_entry["start"]) & set(by_entry["end"])),
            "before": {"entry": "start", "stepDelegates": by_entry["start"]},
            "after": {"entry": "end", "stepDelegates": by_entry["end"]},
            "player": self.player(events),
            "requires": json.loads(requires.pop()),
            "fires": fired,
        }

    def activated_by(self) -> list[dict[str, Any]]:
        out = []
        by_action = [
            e
            for e in self.events
            if e.target == FIRE_ALL and any(p.startswith("UserActionAttachment.") for p in e.path)
        ]
        if by_action:
            out.append(
                {
                    "by": "userAction",
                    "option": "activateTrigger",
                    "delegates": sorted({self.delegate_of(e) for e in by_action}),
                    "stepDelegates": self.step_delegates(by_action),
                    "entry": sorted({e.entry for e in by_action}),
                    "requires": self.requires(frozenset.intersection(*(e.guards for e in by_action))),
                    "fires": "every action of the named trigger (fireTriggers, its `when` not tested)",
                }
            )
        for name, match in sorted(self.fire_methods().items()):
            if FIRE_ALL in self.calls(name):
                out.append(
                    {
                        "by": "trigger",
                        "option": "activateTrigger",
                        "match": match,
                        "fires": "every action of the named trigger (fireTriggers, its `when` not tested)",
                        "via": name.rsplit(".", 1)[1],
                    }
                )
        return out

    def rule(self, kind: str) -> dict[str, Any]:
        lookup = LOOKUPS[kind]
        events = [e for e in self.events if e.target == lookup]
        if kind in OFFERED:
            events = [e for e in events if OFFERED[kind] in e.path]
        if not events:
            raise GateError(f"no delegate looks up {kind} rules ({lookup})")
        prefixes = self.method(lookup).get("prefixes", [])
        if len(prefixes) != 1:
            raise GateError(f"{lookup}: expected one name prefix, found {prefixes}")
        requires = [json.dumps(self.requires(e.guards)) for e in events]
        if len(set(requires)) != 1:
            raise GateError(f"{kind}: different gates on different paths: {sorted(set(requires))}")
        entries = sorted({e.entry for e in events})
        sites = sorted({self.delegate_of(e) for e in events})
        out: dict[str, Any] = {
            "class": RULE_CLASSES[kind],
            "namePrefix": prefixes[0],
            "when": f"its name starts with {prefixes[0]}",
            "delegates": sites,
            "stepDelegates": self.step_delegates(events),
            "player": self.player(events),
            "entry": entries,
            "requires": json.loads(requires[0]),
            "lookedUpBy": lookup.rsplit(".", 1)[1],
        }
        if entries in (["start"], ["end"]):
            out["phase"] = self.phase(entries[0], sites[0], events[0].guards)
        else:  # a remote call of the player's: any time during the step
            out["phase"] = f"during the {_words(sites[0])} step"
        return out

    def properties(self, rules: dict[str, Any], kinds: list[dict[str, Any]]) -> dict[str, Any]:
        wanted = set()
        for r in [*rules.values(), rules["trigger"]["withWhen"], *kinds]:
            wanted |= {q["property"] for q in r.get("requires", []) if "property" in q}
        getters = {p["name"]: g for g, p in self.d["properties"].items()}
        out = {}
        for name in sorted(wanted):
            getter = getters[name]
            read_in = sorted(
                f"{cls}.{m}"
                for cls, c in self.g.classes.items()
                for m, facts in c["methods"].items()
                if any(call["owner"] == "Properties" and call["name"] == getter for call in facts.get("calls", []))
            )

            def needs(r: dict[str, Any], prop: str = name) -> bool:
                return {"property": prop, "is": True} in r.get("requires", [])

            gates = [k for k in ("objective", "userAction", "politicalAction") if needs(rules[k])]
            entry: dict[str, Any] = {
                "default": self.d["properties"][getter]["default"],
                "readIn": read_in,
                "reader": getter,
            }
            if trigger_kinds := sorted({k["match"] for k in kinds if needs(k)}):
                entry["gatesTriggerKinds"] = trigger_kinds
            if needs(rules["trigger"]["withWhen"]):  # the way every trigger can fire
                gates.append("trigger")
                entry["exceptTriggerKinds"] = sorted({k["match"] for k in kinds if not needs(k)})
                entry["except"] = [
                    f"triggers fired by a {a['by']}'s {a['option']}"
                    for a in rules["trigger"]["activatedBy"]
                    if not needs(a)
                ]
            entry["gates"] = sorted(gates)
            out[name] = entry
        return out

    def subclasses(self, delegates: set[str]) -> dict[str, list[str]]:
        out = {}
        for d in sorted(delegates):
            out[d] = sorted(name for name, cls in self.d["stepDelegates"].items() if d in self.g.chain(cls))
        return out

    def conditions(self) -> dict[str, Any]:
        out = {}
        for name, cond in self.spec.get("conditions", {}).items():
            if self.engine in cond["evidence"]:
                out[name] = {"says": cond["says"], "evidence": self.d["evidence"][f"condition:{name}"]}
        return out

    def never(self) -> list[dict[str, Any]]:
        out = []
        for n in self.spec.get("neverOptions", []):
            if self.engine not in n["evidence"]:
                continue
            if n["option"] not in self.options[n["class"]]:
                raise GateError(f"neverOptions: {n['class']} has no option {n['option']} in {self.engine}")
            entry = {k: v for k, v in n.items() if k not in ("evidence",)}
            entry["evidence"] = self.d["evidence"][f"never:{n['class']}.{n['option']}"]
            out.append(entry)
        return sorted(out, key=lambda n: (n["class"], n["option"]))

    def build(self) -> dict[str, Any]:
        kinds = self.trigger_kinds()
        when_fact = self.spec["facts"]["whenStep"]
        rules = {k: self.rule(k) for k in ("objective", "userAction", "politicalAction")}
        rules["trigger"] = {
            "class": "TriggerAttachment",
            "withWhen": {**self.with_when(), "matches": when_fact["says"]},
            "withoutWhen": "fires only where triggerKinds say, for the predicates its options meet",
            "activatedBy": self.activated_by(),
        }
        delegates = {d for r in rules.values() for d in r.get("delegates", [])}
        delegates |= set(rules["trigger"]["withWhen"]["delegates"])
        delegates |= {d for k in kinds for d in k["delegates"]}
        delegates |= {d for a in rules["trigger"]["activatedBy"] for d in a.get("delegates", [])}
        return {
            "engine": self.engine,
            "schemaVersion": SCHEMA_VERSION,
            "source": self.d["source"],
            "properties": self.properties(rules, kinds),
            "rules": rules,
            "triggerKinds": kinds,
            "delegateSubclasses": self.subclasses(delegates),
            "conditions": self.conditions(),
            "neverOptions": self.never(),
        }


def assemble(digest: dict[str, Any], spec: dict[str, Any] | None = None) -> dict[str, Any]:
    return Assembly(digest, spec if spec is not None else load_yaml()).build()


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", choices=("1.9", "2.x"))
    ap.add_argument("--jar", default=DEFAULT_JAR)
    ap.add_argument("--repo", help="git dir of a triplea-game/triplea mirror (2.x)")
    ap.add_argument("--rev", default="HEAD")
    ap.add_argument("--digest", action="store_true", help="print the digest (stage 1) instead of the gates")
    ap.add_argument("--from-digest", metavar="FILE", help="assemble the gates from a digest (stage 2 only)")
    args = ap.parse_args(argv)
    try:
        if args.from_digest:
            digest = json.loads(Path(args.from_digest).read_text(encoding="utf-8"))
        elif args.engine == "1.9":
            digest = digest_19(args.jar)
        elif args.engine == "2.x":
            if not args.repo:
                ap.error("--engine 2.x needs --repo")
            digest = digest_2x(args.repo, args.rev)
        else:
            ap.error("give --engine or --from-digest")
        sys.stdout.write(dumps(digest if args.digest else assemble(digest)))
    except GateError as e:
        print(f"extract_gates: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
