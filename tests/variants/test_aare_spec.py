"""The AARe variant's spec: every advantage declarable (its ledger: tests/variants/test_variant_ledgers.py)."""

from __future__ import annotations

from tests.helpers import ROOT, variant_spec

NATIONS = {"Russians": "Ru", "Germans": "Ge", "British": "Uk", "Japanese": "Jp", "Americans": "Us"}


def test_each_nation_declares_six_advantages_each_claiming_its_rule() -> None:
    spec = variant_spec("aare")
    for player, code in NATIONS.items():
        attachments = spec.players[player].attachments
        declarations = {
            name: a
            for name, a in attachments.items()
            if name.startswith(f"userActionAttachment{code}")
            and "aare-na-00" in a.ledger
            and not name.endswith(("BreakTreaty", "SevereWinter"))
        }
        assert len(declarations) == 6, player
        rule_ids = {next(i for i in a.ledger if i != "aare-na-00") for a in declarations.values()}
        assert len(rule_ids) == 6
        assert all(i.startswith("aare-na-") for i in rule_ids)
        texts = spec.map_files["actionstext"]
        assert all(f"{a.options['text']}.BUTTON" in texts for a in declarations.values())


def test_triggers_sit_on_the_player_read_first() -> None:
    """TripleA 1.9 can only copy the game data when triggers are read after the production rules."""
    spec = variant_spec("aare")
    holders = {
        player for player, p in spec.players.items() for name in p.attachments if name.startswith("triggerAttachment")
    }
    assert holders == {"Germans"}


def test_notes_group_rules_by_section() -> None:
    notes = (ROOT / "output" / "games" / "aare.notes.html").read_text(encoding="utf-8")
    # Four sections of their own; the five nations' advantages nest under one group heading.
    assert notes.count("<h3>") == 4
    assert notes.count("<h4>") == 5
    assert "<h3>National advantages</h3>" in notes and "<h4>Russia</h4>" in notes
    assert "[aare-na-ru-2]" in notes and "TripleA 2.x: Enforced approximately" in notes
