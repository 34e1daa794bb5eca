"""What changed in a text, word by word: "Patriotism [-5-]{+7+} IPC", not "reworded".

A ledger summary, a note or the game notes is prose: a reviewer wants the words that changed,
with a few words around each change, and numbers are what most often change. Each hunk shows up
to CONTEXT words either side; hunks are joined by an ellipsis.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass

CONTEXT = 4
ELLIPSIS = "\N{HORIZONTAL ELLIPSIS}"
_NUMBER = re.compile(r"[-+]?\d+(?:[.,]\d+)*%?")


@dataclass(frozen=True)
class Piece:
    """A run of words: kept (context), removed or added."""

    kind: str  # same, removed, added, gap
    words: tuple[str, ...]


def word_diff(old: str, new: str) -> list[Piece]:
    """The changed words of `new` against `old`, with context; gaps where unchanged text is left out."""
    a, b = old.split(), new.split()
    pieces: list[Piece] = []
    ops = difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes()
    for index, (tag, i1, i2, j1, j2) in enumerate(ops):
        if tag == "equal":
            run = a[i1:i2]
            first, last = index == 0, index == len(ops) - 1
            head = () if first else tuple(run[:CONTEXT])
            tail = () if last else tuple(run[-CONTEXT:])
            if len(run) <= (0 if first else CONTEXT) + (0 if last else CONTEXT):
                pieces.append(Piece("same", tuple(run)))
                continue
            if head:
                pieces.append(Piece("same", head))
            pieces.append(Piece("gap", ()))
            if tail:
                pieces.append(Piece("same", tail))
            continue
        if i2 > i1:
            pieces.append(Piece("removed", tuple(a[i1:i2])))
        if j2 > j1:
            pieces.append(Piece("added", tuple(b[j1:j2])))
    return pieces


def as_text(pieces: list[Piece]) -> str:
    """Git's word-diff style: [-removed-]{+added+}."""
    out = []
    for piece in pieces:
        words = " ".join(piece.words)
        out.append({"same": words, "gap": ELLIPSIS, "removed": f"[-{words}-]", "added": f"{{+{words}+}}"}[piece.kind])
    return " ".join(out)


def as_markdown(pieces: list[Piece], escape: Callable[[str], str]) -> str:
    """Removed words struck through, added ones in bold; numbers in a change as code, to stand out."""

    def words(piece: Piece) -> str:
        return " ".join(f"`{w}`" if _NUMBER.fullmatch(w) else escape(w) for w in piece.words)

    out = []
    for piece in pieces:
        if piece.kind == "same":
            out.append(escape(" ".join(piece.words)))
        elif piece.kind == "gap":
            out.append(ELLIPSIS)
        elif piece.kind == "removed":
            out.append(f"~~{words(piece)}~~")
        else:
            out.append(f"**{words(piece)}**")
    return " ".join(out)
