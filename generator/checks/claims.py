"""A rule over a set claims every member the variant writes (generator/spec/claims.py `unclaimed`).

Said by `coverage` as an error at the option's line: the mutation sweep mutates only what an
entry claims, so a member no entry claims is a part of the rule no proof is ever tested against.
"""

from __future__ import annotations

from generator.checks.variant import CheckedVariant
from generator.diagnostics import Diagnostic, key_path
from generator.spec.claims import parent_tree, unclaimed
from generator.spec.locate import locate
from generator.spec.resolve import Rules

__all__ = ["check_claims"]


def check_claims(rules: Rules, checked: CheckedVariant) -> list[Diagnostic]:
    """An error for each element the variant writes with an option a set rule claims on its
    other members, where no ledger entry claims it."""
    enforced = {i for i, e in checked.spec.rule_ledger.items() if e.fidelity.grade != "notes-only"}
    tree = checked.resolved.tree
    found = []
    for member in unclaimed(tree, parent_tree(rules, checked.name), enforced):
        where = (*member.path, member.option)
        found.append(Diagnostic(member.message, locate(tree, where, key=True), key_path(where)))
    return found
