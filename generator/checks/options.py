"""Check every attachment option of a spec against the engines' option catalogs.

Each `<option>` the spec would write is checked with the catalog of every target engine: the name
must exist (with a hint when it is misspelt, or when only the other engine has it), and the value
must parse as that engine's setter parses it, with references (units, territories, players,
conditions...) resolved against the names the spec defines.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Iterator, Mapping

from generator.catalog import check_value, load_catalog, resolve_option
from generator.checks.context import CheckContext, SpecTree
from generator.checks.in_play import fails_in_play
from generator.diagnostics import Diagnostic, did_you_mean
from generator.spec.kinds import KINDS
from generator.spec.model import Attachment, Spec
from generator.spec.option_values import option_writes, xml_value
from generator.targets import ENGINES, TARGET_ENGINES, EngineName, Target

Path = tuple[str | int, ...]


Found = tuple[Path, str, str, Mapping[str, object]]  # see attachments_of
# Each spec's attachments, made once: nearly every check reads them, several many times (the
# in-play rules once per rule), which made them a tenth of a cold build. A Spec is frozen and its
# collections are never changed once validated; the entry goes with the Spec (whose id is not
# reused before).
_ATTACHMENTS: dict[int, tuple[Found, ...]] = {}


def attachments_of(spec: Spec) -> Iterator[Found]:
    """(key path of the options, attachment class, XML type, options) for every attachment.

    The options are the spec's own, shared by every caller: read them, never change them."""
    key = id(spec)
    found = _ATTACHMENTS.get(key)
    if found is None:
        found = _ATTACHMENTS[key] = tuple(_attachments(spec))
        weakref.finalize(spec, _ATTACHMENTS.pop, key, None)
    return iter(found)


def _attachments(spec: Spec) -> Iterator[Found]:
    for kind in KINDS:
        for owner, entry in kind.entries(spec).items():
            options = getattr(entry, "options", {})
            if kind.main_class is not None and options:
                yield (kind.collection, owner), kind.main_class, kind.type, options
            attachments: dict[str, Attachment] = getattr(entry, "attachments", {})
            for name, attachment in attachments.items():
                java = attachment.java_class(name)
                if java is not None:
                    path = (kind.collection, owner, "attachments", name)
                    yield path, java.rsplit(".", 1)[-1], kind.type, attachment.options


def reference_names(spec: Spec) -> dict[str, set[str]]:
    """The names each kind of reference may point at, as the spec defines them."""
    names: dict[str, set[str]] = {
        "unit": set(spec.units),
        "territory": set(spec.territories),
        "player": set(spec.players),
        "resource": set(spec.resources),
        "tech": set(spec.technologies or {}),
        "relationshipType": set(spec.relationship_types),
        "territoryEffect": set(spec.territory_effects),
        "productionFrontier": set(spec.production_frontiers),
        "productionRule": set(spec.production_rules),
    }
    by_class = {
        "RulesAttachment": "condition",
        "TriggerAttachment": "trigger",
        "UnitSupportAttachment": "unitSupport",
        "PoliticalActionAttachment": "politicalAction",
        "UserActionAttachment": "userAction",
    }
    for kind in by_class.values():
        names[kind] = set()
    for path, cls, _, _ in attachments_of(spec):
        if cls in by_class and path[-2:-1] == ("attachments",):
            names[by_class[cls]].add(str(path[-1]))
    # Both engines turn `artillery` and `artillerySupportable` into support attachments of their
    # own when a game starts ("supportAttachmentArtyOld<unit>", "...ArtyOldTempFirst<unit>"), and
    # real games' triggers name them (to add or remove players).
    for unit_name, unit in spec.units.items():
        for flag, infix in (("artillery", ""), ("artillerySupportable", "TempFirst")):
            if str(unit.options.get(flag, "")).lower() == "true":
                names["unitSupport"].add(f"supportAttachmentArtyOld{infix}{unit_name}")
    # Conditions may be named by any rules-like attachment (triggers can be conditions too).
    names["condition"] |= names["trigger"] | names["politicalAction"] | names["userAction"]
    if spec.technologies is None:  # the engine's built-in advances
        names["tech"] |= {"heavyBomber", "jetPower", "industrialTechnology", "superSub", "rocket", "longRangeAir"}
    return names


def check_options(spec: Spec, tree: SpecTree, target: Target) -> list[Diagnostic]:
    """`check` for a spec checked outside a variant (a game XML: importer.validate)."""
    return check(CheckContext(spec, tree, target))


def check(ctx: CheckContext) -> list[Diagnostic]:
    """Every unknown option and badly typed value, for each target engine."""
    spec, engines = ctx.spec, TARGET_ENGINES[ctx.target]
    names = reference_names(spec)
    found: list[Diagnostic] = []
    memo = _memo_for(names)
    for path, cls, _, options in attachments_of(spec):
        for option, raw in options.items():
            for message, inside, refusing in _option_problems(engines, cls, option, raw, names, memo):
                # a property change's value is only checked in play (checks/in_play.py)
                message = fails_in_play(refusing, cls, option, str(path[-1]), message) or message
                where = (*path, option, *inside)
                found.append(ctx.at.problem(where, message, key=not inside))
    return found


Memo = dict[tuple[str, str, str, str, str | None], str | None]
# Verdicts on option values, kept while the names a value may refer to stay the same: a rebuild of
# the same game (the watch loop, several variants sharing a parent) checks only what is new.
_MEMOS: dict[int, Memo] = {}


