"""Reading XML that may be hostile: one parser setting for every stage, and its errors in words.

Game XMLs come from anyone (imports, `validate FILE.xml`, `check`, a previous release), so no
stage loads a DTD, expands an entity or touches the network while reading one.
"""

from __future__ import annotations

from lxml import etree

from generator.diagnostics import Diagnostic, Mark


def safe_parser() -> etree.XMLParser:
    """An XML parser that never loads a DTD, expands an entity or touches the network."""
    return etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False, huge_tree=False
    )


def unreadable(exc: OSError | etree.XMLSyntaxError, display: str) -> Diagnostic:
    """Why an XML file could not be read, at the place the parser stopped (as `validate` says it)."""
    if isinstance(exc, etree.XMLSyntaxError):
        return Diagnostic(f"XML is not well-formed: {exc.msg}", Mark(display, exc.lineno or 1, exc.offset or 1))
    return Diagnostic(f"cannot read XML: {exc.strerror or exc}", Mark(display, 1, 1))
