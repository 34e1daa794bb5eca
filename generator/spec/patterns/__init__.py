"""Rule patterns: a rule of the document written as one spec entry, made into the entries that enforce it.

Reads a resolved spec tree; each pattern (a typed model here) makes its uses into ordinary spec
entries, as data, before the model reads the spec (see `expansion`).
"""

from __future__ import annotations

from generator.spec.patterns.advantages import NationalAdvantage
from generator.spec.patterns.attacks import NationalAttack
from generator.spec.patterns.base import Pattern, PatternError
from generator.spec.patterns.schedule import AdvantageSchedule
from generator.spec.patterns.shipments import FreeUnits, LendLease, NationalBuild
from generator.spec.patterns.treaty import Treaty
from generator.spec.patterns.turns import Turns

__all__ = [
    "PATTERNS",
    "AdvantageSchedule",
    "FreeUnits",
    "LendLease",
    "NationalAdvantage",
    "NationalAttack",
    "NationalBuild",
    "Pattern",
    "PatternError",
    "Treaty",
    "Turns",
]

# Expanded in this order: a pattern may read the uses of those before it (advantages read schedules).
PATTERNS: tuple[type[Pattern], ...] = (
    Turns,
    AdvantageSchedule,
    NationalAdvantage,
    Treaty,
    LendLease,
    FreeUnits,
    NationalBuild,
    NationalAttack,
)
