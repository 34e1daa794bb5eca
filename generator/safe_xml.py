"""Reading XML that may be hostile: one parser setting for every stage, and its errors in words.

Game XMLs come from anyone (imports, `validate FILE.xml`, `check`, a previous release), so no
stage loads a DTD, expands an entity or touches the network while reading one.
"""

from __future__ import annotations

import re

from lxml import etree

from generator.diagnostics import Diagnostic, Mark

# libxml2's words when a document passes what the parser takes even with huge_tree (nesting deeper
# than 2048 levels, a text over 1 GB): said in ours (no game nests more than about 6 levels).
_GUARD = re.compile(r"XML_PARSE_HUGE|Excessive depth|Resource limit exceeded", re.IGNORECASE)


def safe_parser() -> etree.XMLParser:
    """An XML parser that never loads a DTD, expands an entity or touches the network.

    Texts of any length are read (huge_tree), as the engine reads them: a game's notes or a
    property value may pass libxml2's 10 MB guard, and a build makes such games from a spec. The
    files are bounded in size by whoever reads them, and libxml2 still refuses entity
    amplification (billion laughs) with huge_tree.
    """
    return etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False, huge_tree=True
    )


def unreadable(exc: OSError | etree.XMLSyntaxError, display: str) -> Diagnostic:
    """Why an XML file could not be read, at the place the parser stopped (as `validate` says it)."""
    if isinstance(exc, etree.XMLSyntaxError):
        mark = Mark(display, exc.lineno or 1, exc.offset or 1)
        if _GUARD.search(exc.msg or ""):
            return Diagnostic("XML nests deeper or holds a longer text than any game (more than 2048 levels, or "
                              "1 GB); not read further", mark)  # fmt: skip
        return Diagnostic(f"XML is not well-formed: {exc.msg}", mark)
    return Diagnostic(f"cannot read XML: {exc.strerror or exc}", Mark(display, 1, 1))
