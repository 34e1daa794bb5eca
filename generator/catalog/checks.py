"""The engines' own checks of a game, as data: `engine-checks-<engine>.json` (see README.md).

Each entry is one place where an engine refuses a game (class, method, exception, message, as
`scripts/catalog/extract_checks.py` finds them) with what `validate` does about it: a `rule` in the
small vocabulary below, `option_syntax` (the option catalog's value syntax covers it),
`spec_check` (validate's checks of the spec find it: references, option names, or one made in
checks/engine_rules.py; `probeSpecs` are games that fail it), `in_play` (1.9 loads the game and
raises it while the game is played: checks/in_play_rules.py finds what sets it off; `probeSpecs`
are games the engine loads and fails with it in play) or `not_checked` with the reason (`callSites`:
the engine methods that call the raising one, read from the jar; `firstRefusedBy`: the refusal
when loading that comes first, with games that show it).
A rule is one or more alternatives; the check fails (the engine refuses) when, for an
alternative, every condition of `all` holds and, if it has `any`, one of those:

    {"all": [["isAir", "==", false], ["isSea", "==", false]],
     "any": [["carrierCapacity", "!=", -1], ["isCombatTransport", "==", true]]}

A condition is `[option, op, operand]`, op one of `== != < <= > >= in notIn set blank notStartsWith`,
the operand a JSON scalar, a list (`in`/`notIn`) or `{"option": name}`; `null` stands for an option
that is not set and has no starting value. `property:<name>` reads a game property instead of an
option, `@name` the attachment's name, `option#i` field i of the option's value split at ':'
(`option~i`: at '-'; an option written several times is checked write by write);
`writtenBefore` (operand `{"option": name}`) holds when both options are written, this one first
(the engine runs the setters in the order written). A rule's `except` lists concrete classes it
does not apply to (one that overrides the check); its `ignored` lists cases where the engine loads
the game but drops an option (each with `says`, `by` and `alternatives`): a warning, not a refusal.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from generator.catalog import engine_json, load_catalog
from generator.targets import EngineName

__all__ = ["Condition", "load_checks", "rule_checks", "shortcuts"]

Condition = list[Any]
OPERATORS = frozenset(
    {"==", "!=", "<", "<=", ">", ">=", "in", "notIn", "set", "blank", "notStartsWith", "writtenBefore"}
)
STATUSES = frozenset({"rule", "option_syntax", "spec_check", "in_play", "not_checked"})


@cache
def load_checks(engine: EngineName) -> dict[str, Any]:
    """The parsed ``engine-checks-<engine>.json``: what the engine refuses when a game loads."""
    return engine_json(engine, "engine-checks")


@cache
def rule_checks(engine: EngineName, attachment_class: str) -> tuple[dict[str, Any], ...]:
    """The entries with a rule that apply to an attachment of `attachment_class` (its own and inherited)."""
    attachment = load_catalog(engine)["attachments"].get(attachment_class, {})
    classes = {attachment_class, *attachment.get("supertypes", [])}
    return tuple(
        c
        for c in load_checks(engine)["checks"]
        if c["status"] == "rule" and c["class"] in classes and attachment_class not in c["rule"].get("except", [])
    )


def shortcuts(engine: EngineName, attachment_class: str) -> dict[str, dict[str, dict[str, Any]]]:
    """option -> value written ('true'/'false') -> {other option: value it sets} (e.g. isFactory)."""
    found: dict[str, dict[str, dict[str, Any]]] = load_checks(engine).get("shortcuts", {}).get(attachment_class, {})
    return found
