"""The `triplea-forge` command: wires the pipeline stages together, nothing more.

Reads the command line; `group` holds the click group and its options; importing `authoring`
(build, validate, ...), `release` (check, package, ...) and `playtest` (preview, play) registers
their commands, each importing its stages only when it runs, so the tool starts fast.
"""

from generator.cli import authoring, playtest, release
from generator.cli.group import cli

__all__ = ["authoring", "cli", "playtest", "release"]
