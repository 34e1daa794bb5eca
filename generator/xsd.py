"""A strict XML Schema (XSD 1.1) for game XML, generated from the option catalog of each engine.

The engine's DTD says which elements and attributes exist; it cannot say which options an
attachment class has or what their values look like. This schema adds exactly that: each
`<attachment>` gets the type of its javaClass (an XSD 1.1 type alternative), whose assertions
allow only that class's option names (first letter in either case, as both engines accept) and
require integer / boolean values where the option is an int / bool. Everything else in the game
is left to the DTD and to the semantic checks.
"""

from __future__ import annotations

import functools
import hashlib
import io
from pathlib import Path
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import quoteattr

from lxml import etree

from generator.catalog import load_catalog
from generator.diagnostics import Diagnostic, Mark
from generator.model import ATTACHMENT_PACKAGE
from generator.options_check import TARGET_ENGINES
from generator.paths import cache_dir

if TYPE_CHECKING:
    import xmlschema

_NORMALISED = "concat(lower-case(substring(@name, 1, 1)), substring(@name, 2))"


def _accepted(catalog: dict[str, Any], cls: str) -> dict[str, str]:
    """Option names an engine accepts for a class (aliases included), first letter lower-cased."""
    options: dict[str, Any] = catalog["attachments"][cls]["options"]
    names = {n: options[n]["type"] for n in options if n != "name"}
    aliases: dict[str, str] = dict(catalog["attachments"][cls].get("aliases", {}))
    aliases.update(catalog["parser"]["aliases"])
    for old, new in aliases.items():
        if new in options:
            names.setdefault(old, options[new]["type"])
    return {n[:1].lower() + n[1:]: kind for n, kind in names.items()}


def _options(target: str) -> dict[str, dict[str, str]]:
    """class -> option -> 'int' | 'bool' | 'other', for names every target engine accepts."""
    catalogs = [load_catalog(engine) for engine in TARGET_ENGINES[target]]
    classes = set.intersection(*(set(c["attachments"]) for c in catalogs))
    out: dict[str, dict[str, str]] = {}
    for cls in sorted(classes):
        accepted = [_accepted(c, cls) for c in catalogs]
        names = set.intersection(*(set(a) for a in accepted))
        kinds = {}
        for name in sorted(names):
            types = {a[name] for a in accepted}
            kinds[name] = types.pop() if len(types) == 1 and types <= {"int", "bool"} else "other"
        out[cls] = kinds
    return out


def schema_text(target: str) -> str:
    attachment_attributes = (
        '<xs:attribute name="name" type="xs:string" use="required"/>'
        '<xs:attribute name="attachTo" type="xs:string" use="required"/>'
        '<xs:attribute name="javaClass" type="xs:string" use="required"/>'
        '<xs:attribute name="type" type="xs:string"/>'
        '<xs:attribute name="foreach" type="xs:string"/>'
    )
    parts = [
        '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">',
        '<xs:element name="game"><xs:complexType><xs:sequence>'
        '<xs:any processContents="lax" minOccurs="0" maxOccurs="unbounded"/>'
        '</xs:sequence><xs:anyAttribute processContents="lax"/></xs:complexType></xs:element>',
        '<xs:element name="attachmentList"><xs:complexType><xs:sequence>'
        '<xs:element ref="attachment" minOccurs="0" maxOccurs="unbounded"/>'
        "</xs:sequence></xs:complexType></xs:element>",
        '<xs:complexType name="UnknownClass"><xs:sequence><xs:any processContents="skip" minOccurs="0" '
        'maxOccurs="unbounded"/></xs:sequence>'
        + attachment_attributes
        + '<xs:assert test="false()"/></xs:complexType>',
    ]
    alternatives = []
    for cls, options in _options(target).items():
        # Option names as an enumeration (both first-letter cases, as the engines accept): checked
        # as a simple type, far cheaper than an XPath assertion per attachment.
        names = "".join(
            f'<xs:enumeration value="{variant}"/>'
            for n in options
            for variant in dict.fromkeys((n, n[:1].upper() + n[1:]))
        )
        ints = ", ".join(f"'{n}'" for n, kind in options.items() if kind == "int")
        bools = ", ".join(f"'{n}'" for n, kind in options.items() if kind == "bool")
        # One assertion per class types the values of int and bool options.
        checks = []
        if ints:
            checks.append(
                f"(not({_NORMALISED} = ({ints})) or ((concat(@count, ':') = ':') and (@value castable as xs:integer)))"
            )
        if bools:
            checks.append(
                f"(not({_NORMALISED} = ({bools})) or @value = ('true', 'false', 'True', 'False', 'TRUE', 'FALSE'))"
            )
        value_assert = f"<xs:assert test={quoteattr(' and '.join(checks))}/>" if checks else ""
        parts.append(
            f'<xs:simpleType name="{cls}.names"><xs:restriction base="xs:string">{names}'
            "</xs:restriction></xs:simpleType>"
            f'<xs:complexType name="{cls}.option">'
            f'<xs:attribute name="name" type="{cls}.names" use="required"/>'
            '<xs:attribute name="value" type="xs:string" use="required"/>'
            f'<xs:attribute name="count" type="xs:string"/>{value_assert}</xs:complexType>'
            f'<xs:complexType name="{cls}"><xs:sequence>'
            f'<xs:element name="option" type="{cls}.option" minOccurs="0" maxOccurs="unbounded"/>'
            f"</xs:sequence>{attachment_attributes}</xs:complexType>"
        )
        for java in (ATTACHMENT_PACKAGE + cls, cls):
            alternatives.append(f'<xs:alternative test="@javaClass = \'{java}\'" type="{cls}"/>')
    parts.append(
        '<xs:element name="attachment">' + "".join(alternatives) + '<xs:alternative type="UnknownClass"/></xs:element>'
    )
    parts.append("</xs:schema>")
    return "\n".join(parts)


