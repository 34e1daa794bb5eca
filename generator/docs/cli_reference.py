"""The CLI reference page: every command of the click group and every argument and option, as --help has them."""

from __future__ import annotations

import inspect
from collections.abc import Iterator

import click

from generator.docs.markdown import GENERATED, cell, code, prose, table

PROGRAM = "triplea-forge"


def commands(group: click.Group, parent: click.Context) -> Iterator[tuple[click.Command, click.Context]]:
    """Every command under `group`, depth first in name order, each with the context --help would use."""
    for name in sorted(group.commands):
        command = group.commands[name]
        if command.hidden:
            continue
        context = click.Context(command, info_name=name, parent=parent)
        yield command, context
        if isinstance(command, click.Group):
            yield from commands(command, context)


def _help_paragraphs(text: str) -> list[str]:
    """Click's help text as Markdown paragraphs; a `\\b` paragraph (kept as typed) becomes a code block."""
    out: list[str] = []
    for paragraph in inspect.cleandoc(text).split("\n\n"):
        if paragraph.startswith("\b"):
            out += ["```text", paragraph.removeprefix("\b").strip("\n"), "```", ""]
        else:
            out += [prose(paragraph), ""]
    return out


def _params(command: click.Command, context: click.Context) -> list[list[str]]:
    rows = []
    for param in command.get_params(context):
        if isinstance(param, click.Argument):
            many = " (any number)" if param.nargs == -1 else ""
            need = "required" if param.required else "optional"
            rows.append([code(param.make_metavar(context)), "argument", cell(f"{need}{many}")])
            continue
        record = param.get_help_record(context)
        if record is None:  # a hidden option
            continue
        names, meaning = record
        kind = "flag" if isinstance(param, click.Option) and param.is_flag else "option"
        rows.append([code(names), kind, cell(meaning)])
    return rows


def command_title(context: click.Context) -> str:
    return context.command_path


def cli_reference(root: click.Group) -> str:
    """The page: one section per command, its usage, help and a table of its parameters."""
    top = click.Context(root, info_name=PROGRAM, **root.context_settings)
    lines = [
        GENERATED,
        "",
        "# Commands",
        "",
        f"Every command of `{PROGRAM}` with every argument and option, as `{PROGRAM} COMMAND --help` prints "
        "them (the same text, the same defaults). Exit codes: 0 success, 1 problems in your input, "
        "2 wrong usage, 3 a bug of ours.",
        "",
    ]
    for command, context in commands(root, top):
        usage = " ".join(command.collect_usage_pieces(context))
        lines += [f"## `{command_title(context)}`", "", "```text", f"{context.command_path} {usage}", "```", ""]
        lines += _help_paragraphs(command.help or "")
        rows = _params(command, context)
        if rows:
            lines += [*table(["parameter", "kind", "meaning"], rows), ""]
    return "\n".join(lines).rstrip("\n") + "\n"
