"""What `coverage` shows, gathered: each variant checked; one with a rule ledger counted by grade,
proof and recorded mutation sweep (emit.coverage), its set rules' claims checked; one without,
listed rule by rule (engine.rule_coverage shows them).

An engine stage because a recorded sweep is stale when the game it swept is not the variant's
today (engine.sweep's fingerprint of the game the mutants are made from).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from generator.checks.claims import check_claims
from generator.checks.variant import CheckedVariant, check_variant
from generator.diagnostics import Diagnostic
from generator.emit.coverage import Coverage, coverage
from generator.errors import TripleaForgeError
from generator.spec.model import Spec
from generator.spec.resolve import Rules


@dataclass
class Ledgers:
    """The variants `coverage` shows, in the order asked, and the problems found checking them."""

    order: list[str] = field(default_factory=list)
    reports: list[Coverage] = field(default_factory=list)  # the variants with a ledger
    specs: dict[str, Spec] = field(default_factory=dict)  # their specs, by variant
    listed: dict[str, CheckedVariant] = field(default_factory=dict)  # shown rule by rule
    problems: list[Diagnostic] = field(default_factory=list)

    def stale_sweeps(self) -> list[str]:
        """The variants whose recorded sweep is missing or stale (those made for 2.x are swept as their parent)."""
        return [
            r.variant
            for r in self.reports
            if self.specs[r.variant].game.target != "2.x" and (r.mutation is None or r.mutation.stale)
        ]


def gather_ledgers(
    rules: Rules, names: Sequence[str], named: bool, ledger_only: bool, by_rule: bool, mutation_results: Path
) -> Ledgers:
    """`names` checked and counted (`named`: the user named them; `ledger_only`: for the sweep,
    which mutates what a ledger enforces). The problems are in the result, for the caller to say;
    a TripleaForgeError when there is nothing to show."""
    found = Ledgers()
    unledgered: dict[str, CheckedVariant] = {}
    for name in names:
        loaded, problems = check_variant(rules, name)
        found.problems += problems
        if loaded is None:
            continue
        if not loaded.spec.rule_ledger:
            if named and ledger_only:
                raise TripleaForgeError(f"variant '{name}' has no rule ledger (rule_ledger: in its spec)")
            unledgered[name] = loaded
            continue
        found.specs[name] = loaded.spec
        found.problems += check_claims(rules, loaded)  # a member of a set rule no entry claims: never swept
        found.reports.append(coverage(name, loaded.spec, mutation_results))
        if by_rule:
            found.listed[name] = loaded
    if ledger_only or (not named and found.reports):
        unledgered = {}  # without names, a folder with ledgers shows those (the project's own rules/)
    found.listed.update(unledgered)
    found.order = [n for n in names if n in found.listed or n in found.specs]
    return found


def refuse_nothing_to_show(rules: Rules, found: Ledgers, ledger_only: bool) -> None:
    """TripleaForgeError when no variant has a ledger (`ledger_only`) or none is shown at all."""
    if not found.reports and (ledger_only or not found.listed):
        what = " has a rule ledger" if ledger_only else " (start one: triplea-forge new NAME)"
        raise TripleaForgeError(f"no variant in {rules.display_root}/{what}")


def mark_stale(rules: Rules, found: Ledgers) -> None:
    """A recorded sweep of another game than the variant's today is stale (its fingerprint differs)."""
    from generator.engine.mutation import expanded_tree
    from generator.engine.sweep import fingerprint

    for report in found.reports:
        if report.mutation is not None:
            report.mutation.stale = report.mutation.fingerprint != fingerprint(expanded_tree(rules, report.variant))
