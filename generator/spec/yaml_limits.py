"""What a spec's text may not be, found before its nodes are composed: characters YAML forbids and
nesting deeper than any spec needs (read from the parser's events, which do not recurse, so a
document nested thousands of levels deep is refused at its line instead of crashing the composer).

The checks take the loader class to read events with (LibYAML's or the pure one) from spec.load.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import yaml
from yaml.events import CollectionEndEvent, CollectionStartEvent

from generator.diagnostics import Diagnostic, Mark

# Specs nest about 8 levels; the limit keeps every recursive walk of a tree far from Python's
# recursion limit, and a document this deep is refused before LibYAML's composer (which
# recurses in C and crashes the process at about 30,000 levels) ever sees it.
MAX_DEPTH = 64
# Characters YAML forbids anywhere in a document, lone surrogates included (the YAML 1.2 spec's
# printable set); the byte order mark is allowed by YAML at the start only.
_FORBIDDEN = re.compile("[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]|(?<!^)\ufeff")
SURROGATE = re.compile("[\ud800-\udfff]")
TOO_DEEP = f"nested more than {MAX_DEPTH} levels deep; a spec needs far fewer"


class _ParserMark(Protocol):
    """A position as PyYAML's pure parser and LibYAML's give it (two classes, one shape)."""

    line: int
    column: int


def yaml_position(mark: _ParserMark | None, file: str) -> Mark:
    """A parser's position (counted from 0), as a user counts it; the document's start if none."""
    return Mark(file, mark.line + 1, mark.column + 1) if mark else Mark(file, 1, 1)


def forbidden_characters(text: str, file: str) -> list[Diagnostic]:
    """Each character YAML refuses, at its line and column, with what to do about it."""
    problems = []
    for match in _FORBIDDEN.finditer(text):
        index = match.start()
        line = text.count("\n", 0, index) + 1
        col = index - text.rfind("\n", 0, index)
        char = match.group()
        if char == "\ufeff":
            what = "a byte order mark (U+FEFF) in the middle of the file; editors show nothing there: delete it"
        elif SURROGATE.fullmatch(char):
            what = f"half of a character (lone surrogate U+{ord(char):04X}); remove it"
        else:
            what = f"control character U+{ord(char):04X}, which YAML does not allow; remove it or write it as an escape"
        problems.append(Diagnostic(what, Mark(file, line, col)))
        if len(problems) == 20:
            break
    return problems


def too_deep(text: str, file: str, loader: type[yaml.SafeLoader]) -> Diagnostic | None:
    """Nesting beyond MAX_DEPTH, found from the parser's events (which do not recurse).

    Only needed where the document could nest deep enough to crash LibYAML's composer (which
    needs thousands of levels); shallower excess is refused by the builder on its way down.
    """
    # Each level of nesting needs one of these characters: most specs skip this second pass.
    if sum(text.count(c) for c in "[{-:?") < 5_000:
        return None
    try:
        return deepest(text, file, loader)
    except yaml.YAMLError as exc:
        return too_deep_for_libyaml(exc, text, file, loader)


def too_deep_for_libyaml(exc: yaml.YAMLError, text: str, file: str, loader: type[yaml.SafeLoader]) -> Diagnostic | None:
    """Where a document LibYAML refused for its nesting first passes MAX_DEPTH.

    LibYAML 0.2.6 refuses flow nesting past 1,000 levels as it scans ahead, before its events
    reach level 65; the text before the point it refused holds that level, and its events say
    where. (The pure parser would say it too, but its scanner is quadratic in the open levels,
    and its composer recurses in Python: half a second to a RecursionError that says nowhere.)
    """
    mark = getattr(exc, "problem_mark", None)
    if not _past_libyaml(exc) or mark is None:
        return None
    return deepest(text[: mark.index], file, loader) or Diagnostic(TOO_DEEP, yaml_position(mark, file))


def _past_libyaml(exc: yaml.YAMLError) -> bool:
    return "maximum nesting depth" in str(exc)


def deepest(text: str, file: str, loader: type[yaml.SafeLoader]) -> Diagnostic | None:
    """Where the events of `text`, read by LOADER (LibYAML's or the pure one), first pass MAX_DEPTH.

    None when they end, or meet a syntax error (said where the document is composed), first;
    LibYAML's refusal to nest past its own limit is raised, for `too_deep_for_libyaml`.
    """
    reading: Any = loader(text)  # the stubs leave PyYAML's event API untyped
    depth = 0
    try:
        while (event := reading.get_event()) is not None:
            if isinstance(event, CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    return Diagnostic(TOO_DEEP, yaml_position(event.start_mark, file))
            elif isinstance(event, CollectionEndEvent):
                depth -= 1
    except yaml.YAMLError as exc:
        if _past_libyaml(exc):
            raise
    finally:
        reading.dispose()
    return None
