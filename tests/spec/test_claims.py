"""A rule over a set claims every member (issue 49): what the mutation sweep can change.

The sweep mutates only what a ledger entry claims (generator/spec/claims.py). A template writing
an object's own options (a convoy zone's `blockadeZone`) claims them on the object; an element the
variant writes with an option a rule claims on two or more other elements of its kind, claimed
by no entry, is an error of `coverage` at its line; `ledger: []` says it serves no rule.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from generator.spec.claims import expanded_tree, unclaimed
from generator.spec.resolve import Rules
from tests.helpers import ROOT, TINY, run_cli, write_tree

_SEAS = """
extends: tiny
territories:
  Alpha: {victoryCity: 1, ledger: [t-cities], connections: [Beta, Gamma]}
  Beta: {victoryCity: 1, ledger: [t-cities]}
  Gamma: {owner: Reds, production: 1, connections: [Alpha], victoryCity: 1}
rule_ledger:
  t-cities:
    section: Map
    source: "tiny §1"
    summary: Three victory cities.
    fidelity: {grade: exact}
"""


def _variant(tmp_path: Path, text: str) -> Path:
    shutil.copytree(TINY, tmp_path / "rules" / "tiny")
    write_tree(tmp_path / "rules", {"cities/game.yaml": text})
    return tmp_path


def test_coverage_says_a_member_of_a_set_rule_no_entry_claims(tmp_path: Path) -> None:
    project = _variant(tmp_path, _SEAS)
    tree = expanded_tree(Rules(project / "rules"), "cities")
    found = unclaimed(tree, expanded_tree(Rules(project / "rules"), "tiny"), {"t-cities"})
    assert [(f.path, f.option, f.rules) for f in found] == [(("territories", "Gamma"), "victoryCity", ("t-cities",))]
    result = run_cli("coverage", "cities", cwd=project)
    assert result.code == 1, result
    assert "rules/cities/game.yaml:5:" in result.err
    assert (
        "territories.Gamma.victoryCity: no ledger entry claims this 'victoryCity', which t-cities claims on other "
        "elements of its kind: the mutation sweep never changes it" in result.err
    )
    # Claimed (or said to serve no rule of the ledger), it is no error.
    for index, fixed in enumerate(("victoryCity: 1, ledger: [t-cities]}", "victoryCity: 1, ledger: []}")):
        claimed = _variant(tmp_path / str(index), _SEAS.replace("victoryCity: 1}", fixed))
        assert run_cli("coverage", "cities", cwd=claimed).code == 0


def test_a_template_writing_an_objects_own_options_claims_them_there(tmp_path: Path) -> None:
    """A convoy zone made by a template keeps the template's claim, narrowed to what it wrote."""
    project = _variant(
        tmp_path,
        """
        extends: tiny
        attachment_templates:
          territoryAttachment:
            foreach: $zone$
            attach_to: "@zone@"
            type: territory
            options: {victoryCity: 1}
            ledger: [t-cities]
        variables:
          zone: [Alpha, Beta]
        rule_ledger:
          t-cities:
            section: Map
            source: "tiny §1"
            summary: Two victory cities.
            fidelity: {grade: exact}
        """,
    )
    tree = expanded_tree(Rules(project / "rules"), "cities")
    for name in ("Alpha", "Beta"):
        assert tree["territories"][name]["ledger"] == ["t-cities"]
        assert tree["territories"][name]["ledger_options"] == {"t-cities": ["victoryCity"]}


def test_no_enforced_element_of_a_shipped_variant_goes_unclaimed() -> None:
    rules = Rules(ROOT / "rules")
    for variant in ("aare", "aare-2x", "aarhe", "aarhe-2x", "aarhe-draft", "aarhe-phase1", "expansion"):
        tree = expanded_tree(rules, variant)
        parent = rules.declared_parent(variant)
        enforced = {i for i, e in tree["rule_ledger"].items() if e["fidelity"]["grade"] != "notes-only"}
        found = unclaimed(tree, expanded_tree(rules, parent) if parent else None, enforced)
        assert [f.message for f in found] == [], variant
