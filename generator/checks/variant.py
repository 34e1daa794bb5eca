"""Load and check one variant: resolve -> rule patterns -> templates -> typed model -> every check.

The one public step every later stage starts from (emit builds from it; diff, release and the
engine's tools load specs with it): `check_variant` gives the typed spec with all its problems at
once, each said at the user's line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from weakref import WeakKeyDictionary

from generator.checks.blame import in_child, raw_chain, remember
from generator.checks.context import CheckContext, SpecTree
from generator.checks.registry import consequences_unsaid, run_checks
from generator.diagnostics import Diagnostic, Severity
from generator.installed_map import MapLookup
from generator.spec.expand import expand_templates
from generator.spec.load import SpecMap
from generator.spec.model import Spec
from generator.spec.patterns.expansion import Expansion, attribute, expand_patterns
from generator.spec.resolve import ResolvedSpec, Rules, resolve
from generator.spec.salvage import salvage
from generator.spec.validation import validate_spec
from generator.targets import Target


@dataclass
class CheckedVariant:
    """A variant that passed its checks: its typed spec, the tree it came from, what its patterns made."""

    name: str
    spec: Spec
    resolved: ResolvedSpec
    patterns: Expansion = field(default_factory=Expansion)  # what the rule patterns made


def check_variant(
    rules: Rules, name: str, target: Target = "portable", maps: MapLookup | None = None
) -> tuple[CheckedVariant | None, list[Diagnostic]]:
    """Resolve and type-check one variant, with its semantic checks for the `target` engines.

    With `maps`, also against the board: the map's territories and unit pictures (checks.board).
    A mistake the variant made in what it inherits is said at its own line (checks.blame).
    """
    compiled, problems, tree = _checked_for_a_child(rules, name, target, maps) or _checked(rules, name, target, maps)
    if tree is None:
        return compiled, problems
    remember(rules, name, problems, target, maps)  # a child checked next compares with these

    def parent_problems(parent: str) -> list[Diagnostic]:
        checked = _checked(rules, parent, target, maps)
        _FOR_A_CHILD.setdefault(rules, {})[(parent, target)] = (maps, raw_chain(rules, parent), checked)
        return checked[1]

    return compiled, consequences_unsaid(in_child(problems, rules, name, tree, parent_problems, target, maps))


Checked = tuple[CheckedVariant | None, list[Diagnostic], SpecTree | None]  # with the tree checked
# A parent checked for a child's sake (checks.blame) is not checked again when its own turn comes
# in the same process (a build's worker that took the child first): the result waits for that
# turn, once, kept with the Rules object that read it and the raw files it was made from.
_FOR_A_CHILD: WeakKeyDictionary[
    Rules, dict[tuple[str, str], tuple[MapLookup | None, list[SpecMap | None], Checked]]
] = WeakKeyDictionary()


def _checked_for_a_child(rules: Rules, name: str, target: Target, maps: MapLookup | None) -> Checked | None:
    """`_checked(rules, name, target, maps)` as made earlier for a child of `name`, if its files are
    the ones read then (the watch loop reads a changed file again)."""
    kept = _FOR_A_CHILD.get(rules, {}).pop((name, target), None)
    if kept is None or kept[0] is not maps:
        return None
    now = raw_chain(rules, name)
    same = len(now) == len(kept[1]) and all(a is b for a, b in zip(now, kept[1], strict=True))
    return kept[2] if same else None


def _checked(rules: Rules, name: str, target: Target, maps: MapLookup | None) -> Checked:
    """`check_variant` without moving the variant's mistakes to its lines; with the tree checked (or None)."""
    resolved, problems = resolve(rules, name)
    if resolved is None:
        return None, problems, None
    # Keep going after load problems (the tree is still usable) so every mistake shows in one run,
    # but say nothing more about a place that already has a message.
    resolved.tree, found, expansion = expand_patterns(resolved.tree)
    problems += found
    expanded, found = expand_templates(resolved.tree)
    problems += found
    if expanded is None:  # variables that would expand beyond bounds: nothing more to say
        return None, problems, None
    resolved.tree = expanded
    already = {p.mark for p in problems}
    spec, found = validate_spec(resolved.tree)
    problems += [p for p in found if p.mark not in already]
    # With structural errors, the later checks still run on a repaired copy, so references and
    # silent mistakes elsewhere are found in the same run; the repaired places say nothing more.
    checked, repaired = (spec, []) if spec is not None else salvage(resolved.tree, resolved.replaced)
    if checked is None:
        return None, problems, resolved.tree
    # A variant made for one engine is checked for that one.
    ctx = CheckContext(
        checked, resolved.tree, checked.game.target or target, name, expansion.made, maps, resolved, rules
    )
    problems += run_checks(ctx, problems, repaired)
    # A problem in what a pattern made is said of the use that made it.
    problems = [attribute(p, expansion) for p in problems]
    if spec is None or any(p.severity is Severity.ERROR for p in problems):
        return None, problems, resolved.tree
    return CheckedVariant(name, spec, resolved, expansion), problems, resolved.tree
