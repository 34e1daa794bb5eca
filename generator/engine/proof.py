"""Check a ledger's proofs against the real engine: dump facts, and the game a scenario runs on.

`check_facts` compares the facts a ledger entry claims (`proof: {dump: ...}`, see
generator/spec/model.py DumpFacts) with the engine's own dump of the built game
(generator/engine/java/GameDump.java) and words every difference.

A variant made for TripleA 2.x only cannot be loaded by the installed engine 1.9: `readable_by_19`
writes the same game without what only 2.x reads (its `<triplea minimumVersion>` and the options
1.9 has no setter for; EMPTY_ATTACHMENT is the DTD message an attachment left without options
makes). The rules that stand on those options are the ones the ledger grades
differently for 2.x, and are never counted as proven (generator/emit/coverage.py); everything else
of the game is what 1.9 reads, so its proofs are checked there. Submarines are the exception to
dropping: 2.x's split submarine options that amount to 1.9's `isSub` are read as `isSub`
(generator/engine/sub_options.py).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar

from lxml import etree

from generator.catalog import resolve_option
from generator.engine.sub_options import fold_sub_options
from generator.safe_xml import safe_parser
from generator.spec.kinds import KIND_OF_COLLECTION
from generator.spec.ledger import DumpFacts

__all__ = ["EMPTY_ATTACHMENT", "check_facts", "readable_by_19"]

EMPTY_ATTACHMENT = 'The content of element type "attachment" is incomplete'


JsonDict = dict[str, Any]
_MISSING = object()
_Claims = TypeVar("_Claims")
# The dump's collection of each spec collection whose facts are options of its main attachment.
_DUMPED = {
    "units": "unitTypes",
    "territories": "territories",
    "territory_effects": "territoryEffects",
    "technologies": "technologies",
    "relationship_types": "relationshipTypes",
}
_PLAYER_FIELDS = {"production_frontier": "productionFrontier", "resources": "resources", "alliances": "alliances"}


def readable_by_19(xml: bytes) -> bytes:
    """The game XML without what only engine 2.x reads: the version gate and 2.x-only options
    (submarine options that amount to `isSub` read as `isSub`)."""
    root = etree.fromstring(xml, safe_parser())
    fold_sub_options(root)
    for gate in root.findall("triplea"):
        root.remove(gate)
    for attachment in root.iter("attachment"):
        cls = (attachment.get("javaClass") or "").rsplit(".", 1)[-1]
        for option in attachment.findall("option"):
            if resolve_option("1.9", cls, option.get("name") or "") is None:
                attachment.remove(option)
        # An attachment left without options stays: 1.9 looks a territory effect's attachment up
        # by name. Its DTD prints that an attachment needs an option, and loads it all the same.
    tree = etree.ElementTree(root)
    doctype = '<!DOCTYPE game SYSTEM "game.dtd">'
    return bytes(etree.tostring(tree, xml_declaration=True, encoding="UTF-8", doctype=doctype))


def write_readable_by_19(game: Path, target: Path) -> Path:
    target.write_bytes(readable_by_19(game.read_bytes()))
    return target


def check_facts(facts: DumpFacts, dump: JsonDict) -> list[str]:
    """Every fact that the engine's dump contradicts, in words (empty: all hold)."""
    wrong: list[str] = []
    for collection, dumped in _DUMPED.items():
        entries = {name: _find(dump, dumped, name) for name in getattr(facts, collection)}
        for name, claims, found in _in_game(getattr(facts, collection), entries, collection, wrong):
            wrong += _object_facts(collection, name, claims, found)
    players = {p.get("name"): p for p in dump.get("players", [])}
    for name, claims, player in _in_game(facts.players, players, "player", wrong):
        wrong += _player_facts(name, claims, player)
    for name, rule, found in _in_game(
        facts.production_rules, dump.get("productionRules", {}), "production rule", wrong
    ):
        if rule.cost is not None:
            wrong += _compare(f"production rule '{name}' cost", found.get("costs"), rule.cost)
        if rule.result is not None:
            wrong += _compare(f"production rule '{name}' result", found.get("results"), rule.result)
    frontiers = dump.get("productionFrontiers", {})
    for name, rules, held in _in_game(facts.production_frontiers, frontiers, "production frontier", wrong):
        missing = [r for r in rules if r not in held]
        if missing:
            wrong.append(f"production frontier '{name}' lacks {', '.join(missing)}")
    for name, expected in facts.properties.items():
        actual = dump.get("properties", {}).get(name, _MISSING)
        wrong += _compare(f"property '{name}'", actual, expected)
    order = [step.get("name") for step in dump.get("sequence", [])]
    wrong += _step_order(facts.steps, order)
    steps = {step.get("name"): step for step in dump.get("sequence", [])}
    for name, claims, step in _in_game(facts.sequence, steps, "step", wrong):
        for key, expected in claims.items():
            wrong += _compare(f"step '{name}' {key}", step.get(key, _MISSING), expected)
    return wrong


