"""Stage 4, render: fill the templates with the view of a spec. One strict Jinja environment."""

from __future__ import annotations

import functools
from pathlib import Path

import jinja2
from markupsafe import Markup

from generator.model import Spec
from generator.notes import ledger_sections
from generator.view import build_view


def template_dir() -> Path:
    """`templates/` of a source checkout, or its copy inside an installed wheel."""
    packaged = Path(__file__).parent / "_templates"
    return packaged if packaged.is_dir() else Path(__file__).parents[1] / "templates"


@functools.cache
def environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(template_dir()),
        undefined=jinja2.StrictUndefined,
        autoescape=True,  # every template is XML or HTML
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def render_notes_body(spec: Spec) -> str:
    """The notes shown in the game: the spec's prose (the author's HTML) and the rule ledger."""
    if not spec.rule_ledger:
        return spec.notes  # nothing generated: keep the author's text exactly
    template = environment().get_template("notes_body.html.j2")
    # The prose is the author's HTML: trusted markup, not text to escape.
    return template.render(prose=Markup(spec.notes), sections=ledger_sections(spec))


def render_game_xml(variant: str, spec: Spec) -> str:
    view = build_view(spec, render_notes_body(spec))
    return environment().get_template("game.xml.j2").render(variant=variant, g=view)


def render_notes(variant: str, spec: Spec) -> str:
    title = f"{spec.game.name} {spec.game.version or ''}".strip()
    body = Markup(render_notes_body(spec))
    return environment().get_template("notes.html.j2").render(variant=variant, title=title, body=body)
