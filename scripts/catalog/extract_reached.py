"""The refusals the game parser reaches outside the attachments: engine classes it calls while loading.

`extract_checks.py` reads the attachment classes and the parser itself for `GameParseException`s. The
parser also calls into the engine's data classes (a frontier's `addRule`, the map's `addConnection`,
`TechAdvance.findDefinedAdvanceAndCreateAdvance`...), and any exception thrown there, of whatever
type, ends the load just the same ("Rule already added: ProductionRule:buyInfantry" is an
`IllegalStateException`). This module finds those:

* 1.9, from bytecode: every method of an engine class that `GameParser` invokes (`javap -c -p`),
  and every exception built in it;
* 2.x, from source: the methods in `REACHED_2X`, each of which the parser's source must call (the
  evidence is checked: a name no longer called fails the extraction), the exceptions built or
  `checkArgument`ed in them, and what `GameParsingValidation.validate()` (run by the client when a
  game is selected, after parsing) adds to its list of errors.
"""

from __future__ import annotations

import re
import subprocess
from typing import Any

from extract_2x import closing, strip_comments

ENGINE_PACKAGES = ("games/strategy/engine/data/", "games/strategy/triplea/delegate/")
SOURCE = "game-app/game-core/src/main/java/games/strategy/"
# file under SOURCE -> (class, the methods the parser calls, where that call is written):
# the 2.x parser's calls into the engine's data classes while it loads a game.
PARSER = "engine/data/gameparser/GameParser.java"
VARIABLES = "engine/data/gameparser/GameDataVariables.java"
REACHED_2X: dict[str, tuple[str, tuple[str, ...], str]] = {
    "engine/data/GameMap.java": ("GameMap", ("addTerritory", "addConnection"), PARSER),
    "engine/data/ProductionFrontier.java": ("ProductionFrontier", ("addRule",), PARSER),
    "engine/data/RepairFrontier.java": ("RepairFrontier", ("addRule",), PARSER),
    "engine/data/Rule.java": ("Rule", ("addResult", "addCost"), PARSER),
    "engine/data/ResourceCollection.java": ("ResourceCollection", ("addResource",), PARSER),
    "engine/data/properties/NumberProperty.java": ("NumberProperty", ("NumberProperty",), PARSER),
    "triplea/delegate/TechAdvance.java": ("TechAdvance", ("findDefinedAdvanceAndCreateAdvance",), PARSER),
    VARIABLES: ("GameDataVariables", ("parse", "expandVariableCombinations"), PARSER),
    "engine/data/gameparser/GameParsingValidation.java": (
        "GameParsingValidation",
        ("validateForeachVariables",),
        VARIABLES,
    ),
}
VALIDATION = "engine/data/gameparser/GameParsingValidation.java"
_NEW = re.compile(r"new (\w+(?:Exception|Error))\s*\(")
_PRECONDITION = re.compile(r"\bcheck(?:Argument|State)\s*\(")


def _split_arguments(text: str) -> list[str]:
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
        elif c == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
        i += 1
    return [*parts, text[start:]]


def _methods(src: str) -> list[tuple[int, str]]:
    from extract_checks import _DECLARATION, _KEYWORDS

    return [
        (m.start(), m.group(1))
        for m in _DECLARATION.finditer(src)
        if m.group(1) not in _KEYWORDS and m.group(0).split()[0] not in _KEYWORDS
    ]


def checks_in_methods(src: str, cls: str, methods: tuple[str, ...]) -> list[dict[str, Any]]:
    """Every exception built (or `checkArgument`/`checkState`ed) in `methods` of a class's source."""
    from extract_checks import _message

    src = strip_comments(src)
    declared = _methods(src)
    found: list[dict[str, Any]] = []
    for pattern in (_NEW, _PRECONDITION):
        for hit in pattern.finditer(src):
            method = next((name for start, name in reversed(declared) if start < hit.start()), "")
            if method not in methods:
                continue
            argument = src[hit.end() : closing(src, hit.end() - 1, "(", ")")]
            if pattern is _NEW:
                exception, message = hit.group(1), _message(argument)
            else:  # checkArgument(condition, "template %s", values...): the template
                exception, rest = "IllegalArgumentException", _split_arguments(argument)[1:]
                template = rest[0].strip() if rest else '""'
                message = _message(template if len(rest) == 1 else f"String.format({', '.join(rest)})")
            found.append({"class": cls, "method": method, "exception": exception, "message": message})
    return found


