"""The Jinja set-up every stage shares: templates from `templates/`, compiled ones cached on disk.

Game XML and notes (emit) and rule patterns (spec) are both rendered from `templates/`; each stage
makes its own environment (escaping differs), with this loader and bytecode cache.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from typing import Any

import jinja2
from jinja2.bccache import Bucket

from generator.paths import cache_dir, template_dir


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


def bytecode_cache() -> jinja2.BytecodeCache | None:
    folder = cache_dir("templates")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return _BytecodeCache(str(folder))


def loader() -> jinja2.FileSystemLoader:
    return jinja2.FileSystemLoader(template_dir())


def environment(*, autoescape: bool, finalize: Callable[[Any], Any] | None = None) -> jinja2.Environment:
    """A strict environment over templates/ (an undefined name is an error), blocks trimmed."""
    return jinja2.Environment(
        loader=loader(),
        bytecode_cache=bytecode_cache(),
        undefined=jinja2.StrictUndefined,
        autoescape=autoescape,
        finalize=finalize,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
