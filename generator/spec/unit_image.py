"""A unit type's own pictures (`image:` in the spec): derived from another unit's, or drawn."""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

_HEX_COLOUR = re.compile(r"[0-9A-Fa-f]{6}")
_MARK = re.compile(r"[A-Za-z0-9+#*-]{0,3}")


class UnitImage(BaseModel):
    """Where a unit type's pictures come from when neither the map nor the engine's stock art has them.

    `from: armour` derives each player's picture from that player's picture of another unit type,
    with a `mark` (up to 3 letters or digits; default: the name's initials), an `outline` and/or a
    `tint` colour telling the two apart; `file: x.png` (or `image: x.png`) ships a drawn picture for
    every player, `players: {Germans: y.png}` one per player. Paths are relative to the variant's
    folder. The package writes every form the engine asks for (damaged, disabled, after a tech).
    """

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, populate_by_name=True)

    from_: str | None = Field(default=None, alias="from")
    mark: str | None = None
    outline: str | None = None
    tint: str | None = None
    file: str | None = None
    players: dict[str, str] = {}

    @field_validator("outline", "tint")
    @classmethod
    def _colour(cls, value: str | None) -> str | None:
        if value is not None and not _HEX_COLOUR.fullmatch(value):
            raise ValueError(f'expected a colour as 6 hex digits RRGGBB (like "c00000"), got {value!r}')
        return value

    @field_validator("mark")
    @classmethod
    def _mark(cls, value: str | None) -> str | None:
        if value is not None and not _MARK.fullmatch(value):
            raise ValueError(f"a mark is up to 3 letters, digits or + # * -, drawn on the picture; got {value!r}")
        return value

    @model_validator(mode="after")
    def _one_source(self) -> UnitImage:
        if self.from_ is not None and self.file is not None:
            raise ValueError("give `from:` (derive each player's picture) or `file:` (a drawn one), not both")
        if self.from_ is None and self.file is None and not self.players:
            raise ValueError("say where the pictures come from: `from: <unit>`, `file: <png>` or `players:`")
        if self.from_ is None and (self.mark is not None or self.outline or self.tint):
            raise ValueError("mark, outline and tint apply to a derived picture (`from:`)")
        return self
