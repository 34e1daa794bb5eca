"""Stage 4, render: fill the templates with the view of a spec. One strict Jinja environment."""

from __future__ import annotations

import functools
import gc
from collections.abc import Iterator
from contextlib import contextmanager

import jinja2
from markupsafe import Markup

from generator import templating
from generator.emit.notes import ledger_sections
from generator.emit.view import build_view
from generator.spec.model import Spec


@functools.cache
def environment() -> jinja2.Environment:
    return templating.environment(autoescape=True)  # every template here is XML or HTML


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector: the view and the rendered text form no cycles.

    A big game allocates hundreds of thousands of small objects here, each allocation counting
    towards a full collection that walks the whole (large, live) spec: pausing halves the time.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def render_notes_body(spec: Spec) -> str:
    """The notes shown in the game: the spec's prose (the author's HTML) and the rule ledger."""
    if not spec.rule_ledger:
        return spec.notes  # nothing generated: keep the author's text exactly
    template = environment().get_template("notes_body.html.j2")
    # The prose is the author's HTML: trusted markup, not text to escape.
    return template.render(prose=Markup(spec.notes), sections=ledger_sections(spec))


def render_game_xml(variant: str, spec: Spec) -> str:
    with _collector_paused():
        view = build_view(spec, render_notes_body(spec))
        return environment().get_template("game.xml.j2").render(variant=variant, g=view)


def render_notes(variant: str, spec: Spec) -> str:
    title = f"{spec.game.name} {spec.game.version or ''}".strip()
    body = Markup(render_notes_body(spec))
    return environment().get_template("notes.html.j2").render(variant=variant, title=title, body=body)
