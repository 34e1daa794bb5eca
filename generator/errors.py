"""The one root of every error triplea-forge says to its user, and the kinds the CLI tells apart.

A stage raises a `TripleaForgeError` (or a subclass) with the message in words; the CLI catches
the root once (cli.group) and prints `Error: <message>` with the error's `exit_code`. No stage
knows the CLI: this module imports nothing, so any module may derive from it.

- `TripleaForgeError`: the run cannot go on; exit 1.
- `UsageProblem`: the command line asks for something the command cannot do; shown under the
  command's usage line, exit 2 (as a wrong option is).
- `ToolUnusable`: a program triplea-forge runs (the engine, a cluster) could not be run at all,
  which is no verdict on the games; exit 2.
- `diagnostics.ForgeError`: problems located in the user's files, one per line; exit 1.
"""

from __future__ import annotations


class TripleaForgeError(Exception):
    """A reason the run cannot go on, in one message the user reads."""

    exit_code: int = 1


class UsageProblem(TripleaForgeError):
    """The command line names something the command cannot take (a file, a variant, a repository)."""

    exit_code = 2


class ToolUnusable(TripleaForgeError):
    """A program triplea-forge runs could not be run at all (not a verdict on the games played)."""

    exit_code = 2
