"""The `triplea-forge` command: wires the pipeline stages together, nothing more.

Importing `authoring`, `release`, `compare` (diff), `coverage`, `balance`, `playtest`, `watch`, `site`
(site, serve) and `maps` (map get, map list) registers their commands on the click group of `group`;
each imports its stages only when it runs (a fast start).
"""

from generator.cli import authoring, balance, compare, coverage, maps, playtest, release, site, watch
from generator.cli.group import cli

__all__ = ["authoring", "balance", "cli", "compare", "coverage", "maps", "playtest", "release", "site", "watch"]
