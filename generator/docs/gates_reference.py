"""The gates page: what keeps a written rule from ever acting, per engine, as `validate` checks it.

Read from `generator/catalog/gates-<engine>.json` (taken from the engines' code by
`scripts/catalog/extract_gates.py`), through the same loader the check uses (`catalog.gates`), so
the page says what `validate` applies.
"""

from __future__ import annotations

from generator.catalog.gates import Applied, Gates, load_gates
from generator.docs.markdown import GENERATED, cell, code, table
from generator.targets import ENGINES

RULE_NOUNS = {"objective": "national objective", "userAction": "user action", "politicalAction": "political action"}


def _steps(applied: Applied) -> str:
    return ", ".join(code(s.rsplit(".", 1)[-1] if s.count(".") > 2 else s) for s in sorted(applied.steps))


def _needs(applied: Applied) -> str:
    needs = [f"{code(p)} on" for p in applied.properties]
    if applied.combat_move:
        needs.append("a combat move step (`combatMove` property, or a name ending `CombatMove`)")
    return cell("; ".join(needs)) or "nothing"


def _whose(applied: Applied) -> str:
    return "any player's" if applied.any_player else "its player's"


def _rules(gates: Gates) -> list[str]:
    rows = [
        [RULE_NOUNS.get(kind, kind), code(applied.name_prefix + "...") if applied.name_prefix else "",
         _steps(applied), _whose(applied), cell(applied.phase), _needs(applied)]
        for kind, applied in sorted(gates.rules.items())
    ]  # fmt: skip
    when = gates.with_when
    rows.append(["trigger with `when`", "", "every step (its named one)", _whose(when), "the step `when` names",
                 _needs(when)])  # fmt: skip
    return table(["rule", "name must start", "applied in a step of", "step", "when", "needs"], rows)


def _trigger_kinds(gates: Gates) -> list[str]:
    rows = [
        [", ".join(code(o) for o in sorted(kind.options)), _steps(kind), _whose(kind), cell(kind.phase), _needs(kind)]
        for kind in sorted(gates.trigger_kinds, key=lambda k: sorted(k.options))
    ]
    return table(["a trigger without `when` that has", "fires in a step of", "step", "when", "needs"], rows)


def _never(gates: Gates) -> list[str]:
    rows = [
        [code(n.java_class), code(n.option), code(str(n.value)), ", ".join(code(u) for u in n.unless), cell(n.why)]
        for n in gates.never
    ]
    return table(["class", "option", "value", "unless", "why"], rows)


def gates_reference() -> str:
    lines = [
        GENERATED,
        "",
        "# Gates: what keeps a rule from ever acting",
        "",
        "TripleA loads and plays a game whose rules can never act, without a word: a trigger in a game whose "
        "`Use Triggers` is off, a national objective of a player with no end-of-turn step, a user action no step "
        "offers. These tables are what `validate` checks each trigger, national objective, user and political "
        "action against (a warning at the rule's line, naming the gate and the fix; an error with `--strict`). "
        "They are taken from each engine's code by `scripts/catalog/extract_gates.py`. A trigger that an action "
        "or another trigger fires (`activateTrigger`) acts when that fires, whatever its own gates.",
        "",
    ]
    for engine in ENGINES:
        gates = load_gates(engine)
        lines += [
            f"## TripleA {engine}",
            "",
            f"Source: {cell(gates.source)}.",
            "",
            "### Rules and the steps that apply them",
            "",
            *_rules(gates),
            "",
            "### Triggers without `when`, by what they do",
            "",
            *_trigger_kinds(gates),
            "",
            "### Values that make a rule unusable",
            "",
            *_never(gates),
            "",
        ]
    return "\n".join(lines)
