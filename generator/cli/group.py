"""The `triplea-forge` command group: its shared options, how problems are shown, exit codes.

Every error a stage raises derives from `errors.TripleaForgeError`; it is said here, once, for
every command (`_say`): no command translates an error of its own.
"""

from __future__ import annotations

import codecs
import errno
import gc
import os
import sys
from pathlib import Path
from typing import NoReturn

import click

from generator.cli.bounds import MAX_WORKERS, FiniteFloat
from generator.diagnostics import Diagnostic, ForgeError, warnings_or_raise
from generator.errors import TripleaForgeError, UsageProblem
from generator.paths import display_path
from generator.targets import TARGETS

RULES_OPTION = click.option(
    "--rules",
    "rules_dir",
    default="rules",
    show_default=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder of variant specs (one sub-folder each).",
    callback=lambda _ctx, _param, folder: _rules_in_use(folder),
)


def _rules_in_use(folder: Path) -> Path:
    """FOLDER, made the rules folder whose variants' proofs the engine compiles and lists."""
    from generator.catalog.scenarios import use_rules

    use_rules(folder)
    return folder


TARGET_OPTION = click.option(
    "--target",
    type=click.Choice(TARGETS),
    default="portable",
    show_default=True,
    help="Engines the game must load in: portable = both TripleA 1.9 and 2.x.",
)
JOBS_OPTION = click.option(
    "-j",
    "--jobs",
    default=0,
    type=click.IntRange(0, MAX_WORKERS),
    help="Variants compiled at once, each in a worker process (default 0: one per core; 1: in this process).",
)
BOARD_OPTION = click.option(
    "--base-map",
    "base_map",
    default=None,
    type=click.Path(exists=True, path_type=Path),
    help="The map the games are played on (a downloadedMaps/<map> folder or zip): every territory and unit "
    "picture is checked against it. Default: game.map in ~/triplea/downloadedMaps, else a warning.",
)
REPRODUCIBLE_OPTION = click.option(
    "--reproducible/--varied",
    default=False,
    show_default=True,
    help="--reproducible: the same seed plays the same game, the AIs' own choices included, at 10-80 % "
    "more CPU (see docs/how-to/balance-study.md). --varied: the dice and actions follow the seed, the AIs' plans vary.",
)
ACTION_POLICIES = ["rules", "none", "random", "cover", "all-early"]
ACTIONS_OPTION = click.option(
    "--actions",
    type=click.Choice(ACTION_POLICIES),
    default="rules",
    show_default=True,
    help="How the AIs take the variant's user and political actions (the 1.9 AIs take none themselves): "
    "rules takes gains whenever open, price advantages before a purchase, scorched earth only when threatened, "
    "choices at --choice-rate (see docs/how-to/balance-study.md); cover takes each action once in the run's "
    "games, as soon as it is open; random flips a coin per open action; none takes none; all-early attempts every "
    "action the moment it is open; an action whose trigger throws fails the game.",
)
CHOICE_RATE_OPTION = click.option(
    "--choice-rate",
    default=1.0,
    show_default=True,
    type=FiniteFloat(0, 1),  # NaN passes click's FloatRange and failed every game in the harness
    help="With --actions rules: the chance a one-time choice (a declaration, a treaty break) is taken at each "
    "step it is open (1: at the first opportunity).",
)


def action_policy(actions: str, choice_rate: float) -> str:
    """The harness's policy name: 'rules:0.5' carries the choice rate when it is not the default."""
    return f"rules:{choice_rate:g}" if actions == "rules" and choice_rate != 1.0 else actions


OUTPUT_OPTION = click.option(
    "--output",
    "output_dir",
    default="output",
    show_default=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder the generated map files go to.",
)

# `schema` and `patterns`: the text goes to the standard output unless -o names a file.
TEXT_OUTPUT_OPTION = click.option(
    "-o",
    "--output",
    "out",
    type=click.Path(dir_okay=False, allow_dash=True, path_type=Path),
    help="Write here, not stdout.",
)


def _display(path: Path) -> str:
    """A path as shown in messages: relative to the working folder when inside it."""
    return display_path(path)


def _report(problems: list[Diagnostic], strict: bool = False) -> None:
    """Print every warning; raise (exit 1) when there are errors, with the warnings beside them
    (diagnostics.warnings_or_raise). With --strict, warnings count as errors."""
    for warning in warnings_or_raise(problems, strict):
        click.echo(str(warning), err=True)


