"""The documentation site: generated pages current, the reference complete, the build strict, the pages
sound in a real browser, and the README a short landing page that leads into the site."""

from __future__ import annotations

import functools
import html
import re
import shutil
import subprocess
import sys
import threading
import urllib.parse
import urllib.request
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import click
import pytest

from generator.catalog import engine_json, load_catalog
from generator.docs.cli_reference import commands
from generator.docs.markdown import GENERATED, cell
from generator.docs.site import stale, write
from generator.docs.spec_reference import TOP, documented_keys
from generator.spec.patterns import PATTERNS
from generator.spec.resolve import Rules
from generator.targets import ENGINES
from tests.browser import Browser
from tests.helpers import ROOT, variant_spec

DOCS = ROOT / "docs"
MKDOCS = [sys.executable, "-m", "mkdocs"]


def _page(path: str) -> str:
    return (ROOT / path).read_text(encoding="utf-8")


def _section(text: str, heading: str) -> str:
    """From `heading` (a whole line) to the next heading of the same or a higher level."""
    level = heading.split(" ", 1)[0]
    start = text.index(f"\n{heading}\n") + 1
    ends = [m.start() for m in re.finditer(rf"\n(#{{1,{len(level)}}}) ", text[start + len(heading) :])]
    return text[start : start + len(heading) + ends[0]] if ends else text[start:]


def test_generated_pages_and_pictures_are_current() -> None:
    """`python -m generator.docs --check`, as a contributor runs it: nothing to regenerate."""
    result = subprocess.run([sys.executable, "-m", "generator.docs", "--check"], cwd=ROOT, capture_output=True,
                            text=True, timeout=600)  # fmt: skip
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_a_stale_page_or_an_orphan_picture_is_found(tmp_path: Path) -> None:
    """The staleness check can fail: a changed page, a missing picture, a picture nothing makes any more;
    a page written by hand beside the generated ones is left alone."""
    files = {"docs/reference/commands.md": f"{GENERATED}\nnew\n".encode(), "docs/variants/lhtr.md": b"same",
             "docs/images/generated/previews/lhtr.png": b"png"}  # fmt: skip
    for path, data in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_bytes(data)
    (tmp_path / "docs/reference/commands.md").write_text(f"{GENERATED}\nedited by hand\n", encoding="utf-8")
    (tmp_path / "docs/images/generated/previews/lhtr.png").unlink()
    (tmp_path / "docs/images/generated/previews/gone.png").write_bytes(b"old")
    (tmp_path / "docs/reference/guide.md").write_text("# Written by hand\n", encoding="utf-8")
    expected = [
        "docs/reference/commands.md",
        "docs/images/generated/previews/lhtr.png",
        "docs/images/generated/previews/gone.png",
    ]
    assert stale(tmp_path, files) == expected
    assert write(tmp_path, files) == expected  # written, written, removed
    assert stale(tmp_path, files) == [] and (tmp_path / "docs/reference/guide.md").is_file()


def test_the_generator_says_when_the_board_is_not_a_map(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "generator.docs", "--check", "--base-map", str(tmp_path)],
                            cwd=ROOT, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert result.returncode == 1
    assert result.stderr == f"error: {tmp_path}: not a TripleA map (no polygons.txt in it or its map/ folder)\n"


