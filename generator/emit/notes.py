"""Game notes: the spec's own prose plus, for variants with a rule ledger, every rule grouped as the
seed groups them, saying which rules the game enforces and which the players must enforce.

The body is rendered once and used twice: inside the XML's `notes` property (what engine 1.9 shows)
and in `<variant>.notes.html` (what TripleA 2.x shows).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.spec.ledger import Fidelity
from generator.spec.model import Spec

GRADE_WORDS = {
    "exact": "Enforced by the game",
    "approximate": "Enforced approximately",
    "notes-only": "Players enforce",
}


@dataclass(frozen=True)
class RuleNote:
    rule_id: str
    summary: str
    grade: str  # words for the 1.9 grade
    note: str
    grade_2x: str | None  # words for the 2.x grade where it differs or has a note of its own
    note_2x: str
    reading: str | None
    rationale: str | None


@dataclass
class SectionNotes:
    title: str
    level: int = 3  # heading level: 3, or 4 under a group ("Group: Section" titles)
    opens_group: str | None = None  # a group heading to write before this section
    enforced: list[RuleNote] = field(default_factory=list)  # exact or approximate in 1.9
    by_players: list[RuleNote] = field(default_factory=list)  # notes-only in 1.9


def _words(fidelity: Fidelity) -> str:
    return GRADE_WORDS[fidelity.grade]


def ledger_sections(spec: Spec) -> list[SectionNotes]:
    """Ledger entries grouped by section, in the order the sections first appear."""
    sections: dict[str, SectionNotes] = {}
    for rule_id, entry in spec.rule_ledger.items():
        section = sections.setdefault(entry.section, SectionNotes(entry.section))
        later = entry.fidelity_2x
        note = RuleNote(
            rule_id,
            entry.summary,
            _words(entry.fidelity),
            entry.fidelity.note,
            # 2.x's grade where it differs, or where 2.x enforces the rule its own way (a note of its own).
            _words(later) if later and (later.grade != entry.fidelity.grade or later.note) else None,
            later.note if later else "",
            entry.reading,
            entry.rationale,
        )
        target = section.by_players if entry.fidelity.grade == "notes-only" else section.enforced
        target.append(note)
    opened: set[str] = set()
    for section in sections.values():
        group, _, title = section.title.partition(": ")
        if title:  # "National advantages: Germany" -> under "National advantages"
            section.title, section.level = title, 4
            section.opens_group = None if group in opened else group
        opened.add(group)
    return list(sections.values())
