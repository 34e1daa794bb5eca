"""Ledger proofs, checked: every enforced rule says how the real engine shows it.

A rule graded exact or approximate carries `proof:`, naming engine scenarios that play the
rule and assert its outcome, and/or facts of the engine's own dump of the built game. Here the
proofs are checked for what a spec can get wrong: a scenario that does not exist or is not run on
this variant, a fact about a unit, territory, rule or step the variant does not have, an option
name no engine knows. Whether the facts hold is for the engine to say: the tests dump every built
game and check each fact (generator/engine/proof.py), and run every scenario on its variants.

The scenarios a proof may name are listed in generator/catalog/scenarios.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from generator.catalog import load_catalog, resolve_option
from generator.catalog.scenarios import SCENARIOS
from generator.diagnostics import did_you_mean
from generator.spec.kinds import WITH_MAIN, class_from_name
from generator.spec.ledger import DumpFacts, Proof
from generator.spec.model import Attachment, Spec
from generator.targets import ENGINES

Path = tuple[str | int, ...]
Problem = tuple[Path, str, bool]  # (key path, message, whether it points at the key)


def shown_on(proof: Proof, variant: str | None) -> bool:
    """The proof shows its rule on `variant`: dump facts (checked on the built game), or a
    scenario the tests play on that variant (any variant when `variant` is not known)."""
    if proof.facts or variant is None:
        return bool(proof.facts or proof.scenarios)
    return any(variant in SCENARIOS[name].variants for name in proof.scenarios if name in SCENARIOS)


def check_proofs(spec: Spec, variant: str | None, written_here: Callable[[Path], bool] = bool) -> Iterator[Problem]:
    """Every problem of the ledger's proofs. A scenario must run on `variant` where the variant's own
    files name it (`written_here`); one inherited from a parent (a mod extending a shipped variant,
    the draft's edits) is no error, but proves nothing of the child (see `shown_on`)."""
    for rule_id, entry in spec.rule_ledger.items():
        if entry.proof is None:
            continue
        at: Path = ("rule_ledger", rule_id, "proof")
        if entry.fidelity.grade == "notes-only":
            message = (
                f"rule '{rule_id}' is notes-only on engine 1.9, where proofs are played: "
                "nothing is enforced to prove (remove `proof`)"
            )
            yield at, message, True
            continue
        if not entry.proof.scenarios and not entry.proof.facts:
            yield at, "a proof names a `scenario` or gives `dump` facts", False
        for index, name in enumerate(entry.proof.scenarios):
            where: Path = (*at, "scenario") if isinstance(entry.proof.scenario, str) else (*at, "scenario", index)
            info = SCENARIOS.get(name)
            if info is None:
                yield where, f"unknown scenario '{name}'{did_you_mean(name, SCENARIOS)}", False
            elif variant is not None and variant not in info.variants and written_here(where):
                runs_on = ", ".join(info.variants)
                yield (
                    where,
                    f"scenario '{name}' is not run on '{variant}' (only on {runs_on}); "
                    "prove the rule with a scenario of this variant or with dump facts",
                    False,
                )
        for index, facts in enumerate(entry.proof.facts):
            where = (*at, "dump") if isinstance(entry.proof.dump, DumpFacts) else (*at, "dump", index)
            yield from _check_dump(spec, facts, where)


# Keys of a territory's dump facts that are neither its main attachment's options nor `attachments`.
_TERRITORY_KEYS = {"owner", "units", "connections"}
_PLAYER_KEYS = {"attachments", "production_frontier", "resources", "alliances", "tech_categories"}
_STEP_KEYS = {"delegate", "player", "maxRunCount", "display"}


def _check_dump(spec: Spec, facts: DumpFacts, at: Path) -> Iterator[Problem]:
    for kind in WITH_MAIN:  # the kinds whose dump facts are their main attachment's options
        collection, known = kind.collection, kind.entries(spec)
        for name, claims in getattr(facts, collection).items():
            where = (*at, collection, name)
            # The engine's own advances need no spec entry when the variant keeps the built-in six.
            if name not in known and not (collection == "technologies" and spec.technologies is None):
                yield where, f"unknown {kind.noun} '{name}'{did_you_mean(name, known)}", True
                continue
            entry = known.get(name)
            for key, value in claims.items():
                if key == "attachments":
                    yield from _check_attachments(value, getattr(entry, "attachments", {}), (*where, key))
                elif collection == "territories" and key in _TERRITORY_KEYS:
                    yield from _check_territory_extra(spec, key, value, (*where, key))
                else:
                    yield from _check_option(str(kind.main_class), key, (*where, key))
    for name, claims in facts.players.items():
        where = (*at, "players", name)
        if name not in spec.players:
            yield where, f"unknown player '{name}'{did_you_mean(name, spec.players)}", True
            continue
        for key, value in claims.items():
            if key not in _PLAYER_KEYS:
                yield (*where, key), f"unknown player fact '{key}'{did_you_mean(key, _PLAYER_KEYS)}", True
            elif key == "attachments":
                yield from _check_attachments(value, spec.players[name].attachments, (*where, key))
    for name in facts.production_rules:
        if name not in spec.production_rules:
            where = (*at, "production_rules", name)
            yield where, f"unknown production rule '{name}'{did_you_mean(name, spec.production_rules)}", True
    for name, rules in facts.production_frontiers.items():
        where = (*at, "production_frontiers", name)
        if name not in spec.production_frontiers:
            yield where, f"unknown production frontier '{name}'{did_you_mean(name, spec.production_frontiers)}", True
            continue
        for index, rule in enumerate(rules):
            if rule not in spec.production_rules:
                message = f"unknown production rule '{rule}'{did_you_mean(rule, spec.production_rules)}"
                yield (*where, index), message, False
    for name in facts.properties:
        if name not in spec.properties:
            message = f"unknown game property '{name}'{did_you_mean(name, spec.properties)}"
            yield (*at, "properties", name), message, True
    for index, step in enumerate(facts.steps):
        if step not in spec.sequence:
            yield (*at, "steps", index), f"unknown step '{step}'{did_you_mean(step, spec.sequence)}", False
    for step, claims in facts.sequence.items():
        where = (*at, "sequence", step)
        if step not in spec.sequence:
            yield where, f"unknown step '{step}'{did_you_mean(step, spec.sequence)}", True
        for key in claims:
            if key not in _STEP_KEYS:
                yield (*where, key), f"unknown step fact '{key}'{did_you_mean(key, _STEP_KEYS)}", True


def _check_territory_extra(spec: Spec, key: str, value: object, where: Path) -> Iterator[Problem]:
    if key == "owner" and value is not None and value not in spec.players:
        yield where, f"unknown player '{value}'{did_you_mean(str(value), spec.players)}", False
    if key == "connections":
        for index, other in enumerate(value if isinstance(value, list) else []):
            if other not in spec.territories:
                yield (*where, index), f"unknown territory '{other}'{did_you_mean(str(other), spec.territories)}", False
    if key == "units":
        if not isinstance(value, dict):
            yield where, "units are {owner: {unit: count}}", False
            return
        for owner, counts in value.items():
            if owner != "Neutral" and owner not in spec.players:
                yield (*where, owner), f"unknown player '{owner}'{did_you_mean(owner, spec.players)}", True
            for unit in counts if isinstance(counts, dict) else {}:
                if unit not in spec.units:
                    yield (*where, owner, unit), f"unknown unit '{unit}'{did_you_mean(unit, spec.units)}", True


def _check_attachments(value: object, declared: Mapping[str, Attachment], where: Path) -> Iterator[Problem]:
    """{attachment name: {option: value}}: each option known to the attachment's class."""
    if not isinstance(value, dict):
        yield where, "attachments are {name: {option: value}}", False
        return
    for name, options in value.items():
        attachment = declared.get(name)
        java = attachment.java_class(name) if attachment is not None else None
        short = class_from_name(str(name)) if java is None else java.rsplit(".", 1)[-1]
        if short is None:
            yield (*where, name), f"cannot tell the class of attachment '{name}' from its name", True
            continue
        for option in options if isinstance(options, dict) else {}:
            yield from _check_option(short, option, (*where, name, option))


def _check_option(cls: str, option: str, where: Path) -> Iterator[Problem]:
    if any(resolve_option(engine, cls, option) is not None for engine in ENGINES):
        return
    known = load_catalog("1.9")["attachments"].get(cls, {}).get("options", {})
    yield where, f"unknown option '{option}' for {cls}{did_you_mean(option, known)}", True
