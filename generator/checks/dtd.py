"""The engine's own grammar: every message of `game.dtd` for a game XML, as located errors.

The DTD is read from the installed engine's jar, because that is the grammar the engine itself
validates against (it only prints the messages and carries on; we treat them as errors).
"""

from __future__ import annotations

import functools
import io
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path

from lxml import etree

from generator.catalog import load_catalog
from generator.catalog.grammar import XML_ATTRIBUTES
from generator.diagnostics import Diagnostic, Mark, Severity
from generator.paths import DTD_IN_JAR, engine_jar
from generator.safe_xml import safe_parser, unreadable


def engine_dtd(jar: Path | None = None) -> etree.DTD | None:
    """The game.dtd inside the engine's jar (default: paths.engine_jar), or None when there is none."""
    return _dtd(jar or engine_jar())


@functools.cache
def _dtd(jar: Path) -> etree.DTD | None:
    try:
        with zipfile.ZipFile(jar) as archive:
            return etree.DTD(io.BytesIO(archive.read(DTD_IN_JAR)))
    except (OSError, KeyError, zipfile.BadZipFile):
        return None


def check_xml_against_dtd(xml: bytes, display: str, jar: Path | None = None) -> list[Diagnostic]:
    """Every DTD message for one game XML; the engine only prints these, we treat them as errors."""
    jar = jar or engine_jar()
    dtd = engine_dtd(jar)
    if dtd is None:
        return [
            Diagnostic(
                f"engine DTD not found in {jar}; install the engine (apt-get install triplea)",
                Mark(display, 1, 1),
                severity=Severity.WARNING,
            )
        ]
    try:
        document = etree.parse(io.BytesIO(xml), safe_parser())
    except etree.XMLSyntaxError as exc:
        return [unreadable(exc, display)]
    if dtd.validate(document):
        return []
    return list(_dtd_messages(dtd, display))


# Names the engine knows without a declaration: the DTD cannot know them, the engine resolves them.
_BUILTIN_ID = re.compile(r'IDREF attribute type references an unknown ID "([^"]*)"')
_BUILTINS = set(load_catalog("1.9")["parser"]["builtinNames"]["relationshipType"])
# true/false written in another case: the DTD lists "true|false", the engine ignores case here.
_BOOLEAN_CASE = re.compile(r'Value "(true|false)" for attribute \w+ of \w+ is not among the enumerated set', re.I)
# An attribute 1.9's grammar lacks but 2.x's has: 1.9 ignores it, 2.x reads it.
_UNDECLARED = re.compile(r"No declaration for attribute (\w+) of element (\w+)")


def _dtd_messages(dtd: etree.DTD, display: str) -> Iterator[Diagnostic]:
    for entry in dtd.error_log:  # type: ignore[attr-defined]
        mark = Mark(display, entry.line or 1, entry.column or 1)
        builtin = _BUILTIN_ID.search(entry.message)
        # The engine only prints DTD messages; these it reads right anyway, so they are warnings.
        if builtin and builtin.group(1) in _BUILTINS:
            yield Diagnostic(f"DTD: {entry.message} (a relationship type the engine makes itself: it plays fine)",
                             mark, severity=Severity.WARNING)  # fmt: skip
            continue
        undeclared = _UNDECLARED.search(entry.message)
        if undeclared and undeclared.group(1) in XML_ATTRIBUTES.get(undeclared.group(2), ()):
            yield Diagnostic(f"DTD: {entry.message} (an attribute of TripleA 2.x: 1.9 ignores it and plays the game)",
                             mark, severity=Severity.WARNING)  # fmt: skip
            continue
        if _BOOLEAN_CASE.search(entry.message):
            yield Diagnostic(f"DTD: {entry.message} (the engine reads true and false in any case: it plays fine)",
                             mark, severity=Severity.WARNING)  # fmt: skip
            continue
        yield Diagnostic(f"DTD: {entry.message}", mark)
