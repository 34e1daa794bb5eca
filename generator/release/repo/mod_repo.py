"""What makes a new mod folder a repository a mod maker can use at once: its pin and its git history.

The pin (`requirements.txt`) must be a line Debian's pip 23 installs: `git+ssh:///path` and
`git+file://` are refused there, so a checkout with a remote is pinned by that remote's https URL
(what a CI machine can clone without keys) and a checkout without one by `triplea-forge @
file:///path?rev=...`, which pip builds from the folder as it is (the query: see _revision). The
folder becomes a git repository with a first commit, because `diff --from` and the CI's pull
request summary read its history. `tracked` asks git which files it holds: `build --check` tells
an output file never committed from a stale one.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit
from urllib.request import url2pathname

FALLBACK_IDENTITY = ("triplea-forge", "triplea-forge@localhost")
# `user@host:path` (scp-like syntax git takes for ssh), the host without a scheme.
_SCP_LIKE = re.compile(r"^(?:[^@/:]+@)?(?P<host>[^/:]+):(?P<path>(?!/).+)$")


def _git(folder: Path, *args: str, identity: tuple[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    who = ["-c", f"user.name={identity[0]}", "-c", f"user.email={identity[1]}"] if identity else []
    return subprocess.run(["git", *who, "-C", str(folder), *args], capture_output=True, text=True, check=False)


def https_url(origin: str) -> str | None:
    """The https URL a CI machine clones `origin` by, or None when it is a path on this machine."""
    if origin.startswith(("https://", "http://")):
        return origin
    scp = _SCP_LIKE.match(origin)
    if "://" not in origin and scp is not None:
        return f"https://{scp['host']}/{scp['path']}"
    parts = urlsplit(origin)
    if parts.scheme in ("ssh", "git", "git+ssh", "ssh+git") and parts.hostname:
        return f"https://{parts.hostname}{parts.path}"
    return None


def checkout_pin(checkout: Path) -> tuple[str, str | None]:
    """The requirement line that installs `checkout`'s triplea-forge, and a note when only this
    machine can install it (or when its commit is not on its remote yet)."""
    commit = _git(checkout, "rev-parse", "HEAD").stdout.strip()
    origin = _git(checkout, "remote", "get-url", "origin").stdout.strip()
    url = https_url(origin) if origin else None
    if url is not None:
        # A release is pinned by its tag (a line people read), anything else by its commit.
        tag = _git(checkout, "describe", "--tags", "--exact-match", "HEAD").stdout.strip() if commit else ""
        pin = f"triplea-forge @ git+{url}" + (f"@{tag or commit}" if commit else "")
        pushed = commit and _git(checkout, "branch", "-r", "--contains", commit).stdout.strip()
        if commit and not pushed:
            return pin, f"commit {commit[:12]} of {checkout} is not on origin yet: push it before the mod's CI runs"
        return pin, None
    note = (
        f"requirements.txt installs triplea-forge from {checkout}, which only this machine can reach; "
        "for CI, edit it or give --install 'triplea-forge @ git+https://...'"
    )
    return f"triplea-forge @ {checkout.resolve().as_uri()}?rev={_revision(checkout, commit)}", note


def _revision(checkout: Path, commit: str) -> str:
    """What the checkout holds: its commit, and a digest of its uncommitted changes if any.

    pip keeps the wheel it built from a `file://` folder under the URL (when the folder's name
    looks like `name-version`, as `triplea-forge` does), so a pin by path alone would install that
    old wheel after the checkout changed; a query naming the revision (which pip ignores when it
    reads the folder) gives each revision a wheel of its own.
    """
    changes = hashlib.sha256(_git(checkout, "diff", "HEAD", "--binary").stdout.encode())
    untracked = _git(checkout, "ls-files", "--others", "--exclude-standard", "-z").stdout.split("\0")
    for rel in sorted(filter(None, untracked)):
        path = checkout / rel
        changes.update(rel.encode() + b"\0" + (path.read_bytes() if path.is_file() else b""))
    dirty = bool(_git(checkout, "status", "--porcelain").stdout.strip())
    return (commit or "none") + (f".dirty-{changes.hexdigest()[:12]}" if dirty else "")


def first_commit(folder: Path, message: str) -> str | None:
    """Make `folder` a git repository holding everything in it as its first commit; a note when
    that could not be done as asked (no git; no user.name/email: then it is made as triplea-forge)."""
    try:
        made = _git(folder, "init", "-q")
    except FileNotFoundError:
        return f"git is not installed: {folder} is not a git repository yet (git init; git add -A; git commit)"
    if made.returncode != 0:
        return f"git init failed in {folder}: {made.stderr.strip()}; the files are written"
    _git(folder, "add", "-A")
    known = all(_git(folder, "config", key).stdout.strip() for key in ("user.name", "user.email"))
    identity = None if known else FALLBACK_IDENTITY
    committed = _git(folder, "commit", "-q", "-m", message, identity=identity)
    if committed.returncode != 0:
        return f"git commit failed in {folder}: {committed.stderr.strip()}; the files are written and staged"
    if identity is not None:
        return (
            f"git has no user.email here: the first commit is made as {identity[0]} <{identity[1]}>; "
            "set yours with git config --global user.name/user.email"
        )
    return None


def installed_pin(direct_url: str | None, version: str) -> tuple[str, str | None]:
    """The pin of a triplea-forge installed as a package: the source pip recorded it was installed
    from (PEP 610 `direct_url.json`: a git URL at its commit; a folder, by its git remote at its
    tag or commit when it is a clone that has one, else by path), else (no record: installed from
    an index) its version."""
    try:
        recorded = json.loads(direct_url) if direct_url else None
    except ValueError:
        recorded = None
    url = recorded.get("url") if isinstance(recorded, dict) else None
    if not isinstance(url, str) or not url:
        return f"triplea-forge=={version}", None
    if url.startswith("file:") and isinstance(recorded, dict) and "dir_info" in recorded:
        folder = Path(url2pathname(urlsplit(url).path))
        try:
            origin = _git(folder, "remote", "get-url", "origin").stdout.strip() if (folder / ".git").exists() else ""
            if origin and https_url(origin) is not None:
                return checkout_pin(folder)
        except FileNotFoundError:
            pass  # no git here: pinned by the folder, as pip recorded it
    vcs = recorded.get("vcs_info") if isinstance(recorded, dict) else None
    if isinstance(vcs, dict) and vcs.get("vcs") == "git":
        commit = vcs.get("commit_id")
        return f"triplea-forge @ git+{url}" + (f"@{commit}" if isinstance(commit, str) else ""), None
    if url.startswith("file:"):
        note = f"requirements.txt installs triplea-forge from {url}, which only this machine can reach"
        return f"triplea-forge @ {url}", note
    return f"triplea-forge @ {url}", None


def tracked(paths: Sequence[Path]) -> set[Path] | None:
    """Which of `paths` (absolute, in one work tree) git tracks; None when they are in no git work
    tree, or git is not installed. A path is asked of the work tree holding its nearest folder
    that exists, so a file of a folder never committed (output/ in a fresh clone) is asked too."""
    if not paths:
        return set()
    where = next((p for p in paths[0].parents if p.is_dir()), None)
    try:
        top = _git(where, "rev-parse", "--show-toplevel") if where is not None else None
    except FileNotFoundError:
        return None
    if top is None or top.returncode != 0:
        return None
    root = Path(top.stdout.strip()).resolve()
    wanted = {p.resolve(): p for p in paths}
    listed = _git(root, "ls-files", "-z", "--full-name", "--", *(str(p) for p in wanted))
    if listed.returncode != 0:
        return None  # a path outside the work tree: nothing can be said of it
    return {wanted[root / name] for name in listed.stdout.split("\0") if name and root / name in wanted}
