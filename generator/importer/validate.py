"""Validate any TripleA game XML, generated or hand-written, and point at its lines.

The XML is checked against the engine's DTD (for targets including 1.9), then imported in memory
into a spec whose entries remember the XML line they came from, so every check made for specs
(references, names, options and their values per engine) reports `file.xml:line`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from generator.checks.board import check_territories
from generator.checks.dtd import check_xml_against_dtd
from generator.checks.engine_rules import check_engine_rules, not_said
from generator.checks.gates import check_gates
from generator.checks.options import check_options, engine_meant
from generator.checks.properties import check_properties
from generator.checks.references import check_spec
from generator.checks.sanity import check_sanity
from generator.checks.unit_art import plan_unit_art
from generator.checks.xsd import attachment_spans, check_xml_against_xsd
from generator.diagnostics import Diagnostic, Mark, Severity
from generator.importer.convert import MAX_XML_BYTES, import_located, read_game
from generator.importer.variant_files import plain
from generator.importer.xml_target import infer_target, only_19_as_notes
from generator.installed_map import MapLookup
from generator.paths import read_regular_file
from generator.spec.expand import expand_templates
from generator.spec.validation import validate_spec
from generator.targets import TARGET_ENGINES, Target


def validate_xml_file(
    path: Path, display: str, target: Target | None = None, maps: MapLookup | None = None
) -> list[Diagnostic]:
    """Every problem found in one game XML for the `target` engines.

    Without a target, a game whose options only one engine takes is checked for that engine
    (it cannot be meant for the other), and every other game for both. Where `maps` finds the
    game's map (`--base-map`, or installed), its territories and unit pictures are checked too.
    """
    root, problems = read_game(path, display)
    if root is None:
        return problems
    data = read_regular_file(path, MAX_XML_BYTES)
    tree, found = import_located(path, display)
    # What import cannot represent is not a mistake in the XML: say so as a warning.
    problems += [Diagnostic(p.message, p.mark, p.key_path, Severity.WARNING) for p in found]
    spec = None
    if tree is not None:
        tree, found = expand_templates(tree)
        problems += found
        if tree is None:  # variables that would expand beyond bounds: nothing more to say
            return problems
        spec, found = validate_spec(tree)
        problems += found
    judged = None
    if target is None:  # read from the file: which engine it is for, said on its first line
        target, note = infer_target(spec, tree, data)
        judged = Diagnostic(note, Mark(display, 1, 1), severity=Severity.WARNING)
        if target != "portable":
            problems.append(judged)
    if "1.9" in TARGET_ENGINES[target]:
        problems += check_xml_against_dtd(data, display)
        if any(p.message.startswith("XML is not well-formed") for p in problems):
            return only_19_as_notes(problems, judged) if judged and target == "portable" else problems
    # The schema sees the XML as written; with 2.x variables the options only mean something once
    # expanded, and the option checks below see them expanded.
    schema_findings = [] if b"<variableList" in data else check_xml_against_xsd(data, display, target)
    if spec is not None and tree is not None:
        problems += check_spec(spec, tree, target)
        problems += check_options(spec, tree, target)
        problems += not_said(check_engine_rules(spec, tree, target), problems)
        problems += check_properties(spec, tree, target)
        # A warning at a place an error is said of is its echo (a player without a capital, which
        # 1.9 fails on in play), as for specs (checks.variant).
        errors = {p.key_path for p in problems if p.severity is Severity.ERROR and p.key_path}
        problems += [
            p for p in check_sanity(spec, tree, target) if p.severity is Severity.ERROR or p.key_path not in errors
        ]
        if not any(p.severity is Severity.ERROR for p in problems):  # as for specs: gates of a whole game
            problems += check_gates(spec, tree, target, {})
        if maps is not None and (installed := maps.find(spec.game.map)) is not None:
            problems += check_territories(spec, tree, installed)
            # An XML names no drawn pictures of its own: nothing to read beside it.
            problems += plan_unit_art(spec, tree, installed, maps.stock, lambda _: None, path.parent, True).problems
    problems += _not_said_yet(schema_findings, problems, attachment_spans(data))
    return only_19_as_notes(problems, judged) if judged and target == "portable" else problems


def import_checked(path: Path, display: str) -> tuple[dict[str, Any] | None, list[Diagnostic]]:
    """A game XML as a spec tree to write, with every problem of it located at the XML's lines.

    What import writes is checked as the spec it becomes (structure, references) while the lines
    of the XML are still known, so a broken game is reported where it is broken, not in files
    that were never written. Only what any engine accepts is asked (target 2.x, as import keeps it).
    """
    located, problems = import_located(path, display)
    if located is None:
        return None, problems
    expanded, found = expand_templates(located)
    if expanded is None:  # variables that would expand beyond bounds: nothing more to say
        return None, problems + found
    spec, more = validate_spec(expanded)
    problems += found + more
    tree = plain(located)
    if spec is not None:
        problems += check_spec(spec, expanded, "2.x")
        meant = engine_meant(spec, expanded)
        if meant and not spec.game.target:  # built for the one engine it can be meant for
            tree["game"]["target"] = meant
    return tree, problems


def _not_said_yet(schema: list[Diagnostic], said: list[Diagnostic], spans: list[tuple[int, int]]) -> list[Diagnostic]:
    """Schema findings about attachments the option checks have not already explained."""
    lines = {p.mark.line for p in said if p.mark is not None and p.severity is Severity.ERROR}
    kept = []
    for finding in schema:
        line = finding.mark.line if finding.mark else 0
        span = next(((a, b) for a, b in spans if a == line), (line, line))
        if not any(span[0] <= other <= span[1] for other in lines):
            kept.append(finding)
    return kept
