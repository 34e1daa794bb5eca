"""The rule ledger in the spec: each rule of a seed document, its fidelity grade and its proof.

`Strict` is the base of the spec's entries: besides forbidding unknown keys, every entry may claim
the ledger rules it implements (`ledger:`), which the coverage report and the mutation sweep read.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

LedgerClaims = list[str]
# Rule id -> the element's options that rule stands on, for an element that serves several rules:
# a claim it narrows covers those options only (the mutation sweep attributes an edit by them).
LedgerOptions = dict[str, list[str]]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    ledger: LedgerClaims = []  # ids of the rule-ledger entries this element implements
    ledger_options: LedgerOptions = {}  # which options of the element a claim stands on, where not all


class Fidelity(Strict):
    # exact, approximate (with the difference in `note`) or notes-only (players enforce it).
    grade: Literal["exact", "approximate", "notes-only"]
    note: str = ""  # what differs from the seed, or how players enforce it


class _Facts(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class RuleFacts(_Facts):
    """What the engine holds for one production rule: its cost and what it makes."""

    cost: dict[str, int] | None = None
    result: dict[str, int] | None = None


class DumpFacts(_Facts):
    """Facts of the engine's own dump of the built game (`python -m generator.engine dump`).

    Keyed like the spec; values are written as the dump shows them. Under a unit, territory,
    territory effect, technology or relationship type: its main attachment's options, plus
    `attachments: {name: {option: value}}` for others; a territory also takes `owner`,
    `units` ({owner: {unit: count}}) and `connections` (neighbours it has, among others); a
    player takes `production_frontier`, `resources`, `alliances`, `attachments` and
    `tech_categories` ({category: [techs, by the engine's names]}, exactly). A frontier
    lists rules it holds; `steps` lists steps in play order (others may come between them);
    `sequence` gives a step's `delegate`, `player` or `maxRunCount`.
    """

    units: dict[str, dict[str, Any]] = {}
    territories: dict[str, dict[str, Any]] = {}
    players: dict[str, dict[str, Any]] = {}
    territory_effects: dict[str, dict[str, Any]] = {}
    technologies: dict[str, dict[str, Any]] = {}
    relationship_types: dict[str, dict[str, Any]] = {}
    production_rules: dict[str, RuleFacts] = {}
    production_frontiers: dict[str, list[str]] = {}
    properties: dict[str, Any] = {}
    steps: list[str] = []
    sequence: dict[str, dict[str, Any]] = {}


class Proof(_Facts):
    """How an enforced rule is shown in the real engine: scenarios that play it, facts of the dump.

    `dump` is one group of facts or a list of them; a variant that extends another and states
    its own facts as a list replaces the parent's (lists are replaced whole, mappings merged).
    """

    scenario: str | list[str] | None = None  # engine scenarios (generator/catalog/scenarios.py)
    dump: DumpFacts | list[DumpFacts] | None = None

    @property
    def facts(self) -> list[DumpFacts]:
        if self.dump is None:
            return []
        return [self.dump] if isinstance(self.dump, DumpFacts) else list(self.dump)

    @property
    def scenarios(self) -> list[str]:
        if self.scenario is None:
            return []
        return [self.scenario] if isinstance(self.scenario, str) else list(self.scenario)


class LedgerEntry(Strict):
    """One rule of a seed document, in our words, and how faithfully the game enforces it."""

    section: str  # grouped as the seed groups its rules
    source: str  # seed file and section
    # The rule in our words.
    summary: str
    # How faithfully TripleA 1.9 enforces it.
    fidelity: Fidelity
    fidelity_2x: Fidelity | None = None  # when current TripleA enforces it better than 1.9
    reading: str | None = None  # where the seed is wrong or ambiguous: the reading chosen
    rationale: str | None = None  # the designer's stated reason for the rule, in our words
    proof: Proof | None = None  # how the grade is shown in the real engine (exact/approximate rules)
