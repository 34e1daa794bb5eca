"""What engine 1.9 loads and then fails on while the game is played, found in the spec.

An `in_play` entry of `generator/catalog/engine-checks-1.9.json` is an exception the engine raises
only when something happens in play: a trigger fires, a condition is tested, a step runs, a move
is checked. The parser does not look (a trigger's `playerProperty` may name an attachment no player
has, a canal may be on one sea zone), so the game loads and breaks at that moment. Each finder
here answers the entries whose message holds its words (`IN_PLAY_CHECKS`, as parser_rules'), and
yields the key path to blame, what is wrong there, and what sets the failure off; engine_rules
says it as "TripleA 1.9 loads the game and fails when …" with the engine's message. Each entry's
`probeSpecs` are games the real engine loads and fails with that message (tests/checks/test_in_play.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping

from generator.checks.engine_reading import game_properties
from generator.checks.options import attachments_of
from generator.checks.parser_rules import EngineFacts, canal_carriers
from generator.spec.kinds import KIND_OF_TYPE
from generator.spec.model import Spec

Path = tuple[str | int, ...]
Found = Iterator[tuple[Path, str, str]]  # (where, what is wrong, when the engine fails)
_JAVA_INT = re.compile(r"[+-]?[0-9]+")
# RulesAttachment's territory lists, which a condition reads when it is tested.
_TERRITORY_LISTS = (
    "alliedOwnershipTerritories", "directOwnershipTerritories", "alliedExclusionTerritories",
    "directExclusionTerritories", "enemyExclusionTerritories", "enemySurfaceExclusionTerritories",
    "directPresenceTerritories", "alliedPresenceTerritories", "enemyPresenceTerritories",
)  # fmt: skip
_CLEAR = ("-clear-", "-reset-")


def _texts(options: Mapping[str, object], option: str) -> list[str]:
    """Every text an option writes (`count:value` when a count is given), as the setter gets it."""
    from generator.spec.option_values import option_writes

    writes = option_writes(options[option]) if option in options else None
    return [f"{count}:{value}" if count else value for value, count in writes or []]


def _attachment_names(spec: Spec) -> dict[tuple[str, str], set[str]]:
    """(collection, owner) -> the names of the attachments the built game gives it."""
    names: dict[tuple[str, str], set[str]] = {}
    for path, _, kind, _ in attachments_of(spec):
        owner = (str(path[0]), str(path[1]))
        main = KIND_OF_TYPE[kind].main
        names.setdefault(owner, set()).add(str(path[3]) if len(path) > 2 else str(main))
    return names


def _triggers(spec: Spec) -> Iterator[tuple[Path, str, Mapping[str, object]]]:
    """(key path, name, options) of every trigger."""
    for path, cls, _, options in attachments_of(spec):
        if cls == "TriggerAttachment" and len(path) == 4:
            yield path, str(path[3]), options


def _players_of(path: Path, options: Mapping[str, object]) -> list[str]:
    """A trigger's `players`, else the player it is attached to (AbstractTriggerAttachment.getPlayers)."""
    listed = [p for text in _texts(options, "players") for p in text.split(":") if p]
    return listed or ([str(path[1])] if path[0] == "players" else [])


def _named(options: Mapping[str, object], option: str, default: tuple[str, str]) -> tuple[str, str]:
    """`playerAttachmentName` / `territoryAttachmentName` as (attachment, class); the engine's default."""
    texts = _texts(options, option)
    parts = texts[-1].split(":") if texts else []
    return (parts[0], parts[1]) if len(parts) == 2 else default


def _lone_count_lists(spec: Spec, _data: EngineFacts) -> Found:
    # Alone, a count (or `each`) passes the setter's check, which skips the first item when it is a
    # number; tested, the list is read as a group name ("controlled", "original"...) or one territory.
    for path, cls, _, options in attachments_of(spec):
        if cls != "RulesAttachment" or len(path) != 4:
            continue
        for option in _TERRITORY_LISTS:
            texts = _texts(options, option)
            items = texts[-1].split(":") if texts else []
            lone = items[0] if len(items) == 1 else None
            if lone is None or lone in spec.territories or not (_JAVA_INT.fullmatch(lone) or lone == "each"):
                continue
            says = (
                f"'{lone}' alone names no territory: after a count or each, list the territories (or a group: "
                "controlled, original, all...)"
            )
            yield (*path, option), says, f"{path[3]} is tested"