def _in_game(
    wanted: Mapping[str, _Claims], found: Mapping[Any, Any], what: str, wrong: list[str]
) -> Iterator[tuple[str, _Claims, Any]]:
    """Each wanted name with its claims and what the dump holds of it; a name the dump lacks is
    said in `wrong` instead."""
    for name, claims in wanted.items():
        held = found.get(name)
        if held is None:
            wrong.append(f"{what} '{name}': not in the engine's game")
        else:
            yield name, claims, held


def _object_facts(collection: str, name: str, claims: dict[str, Any], found: JsonDict) -> list[str]:
    """The facts of one unit, territory, technology...: its options, owner, units, borders."""
    main = str(KIND_OF_COLLECTION[collection].main)
    wrong: list[str] = []
    for key, expected in claims.items():
        if key == "attachments":
            wrong += _attachments(f"{collection} '{name}'", found, expected)
        elif key == "owner":
            wrong += _compare(f"territory '{name}' owner", found.get(key, _MISSING), expected)
        elif key == "units":  # the counts named, of the owners named
            held = found.get("units", {})
            for owner, counts in expected.items():
                wrong += _compare(f"territory '{name}' units of {owner}", held.get(owner, {}), counts, subset=True)
        elif key == "connections":
            missing = [t for t in expected if t not in found.get("connections", [])]
            if missing:
                wrong.append(f"territory '{name}' does not border {', '.join(missing)} in the engine's game")
        else:
            wrong += _compare(f"{collection} '{name}' {main}.{key}", _option(found, main, key), expected)
    return wrong


def _player_facts(name: str, claims: dict[str, Any], player: JsonDict) -> list[str]:
    wrong: list[str] = []
    for key, expected in claims.items():
        if key == "attachments":
            wrong += _attachments(f"player '{name}'", player, expected)
        elif key == "tech_categories":  # each category named holds exactly these techs (engine names)
            held = {c.get("name"): c.get("techs") for c in player.get("techFrontiers", [])}
            wrong += _compare(f"player '{name}' tech categories", held, expected, subset=True)
        else:
            actual = player.get(_PLAYER_FIELDS[key], _MISSING)
            wrong += _compare(f"player '{name}' {key}", actual, expected, subset=key == "resources")
    return wrong


def _find(dump: JsonDict, collection: str, name: str) -> JsonDict | None:
    entries: JsonDict = dump.get(collection, {})
    if name in entries:
        return dict(entries[name])
    # A technology is dumped under the engine's name ("Jet Power"); its property is the spec's name.
    return next((dict(e) for e in entries.values() if isinstance(e, dict) and e.get("property") == name), None)


def _option(found: JsonDict, attachment: str, option: str) -> Any:
    options = found.get("attachments", {}).get(attachment, {}).get("options", {})
    return options.get(option, _MISSING)


def _attachments(subject: str, found: JsonDict, expected: dict[str, dict[str, Any]]) -> list[str]:
    wrong: list[str] = []
    held = found.get("attachments", {})
    for name, options in expected.items():
        if name not in held:
            wrong.append(f"{subject}: no attachment '{name}' in the engine's game")
            continue
        for option, value in options.items():
            actual = held[name].get("options", {}).get(option, _MISSING)
            wrong += _compare(f"{subject} {name}.{option}", actual, value)
    return wrong


def _compare(what: str, actual: Any, expected: Any, *, subset: bool = False) -> list[str]:
    if actual is _MISSING:
        return [f"{what}: the engine's dump has no such value"]
    if subset and isinstance(actual, dict) and isinstance(expected, dict):
        wrong: list[str] = []
        for key, value in expected.items():
            wrong += _compare(f"{what}.{key}", actual.get(key, _MISSING), value)
        return wrong
    if actual != expected:
        return [f"{what}: the engine reads {actual!r}, the proof claims {expected!r}"]
    return []


def _step_order(claimed: list[str], order: list[str]) -> list[str]:
    position = -1
    for step in claimed:
        if step not in order:
            return [f"step '{step}': not in the engine's sequence"]
        later = [i for i, name in enumerate(order) if name == step and i > position]
        if not later:
            return [f"steps: '{step}' does not come after the steps before it in the proof"]
        position = later[0]
    return []
