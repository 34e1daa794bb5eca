"""Find the checks with which TripleA refuses a game: every exception its attachments and parser build.

For each engine, lists every place in the attachment classes and the game parser that builds a
``GameParseException`` (the engine's "this game is wrong"), and for 1.9 also ``IllegalStateException``
(1.9 reports unknown names in option values with it), with the class, the method and the message
text (its string constants, ``{}`` where a value is inserted, the ``thisErrorMsg()`` suffix left out):

    python scripts/catalog/extract_checks.py --engine 1.9 [--jar /usr/share/games/triplea/bin/triplea.jar]
    python scripts/catalog/extract_checks.py --engine 2.x --repo <git dir of triplea-game/triplea> [--rev HEAD]

1.9 is read from the jar's bytecode (``javap -c -p``: the string constants loaded between the
``new`` of the exception and the call of its constructor); 2.x from the source (``git show``: the
string literals of the constructor's argument). Only facts are printed (JSON, sorted): no engine code.
``scripts/catalog/raw/engine-checks-2.x.source.json`` keeps the 2.x output, since the suite has no 2.x
source; ``tests/checks/test_engine_checks.py`` runs the 1.9 extraction on the installed jar.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DEFAULT_JAR = "/usr/share/games/triplea/bin/triplea.jar"
CLASSES = (
    "AbstractConditionsAttachment",
    "AbstractPlayerRulesAttachment",
    "AbstractRulesAttachment",
    "AbstractTriggerAttachment",
    "AbstractUserActionAttachment",
    "CanalAttachment",
    "PlayerAttachment",
    "PoliticalActionAttachment",
    "RelationshipTypeAttachment",
    "RulesAttachment",
    "TechAbilityAttachment",
    "TechAttachment",
    "TerritoryAttachment",
    "TerritoryEffectAttachment",
    "TriggerAttachment",
    "UnitAttachment",
    "UnitSupportAttachment",
    "UserActionAttachment",
)
PARSER_19 = "games.strategy.engine.data.GameParser"
PACKAGE = "games.strategy.triplea.attachments."
EXCEPTIONS_19 = ("games/strategy/engine/data/GameParseException", "java/lang/IllegalStateException")
SOURCE_2X = "game-app/game-core/src/main/java/games/strategy/"
PARSER_2X = SOURCE_2X + "engine/data/gameparser/GameParser.java"


def tidy(message: str) -> str:
    """One spelling of a message: collapsed blanks, no trailing separator."""
    message = re.sub(r"\s+", " ", message).strip()
    return message.rstrip(" ,:")


# --- 1.9: bytecode ---------------------------------------------------------------------------

_METHOD = re.compile(r"^  (?:[\w.$<>\[\], ]+ )?([\w$<>.]+)\((.*)\)( throws [\w.$, ]+)?;$")
_INSN = re.compile(r"^\s+\d+: (\w+)\s+(?:#\d+(?:, *\d+)?\s+)?(?://\s*(.*))?$")


def _unescaped(constant: str) -> str:
    """javap's rendering of a string constant as the text the engine prints."""
    return constant.replace("\\'", "'").replace('\\"', '"').replace("\\n", " ")


def _enclosing(method: str) -> str:
    """`lambda$setFoo$3` -> `setFoo`: a lambda's check belongs to the method that wrote it; a
    constructor (javap names it by its qualified class) is named by its class."""
    method = method.rsplit(".", 1)[-1]
    found = re.fullmatch(r"lambda\$(\w+)\$\d+", method)
    return found.group(1) if found else method


def checks_in_bytecode(listing: str, cls: str, any_exception: bool = False) -> list[dict[str, Any]]:
    """Every exception of EXCEPTIONS_19 (with `any_exception`, of any class) a `javap -c -p`
    listing builds, with its message constants."""
    found: list[dict[str, Any]] = []
    method = ""
    open_: list[tuple[str, list[str]]] = []  # exceptions being built: class, message pieces
    last = ""
    for line in listing.splitlines():
        header = _METHOD.match(line)
        if header:
            method, open_, last = _enclosing(header.group(1)), [], ""
            continue
        insn = _INSN.match(line)
        if not insn:
            continue
        op, comment = insn.group(1), insn.group(2) or ""
        consumed = op.startswith("invoke") and "StringBuilder" not in comment and "<init>" not in comment
        if open_ and last in ("ldc", "ldc_w") and consumed and open_[-1][1]:
            open_[-1][1].pop()  # a constant passed to a call (`getAttribute("name")`), not message text
        built = comment.removeprefix("class ")
        if op == "new" and (built in EXCEPTIONS_19 or (any_exception and built.endswith(("Exception", "Error")))):
            open_.append((comment.removeprefix("class "), []))
        elif open_ and op in ("ldc", "ldc_w") and comment.startswith("String "):
            open_[-1][1].append(_unescaped(comment.removeprefix("String ")))
        elif open_ and op == "invokevirtual" and "StringBuilder.append" in comment:
            if last not in ("ldc", "ldc_w", "thisErrorMsg"):
                open_[-1][1].append("{}")
        elif open_ and op == "invokespecial" and comment.startswith(f'Method {open_[-1][0]}."<init>"'):
            exception, pieces = open_.pop()
            found.append(
                {
                    "class": cls,
                    "method": method,
                    "exception": exception.rsplit("/", 1)[-1],
                    "message": tidy("".join(pieces)),
                }
            )
        last = "thisErrorMsg" if "thisErrorMsg" in comment else op
    return found


