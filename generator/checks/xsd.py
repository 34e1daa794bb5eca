"""A strict XML Schema (XSD 1.1) for game XML, generated from the option catalog of each engine.

The engine's DTD says which elements and attributes exist; it cannot say which options an
attachment class has or what their values look like. This schema adds exactly that: each
`<attachment>` gets the type of its javaClass (an XSD 1.1 type alternative), which allows only
that class's option names (first letter in either case, as both engines accept); each `<option>`
gets a type by its name (another alternative) that requires an integer / boolean value where the
option is an int / bool. An unknown class fails the one assertion. Everything else in the game is
left to the DTD and to the semantic checks.
"""

from __future__ import annotations

import functools
import hashlib
import io
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lxml import etree

from generator.catalog import load_catalog
from generator.diagnostics import Diagnostic, Mark
from generator.paths import cache_dir
from generator.safe_xml import safe_parser
from generator.spec.kinds import ATTACHMENT_PACKAGE
from generator.targets import TARGET_ENGINES, Target

if TYPE_CHECKING:
    import xmlschema


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


def catalog_options(target: Target) -> dict[str, dict[str, str]]:
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


# Value spellings both engines read as booleans.
BOOLEANS = ("true", "false", "True", "False", "TRUE", "FALSE")

_ATTACHMENT_ATTRIBUTES = (
    '<xs:attribute name="name" type="xs:string" use="required"/>'
    '<xs:attribute name="attachTo" type="xs:string" use="required"/>'
    '<xs:attribute name="javaClass" type="xs:string" use="required"/>'
    '<xs:attribute name="type" type="xs:string"/>'
    '<xs:attribute name="foreach" type="xs:string"/>'
)


def spellings(names: list[str]) -> list[str]:
    """Each option name with its first letter in either case, as both engines accept."""
    return [variant for n in names for variant in dict.fromkeys((n, n[:1].upper() + n[1:]))]


def _name_in(names: list[str]) -> str:
    """An XPath test that @name is one of `names`.

    One `contains` on a '|'-joined string: elementpath compares `@name = ('a', 'b', ...)` item by
    item, which made long lists the slowest part of a build. Option names never contain '|'.
    """
    joined = "|".join(spellings(names))
    return f"contains('|{joined}|', concat('|', @name, '|'))"


def _typed_alternatives(cls: str, options: dict[str, str]) -> str:
    """The type alternatives of a class's `<option>`: by name to its int or bool type, else "other".

    A name that is no option of the class also ends as "other", whose type reports just that.
    """
    tests = "".join(
        f'<xs:alternative test="{_name_in(names)}" type="{cls}.{kind}"/>'
        for kind in ("int", "bool")
        if (names := [n for n, k in options.items() if k == kind])
    )
    return tests + f'<xs:alternative type="{cls}.other"/>'


def _class_types(cls: str, options: dict[str, str]) -> str:
    """The types of one attachment class: its option names, and an option type per value kind.

    An option's type is chosen by a type alternative on its name, so the value of an int or bool
    option is checked as a simple type (whole number without `count`; a boolean spelling) instead
    of by an XPath assertion.
    """
    names = "".join(f'<xs:enumeration value="{n}"/>' for n in spellings(list(options)))
    name = f'<xs:attribute name="name" type="{cls}.names" use="required"/>'
    alternatives = _typed_alternatives(cls, options)
    return (
        f'<xs:simpleType name="{cls}.names"><xs:restriction base="xs:string">{names}'
        "</xs:restriction></xs:simpleType>"
        f'<xs:complexType name="{cls}.other">{name}'
        '<xs:attribute name="value" type="xs:string" use="required"/>'
        '<xs:attribute name="count" type="xs:string"/></xs:complexType>'
        f'<xs:complexType name="{cls}.int">{name}'
        '<xs:attribute name="value" type="xs:integer" use="required"/></xs:complexType>'
        f'<xs:complexType name="{cls}.bool">{name}'
        '<xs:attribute name="value" type="boolean" use="required"/>'
        '<xs:attribute name="count" type="xs:string"/></xs:complexType>'
        f'<xs:complexType name="{cls}"><xs:sequence>'
        f'<xs:element name="option" minOccurs="0" maxOccurs="unbounded">{alternatives}</xs:element>'
        f"</xs:sequence>{_ATTACHMENT_ATTRIBUTES}</xs:complexType>"
    )


