"""The kinds of object a game attaches options to, in one table every stage reads.

Each kind ties three spellings together: the XML's `<attachment type="unitType">`, the spec's
collection (`units:`) and its main attachment (`unitAttachment`, class `UnitAttachment`), whose
options a spec writes directly under the entry (`infantry: {attack: 1}`) instead of under
`attachments:`. Players and resources have no main attachment. The order is the one templates
list their `type:` in (and the one the game XML writes attachments in).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from generator.spec.model import Spec

ATTACHMENT_PACKAGE = "games.strategy.triplea.attachments."


@dataclass(frozen=True)
class Kind:
    """One kind of object that carries attachments."""

    type: str  # <attachment type="..."> and an attachment template's `type:`
    collection: str  # the spec collection holding the objects
    noun: str  # one object, in messages
    main: str | None = None  # the main attachment's name: its options sit directly under the entry

    @property
    def main_class(self) -> str | None:
        """The main attachment's class (short): its name capitalised, as the engine names them."""
        return None if self.main is None else self.main[0].upper() + self.main[1:]

    def entries(self, spec: Spec) -> dict[str, Any]:
        """The spec's objects of this kind, by name (none for a collection left out)."""
        return dict(getattr(spec, self.collection) or {})

    def is_main(self, name: str, short_class: str | None) -> bool:
        """An attachment called `name` of class `short_class` is this kind's main attachment."""
        return self.main is not None and name == self.main and short_class in (None, self.main_class)


KINDS: tuple[Kind, ...] = (
    Kind("unitType", "units", "unit", "unitAttachment"),
    Kind("territory", "territories", "territory", "territoryAttachment"),
    Kind("player", "players", "player"),
    Kind("resource", "resources", "resource"),
    Kind("relationship", "relationship_types", "relationship type", "relationshipTypeAttachment"),
    Kind("territoryEffect", "territory_effects", "territory effect", "territoryEffectAttachment"),
    Kind("technology", "technologies", "technology", "techAbilityAttachment"),
)
KIND_OF_TYPE: dict[str, Kind] = {k.type: k for k in KINDS}
KIND_OF_COLLECTION: dict[str, Kind] = {k.collection: k for k in KINDS}
# The kinds whose entries hold their main attachment's options, in the order the XML writes them.
WITH_MAIN: tuple[Kind, ...] = tuple(k for k in KINDS if k.main is not None)
# The order the XML writes the other attachments in (players' and resources' first), as the diff lists them.
ATTACHMENT_ORDER: tuple[Kind, ...] = (*(k for k in KINDS if k.main is None), *WITH_MAIN)

# Attachment classes inferred from the conventional start of an attachment's name.
CLASS_BY_NAME_PREFIX: dict[str, str] = {
    "unitAttachment": "UnitAttachment",
    "territoryAttachment": "TerritoryAttachment",
    "canalAttachment": "CanalAttachment",
    "techAttachment": "TechAttachment",
    "techAbilityAttachment": "TechAbilityAttachment",
    "playerAttachment": "PlayerAttachment",
    "rulesAttachment": "RulesAttachment",
    "objectiveAttachment": "RulesAttachment",
    "conditionAttachment": "RulesAttachment",
    "triggerAttachment": "TriggerAttachment",
    "politicalActionAttachment": "PoliticalActionAttachment",
    "userActionAttachment": "UserActionAttachment",
    "relationshipTypeAttachment": "RelationshipTypeAttachment",
    "supportAttachment": "UnitSupportAttachment",
    "territoryEffectAttachment": "TerritoryEffectAttachment",
}


# Asked for every attachment by every check that reads them; the answer depends only on the name
# (bounded: a process that reads many games, the fuzz test's, meets many names).
@lru_cache(maxsize=4096)
def class_from_name(name: str) -> str | None:
    """The attachment class (short) an attachment's name implies, if it starts as convention says."""
    return next((c for prefix, c in CLASS_BY_NAME_PREFIX.items() if name.startswith(prefix)), None)
