"""The rules folder as it was at a git revision, copied into a temporary folder for `diff`.

Only the spec files (`*.yaml` under the rules folder) are read, from git's object store: a revision
never touches the working tree, and a variant's `extends` chain resolves within the same revision
because the whole folder of that revision is copied.
"""

from __future__ import annotations

import subprocess
from pathlib import Path, PurePosixPath

from generator.errors import TripleaForgeError
from generator.paths import SPEC_SUFFIXES


class GitError(TripleaForgeError):
    """A one-line reason why a revision cannot be read."""


def _git(cwd: Path, *args: str, data: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", *args], cwd=cwd, input=data, capture_output=True, timeout=120)
    except FileNotFoundError as exc:
        raise GitError("git is not installed (needed for --from/--to)") from exc


def _existing(path: Path) -> Path:
    """The folder itself, or its nearest existing parent (the rules folder may be gone today)."""
    path = path.resolve()
    while not path.is_dir() and path != path.parent:
        path = path.parent
    return path


def repository(rules_dir: Path) -> tuple[Path, str]:
    """(top of the work tree, the rules folder relative to it, POSIX, '' at the top)."""
    here = _existing(rules_dir)
    found = _git(here, "rev-parse", "--show-toplevel")
    if found.returncode != 0:
        raise GitError(f"{rules_dir} is not inside a git repository (--from/--to read rules from git)")
    top = Path(found.stdout.decode().strip()).resolve()
    try:
        relative = rules_dir.resolve().relative_to(top)
    except ValueError as exc:
        raise GitError(f"{rules_dir} is outside the git repository at {top}") from exc
    return top, relative.as_posix() if relative.parts else ""


def resolve_revision(top: Path, revision: str) -> str:
    """The commit a revision names; an unknown revision is a clean error."""
    if revision.startswith("-"):
        raise GitError(f"unknown revision '{revision}'")  # never let a revision read as a git option
    found = _git(top, "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}")
    if found.returncode != 0:
        raise GitError(f"unknown revision '{revision}'")
    return found.stdout.decode().strip()


def export_rules(top: Path, prefix: str, revision: str, dest: Path) -> int:
    """Write every `*.yaml` under `prefix` at `revision` into `dest` (same layout); returns the count."""
    commit = resolve_revision(top, revision)
    listing = _git(top, "ls-tree", "-r", "-z", "--full-tree", commit, "--", *([prefix] if prefix else []))
    if listing.returncode != 0:
        raise GitError(f"cannot list {prefix or 'the repository'} at {revision}: {listing.stderr.decode().strip()}")
    wanted: list[tuple[str, PurePosixPath]] = []
    for record in listing.stdout.split(b"\0"):
        if not record:
            continue
        meta, _, raw_path = record.partition(b"\t")
        mode, kind, sha = meta.decode().split()
        path = PurePosixPath(raw_path.decode("utf-8", "surrogateescape"))
        rel = path.relative_to(prefix) if prefix else path
        # Regular files only (no symlinks or submodules), one variant folder deep, as `Rules` reads them;
        # of plain names (a tree made by hand may name '..', which would be written outside `dest`).
        plain = all(part not in ("", ".", "..") and "\\" not in part for part in rel.parts)
        if (
            kind == "blob"
            and mode in ("100644", "100755")
            and path.suffix in SPEC_SUFFIXES
            and len(rel.parts) == 2
            and plain
        ):
            wanted.append((sha, rel))
    if not wanted:
        return 0
    # One `cat-file --batch` reads every blob in a single process.
    batch = _git(top, "cat-file", "--batch", data="".join(f"{sha}\n" for sha, _ in wanted).encode())
    if batch.returncode != 0:
        raise GitError(f"cannot read rules at {revision}: {batch.stderr.decode().strip()}")
    out, at = batch.stdout, 0
    for _, rel in wanted:
        header_end = out.index(b"\n", at)
        size = int(out[at:header_end].split()[2])
        content = out[header_end + 1 : header_end + 1 + size]
        at = header_end + 1 + size + 1  # the content is followed by a newline
        target = dest.joinpath(*rel.parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
    return len(wanted)