def _missing_player_attachments(wanted: str) -> Callable[[Spec, EngineFacts], Found]:
    # The engine looks the named attachment up on each player the trigger changes: a PlayerAttachment
    # always as "playerAttachment", the others by the name given; a TechAttachment only by its own.
    def find(spec: Spec, _: EngineFacts) -> Found:
        names = _attachment_names(spec)
        for path, trigger, options in _triggers(spec):
            if "playerProperty" not in options:
                continue
            attachment, cls = _named(options, "playerAttachmentName", ("playerAttachment", "PlayerAttachment"))
            if cls != wanted:
                continue
            blamed = (*path, "playerAttachmentName" if "playerAttachmentName" in options else "playerProperty")
            if cls == "TechAttachment":
                if attachment != "techAttachment":
                    says = f"{attachment}: the engine changes a player's TechAttachment only by the name techAttachment"
                    yield blamed, says, f"{trigger} fires"
                continue
            looked_up = "playerAttachment" if cls == "PlayerAttachment" else attachment
            for player in _players_of(path, options):
                if player in spec.players and looked_up not in names.get(("players", player), set()):
                    says = f"{player} has no {looked_up} for the playerProperty change to act on"
                    yield blamed, says, f"{trigger} fires"

    return find


def _missing_territory_attachments(sea: bool) -> Callable[[Spec, EngineFacts], Found]:
    # Land and sea zones fail in two places: TerritoryAttachment.get refuses a land territory
    # without it; for a sea zone it gives nothing, and the trigger then throws.
    def find(spec: Spec, _: EngineFacts) -> Found:
        names = _attachment_names(spec)
        for path, trigger, options in _triggers(spec):
            if "territoryProperty" not in options:
                continue
            default = ("territoryAttachment", "TerritoryAttachment")
            attachment, cls = _named(options, "territoryAttachmentName", default)
            if cls != "TerritoryAttachment":
                continue
            listed = [t for text in _texts(options, "territories") for t in text.split(":") if t]
            for territory in dict.fromkeys(listed):
                entry = spec.territories.get(territory)
                if entry is None or entry.sea != sea or attachment in names.get(("territories", territory), set()):
                    continue
                blamed = "territoryAttachmentName" if "territoryAttachmentName" in options else "territories"
                says = f"{territory} has no {attachment} for the territoryProperty change to act on"
                yield (*path, blamed), says, f"{trigger} fires"

    return find


def _unknown_tech_categories(spec: Spec, _: EngineFacts) -> Found:
    for path, trigger, options in _triggers(spec):
        categories = dict.fromkeys(text.split(":")[0] for text in _texts(options, "availableTech"))
        for player in _players_of(path, options):
            entry = spec.players.get(player)
            if entry is None:
                continue
            for category in categories:
                if category not in entry.tech_categories:
                    says = f"{player} has no tech category {category} (its tech_categories) to make techs available in"
                    yield (*path, "availableTech"), says, f"{trigger} fires"


def _reset_support(option: str) -> Callable[[Spec, EngineFacts], Found]:
    # A property change with a clear prefix resets the option first; these three resetters throw.
    def find(spec: Spec, _data: EngineFacts) -> Found:
        for path, trigger, options in _triggers(spec):
            for text in _texts(options, "unitProperty"):
                value, _, name = text.rpartition(":")
                if name.lower() == option.lower() and value.startswith(_CLEAR):
                    says = f"{option} cannot be reset (a -clear- or -reset- change): change unit supports instead"
                    yield (*path, "unitProperty"), says, f"{trigger} fires"

    return find