def test_the_reference_covers_every_command_option_key_pattern_and_catalog_entry() -> None:
    from generator.cli import cli

    counts: dict[str, list[int]] = {}  # what -> [documented, total]

    def count(what: str, documented: bool) -> None:
        tally = counts.setdefault(what, [0, 0])
        tally[0] += documented
        tally[1] += 1

    page = _page("docs/reference/commands.md")
    top = click.Context(cli, info_name="triplea-forge", **cli.context_settings)
    for command, context in commands(cli, top):
        heading = f"## `{context.command_path}`"
        count("commands", f"\n{heading}\n" in page)
        section = _section(page, heading)
        for param in command.get_params(context):
            if isinstance(param, click.Argument):
                count("arguments", f"| `{param.make_metavar(context)}` | argument |" in section)
            else:
                count("options", all(re.search(rf"\| `[^`]*{re.escape(o)}\b", section) for o in param.opts))
    page = _page("docs/reference/spec.md")
    for model, keys in documented_keys().items():
        section = _section(page, "## Top level: a spec file" if model == TOP else f"## {model}")
        for key in keys:
            count("spec keys", f"\n| `{key}` |" in section)
    page = _page("docs/reference/patterns.md")
    for pattern in PATTERNS:
        section = _section(page, f"## `{pattern.collection}`: {pattern.noun}")
        schema = pattern.model_json_schema(by_alias=True)
        for part in [schema, *schema.get("$defs", {}).values()]:
            for key in part.get("properties", {}):
                count("pattern parameters", f"\n| `{key}` |" in section)
        count("pattern examples", "Example:\n\n```yaml\n" in section)
    for engine in ENGINES:
        page = _page(f"docs/reference/catalog-{engine}.md")
        catalog = load_catalog(engine)
        for name, attachment in catalog["attachments"].items():
            section = _section(page, f"### {name}")
            for option in attachment["options"]:
                count("catalog options", f"\n| `{option}` |" in section)
        properties = _section(page, "## Game properties")
        for name in catalog["properties"]:
            count("catalog properties", f"\n| `{name}` |" in properties)
        for name in catalog["legacyProperties"]:
            count("catalog properties", f"`{name}`" in properties)
        checks = _section(page, "## Load checks")
        for check in engine_json(engine, "engine-checks")["checks"]:
            count("engine checks", f"| `{check['method']}` | {cell(check['message'])} |" in checks)
    for variant in Rules(ROOT / "rules", "rules").variants():
        count("variant pages", (DOCS / "variants" / f"{variant}.md").is_file())
        page = _page(f"docs/variants/{variant}.md")
        for rule_id in variant_spec(variant).rule_ledger:
            count("ledger rules", f"\n| `{rule_id}` |" in page)
        # Its units (with their pictures) and frontiers: a mod restates a frontier from its page.
        units, frontiers = _section(page, "## Units"), _section(page, "## Production frontiers")
        for unit in variant_spec(variant).units:
            count("variant units", f"\n| `{unit}` |" in units)
        count("unit sheets", re.search(r"\n!\[[^\]]*every unit's picture[^\]]*\]\([^)]+\.png\)\n", units) is not None)
        for frontier, rules in variant_spec(variant).production_frontiers.items():
            listed = re.findall(r"\n\| `(\w+)` \|", _section(frontiers, f"### {frontier}"))
            count("frontiers in order", listed == rules)
    print({what: f"{done} of {total}" for what, (done, total) in counts.items()})
    assert {what: done for what, (done, _) in counts.items()} == {what: total for what, (_, total) in counts.items()}
    assert counts["commands"][1] >= 18 and counts["catalog options"][1] > 600 and counts["ledger rules"][1] > 300
    assert counts["variant units"][1] > 100 and counts["frontiers in order"][1] > 20


def _pictures(markdown: Path) -> Iterator[Path]:
    for target in re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", markdown.read_text(encoding="utf-8")):
        yield (markdown.parent / urllib.parse.unquote(target)).resolve()


def test_every_picture_a_page_shows_exists_and_every_variant_has_its_board() -> None:
    shown = {picture for page in DOCS.rglob("*.md") for picture in _pictures(page)}
    assert shown and all(p.is_file() and p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in shown), sorted(
        str(p) for p in shown if not p.is_file()
    )
    images = DOCS / "images"
    for variant in Rules(ROOT / "rules", "rules").variants():
        assert images / "generated" / "previews" / f"{variant}.png" in shown
    for expected in ("generated/diff-aarhe-aarhe-phase1.png", "generated/units/expansion.png",
                     "generated/units/aarhe.png", "balance-example/income.png", "balance-example/tuv.png"):  # fmt: skip
        assert images / expected in shown, expected


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    result = subprocess.run([*MKDOCS, "build", "--strict", "-d", str(out)], cwd=ROOT, capture_output=True, text=True,
                            timeout=300, env=_quiet_env())  # fmt: skip
    assert result.returncode == 0, result.stderr[-4000:]
    return out