# Words we print use a few characters outside ASCII; a terminal in a legacy encoding gets these.
_ASCII_FOR = {
    "\u2192": "->", "\u2190": "<-", "\u2026": "...", "\u00b1": "+/-", "\u00d7": "x",
    "\u2014": "-", "\u2013": "-", "\u2265": ">=", "\u2264": "<=",
}  # fmt: skip


def _ascii_stand_in(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    bad = error.object[error.start : error.end]
    return "".join(_ASCII_FOR.get(char, "?") for char in bad), error.end


codecs.register_error("triplea-forge-stand-in", _ascii_stand_in)


def _printable_anywhere() -> None:
    """Output in a terminal that cannot encode a character gets a stand-in, not a crash."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and (getattr(stream, "encoding", "") or "").lower().replace("-", "") != "utf8":
            reconfigure(errors="triplea-forge-stand-in")


# Errors of the machine a command runs on, not of triplea-forge: said in words, exit 1.
_THE_MACHINES = {errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EROFS, errno.EACCES, errno.EPERM}


def _internal_error(exc: Exception) -> SystemExit:
    """A bug of ours: one line and exit 3 (TRIPLEA_FORGE_TRACEBACK=1: the traceback instead)."""
    if os.environ.get("TRIPLEA_FORGE_TRACEBACK"):
        raise exc
    click.echo(f"internal error, please report it (TRIPLEA_FORGE_TRACEBACK=1 shows details): {exc!r}", err=True)
    return SystemExit(3)


def _say(error: TripleaForgeError, ctx: click.Context) -> NoReturn:
    """Say `error` as click says its own errors, then exit with the error's code: `Error: <message>`;
    a usage problem under the usage line of the command given (`ctx`); problems in the user's files
    one a line, then their count."""
    if isinstance(error, ForgeError):
        click.echo(str(error), err=True)
        click.echo(error.tally(), err=True)
    elif isinstance(error, UsageProblem):
        click.UsageError(str(error), ctx).show()
    else:
        click.ClickException(str(error)).show()
    raise SystemExit(error.exit_code)


class _Command(click.Command):
    """A command whose errors are said by `_say`, in its own context (its usage line)."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except TripleaForgeError as exc:
            _say(exc, ctx)


class _Group(click.Group):
    """Turns a bug of ours into one clear line and exit code 3 instead of a traceback.

    Set TRIPLEA_FORGE_TRACEBACK=1 to see the traceback when reporting the bug. Its commands (and
    groups: `map`) say the errors of triplea-forge (`_say`).
    """

    command_class = _Command
    group_class = type  # a sub-group (`map`) is one of these too

    def invoke(self, ctx: click.Context) -> object:
        _printable_anywhere()
        # A command allocates many small objects and frees them at exit: the cyclic collector's
        # passes cost up to half the time of big builds and find nothing to collect.
        collecting = gc.isenabled()
        gc.disable()
        # What a command sets in the environment is for the processes it starts (`--rules` names
        # its folder there, catalog.scenarios.use_rules): a command run in this process (watch,
        # tests) leaves the environment as it found it for the next.
        environment = dict(os.environ)
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort, SystemExit):
            raise
        except TripleaForgeError as exc:  # raised before a command ran (reading its options)
            _say(exc, ctx)
        except BrokenPipeError:
            # The reader of our output went away (`| head`): not a bug of ours. Click's main ends
            # the command quietly with exit 1, as a command in a pipeline should.
            raise
        except OSError as exc:
            if exc.errno not in _THE_MACHINES:
                raise _internal_error(exc) from exc
            # A full disk or a read-only folder where the output goes (the standard output too):
            # the machine's problem, said as one, not a bug to report.
            where = f"{exc.filename}: " if exc.filename else "writing the output: "
            raise click.ClickException(f"{where}{exc.strerror}") from exc
        except Exception as exc:
            raise _internal_error(exc) from exc
        finally:
            if os.environ != environment:
                os.environ.clear()
                os.environ.update(environment)
            if collecting:
                gc.enable()


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="triplea-forge")
def cli() -> None:
    """Compile TripleA mods written as YAML specs into game XML, notes and map files."""
