"""What a rule is worth: the variant played as is and, with the same seeds, with a rule's actions
forbidden to the AIs (restricted play), compared game by game.

A rule the AIs act on is one or more user or political actions. ``from_spec`` finds them in a
variant without a list written for it: every action attached to a player, grouped by the rule of
the ledger it implements. An action claims ledger entries (``ledger: [...]``); the entry it shares
with the fewest other actions is its own rule (RuWinter and RuSevereWinter claim aare-na-ru-1,
the Russian Winter; the declaration schedule aare-na-00 that thirty actions claim is not one
advantage), so the actions a pattern made for one rule (Mobile Industry in each of ten places) are
forbidden together. An action that claims no entry belongs to the rule pattern use that made it
(a national advantage of a variant without a ledger), else it is a rule of its own.

Each rule's worth is taken for the side that holds it (the alliance of the players its actions
are attached to; the first side where they are on both), as is minus without, on the pairs of
games with the same seed: the side's score (1 for a win, 0 for a loss, else its share of all unit
value on the board), its win rate (Newcombe's paired interval), its victory cities and its total
unit value after the last round (at the baseline's prices; paired t intervals).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from generator.balance.multiple import benjamini_hochberg
from generator.balance.records import Record
from generator.balance.stats import Interval, mean_interval, paired, paired_rates
from generator.balance.summary import Prices, cut_short, paired_scores, priced
from generator.spec.model import Spec
from generator.spec.patterns.expansion import made_by

PREFIXES = ("userActionAttachment", "politicalActionAttachment")


@dataclass(frozen=True)
class RuleActions:
    """A rule the AIs act on: its name and the actions (without their prefix) that make it."""

    label: str  # "Russian Winter (aare-na-ru-1)", or the action's own name
    actions: tuple[str, ...]
    players: tuple[str, ...]  # who holds them

    def shown_actions(self, most: int = 3) -> str:
        """'RuWinter, RuSevereWinter' or 'RuMobileIndustry and 10 more' (shortest name first)."""
        names = sorted(self.actions, key=lambda a: (len(a), a))
        if len(names) <= most:
            return ", ".join(names)
        return f"{names[0]} and {len(names) - 1} more"


def short_name(attachment: str) -> str | None:
    """'RuWinter' for userActionAttachmentRuWinter; None for an attachment that is no action."""
    for prefix in PREFIXES:
        if attachment.startswith(prefix) and len(attachment) > len(prefix):
            return attachment[len(prefix) :]
    return None


def held_actions(spec: Spec) -> dict[str, list[str]]:
    """Every user or political action of the spec: its name -> the players it is attached to."""
    held: dict[str, list[str]] = {}
    for player, entry in spec.players.items():
        for attachment in entry.attachments:
            name = short_name(attachment)
            if name is not None:
                held.setdefault(name, []).append(player)
    return held


def from_spec(spec: Spec) -> list[RuleActions]:
    """The rules made of actions, in the order the spec lists their first action."""
    held = held_actions(spec)
    claims: dict[str, list[str]] = {name: [] for name in held}
    for entry in spec.players.values():
        for attachment, options in entry.attachments.items():
            name = short_name(attachment)
            if name is not None:
                claims[name] += [c for c in options.ledger if c not in claims[name]]
    claimed_by = Counter(claim for found in claims.values() for claim in found)
    makers = {path[-1]: uses[0] for path, uses in made_by(spec).items() if len(path) == 4 and path[2] == "attachments"}
    groups: dict[tuple[str, str], list[str]] = {}
    for name, found in claims.items():
        maker = next((makers[p + name] for p in PREFIXES if p + name in makers), None)
        if found:  # min keeps the first of equals: an action's own rule is listed before what it shares
            key = ("ledger", min(found, key=lambda c: claimed_by[c]))
        elif maker is not None:
            key = ("pattern", f"{maker.name} ({maker.noun})")
        else:
            key = ("action", name)
        groups.setdefault(key, []).append(name)
    out = []
    for (kind, claim), names in groups.items():
        label = _ledger_label(spec, claim) if kind == "ledger" else claim
        players = tuple(dict.fromkeys(p for name in names for p in held[name]))
        out.append(RuleActions(label, tuple(names), players))
    return out


def _ledger_label(spec: Spec, entry_id: str) -> str:
    """'Russian Winter (aare-na-ru-1)': the title its source gives ('003 §2.3.1.1 Russian Winter')."""
    entry = spec.rule_ledger.get(entry_id)
    if entry is None or "§" not in entry.source:
        return entry_id
    title = re.sub(r"^[\d.]+\s*", "", entry.source.split("§", 1)[1].split(";")[0].strip())
    return f"{title} ({entry_id})" if title else entry_id


def from_xml(path: Path) -> dict[str, list[str]]:
    """Every user or political action of a built game: its name -> the players it is attached to."""
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    held: dict[str, list[str]] = {}
    for attachment in etree.parse(str(path), parser).iter("attachment"):
        name = short_name(attachment.get("name", ""))
        if name is not None:
            held.setdefault(name, []).append(attachment.get("attachTo", ""))
    return held


@dataclass(frozen=True)
class Worth:
    """What a rule gives the side that holds it: as is - without, paired by seed."""

    arm: str  # the restricted games' name in the records
    rule: RuleActions
    side: str
    pairs: int
    score: Interval
    win: Interval
    vcs: Interval
    tuv: Interval
    q: float | None = None  # the score's p-value after Benjamini-Hochberg over the ranking (ranked)


def holder_side(rule: RuleActions, sides: Mapping[str, str]) -> str:
    """The side of the players that hold the rule; the first side when they are on several."""
    found = sorted({sides[p] for p in rule.players if p in sides})
    return found[0] if len(found) == 1 else (sorted(set(sides.values())) or ["-"])[0]


def side_total(record: Record, side: str, figure: str, price_list: Prices) -> float | None:
    """The side's victory cities or TUV (at `price_list`) after the last round played."""
    if not record["perRound"]:
        return None
    own = record.get("unitCosts", {})
    total = 0.0
    for nation, figures in record["perRound"][-1]["players"].items():
        if record["sides"].get(nation, nation) == side:
            total += priced(nation, figures, price_list or own, own) if figure == "tuv" else float(figures[figure])
    return total


