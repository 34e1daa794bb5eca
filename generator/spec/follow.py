"""The spec files followed while they are edited (`watch`, `serve`): which variant folders
changed between two looks, and the loop that looks again and again.

One process stays warm between saves; it polls the spec files' times and sizes, as an editor's
save changes them, and hands the folders that changed to the caller, which rebuilds what read them.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from pathlib import Path

from generator.paths import spec_files, variant_folders

Snapshot = dict[Path, tuple[int, int]]


def snapshot(rules_dir: Path) -> Snapshot:
    """(modification time, size) of every spec file of every variant folder."""
    found: Snapshot = {}
    for folder in variant_folders(rules_dir):
        for path in spec_files(folder):
            try:
                stat = path.stat()
            except OSError:
                try:  # a link that leads nowhere (or in a loop): its own times, so its folder is
                    stat = path.lstat()  # built and the link reported as `build` reports it
                except OSError:
                    continue  # gone since the folder was listed
            found[path] = (stat.st_mtime_ns, stat.st_size)
    return found


def changed_folders(before: Snapshot, after: Snapshot) -> set[str]:
    """Names of the variant folders with a file added, removed or saved between two snapshots."""
    paths = {p for p in before.keys() | after.keys() if before.get(p) != after.get(p)}
    return {p.parent.name for p in paths}


def follow(
    rules_dir: Path,
    last: Snapshot,
    interval: float,
    cycles: int,
    changed: Callable[[set[str]], None],
    say: Callable[[str], None],
) -> None:
    """Look at the spec files every `interval` seconds from `last`; each time folders changed, say
    which and when, then `changed(folders)`. Stops after `cycles` changes (0: never)."""
    done = 0
    while not cycles or done < cycles:
        time.sleep(interval)
        now = snapshot(rules_dir)
        folders = changed_folders(last, now)
        if not folders:
            continue
        last = now
        say(f"[{time.strftime('%H:%M:%S')}] {', '.join(sorted(folders))} changed")
        changed(folders)
        done += 1
        # Commands run with the cyclic collector paused (cli.group); a long session collects
        # between saves, after the result is said, so its memory stays flat.
        gc.collect()
