"""The `triplea-forge` command: wires the pipeline stages together, nothing more.

Reads the command line; `group` holds the click group and its options, and importing `authoring`
(build, validate, schema, import), `release` (check, package, ...), `balance`, `playtest` (preview, play),
`watch` and `maps` (map get, map list) registers them, each importing its stages only when it runs, so the
tool starts fast.
"""

from generator.cli import authoring, balance, maps, playtest, release, watch
from generator.cli.group import cli

__all__ = ["authoring", "balance", "cli", "maps", "playtest", "release", "watch"]