@functools.cache
def schema_text(target: Target) -> str:
    classes = catalog_options(target)
    booleans = "".join(f'<xs:enumeration value="{b}"/>' for b in BOOLEANS)
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
        + _ATTACHMENT_ATTRIBUTES
        + '<xs:assert test="false()"/></xs:complexType>',
        f'<xs:simpleType name="boolean"><xs:restriction base="xs:string">{booleans}</xs:restriction></xs:simpleType>',
    ]
    parts += [_class_types(cls, options) for cls, options in classes.items()]
    alternatives = "".join(
        f"<xs:alternative test=\"@javaClass = ('{ATTACHMENT_PACKAGE + cls}', '{cls}')\" type=\"{cls}\"/>"
        for cls in classes
    )
    parts.append(f'<xs:element name="attachment">{alternatives}<xs:alternative type="UnknownClass"/></xs:element>')
    parts.append("</xs:schema>")
    return "\n".join(parts)


@functools.cache
def strict_schema(target: Target) -> xmlschema.XMLSchema11:
    import xmlschema  # slow to import; only needed when bytes are not known to pass

    return xmlschema.XMLSchema11(io.StringIO(schema_text(target)))


@functools.cache
def _checker_source() -> bytes:
    return Path(__file__).read_bytes()


def _cache_marker(xml: bytes, target: Target) -> Path:
    """A file whose existence records that these exact bytes passed the schema of `target`.

    The key holds this module's source too: a pass recorded by other checking code proves nothing.
    """
    root = cache_dir("xsd-passed")
    key = hashlib.sha256(_checker_source() + b"\0" + schema_text(target).encode() + b"\0" + xml)
    return root / key.hexdigest()


