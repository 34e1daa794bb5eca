"""What makes a written rule inert in each engine: the gates catalog (``gates-<engine>.json``).

Taken from the engines' code by ``scripts/catalog/extract_gates.py`` (1.9 from the jar's bytecode,
2.x from its source; see README.md): for each kind of rule (national objective, user action,
political action, trigger with `when`, and each kind of trigger without one) the steps (delegates)
that apply it, whose rules those steps look at (the step's player's, or every player's), the game
properties that must be on, and the option values that make a rule unusable.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from generator.targets import EngineName

HERE = Path(__file__).resolve().parent
DELEGATE_PACKAGE = "games.strategy.triplea.delegate."
COMBAT_MOVE = "GameStepPropertiesHelper.isCombatMove"  # a `requires` condition the spec can decide


@dataclass(frozen=True)
class Applied:
    """Where and on what terms the engine applies one kind of rule."""

    steps: frozenset[str]  # delegate classes (short in the engine's package) whose steps apply it
    any_player: bool  # every player's rules, not only the step's player's
    properties: tuple[str, ...]  # game properties that must be on
    combat_move: bool  # only at a combat move step
    phase: str  # when, in words
    name_prefix: str = ""  # the engine finds rules of this kind by the start of their name
    options: frozenset[str] = frozenset()  # for a kind of trigger: the options that make a trigger one

    def runs_in(self, delegate_class: str) -> bool:
        return delegate_class.removeprefix(DELEGATE_PACKAGE) in self.steps


@dataclass(frozen=True)
class Never:
    """An option value that makes a rule of a class unusable, unless one of `unless` is given."""

    java_class: str
    option: str
    value: Any
    pattern: re.Pattern[str] | None
    unless: tuple[str, ...]
    why: str

    def holds(self, written: Any) -> bool:
        if written is None:
            return False
        text = str(written).strip()
        if self.pattern is not None:
            return bool(self.pattern.fullmatch(text))
        return text.lower() == str(self.value).lower()


@dataclass(frozen=True)
class Gates:
    """One engine's gates."""

    engine: EngineName
    source: str
    rules: dict[str, Applied]  # objective, userAction, politicalAction
    with_when: Applied  # a trigger with `when`
    trigger_kinds: tuple[Applied, ...]  # a trigger without `when`, by what it does
    activated_by: frozenset[str]  # options that fire a named trigger whatever its own gates
    never: tuple[Never, ...]
    properties: dict[str, dict[str, Any]]  # the gating properties, as the catalog says them (for the docs)


def _applied(raw: dict[str, Any], **extra: Any) -> Applied:
    requires = raw.get("requires", [])
    return Applied(
        steps=frozenset(raw.get("stepDelegates", ())),
        any_player=raw.get("player") == "any",
        properties=tuple(r["property"] for r in requires if "property" in r and r.get("is", True)),
        combat_move=any(r.get("condition") == COMBAT_MOVE for r in requires),
        phase=str(raw.get("phase", "")),
        **extra,
    )


@cache
def load_gates(engine: EngineName) -> Gates:
    raw = json.loads((HERE / f"gates-{engine}.json").read_text(encoding="utf-8"))
    rules = {
        kind: _applied(spec, name_prefix=spec.get("namePrefix", ""))
        for kind, spec in raw["rules"].items()
        if kind != "trigger"
    }
    trigger = raw["rules"]["trigger"]
    kinds = tuple(_applied(k, options=frozenset(k.get("options", ()))) for k in raw["triggerKinds"])
    never = tuple(
        Never(
            n["class"],
            n["option"],
            n.get("value"),
            re.compile(n["valuePattern"]) if "valuePattern" in n else None,
            tuple(n.get("unless", ())),
            n.get("why", ""),
        )
        for n in raw["neverOptions"]
    )
    activated = frozenset(a["option"] for a in trigger.get("activatedBy", ()))
    return Gates(
        engine, str(raw["source"]), rules, _applied(trigger["withWhen"]), kinds, activated, never, raw["properties"]
    )