@functools.cache
def schema_text_cached(target: str) -> str:
    return schema_text(target)


@functools.cache
def strict_schema(target: str) -> xmlschema.XMLSchema11:
    import xmlschema  # slow to import; only needed when bytes are not known to pass

    return xmlschema.XMLSchema11(io.StringIO(schema_text(target)))


def _cache_marker(xml: bytes, target: str) -> Path:
    """A file whose existence records that these exact bytes passed the schema of `target`."""
    root = cache_dir("xsd-passed")
    digest = hashlib.sha256(schema_text_cached(target).encode() + b"\0" + xml).hexdigest()
    return root / digest


def check_xml_against_xsd(xml: bytes, display: str, target: str = "portable") -> list[Diagnostic]:
    """Every attachment whose options break the catalog-derived schema, at its line.

    Bytes that passed before pass again: a marker in the user's cache skips the (slow) XPath
    assertions on no-op rebuilds.
    """
    marker = _cache_marker(xml, target)
    if marker.exists():
        return []
    found = _xsd_problems(xml, display, target)
    if not found:
        try:
            marker.parent.mkdir(parents=True, exist_ok=True)
            marker.touch()
        except OSError:
            pass  # a read-only cache only costs time
    return found


def _xsd_problems(xml: bytes, display: str, target: str) -> list[Diagnostic]:
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    try:
        document = etree.parse(io.BytesIO(xml), parser)
    except etree.XMLSyntaxError:
        return []  # the DTD check reports malformed XML
    found = []
    for error in strict_schema(target).iter_errors(document):
        element: Any = error.elem  # an lxml element: the document was parsed with lxml
        option = element if element is not None and element.tag == "option" else None
        attachment = option.getparent() if option is not None else element
        line = getattr(option if option is not None else attachment, "sourceline", None) or 1
        what = "attachment"
        if attachment is not None and attachment.tag == "attachment":
            owner, java = attachment.get("attachTo"), attachment.get("javaClass")
            what = f"attachment '{attachment.get('name')}' on '{owner}' ({java})"
        if "false()" in str(getattr(error.validator, "path", "")):
            reason = "unknown attachment class"
        elif option is not None and (
            "castable" in str(getattr(error.validator, "path", ""))
            or "'true'" in str(getattr(error.validator, "path", ""))
        ):
            reason = f"option '{option.get('name')}' has a value of the wrong kind ('{option.get('value')}')"
        elif option is not None:
            reason = f"'{option.get('name')}' is not an option of this class"
        else:
            reason = str(error.reason or error.message)
        found.append(Diagnostic(f"XSD: {what}: {reason}", Mark(display, int(line), 1)))
    return found


def attachment_spans(xml: bytes) -> list[tuple[int, int]]:
    """(first line, last line) of every <attachment>, to relate other findings to it."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    try:
        root = etree.parse(io.BytesIO(xml), parser).getroot()
    except etree.XMLSyntaxError:
        return []
    spans = []
    for element in root.iter("attachment"):
        start = int(getattr(element, "sourceline", 0) or 0)
        following = element.getnext()
        end = int(getattr(following, "sourceline", 0) or 0) - 1 if following is not None else start + len(element) + 1
        spans.append((start, max(start, end)))
    return spans
