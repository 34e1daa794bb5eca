"""A project's output folder built: its variants (all, or those named) compiled into it, or
compared with it (`build --check`). The stage behind `build`, and behind `check` and `balance`,
which build before they play.

`build_project` compiles (or recalls an unchanged build from the cache, emit.cache) and says
nothing: what it found is in the `ProjectBuild` it returns, and the errors are raised
(diagnostics.ForgeError). `write_project` then writes it, or `check_project` compares it with
the folder; either records the build in the cache once it is what the folder holds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from generator.diagnostics import Diagnostic, ForgeError, warnings_or_raise
from generator.emit import cache as buildcache
from generator.emit.outputs import build_outputs
from generator.emit.ownership import in_the_way, orphans, write_outputs
from generator.emit.write import settle, stale_files
from generator.errors import TripleaForgeError
from generator.installed_map import MapLookup
from generator.paths import display_path, spec_reader, template_dir
from generator.spec.resolve import Rules
from generator.targets import Target


@dataclass
class ProjectBuild:
    """What a build of `rules` into `output_dir` made, before anything is written."""

    rules: Rules
    output_dir: Path
    out: str  # the output folder as messages show it
    warnings: list[str]  # the problems said, none of them an error
    boards: list[str]  # the maps checked against (installed_map.MapLookup.board_lines)
    made: int  # how many files the build makes
    recalled: bool = False  # the same build is in the folder already (emit.cache): nothing to do
    files: dict[str, bytes] = field(default_factory=dict)  # path under the folder -> bytes (not recalled)
    every: bool = True  # a build of every variant, which knows the files no variant makes any more
    # For the cache's record: the key as the build read its specs, the maps' stamps, the other reads.
    key: str = ""
    stamps: dict[str, str] = field(default_factory=dict)
    reads: dict[str, str] = field(default_factory=dict)


@dataclass
class Staleness:
    """How the folder differs from a build: files absent, files with other bytes, files no variant makes."""

    absent: list[str]
    changed: list[str]
    leftovers: list[str]

    def __bool__(self) -> bool:
        return bool(self.absent or self.changed or self.leftovers)


def build_project(
    rules: Rules,
    output_dir: Path,
    out: str,
    variants: tuple[str, ...] = (),
    target: Target = "portable",
    strict: bool = False,
    base_map: Path | None = None,
    jobs: int = 0,
) -> ProjectBuild:
    """`variants` (default: every variant of `rules`) built for `output_dir` (shown as `out`), with
    map.yml; ForgeError when they have errors (with --strict, warnings too)."""
    refuse_spec_output(output_dir, rules.root)
    if output_dir.is_dir():
        settle(output_dir)  # a build killed while switching its files is finished first
    maps = MapLookup(base_map=base_map)
    options = [*variants, "--", target, str(strict), str(base_map.resolve() if base_map else "")]
    key = buildcache.fingerprint(rules.root, template_dir(), options)
    done = buildcache.recall(key, output_dir, rules.root, maps.stamp)
    if (
        done is not None
        and not in_the_way(output_dir, done["files"], out)
        and not (orphans(output_dir, done["files"].__contains__) if not variants else [])
    ):
        # Same inputs, same code, and every file it made is unchanged on disk: nothing to do.
        return ProjectBuild(rules, output_dir, out, done["warnings"], done.get("boards", []), len(done["files"]), True)
    if not rules.variants():
        raise TripleaForgeError(f"no variants found in {rules.display_root}/ (expected <variant>/*.yaml)")
    files, problems = build_outputs(rules, list(variants), target, maps, jobs)
    warnings = [str(w) for w in warnings_or_raise(problems, strict)]
    return ProjectBuild(
        rules,
        output_dir,
        out,
        warnings,
        maps.board_lines(),
        len(files),
        files=files,
        every=not variants,
        key=buildcache.fingerprint(rules.root, template_dir(), options, read=rules.digests),  # as read
        stamps={name: maps.stamp(name) for name in maps.consulted()},
        reads=buildcache.other_reads(rules.other_reads, rules.root),
    )


def write_project(build: ProjectBuild) -> tuple[list[str], list[str]]:
    """The build's stale files written into its folder, and (a build of every variant) the games
    no variant makes removed: (written, removed). ForgeError, and nothing written, when a file
    not ours is in the way."""
    keep = build.files.__contains__ if build.every else None
    written, removed = write_outputs(build.output_dir, build.files, keep, build.out)
    _remember(build)
    return written, removed


def check_project(build: ProjectBuild) -> Staleness:
    """How the folder differs from the build, writing nothing; ForgeError when a file not ours
    is where the build would write."""
    foreign = in_the_way(build.output_dir, build.files, build.out)
    if foreign:
        raise ForgeError(foreign)
    stale = stale_files(build.output_dir, build.files)
    absent = [rel for rel in stale if not (build.output_dir / rel).exists()]
    leftovers = orphans(build.output_dir, build.files.__contains__) if build.every else []
    found = Staleness(absent, [rel for rel in stale if rel not in absent], leftovers)
    if not found:
        _remember(build)
    return found


def _remember(build: ProjectBuild) -> None:
    buildcache.remember(build.key, build.files, build.warnings, build.stamps, build.reads, build.boards)


def refuse_spec_output(output_dir: Path, rules_dir: Path) -> None:
    """ForgeError when what is written into `output_dir` would be read as a spec (see paths.spec_reader)."""
    reader = spec_reader(output_dir, rules_dir)
    if reader is not None:
        message = (
            f"--output {display_path(output_dir)} is inside {display_path(reader)}/, where the map.yml a build "
            "writes would be read as a spec; choose a folder outside the rules folder (the default is output/)"
        )
        raise ForgeError([Diagnostic(message)])
