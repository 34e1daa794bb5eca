"""Java `.properties` files as TripleA reads them: `java.util.Properties.load(InputStream)`.

That loader decodes ISO-8859-1, so anything outside Latin-1 must be written as a `\\uXXXX` escape.
We escape every non-ASCII character, as `Properties.store` does: the file then reads the same
whether a tool takes it as ISO-8859-1 or (wrongly, but commonly) as UTF-8. Merging into a base
map's file edits only the lines of the keys we set and appends new keys, so the map maker's
comments and layout survive and a re-merge is a no-op.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

# Characters java.util.Properties.store escapes with a backslash (in keys and values alike).
_SPECIAL = {"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r", "\f": "\\f"}
_SPECIAL.update({c: "\\" + c for c in "=:#!"})
_UNESCAPE = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}
_BLANK = " \t\f"


def _escape(text: str, *, key: bool) -> str:
    out = []
    for index, char in enumerate(text):
        code = ord(char)
        if char in _SPECIAL:
            out.append(_SPECIAL[char])
        elif char == " " and (key or index == 0):
            # A space ends a key; a value's leading space would be skipped by the loader.
            out.append("\\ ")
        elif 0x20 <= code <= 0x7E:
            out.append(char)
        elif code > 0xFFFF:
            # Java strings are UTF-16: a character beyond the BMP is two escaped surrogates.
            high, low = divmod(code - 0x10000, 0x400)
            out.append(f"\\u{0xD800 + high:04X}\\u{0xDC00 + low:04X}")
        else:
            out.append(f"\\u{code:04X}")
    return "".join(out)


def format_entry(key: str, value: str) -> str:
    """One `key=value` line, escaped so `Properties.load` reads back exactly `key` and `value`."""
    return f"{_escape(key, key=True)}={_escape(value, key=False)}"


def encode(lines: list[str]) -> bytes:
    """Lines of properties text as the bytes TripleA reads (every line is Latin-1 after escaping)."""
    return "".join(line + "\n" for line in lines).encode("iso-8859-1")


@dataclass(frozen=True)
class Entry:
    key: str
    value: str
    first: int  # index of the entry's first physical line
    last: int  # index of its last physical line (continuations included)


def _ends_with_continuation(line: str) -> bool:
    trailing = len(line) - len(line.rstrip("\\"))
    return trailing % 2 == 1


def _unescape(text: str) -> str:
    out, i = [], 0
    while i < len(text):
        char = text[i]
        if char != "\\" or i + 1 == len(text):
            out.append(char)
            i += 1
            continue
        nxt = text[i + 1]
        if nxt == "u" and re.fullmatch(r"[0-9A-Fa-f]{4}", text[i + 2 : i + 6]):
            out.append(chr(int(text[i + 2 : i + 6], 16)))
            i += 6
            continue
        out.append(_UNESCAPE.get(nxt, nxt))
        i += 2
    # Surrogate pairs written as two escapes become one character again.
    return "".join(out).encode("utf-16", "surrogatepass").decode("utf-16", "surrogatepass")


def _split(logical: str) -> tuple[str, str]:
    """Key and value of one logical line, by the loader's rules (first unescaped '=', ':' or blank)."""
    i = 0
    while i < len(logical):
        char = logical[i]
        if char == "\\":
            i += 2
            continue
        if char in "=:" or char in _BLANK:
            break
        i += 1
    key, rest = logical[:i], logical[i:].lstrip(_BLANK)
    if rest[:1] in ("=", ":"):
        rest = rest[1:].lstrip(_BLANK)
    return _unescape(key), _unescape(rest)


def parse(data: bytes) -> tuple[list[str], list[Entry]]:
    """Physical lines of a properties file and its entries (a later duplicate key wins, as in Java)."""
    # Java ends lines at \n, \r or \r\n only (str.splitlines would also split at \f and others).
    lines = re.split(r"\r\n|\r|\n", data.decode("iso-8859-1"))
    if lines and lines[-1] == "":
        lines.pop()
    entries: list[Entry] = []
    i = 0
    while i < len(lines):
        stripped = lines[i].lstrip(_BLANK)
        if not stripped or stripped[0] in "#!":
            i += 1
            continue
        first, logical = i, stripped
        while _ends_with_continuation(logical) and i + 1 < len(lines):
            i += 1
            logical = logical[:-1] + lines[i].lstrip(_BLANK)
        if _ends_with_continuation(logical):
            logical = logical[:-1]
        key, value = _split(logical)
        entries.append(Entry(key, value, first, i))
        i += 1
    return lines, entries


def read(data: bytes) -> dict[str, str]:
    return {entry.key: entry.value for entry in parse(data)[1]}


def merge(base: bytes | None, wanted: Mapping[str, str], header: str) -> bytes:
    """`base` with the keys of `wanted` set: changed keys are rewritten in place, new ones appended.

    With no base file the result holds `header` (a comment) and the wanted keys in their order.
    A base that already holds every wanted value is returned unchanged, byte for byte.
    """
    if base is None:
        return encode([f"# {header}", *(format_entry(k, v) for k, v in wanted.items())])
    lines, entries = parse(base)
    current = {entry.key: entry for entry in entries}
    if all(key in current and current[key].value == value for key, value in wanted.items()):
        return base
    replaced: dict[int, str | None] = {}
    for key, value in wanted.items():
        entry = current.get(key)
        if entry is None or entry.value == value:
            continue
        replaced[entry.first] = format_entry(key, value)
        for index in range(entry.first + 1, entry.last + 1):
            replaced[index] = None  # continuation lines of the old value
    out: list[str] = []
    for index, line in enumerate(lines):
        new = replaced.get(index, line)
        if new is not None:
            out.append(new)
    added = [format_entry(k, v) for k, v in wanted.items() if k not in current]
    if added:
        out += ["", f"# {header}", *added]
    return encode(out)
