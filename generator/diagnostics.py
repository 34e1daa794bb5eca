"""Diagnostics: located messages about the user's input, and the one exception that carries them.

Every stage reports problems as `Diagnostic` values instead of raising on the first one, so a user
sees all of their mistakes in one run. The CLI prints them and picks the exit code (cli.group).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import NamedTuple

from generator.errors import TripleaForgeError


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


class Mark(NamedTuple):
    """A position in a source file: 1-based line and column, path as the user gave it.

    A NamedTuple rather than a dataclass: the loader makes one per YAML node, hundreds of
    thousands for a big map, and tuples are much cheaper to create.
    """

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass(frozen=True)
class Diagnostic:
    message: str
    mark: Mark | None = None
    key_path: str = ""
    severity: Severity = Severity.ERROR

    def __str__(self) -> str:
        where = f"{self.mark}: " if self.mark else ""
        path = f"{self.key_path}: " if self.key_path else ""
        prefix = "warning: " if self.severity is Severity.WARNING else ""
        return f"{where}{prefix}{path}{one_line(self.message)}"

    def sort_key(self) -> tuple[str, int, int, str]:
        m = self.mark
        return (m.file, m.line, m.col, self.message) if m else ("", 0, 0, self.message)


class ForgeError(TripleaForgeError):
    """Input problems found by a stage; printed one per line, then their count (`tally`), exit code 1."""

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        # Variants that share a parent find the parent's problems once each: say each once.
        self.diagnostics = sorted(set(diagnostics), key=Diagnostic.sort_key)
        super().__init__("\n".join(str(d) for d in self.diagnostics))

    def tally(self) -> str:
        """The line after the problems: '2 errors and 1 warning found.'"""
        errors = sum(1 for d in self.diagnostics if d.severity is Severity.ERROR)
        warnings = len(self.diagnostics) - errors
        also = f" and {warnings} warning{'s' if warnings != 1 else ''}" if warnings else ""
        return f"{errors} error{'s' if errors != 1 else ''}{also} found."


def warnings_or_raise(problems: Sequence[Diagnostic], strict: bool = False) -> list[Diagnostic]:
    """The warnings among `problems` to say, each once, in order; ForgeError when there are errors,
    with the warnings beside them. With `strict`, warnings count as errors.

    A warning at the very place of an error is left out: the error says what to fix there.
    """
    if strict:
        problems = [replace(p, severity=Severity.ERROR) for p in problems]
    errors = [p for p in problems if p.severity is Severity.ERROR]
    if errors:
        at_errors = {p.mark for p in errors if p.mark is not None}
        raise ForgeError([p for p in problems if p.severity is Severity.ERROR or p.mark not in at_errors])
    return sorted(set(problems), key=Diagnostic.sort_key)


def one_line(text: str) -> str:
    """`text` with line breaks and control characters escaped (a name quoted in a message may hold
    them): each diagnostic stays one line, as editors and scripts read `file:line:col: message`."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c == " " else c.encode("unicode_escape").decode("ascii") for c in text)


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """' (did you mean 'x'?)' when a choice is close to `word`, else ''."""
    close = difflib.get_close_matches(word, sorted(set(choices)), n=1, cutoff=0.75)
    return f" (did you mean '{close[0]}'?)" if close else ""


def key_path(parts: Iterable[object]) -> str:
    """Dotted path of keys; keys containing dots or spaces are quoted so the path stays readable."""
    out: list[str] = []
    for part in parts:
        text = str(part)
        if isinstance(part, int):
            out.append(f"[{part}]")
            continue
        if not text.isprintable():  # a line break in a key would split the message's line
            text = text.encode("unicode_escape").decode("ascii")
        needs_quotes = any(c in text for c in ".[] ") or text == ""
        out.append(f"'{text}'" if needs_quotes else text)
    return ".".join(out).replace(".[", "[")


def split_key_path(text: str) -> tuple[str | int, ...]:
    """The parts of a path `key_path` made ('a.'b c'[2].d' -> ('a', 'b c', 2, 'd')), as far as it can tell."""
    parts: list[str | int] = []
    i = 0
    while i < len(text):
        if text[i] == ".":
            i += 1
        elif text[i] == "[":
            end = text.find("]", i)
            number = text[i + 1 : end] if end > 0 else ""
            parts.append(int(number) if number.isdigit() else number)
            i = end + 1 if end > 0 else len(text)
        elif text[i] == "'":  # quoted: ends at a quote followed by '.', '[' or the end
            end = i + 1
            while end < len(text) and not (text[end] == "'" and (end + 1 == len(text) or text[end + 1] in ".[")):
                end += 1
            parts.append(text[i + 1 : end])
            i = end + 1
        else:
            end = i
            while end < len(text) and text[end] not in ".[":
                end += 1
            parts.append(text[i:end])
            i = end
    return tuple(parts)