def check_xml_against_xsd(xml: bytes, display: str, target: Target = "portable") -> list[Diagnostic]:
    """Every attachment whose options break the catalog-derived schema, at its line.

    Bytes that passed before pass again: a marker in the user's cache spares a rebuild loading
    xmlschema and building the schema (~0.35 s).
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


# Attachment attributes whose values the schema leaves free (xs:string); only their presence counts.
_FREE_ATTRIBUTES = ("name", "attachTo")

Key = tuple[Any, ...]


@functools.cache
def _typed_names(target: Target) -> dict[str, frozenset[str]]:
    """javaClass (qualified and short) -> the option names whose value the schema types (int, bool)."""
    typed = {}
    for cls, options in catalog_options(target).items():
        names = frozenset(spellings([n for n, kind in options.items() if kind != "other"]))
        typed[cls] = typed[ATTACHMENT_PACKAGE + cls] = names
    return typed


def _option_keys(root: Any, target: Target) -> Iterator[tuple[Any, Key, Key | None]]:
    """(element, its digest key, the key of the digest element it goes under) in document order.

    Attachments go under the attachment list (None); options under the first attachment of their
    class. Options whose value the schema leaves free (xs:string: any option but an int or bool
    one, and all options of a class it skips) share a key whatever their value and count. An
    element other than an option gets an attachment of its own, so the content-model error it
    raises lands on a copy of its attachment and leaves the options of others alone.
    """
    typed = _typed_names(target)
    others = 0
    for attachment in root.iter("attachment"):
        yield (
            attachment,
            ("attachment", *((k, "" if k in _FREE_ATTRIBUTES else v) for k, v in attachment.items())),
            None,
        )
        java = attachment.get("javaClass")
        typed_here = typed.get(java or "", frozenset())
        for child in attachment:
            if child.tag == "option":
                items = child.items()
                if child.get("name") not in typed_here:
                    items = [(k, "" if k in ("value", "count") else v) for k, v in items]
                yield child, ("option", java, *items), ("class", java)
            elif isinstance(child.tag, str):  # not a comment
                others += 1
                yield attachment, ("wrapper", others), None
                yield child, ("element", others), ("wrapper", others)


def _digest(root: Any, target: Target) -> tuple[Any, dict[Any, Key]]:
    """A game holding each distinct attachment shape once and each distinct option of a class once.

    The schema judges an `<option>` by its own attributes and its attachment's type (chosen by
    javaClass), and an `<attachment>` by its attributes other than the free name and owner, so the
    digest draws the same findings as the whole document at a fraction of the XPath evaluations
    (TAW_Carthage: 4,250 options, 1,254 distinct). Each digest element maps to the key of the
    originals it stands for.
    """
    game = etree.Element("game")
    attachments = etree.SubElement(game, "attachmentList")
    made: dict[Key, Any] = {}
    current = attachments
    for element, key, parent in _option_keys(root, target):
        if parent is None:  # an attachment
            if key not in made:
                made[key] = etree.SubElement(attachments, "attachment", dict(element.items()))
            if key[0] == "attachment":
                current = made[key]
        elif key not in made:
            holder = made.setdefault(parent, current)  # a class's options: its first attachment
            made[key] = etree.SubElement(holder, element.tag, dict(element.items()))
    return game, {element: key for key, element in made.items() if key[0] != "class"}


def _xsd_problems(xml: bytes, display: str, target: Target) -> list[Diagnostic]:
    try:
        document = etree.parse(io.BytesIO(xml), safe_parser())
    except etree.XMLSyntaxError:
        return []  # the DTD check reports malformed XML
    digest, key_of = _digest(document.getroot(), target)
    errors: list[tuple[Key | None, Any]] = [
        (key_of.get(error.elem), error) for error in strict_schema(target).iter_errors(digest)
    ]
    if not errors:
        return []
    originals: dict[Key, list[Any]] = {}
    for element, key, _ in _option_keys(document.getroot(), target):
        originals.setdefault(key, []).append(element)
    found = []
    for found_at, error in errors:
        failed_type = str(getattr(getattr(error.validator, "parent", None), "name", ""))
        for element in originals.get(found_at, []) if found_at else [error.elem]:
            found.append(_finding(element, failed_type, error))
    return [Diagnostic(message, Mark(display, line, 1)) for line, message in sorted(set(found))]


def _finding(element: Any, failed_type: str, error: Any) -> tuple[int, str]:
    """(line, message) of one schema error at one original element."""
    option = element if element is not None and element.tag == "option" else None
    attachment = option.getparent() if option is not None else element
    line = getattr(option if option is not None else attachment, "sourceline", None) or 1
    what = "attachment"
    if attachment is not None and attachment.tag == "attachment":
        owner, java = attachment.get("attachTo"), attachment.get("javaClass")
        what = f"attachment '{attachment.get('name')}' on '{owner}' ({java})"
    if failed_type == "UnknownClass":
        reason = "unknown attachment class"
    elif option is not None and failed_type.endswith(".names"):
        reason = f"'{option.get('name')}' is not an option of this class"
    elif option is not None:
        reason = f"option '{option.get('name')}' has a value of the wrong kind ('{option.get('value')}')"
    else:
        reason = str(error.reason or error.message)
    return int(line), f"XSD: {what}: {reason}"


def attachment_spans(xml: bytes) -> list[tuple[int, int]]:
    """(first line, last line) of every <attachment>, to relate other findings to it."""
    try:
        root = etree.parse(io.BytesIO(xml), safe_parser()).getroot()
    except etree.XMLSyntaxError:
        return []
    spans = []
    for element in root.iter("attachment"):
        start = int(getattr(element, "sourceline", 0) or 0)
        following = element.getnext()
        end = int(getattr(following, "sourceline", 0) or 0) - 1 if following is not None else start + len(element) + 1
        spans.append((start, max(start, end)))
    return spans