def validation_messages(src: str) -> list[dict[str, Any]]:
    """What GameParsingValidation.validate() reports: the texts its checks add to the error list."""
    from extract_checks import _message

    src = strip_comments(src)
    declared = _methods(src)
    found = []
    for hit in re.finditer(r"(?:validationErrors\.add|List\.of)\s*\(", src):
        argument = src[hit.end() : closing(src, hit.end() - 1, "(", ")")]
        if not argument.strip() or argument.lstrip().startswith(("validate", "check")):
            continue  # an empty list, or another check's list added to this one
        method = next((name for start, name in reversed(declared) if start < hit.start()), "")
        found.append(
            {"class": "GameParsingValidation", "method": method, "exception": "validate", "message": _message(argument)}
        )
    return found


def extract_reached_2x(show: Any) -> list[dict[str, Any]]:
    """The 2.x refusals outside the attachments and the parser; `show(path)` reads a source file."""
    found: list[dict[str, Any]] = []
    for path, (cls, methods, caller) in REACHED_2X.items():
        calling = strip_comments(show(SOURCE + caller))
        for method in methods:
            if not re.search(rf"(?:\.|\bnew |\b){method}\s*\(", calling):
                raise SystemExit(f"{caller} no longer calls {cls}.{method}: review REACHED_2X")
        found += checks_in_methods(show(SOURCE + path), cls, methods)
    found += validation_messages(show(SOURCE + VALIDATION))
    return found


def builtin_techs_2x(show: Any) -> list[str]:
    """The advances a `<techname tech=...>` may name: TechAdvance's TECH_PROPERTY_ constants."""
    source = show(SOURCE + "triplea/delegate/TechAdvance.java")
    return sorted(set(re.findall(r'TECH_PROPERTY_\w+\s*=\s*"(\w+)"', source)))


# --- 1.9: bytecode ------------------------------------------------------------------------------


def invoked_19(parser_listing: str) -> dict[str, set[str]]:
    """Engine class (dotted) -> the methods of it that GameParser invokes (`<init>` for constructors)."""
    invoked: dict[str, set[str]] = {}
    calls = re.findall(r"invoke\w+\s+#\d+\s+// (?:Interface)?Method ([\w/$]+)\.\"?([\w<>$]+)\"?:", parser_listing)
    for owner, method in calls:
        if owner.startswith(ENGINE_PACKAGES) and not owner.endswith("/GameParser") and "$" not in owner:
            invoked.setdefault(owner.replace("/", "."), set()).add(method)
    return invoked


def extract_reached_19(jar: str, parser_listing: str) -> list[dict[str, Any]]:
    """Every exception built in an engine method GameParser invokes (the attachments excepted)."""
    from extract_checks import checks_in_bytecode

    invoked = {c: m for c, m in invoked_19(parser_listing).items() if ".attachments." not in c}
    names = sorted(invoked)
    javap = subprocess.run(["javap", "-c", "-p", "-cp", jar, *names], check=True, capture_output=True, text=True)
    listings = re.split(r"^(?=Compiled from )", javap.stdout, flags=re.M)[1:]
    found: list[dict[str, Any]] = []
    for name, text in zip(names, listings, strict=True):
        short = name.rsplit(".", 1)[-1]
        wanted = {short if m == "<init>" else m for m in invoked[name]}
        found += [c for c in checks_in_bytecode(text, short, any_exception=True) if c["method"] in wanted]
    return found


def builtin_techs_19(jar: str) -> list[str]:
    listing = subprocess.run(
        ["javap", "-constants", "-cp", jar, "games.strategy.triplea.delegate.TechAdvance"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return sorted(set(re.findall(r'TECH_PROPERTY_\w+ = "(\w+)"', listing)))