def extract_19(jar: str) -> list[dict[str, Any]]:
    names = [PACKAGE + c for c in CLASSES] + [PARSER_19]
    # One javap for every class (a JVM start each cost more than reading them): it lists them in
    # the order given, each from its "Compiled from" line.
    javap = subprocess.run(["javap", "-c", "-p", "-cp", jar, *names], check=True, capture_output=True, text=True)
    listings = re.split(r"^(?=Compiled from )", javap.stdout, flags=re.M)[1:]
    if len(listings) != len(names):
        raise SystemExit(f"javap listed {len(listings)} classes of {len(names)}")
    found: list[dict[str, Any]] = []
    for name, text in zip(names, listings, strict=True):
        found += checks_in_bytecode(text, name.rsplit(".", 1)[-1])
    from extract_reached import extract_reached_19  # a script beside this one

    return found + extract_reached_19(jar, listings[-1])


_HEADER = re.compile(
    r"^(?:public |protected |private )?(?P<abstract>abstract )?(?:final )?(?P<kind>class|interface) (?P<name>[\w.$]+)"
    r"(?:<[^{]*?>)?(?: extends (?P<extends>[^{]+?))?(?: implements (?P<implements>[^{]+?))? \{$"
)


def _supertypes(text: str | None) -> list[str]:
    return [re.sub(r"<.*", "", t.strip()) for t in re.split(r",(?![^<]*>)", text or "") if t.strip()]


def delegates_19(jar: str) -> list[str]:
    """Every class of the jar's games.strategy packages that 1.9's parser takes as a delegate:
    a concrete class that is an IDelegate (it makes them by name: Class.forName, then instanceof)."""
    listing = subprocess.run(["jar", "tf", jar], check=True, capture_output=True, text=True).stdout.split()
    names = [n.removesuffix(".class").replace("/", ".") for n in listing]
    names = [n for n in names if n.startswith("games.strategy.") and "$" not in n]
    headers = subprocess.run(["javap", "-cp", jar, *names], capture_output=True, text=True).stdout
    parents: dict[str, list[str]] = {}
    concrete: set[str] = set()
    for line in headers.splitlines():
        found = _HEADER.match(line.strip())
        if found:
            name = found.group("name")
            parents[name] = _supertypes(found.group("extends")) + _supertypes(found.group("implements"))
            if found.group("kind") == "class" and not found.group("abstract"):
                concrete.add(name)

    def is_delegate(name: str, seen: frozenset[str] = frozenset()) -> bool:
        if name == "games.strategy.engine.delegate.IDelegate":
            return True
        return any(p not in seen and is_delegate(p, seen | {name}) for p in parents.get(name, []))

    return sorted(n for n in concrete if is_delegate(n))


# --- 2.x: source -----------------------------------------------------------------------------

_DECLARATION = re.compile(
    r"^[ \t]*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|protected|static|final|synchronized)\s+)*"
    r"(?:<[^>]+>\s+)?[\w<>\[\],.? ]+\s+(\w+)\s*\([^;{}]*\)\s*(?:throws\s+[\w.,\s]+)?\{",
    re.M,
)
_KEYWORDS = {"if", "for", "while", "switch", "catch", "synchronized", "return", "new", "else", "throw", "try"}
_LITERAL = re.compile(r'"((?:\\.|[^"\\])*)"')


def _argument(src: str, open_paren: int) -> str:
    from extract_2x import closing  # a script beside this one

    return src[open_paren + 1 : closing(src, open_paren, "(", ")")]


