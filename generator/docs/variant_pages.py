"""A page per shipped variant: what it is, its board, its units and frontiers, its coverage and its whole rule ledger.

The ledger is the variant's own (`rule_ledger`, resolved through `extends`), the counts are
`triplea-forge coverage`'s (the same code, with the mutation sweep's recorded results).
"""

from __future__ import annotations

from pathlib import Path

from generator.docs.markdown import GENERATED, cell, prose, table
from generator.docs.pictures import DIFF_SIDES, IMAGES, Made
from generator.docs.variant_units import frontiers_section, units_section
from generator.emit.build import Compiled
from generator.emit.coverage import coverage, grade_for, proof_kind, render_markdown
from generator.spec.ledger import LedgerEntry

FOLDER = "docs/variants"


def _proof(entry: LedgerEntry, variant: str) -> str:
    kind = proof_kind(entry, variant)
    if entry.proof is None or kind == "none":
        return "none" if entry.fidelity.grade != "notes-only" else ""
    scenarios = ", ".join(f"`{s}`" for s in entry.proof.scenarios)
    facts = f"{len(entry.proof.facts)} dump fact group{'s' if len(entry.proof.facts) != 1 else ''}"
    said = [part for part in (scenarios, facts if entry.proof.facts else "") if part]
    return f"{kind}: {'; '.join(said)}"


def _grade(entry: LedgerEntry) -> str:
    two = grade_for(entry, "2.x")
    return entry.fidelity.grade if two == entry.fidelity.grade else f"{entry.fidelity.grade} (2.x: {two})"


def _ledger(item: Compiled) -> list[str]:
    lines: list[str] = []
    sections: dict[str, list[tuple[str, LedgerEntry]]] = {}
    for rule_id, entry in item.spec.rule_ledger.items():
        sections.setdefault(entry.section, []).append((rule_id, entry))
    for section, entries in sections.items():
        rows = []
        for rule_id, entry in entries:
            note = entry.fidelity.note
            if entry.fidelity_2x is not None and entry.fidelity_2x.note:
                note += f" 2.x: {entry.fidelity_2x.note}"
            rows.append([f"`{rule_id}`", cell(entry.summary), _grade(entry), cell(_proof(entry, item.name)),
                         cell(note)])  # fmt: skip
        lines += [f"### {section}", "", *table(["rule", "summary", "grade", "proof", "note"], rows), ""]
    return lines


def _facts(item: Compiled) -> list[str]:
    spec = item.spec
    extends = f"[`{spec.extends}`]({spec.extends}.md)" if spec.extends else "nothing (a whole game)"
    version = f" {spec.game.version}" if spec.game.version else ""
    target = spec.game.target or "portable (TripleA 1.9 and 2.x)"
    rows = [
        ["game", prose(f"{spec.game.name}{version}")],
        ["extends", extends],
        ["map", f"`{spec.game.map}`"],
        ["engines", target],
        ["players", ", ".join(spec.players)],
        ["units, territories", f"{len(spec.units)} unit types, {len(spec.territories)} territories"],
        ["rules in the ledger", str(len(spec.rule_ledger)) if spec.rule_ledger else "none (no rules document)"],
    ]
    return [*table(["", f"`{item.name}`"], rows), ""]


def variant_page(item: Compiled, made: Made, mutation_results: Path) -> str:
    name = item.name
    lines = [GENERATED, "", f"# {name}", "", *_facts(item)]
    picture = f"../images/generated/previews/{name}.png"
    lines += ["## The board at the start", "", f"![{name}: the board at the start]({picture})",
              "", f"Drawn by `triplea-forge preview {name} -o {name}.png`; the package ships it as the game's picture.",
              ""]  # fmt: skip
    units = made.new_units.get(name)
    if units:
        lines += ["## New units", "", prose(
            f"The unit types {name} adds or draws anew ({', '.join(units)}), as the package draws them for each "
            "player who can own one (a blank: nobody of that nation ever owns it)."), "",
            f"![{name}: unit pictures](../images/generated/units/{name}.png)", ""]  # fmt: skip
    lines += units_section(item, "../" + made.unit_sheets[name].removeprefix("docs/"))
    lines += frontiers_section(item)
    if name == DIFF_SIDES[1]:
        lines += [f"See [Review a change with diff](../how-to/review-a-change.md) for this variant against "
                  f"`{DIFF_SIDES[0]}` on the board.", ""]  # fmt: skip
    if item.spec.rule_ledger:
        report = coverage(name, item.spec, mutation_results)
        body = render_markdown([report]).split("\n", 1)[1]  # its own heading is ours
        lines += ["## Coverage", "", f"`triplea-forge coverage {name}`:", "", body.strip("\n"), ""]
        lines += ["## Rule ledger", "",
                  "Every rule of the document: its grade (exact, approximate, notes-only; the 2.x grade where it "
                  "differs), its proof in the engine (shown by a scenario, pinned by dump facts) and the note on "
                  "what differs or how players keep it.", "", *_ledger(item)]  # fmt: skip
    return "\n".join(lines).rstrip("\n") + "\n"


def variants_index(made: Made, mutation_results: Path) -> str:
    rows = []
    for name, item in sorted(made.compiled.items()):
        spec = item.spec
        counts = proven = ""
        if spec.rule_ledger:
            total = coverage(name, spec, mutation_results).total["1.9"]
            counts = " / ".join(str(total.counts[g]) for g in ("exact", "approximate", "notes-only"))
            proven = f"{total.enforced_proven} of {total.enforced}"
        parent = f"`{spec.extends}`" if spec.extends else ""
        rows.append([f"[`{name}`]({name}.md)", prose(spec.game.name), parent, counts, proven])
    lines = [GENERATED, "", "# Shipped variants", "",
             "The variants in `rules/`, each with a page of its own: its board, units (with their pictures), "
             "production frontiers, coverage and rule ledger. Counts are for TripleA 1.9 (`triplea-forge coverage`).",
             "",
             *table(["variant", "game", "extends", "exact / approximate / notes-only", "proven in the engine"], rows),
             "", f"Pictures are in `{IMAGES}/`."]  # fmt: skip
    return "\n".join(lines).rstrip("\n") + "\n"


def variant_pages(made: Made, mutation_results: Path) -> dict[str, bytes]:
    pages = {f"{FOLDER}/index.md": variants_index(made, mutation_results)}
    for name, item in sorted(made.compiled.items()):
        pages[f"{FOLDER}/{name}.md"] = variant_page(item, made, mutation_results)
    return {path: text.encode("utf-8") for path, text in pages.items()}