def worth(
    arm: str, rule: RuleActions, base: Sequence[Record], restricted: Sequence[Record], price_list: Prices
) -> Worth:
    """The rule's worth to its side over the seeds both arms played."""
    sides = {p: s for r in base for p, s in r["sides"].items()}
    side = holder_side(rule, sides)
    # Every game played to its end or its last round; a game cut short by an engine error is in none.
    as_is = {r["seed"]: r for r in base if r["perRound"] and not cut_short(r)}
    without = {r["seed"]: r for r in restricted if r["perRound"] and not cut_short(r)}
    seeds = sorted(as_is.keys() & without.keys())

    def won(record: Record) -> bool:
        return bool(record["gameOver"]) and record["winningSide"] == side

    def totals(figure: str) -> tuple[list[float], list[float]]:
        pairs = [(side_total(without[s], side, figure, price_list), side_total(as_is[s], side, figure, price_list))
                 for s in seeds]  # fmt: skip
        return [a or 0.0 for a, _ in pairs], [b or 0.0 for _, b in pairs]

    return Worth(
        arm,
        rule,
        side,
        len(seeds),
        mean_interval(paired_scores(restricted, base, side, price_list)),
        paired_rates([won(without[s]) for s in seeds], [won(as_is[s]) for s in seeds]),
        paired(*totals("victoryCities")),
        paired(*totals("tuv")),
    )


def ranked(worths: Sequence[Worth]) -> list[Worth]:
    """Most worth first (by the score); a rule with too few games to say last. Each with its score's
    p-value adjusted over the ranking (Benjamini-Hochberg: a ranking is read for the rules that
    matter, so the share of false finds among those marked is what is held at 5 %)."""
    order = sorted(
        worths, key=lambda w: (math.isnan(w.score.value), 0.0 if math.isnan(w.score.value) else -w.score.value)
    )
    tested = [None if math.isinf(w.score.half_width) or math.isnan(w.score.p) else w.score.p for w in order]
    return [replace(w, q=q) for w, q in zip(order, benjamini_hochberg(tested), strict=True)]
