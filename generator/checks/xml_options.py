"""The strict schema's rules applied directly, for the XML a build renders.

`xsd.py` generates an XSD 1.1 schema from the option catalog and applies it with xmlschema; that
costs about half a second in a fresh process (the import and the schema's construction), which
is most of a cold build of every variant. The schema holds four rules, which this module applies
to the same digest with plain lookups: an attachment's class must be known; an option's name
must be one of the class's (first letter in either case); an int option's value must be a whole
number given without `count`; a bool option's value a boolean spelling. `validate FILE.xml`
still applies the schema itself, and `tests/checks/test_validate.py` holds that both find the same.
"""

from __future__ import annotations

import io
import re
from typing import cast

from lxml import etree

from generator.checks.xsd import BOOLEANS, catalog_options, spellings
from generator.diagnostics import Diagnostic, Mark
from generator.safe_xml import safe_parser
from generator.spec.kinds import ATTACHMENT_PACKAGE
from generator.targets import Target

_INTEGER = re.compile(r"\s*[+-]?[0-9]+\s*")  # xs:integer, whitespace collapsed


def _classes(target: Target) -> dict[str, dict[str, str]]:
    """javaClass (qualified and short) -> option spelling -> 'int' | 'bool' | 'other'."""
    out: dict[str, dict[str, str]] = {}
    for cls, options in catalog_options(target).items():
        spelled = {spelling: kind for name, kind in options.items() for spelling in spellings([name])}
        out[cls] = out[ATTACHMENT_PACKAGE + cls] = spelled
    return out


_CACHE: dict[str, dict[str, dict[str, str]]] = {}


def _problem(option: etree._Element, kind: str | None) -> str | None:
    if kind is None:
        return f"'{option.get('name')}' is not an option of this class"
    value = option.get("value")
    if kind == "int" and (option.get("count") is not None or value is None or not _INTEGER.fullmatch(value)):
        return f"option '{option.get('name')}' has a value of the wrong kind ('{value}')"
    if kind == "bool" and value not in BOOLEANS:
        return f"option '{option.get('name')}' has a value of the wrong kind ('{value}')"
    return None


def _line(element: etree._Element) -> int:
    # lxml-stubs 0.5 declares sourceline as `...`; lxml gives an int, or None for a made element.
    return cast("int | None", element.sourceline) or 1


def check_xml_options(xml: bytes, display: str, target: Target = "portable") -> list[Diagnostic]:
    """What the strict schema finds in an attachment list, found without building it."""
    try:
        root = etree.parse(io.BytesIO(xml), safe_parser()).getroot()
    except etree.XMLSyntaxError:
        return []  # the DTD check reports malformed XML
    classes = _CACHE.get(target) or _CACHE.setdefault(target, _classes(target))  # made once a target
    found: set[tuple[int, str]] = set()
    for attachment in root.iter("attachment"):
        owner, java = attachment.get("attachTo"), attachment.get("javaClass")
        what = f"attachment '{attachment.get('name')}' on '{owner}' ({java})"
        options = classes.get(attachment.get("javaClass") or "")
        if options is None:
            found.add((_line(attachment), f"XSD: {what}: unknown attachment class"))
            continue
        for option in attachment.iter("option"):
            problem = _problem(option, options.get(option.get("name") or ""))
            if problem:
                found.add((_line(option), f"XSD: {what}: {problem}"))
    return [Diagnostic(message, Mark(display, line, 1)) for line, message in sorted(found)]