def _memo_for(names: dict[str, set[str]]) -> Memo:
    key = hash(tuple(sorted((kind, frozenset(known)) for kind, known in names.items())))
    if key not in _MEMOS:
        if len(_MEMOS) >= 4:
            _MEMOS.pop(next(iter(_MEMOS)))
        _MEMOS[key] = {}
    return _MEMOS[key]


def engine_meant(spec: Spec, tree: SpecTree) -> Target | None:
    """The one engine a game can only be meant for: its options all work in it and not in the other.

    A game that uses options (or option values) only engine 1.9 knows cannot be meant for 2.x,
    and the other way round; such a game is checked for its engine alone, not refused as not
    portable. None when both engines take it, or neither does (the options are then wrong).
    """
    if spec.game.target in ("1.9", "2.x"):
        return spec.game.target
    if spec.game.minimum_version and spec.game.minimum_version.split(".")[0] not in ("0", "1"):
        return "2.x"  # engine 1.9 refuses it by its <triplea minimumVersion>
    works = {engine: not check_options(spec, tree, engine) for engine in ENGINES}
    if works["1.9"] != works["2.x"]:
        return "1.9" if works["1.9"] else "2.x"
    return None


def _option_problems(
    engines: tuple[EngineName, ...], cls: str, option: str, raw: object, names: dict[str, set[str]], memo: Memo
) -> list[tuple[str, tuple[int | str, ...], tuple[str, ...]]]:
    """What is wrong with one option, each with where inside its value (its key path below the
    option) and the engines it is wrong for: the option's name, or its value (each item of a
    repeated option is a mistake of its own)."""
    writes = option_writes(raw)
    if writes is None:
        return []  # the shape check in validate reports it
    missing = [e for e in engines if resolve_option(e, cls, option) is None]
    if missing:
        others = [e for e in ENGINES if e not in missing and resolve_option(e, cls, option) is not None]
        if others and len(engines) > 1:
            said = (
                f"option '{option}' of {cls} exists only in engine {others[0]}, not in {missing[0]} "
                f"(the portable target needs both; use --target {others[0]})"
            )
        elif others:
            said = f"option '{option}' of {cls} exists only in engine {others[0]} (the target is {missing[0]})"
        else:
            known = load_catalog(missing[0])["attachments"].get(cls, {}).get("options", {})
            said = f"unknown option '{option}' for {cls}{did_you_mean(option, known)}"
        return [(said, (), tuple(missing))]
    # As option_writes reads it: a list of lists (or of mappings) is the option repeated.
    items = raw if isinstance(raw, list) and raw and all(isinstance(v, list | dict) for v in raw) else None
    found: list[tuple[str, tuple[int | str, ...], tuple[str, ...]]] = []
    for index, (value, count) in enumerate(writes):
        errors: dict[str, str] = {}
        for engine in engines:
            key = (engine, cls, option, value, count)
            if key not in memo:  # big maps repeat the same values thousands of times
                memo[key] = check_value(engine, cls, option, value, count=count, names=names)
            if (refused := memo[key]) is not None:
                errors[engine] = refused
        if errors:  # said in the words of the first engine that refuses it
            error = next(iter(errors.values()))
            item, at = (items[index], (index,)) if items is not None else (raw, ())
            message, inside = _placed(_reworded(error, names), item, at)
            found.append((message, inside, tuple(errors)))
    return found


_FIELD = re.compile(r"(field|item) (\d+)(?: ('[^']*'))?: ")


def _placed(message: str, item: object, inside: tuple[int | str, ...]) -> tuple[str, tuple[int | str, ...]]:
    """The message said at the list element it is about, when the value is a YAML list whose
    elements are its ':'-separated fields one for one: `[Rusia, infantry]` is said at `Rusia`, with
    no 'field 1' (the place says it), as the same slip after a count is."""
    field = _FIELD.match(message)
    skipped = 0  # `{value: [...], count: N}`: the count is written first, as the value's first field
    if isinstance(item, dict) and isinstance(item.get("value"), list):
        skipped = 0 if item.get("count") is None else 1
        item, inside = item["value"], (*inside, "value")
    if field is None or not isinstance(item, list) or not all(isinstance(v, bool | int | float | str) for v in item):
        return message, inside
    texts = [xml_value(v) for v in item]
    at = int(field.group(2)) - 1 - skipped
    if any(":" in text for text in texts) or not 0 <= at < len(texts):
        return message, inside
    if field.group(3) is not None and field.group(3) != repr(texts[at]):
        return message, inside  # fields of another separator: not the list's elements
    return message[field.end() :], (*inside, at)


_UNKNOWN = re.compile(r"unknown (\w+) '([^']*)'")
_SIMPLE_SYNTAX = {"int", "bool", "string", "<player>", "<unit>", "<territory>", "<resource>"}


def _reworded(error: str, names: dict[str, set[str]]) -> str:
    """The catalog's message without what the location already says, plus a 'did you mean'."""
    _, _, tail = error.partition(": ")
    message, _, detail = tail.rpartition(" (value ")
    if not message:
        message = tail
    syntax = detail.rpartition("syntax ")[2].removesuffix(")") if detail else ""
    unknown = _UNKNOWN.search(message)
    if unknown and unknown.group(1) in names:
        # A name not known is one mistake wherever it stands: said alike in any option, without
        # the option's syntax (the value has its shape; only the name is wrong).
        return message + did_you_mean(unknown.group(2), names[unknown.group(1)])
    if syntax and syntax not in _SIMPLE_SYNTAX:
        message += f" (syntax: {syntax})"
    return message
