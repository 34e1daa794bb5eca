"""The verdict for what an engine checks only in play: a trigger's property change.

A trigger's `unitProperty`, `playerProperty`, `territoryProperty`, `relationshipTypeProperty`,
`territoryEffectProperty`... names an option of another attachment and its new value. Neither
engine's parser looks inside (it only splits the value): the game loads, and the engine fails when
the trigger fires and applies the change (2.x: `ChangeAttachmentChange` asks the attachment for the
property and throws "unknown property named '…'"; both engines then run the option's setter on
the new value). The option checks find the mistake at load time all the same; this says what the
engine does with it, so a fault shown in play is not called a refusal to load.
"""

from __future__ import annotations

from generator.catalog import resolve_option

# 2.x's words when the property is unknown, and where they come from.
UNKNOWN_2X = "\"unknown property named '…'\" (DynamicallyModifiable.getPropertyOrThrow, from ChangeAttachmentChange)"


def fails_in_play(engines: tuple[str, ...], cls: str, option: str, attachment: str, message: str) -> str | None:
    """`message` with the in-play verdict when `option` of `cls` is a property change, else None."""
    resolved = [resolve_option(e, cls, option) for e in engines]
    if any(found is None for found in resolved):
        return None  # the message is about the option's name, not about its value
    changes = [e for e, found in zip(engines, resolved, strict=True) if found and found[1]["type"] == "propertyChange"]
    if not changes:
        return None
    said = f"{message}; TripleA {' and '.join(changes)} load{'s' if len(changes) == 1 else ''} the game and fail"
    said += f"{'s' if len(changes) == 1 else ''} when {attachment} fires"
    if "2.x" in changes and "is not an option of" in message:
        said += f": {UNKNOWN_2X}" if len(changes) == 1 else f" (2.x: {UNKNOWN_2X})"
    return said
