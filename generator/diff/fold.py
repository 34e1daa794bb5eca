"""Report lines a reader can read: no line over MAX_LINE characters, HTML shown as its text.

A change of an entry with many fields, an entry added with all of them, or a long value would
otherwise be one line of thousands of characters; it is folded at its "; " separators (then at
words) onto indented continuation lines. Game notes are HTML: a player reads their text, so the
text report word-diffs that text, not the markup (the JSON report keeps the HTML).
"""

from __future__ import annotations

import html
import re

MAX_LINE = 160
_TAG = re.compile(r"<[^>]*>")


def fold(head: str, text: str, indent: str, width: int = MAX_LINE, at: str = "; ") -> list[str]:
    """`head` + `text` as lines of at most `width` characters, the later ones starting with `indent`;
    broken after an `at` where one fits, else between words."""
    out: list[str] = []
    line, bare = head, len(head)  # `bare`: the length of the line's prefix, before any of `text`
    for segment in re.split(f"(?<={re.escape(at)})", text):
        if len(line) + len(segment.rstrip()) <= width:
            line += segment
            continue
        if len(line) > bare:
            out.append(line.rstrip())
            line, bare = indent, len(indent)
        for word in re.findall(r"\S+\s*", segment):
            if len(line) + len(word.rstrip()) > width and len(line) > bare:
                out.append(line.rstrip())
                line, bare = indent, len(indent)
            while len(line) + len(word.rstrip()) > width:  # one word longer than a line: cut it
                room = width - len(line)
                out.append(line + word[:room])
                word, line, bare = word[room:], indent, len(indent)
            line += word
    out.append(line.rstrip())
    return [piece for piece in out if piece.strip()] or [head.rstrip()]


def readable(text: str) -> str:
    """The text of an HTML fragment as a player reads it (tags gone, entities decoded); other
    text as it is."""
    if not _TAG.search(text):
        return text
    return " ".join(html.unescape(_TAG.sub(" ", text)).split())