def _canals(spec: Spec, _: EngineFacts) -> Found:
    # 1.9 counts the sea zones of a canal only when it checks a route through one of them.
    for canal, places in canal_carriers(spec).items():
        if len(places) != 2:
            zones = ", ".join(str(place[1]) for place in places)
            says = f"canal '{canal}' is on {len(places)} territor{'y' if len(places) == 1 else 'ies'}: a canal joins "
            says += "exactly two sea zones"
            when = f"a route through {zones} is checked (a move there, or the AI planning one)"
            yield from ((place, says, when) for place in places)


def _without_capital(spec: Spec, facts: EngineFacts) -> Found:
    # Purchase (when the player can buy), research (with Tech Development) and the end of a turn
    # ask whether the player holds enough capitals; an optional player without one is let off.

    capitals = {c for t in spec.territories.values() if isinstance(c := t.options.get("capital"), str)}
    if capitals - set(spec.players):
        return  # a capital naming no player: setCapital refuses the game when it loads, which is the mistake
    for _, _, options in _triggers(spec):  # a trigger may make one in play
        changes = [text.rpartition(":") for text in _texts(options, "territoryProperty")]
        capitals |= {value for value, _, option in changes if option == "capital"}
    researching = game_properties(spec, facts.engine).get("Tech Development") is True
    for name, player in spec.players.items():
        if name in capitals or player.optional:
            continue
        step = next((s for s in spec.ordered_steps() if _asks_capital(spec, s, name, researching)), None)
        if step is not None:
            says = f"no territory is the capital of {name} (capital: {name}) and {name} is not optional"
            yield ("players", name), says, f"{step} runs"


def _asks_capital(spec: Spec, step_name: str, player: str, researching: bool) -> bool:
    step = spec.sequence[step_name]
    delegate = spec.delegates.get(step.delegate)
    if step.player != player or delegate is None:
        return False
    java = delegate.java_class.rsplit(".", 1)[-1]
    if java == "PurchaseDelegate":  # only when something is affordable (PurchaseDelegate.canWePurchaseOrRepair)
        entry = spec.players[player]
        frontiers = [spec.production_frontiers.get(entry.production_frontier or "", [])]
        frontiers.append(spec.repair_frontiers.get(entry.repair_frontier or "", []))
        rules = {**spec.production_rules, **spec.repair_rules}
        costs = [rules[r].cost for rules_of in frontiers for r in rules_of if r in rules]
        return any(all(entry.resources.get(k, 0) >= v for k, v in cost.items()) for cost in costs)
    if java == "TechnologyDelegate":
        return researching
    return java in ("EndTurnDelegate", "NoPUEndTurnDelegate")


# Words of the engine's message (after "Class: " where two classes say the same) -> what in the spec sets it off.
IN_PLAY_CHECKS: dict[str, Callable[[Spec, EngineFacts], Found]] = {
    "AbstractRulesAttachment: No territory called": _lone_count_lists,
    "No player attachment for": _missing_player_attachments("PlayerAttachment"),
    "RulesAttachment: No rule attachment for:{} with name": _missing_player_attachments("RulesAttachment"),
    "TriggerAttachment: No trigger attachment for": _missing_player_attachments("TriggerAttachment"),
    "PoliticalActionAttachment: No attachment for": _missing_player_attachments("PoliticalActionAttachment"),
    "TechAttachment may not yet get attachments": _missing_player_attachments("TechAttachment"),
    "TerritoryAttachment: No territory attachment for:{} with name": _missing_territory_attachments(sea=False),
    "TriggerAttachment: No territory attachment for": _missing_territory_attachments(sea=True),
    "tech category doesn't exist": _unknown_tech_categories,
    "Resetting Artillery (UnitAttachment)": _reset_support("artillery"),
    "Resetting Artillery Supportable": _reset_support("artillerySupportable"),
    "Resetting Artillery Support Count": _reset_support("unitSupportCount"),
    "CanalAttachment: Wrong number of sea zones": _canals,
    "Capital not found for": _without_capital,
}
