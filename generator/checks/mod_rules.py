"""The rules a variant writes, one entry a rule: what the gates check, `check` counts and `coverage` lists.

A rule is what a mod maker means as one: a pattern use (`free_units: {GermanBombers: ...}`), or an
attachment written by hand that acts on its own — a trigger, a national objective (a condition
with `objectiveValue`), a user action or a political action. A pattern use stands for every such
attachment it makes; a condition that only serves a trigger is part of that trigger, not a rule.
Each rule keeps the key path the spec writes it at, so every stage says it at the user's line.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from generator.spec.model import Spec
from generator.spec.patterns import PATTERNS
from generator.spec.patterns.expansion import Use

Path = tuple[str | int, ...]
RuleKind = Literal["trigger", "objective", "userAction", "politicalAction"]
Expectation = Literal["fires", "offered", "never"]

# The attachment classes that act on their own, by the kind of rule they are.
RULE_CLASSES: dict[str, RuleKind] = {
    "TriggerAttachment": "trigger",
    "RulesAttachment": "objective",  # only with an objectiveValue: otherwise a condition
    "UserActionAttachment": "userAction",
    "PoliticalActionAttachment": "politicalAction",
}
NOUNS: dict[RuleKind, str] = {
    "trigger": "trigger",
    "objective": "national objective",
    "userAction": "user action",
    "politicalAction": "political action",
}


@dataclass(frozen=True)
class RuleAttachment:
    """One attachment that acts on its own, as the engine knows it."""

    kind: RuleKind
    name: str  # the attachment's name: what the engine's history and delegates call it
    player: str  # the player it is attached to
    options: Mapping[str, object]
    path: Path  # ("players", player, "attachments", name)

    @property
    def label(self) -> str:
        return f"{NOUNS[self.kind]} {self.name}"


@dataclass(frozen=True)
class ModRule:
    """One rule of the spec: a pattern use or a hand-written attachment, and what acts for it."""

    label: str  # "free_units GermanBombers", "trigger triggerAttachmentUsBomber"
    path: Path  # where the spec writes it
    attachments: tuple[RuleAttachment, ...]
    expect: Expectation | None = None  # what the spec says the rule must do in play (`expect:`)

    @property
    def key(self) -> str:
        """The rule's name in reports: its key path in the spec."""
        return ".".join(str(p) for p in self.path)


def rule_kind(java_class: str | None, options: Mapping[str, object]) -> RuleKind | None:
    """The kind of rule an attachment of this class and options is, or None (it only serves others)."""
    short = (java_class or "").rsplit(".", 1)[-1]
    kind = RULE_CLASSES.get(short)
    if kind == "objective" and not _nonzero(options.get("objectiveValue")):
        return None
    return kind


def _nonzero(value: object) -> bool:
    if isinstance(value, bool) or value is None:
        return False
    if isinstance(value, int):
        return value != 0
    return str(value).strip() not in ("", "0")


def rule_attachments(spec: Spec) -> Iterator[RuleAttachment]:
    """Every attachment of the spec that acts on its own (all are players' attachments)."""
    for player, entry in spec.players.items():
        for name, attachment in entry.attachments.items():
            kind = rule_kind(attachment.java_class(name), attachment.options)
            if kind is not None:
                yield RuleAttachment(kind, name, player, attachment.options, ("players", player, "attachments", name))


def mod_rules(spec: Spec, made: Mapping[Path, Sequence[Use]]) -> list[ModRule]:
    """The spec's rules in spec order: its pattern uses, then the attachments written by hand.

    `made` says which pattern use made which entry (`Expansion.made`, or `made_by(spec)`); every
    attachment a use made counts for the use.
    """
    by_use: dict[Path, list[RuleAttachment]] = {}
    own: list[ModRule] = []
    for attachment in rule_attachments(spec):
        makers = _makers(attachment.path, made)
        if makers:
            for use in makers:
                by_use.setdefault((use.collection, use.name), []).append(attachment)
        else:
            written = spec.players[attachment.player].attachments[attachment.name]
            own.append(ModRule(attachment.label, attachment.path, (attachment,), _expectation(written)))
    uses: list[ModRule] = []
    for pattern in PATTERNS:
        for name, use in getattr(spec, pattern.collection, {}).items():
            path: Path = (pattern.collection, name)
            uses.append(ModRule(f"{pattern.collection} {name}", path, tuple(by_use.get(path, ())), _expectation(use)))
    return uses + own


def _makers(path: Path, made: Mapping[Path, Sequence[Use]]) -> list[Use]:
    for end in range(len(path), 0, -1):
        if path[:end] in made:
            return list(made[path[:end]])
    return []


def _expectation(entry: object) -> Expectation | None:
    value = getattr(entry, "expect", None)
    return value if value in ("fires", "offered", "never") else None