def _quiet_env() -> dict[str, str]:
    import os

    return {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


@pytest.mark.slow
def test_the_site_builds_strictly_with_every_page_in_the_navigation(site: Path) -> None:
    pages = sorted(p.relative_to(DOCS).with_suffix("").as_posix() for p in DOCS.rglob("*.md"))
    for page in pages:
        built = site / (page.removesuffix("index") if page.endswith("index") else page + "/") / "index.html"
        assert built.is_file(), page
    changelog = (site / "changelog" / "index.html").read_text(encoding="utf-8")
    assert "Keep a Changelog" in changelog  # CHANGELOG.md, included by the page


@pytest.mark.slow
def test_a_page_left_out_of_the_navigation_or_a_broken_link_fails_the_build(tmp_path: Path) -> None:
    """--strict is what catches them: an orphan page and a link to a page that does not exist."""
    for name in ("mkdocs.yml", "CHANGELOG.md"):
        shutil.copy(ROOT / name, tmp_path / name)
    shutil.copytree(DOCS, tmp_path / "docs")
    (tmp_path / "docs" / "orphan.md").write_text("# Nobody links here\n", encoding="utf-8")
    (tmp_path / "docs" / "how-to" / "treaty.md").write_text("# T\n\n[gone](nowhere.md)\n", encoding="utf-8")
    result = subprocess.run([*MKDOCS, "build", "--strict", "-d", str(tmp_path / "site")], cwd=tmp_path,
                            capture_output=True, text=True, timeout=300, env=_quiet_env())  # fmt: skip
    assert result.returncode != 0
    assert "orphan.md" in result.stderr and "nowhere.md" in result.stderr, result.stderr[-3000:]


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


PAGES = {"home": "", "how-to": "how-to/add-a-unit/", "variant": "variants/aare/"}


def _link_target_missing(base: str, link: str, site: Path) -> str | None:
    """Why an internal link leads nowhere (None: it leads to its page, and to its anchor there)."""
    target, _, fragment = link.partition("#")
    try:
        with urllib.request.urlopen(target, timeout=30) as response:
            body = response.read().decode("utf-8", "replace")
    except OSError as exc:
        return f"{link}: {exc}"
    if fragment and f'id="{html.escape(urllib.parse.unquote(fragment))}"' not in body:
        return f"{link}: no element with id {fragment!r}"
    return None


@pytest.mark.slow
def test_the_site_reads_in_a_real_browser(served: str, site: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Home, a how-to and a variant page in headless Chromium: no console error, every picture drawn,
    every internal link leads to its page (and anchor); screenshots kept for review."""
    shots = tmp_path_factory.mktemp("docs-screenshots")
    with Browser(tmp_path_factory.mktemp("profile")) as browser:
        for name, path in PAGES.items():
            page = browser.open(served + path)
            assert page.problems == [], (name, page.problems)
            assert page.images and all(i["ok"] for i in page.images), (name, [i for i in page.images if not i["ok"]])
            internal = sorted({link for link in page.links if link.startswith(served)})
            assert len(internal) > 20, (name, internal)  # the navigation, at least
            assert [m for link in internal if (m := _link_target_missing(served, link, site))] == [], name
            browser.screenshot(shots / f"{name}.png")
        # The same checks see a page that goes wrong in each of these ways.
        probe = '<img src="missing.png"><a href="nowhere/">x</a><script>console.error("probe")</script>'
        (site / "broken-probe.html").write_text(f"<!doctype html><title>p</title>{probe}", encoding="utf-8")
        broken = browser.open(served + "broken-probe.html", settle=0.2)
        assert "console.error: probe" in broken.problems and f"HTTP 404: {served}missing.png" in broken.problems
        assert [i["ok"] for i in broken.images] == [False]
        missing = _link_target_missing(served, served + "nowhere/", site)
        assert missing == f"{served}nowhere/: HTTP Error 404: File not found"
    from PIL import Image

    for name in PAGES:
        with Image.open(shots / f"{name}.png") as picture:
            colours = picture.convert("RGB").getcolors(maxcolors=1 << 20)
            assert picture.size == (1280, 900) and colours is not None and len(colours) > 50, name
    print(f"screenshots: {shots}")


def test_the_readme_is_a_short_landing_page_that_leads_into_the_site() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 200
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", readme)
    local = [link for link in links if "://" not in link]
    assert all((ROOT / link).is_file() for link in local), [link for link in local if not (ROOT / link).is_file()]
    for page in ("docs/getting-started.md", "docs/how-to/index.md", "docs/reference/index.md", "CHANGELOG.md"):
        assert page in local, page


def test_the_changelog_starts_with_the_current_version() -> None:
    import tomllib

    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = re.findall(r"^## \[([^\]]+)\]", changelog, re.MULTILINE)
    assert "keepachangelog.com" in changelog and releases[:2] == ["Unreleased", version]
