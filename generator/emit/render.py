"""Stage 4, render: fill the templates with the view of a spec. One strict Jinja environment."""

from __future__ import annotations

import functools
import gc
from collections.abc import Iterator
from contextlib import contextmanager, suppress

import jinja2
from jinja2.bccache import Bucket
from markupsafe import Markup

from generator.emit.notes import ledger_sections
from generator.emit.view import build_view
from generator.paths import cache_dir, template_dir
from generator.spec.model import Spec


class _BytecodeCache(jinja2.FileSystemBytecodeCache):
    """Compiled templates kept between runs (keyed by template path, checked against its source).

    Compiling game.xml.j2 costs a fresh process about as much as rendering a Revised-sized game;
    a cache that cannot be read or written only costs that time again.
    """

    def load_bytecode(self, bucket: Bucket) -> None:
        with suppress(OSError):  # jinja already treats a missing, stale or damaged entry as a miss
            super().load_bytecode(bucket)

    def dump_bytecode(self, bucket: Bucket) -> None:
        with suppress(OSError):
            super().dump_bytecode(bucket)


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    folder = cache_dir("templates")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return _BytecodeCache(str(folder))


@functools.cache
def environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(template_dir()),
        bytecode_cache=_bytecode_cache(),
        undefined=jinja2.StrictUndefined,
        autoescape=True,  # every template is XML or HTML
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


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