def _message(argument: str) -> str:
    """The literals of a constructor argument, `{}` for the values between them."""
    text = argument
    formatted = re.match(r"\s*(?:MessageFormat|String)\.format\s*\(\s*" + _LITERAL.pattern, text)
    if formatted:  # the pattern's literal, its placeholders as {}
        pattern = formatted.group(1).replace("\\n", " ").replace("''", "'")
        return tidy(re.sub(r"\{\d+\}|%[sd]", "{}", pattern))
    pieces: list[str] = []
    depth, start = 0, 0
    parts: list[str] = []
    i = 0
    while i < len(text):  # split at the top-level `+`
        c = text[i]
        if c == '"':
            i += 1
            while text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == "+" and depth == 0:
            parts.append(text[start:i])
            start = i + 1
        elif c == "," and depth == 0:  # (message, cause): the message only
            break
        i += 1
    parts.append(text[start:i])
    for part in parts:
        part = part.strip()
        literal = _LITERAL.fullmatch(part)
        if literal:
            pieces.append(literal.group(1).replace("\\n", " ").replace('\\"', '"'))
        elif "thisErrorMsg" not in part and part:
            pieces.append("{}")
    return tidy("".join(pieces))


def checks_in_source(src: str, cls: str) -> list[dict[str, Any]]:
    from extract_2x import strip_comments  # a script beside this one

    src = strip_comments(src)
    methods = [
        (m.start(), m.group(1))
        for m in _DECLARATION.finditer(src)
        if m.group(1) not in _KEYWORDS and m.group(0).split()[0] not in _KEYWORDS
    ]
    found: list[dict[str, Any]] = []
    for hit in re.finditer(r"new GameParseException\s*\(", src):
        method = next((name for start, name in reversed(methods) if start < hit.start()), "")
        found.append(
            {
                "class": cls,
                "method": method,
                "exception": "GameParseException",
                "message": _message(_argument(src, hit.end() - 1)),
            }
        )
    return found


def _show(repo: str, rev: str, path: str) -> str:
    shown = subprocess.run(["git", "-C", repo, "show", f"{rev}:{path}"], check=True, capture_output=True, text=True)
    return shown.stdout


def extract_2x(repo: str, rev: str) -> list[dict[str, Any]]:
    def show(path: str) -> str:
        return _show(repo, rev, path)

    found: list[dict[str, Any]] = []
    for cls in CLASSES:
        found += checks_in_source(show(f"{SOURCE_2X}triplea/attachments/{cls}.java"), cls)
    found += checks_in_source(show(PARSER_2X), "GameParser")
    from extract_reached import extract_reached_2x  # a script beside this one

    return found + extract_reached_2x(show)


def delegates_2x(repo: str, rev: str) -> list[str]:
    """The delegate names 2.x's parser makes (XmlGameElementMapper's table; it first strips the
    package games.strategy.triplea.delegate. from the name a game gives)."""
    mapper = subprocess.run(
        ["git", "-C", repo, "show", f"{rev}:{SOURCE_2X}engine/data/gameparser/XmlGameElementMapper.java"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    start = re.search(r"Supplier<IDelegate>>\s+newDelegateFactories\(", mapper)
    end = re.search(r"AttachmentFactory>\s+newAttachmentFactories\(", mapper)
    assert start and end, "XmlGameElementMapper's delegate tables not found"
    tables = mapper[start.start() : end.start()]
    return sorted(set(re.findall(r'\.put\(\s*"([\w.]+)",\s*[\w.]+::new\)', tables)))


def digest(found: list[dict[str, Any]], source: str, delegates: list[str], techs: list[str]) -> dict[str, Any]:
    """Distinct checks (class, method, exception, message) with how often each is built, the
    delegates the parser makes and the built-in advances a technology may name (`tech=`)."""
    counts = Counter(json.dumps(f, sort_keys=True) for f in found)
    checks = [{**json.loads(key), "occurrences": n} for key, n in counts.items()]
    checks.sort(key=lambda c: (c["class"], c["method"], c["message"], c["exception"]))
    return {"source": source, "checks": checks, "delegates": delegates, "builtinTechs": techs}


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(HERE))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", choices=("1.9", "2.x"), required=True)
    ap.add_argument("--jar", default=DEFAULT_JAR)
    ap.add_argument("--repo", help="git dir of a triplea-game/triplea mirror (2.x)")
    ap.add_argument("--rev", default="HEAD")
    args = ap.parse_args(argv)
    if args.engine == "1.9":
        from extract_reached import builtin_techs_19

        source = f"{Path(args.jar).name} (javap -c -p)"
        result = digest(extract_19(args.jar), source, delegates_19(args.jar), builtin_techs_19(args.jar))
    else:
        if not args.repo:
            ap.error("--engine 2.x needs --repo")
        commit = subprocess.run(
            ["git", "-C", args.repo, "rev-parse", args.rev], check=True, capture_output=True, text=True
        ).stdout.strip()
        found = extract_2x(args.repo, args.rev)
        from extract_reached import builtin_techs_2x

        techs = builtin_techs_2x(lambda path: _show(args.repo, args.rev, path))
        result = digest(found, f"triplea-game/triplea@{commit}", delegates_2x(args.repo, args.rev), techs)
    print(json.dumps(result, indent=1, sort_keys=True, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
