"""`site` and `serve`: a variant's pages, read in a real browser (headless Chromium, tests/browser.py).

`site aare aarhe` is written once (file:// pages, as a player opens them offline): every page loads
without a console error and each variant weighs under 5 MB; pointing at a territory shows its facts,
and the units, rules, changes and ledger pages say what their commands say. `serve` reloads the page
within a second of a save, shows a mistake at its file:line and keeps the last good pages.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest

from generator.release.site.board import _thinned, outline
from generator.release.site.serve import LiveSite
from tests.browser import Browser
from tests.helpers import BASE_MAP, FIXTURE_MAPS, TINY, run_cli

MAX_VARIANT = 5 << 20  # what a variant's pages may weigh, pictures included
PAGES = ("index.html", "units.html", "rules.html", "changes.html", "ledger.html")
# A point inside the shape of the territory named %s, on the screen, after scrolling it into view.
POINT_AT = """(() => {
  const shape = document.querySelector(`figure.board path[data-name="%s"]`);
  shape.scrollIntoView({block: "center"});
  const box = shape.getBoundingClientRect();
  for (let i = 1; i < 24; i++) for (let j = 1; j < 24; j++) {
    const x = box.left + box.width * i / 24, y = box.top + box.height * j / 24;
    if (document.elementFromPoint(x, y) === shape) return [x, y];
  }
  return null;
})()"""


def _evaluate(browser: Browser, expression: str) -> Any:
    answer = browser.call("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session=True)
    return answer["result"].get("value")


def _text(browser: Browser, selector: str) -> str:
    return str(_evaluate(browser, f"document.querySelector({json.dumps(selector)})?.innerText ?? ''"))


def _point_at(browser: Browser, territory: str) -> str:
    """The facts the page shows once the pointer is on `territory`."""
    x, y = _evaluate(browser, POINT_AT % territory)
    browser.call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y}, session=True)
    return _text(browser, "section.territory.shown")


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site") / "site"
    result = run_cli("site", "aare", "aarhe", "-o", str(out), "--base-map", str(BASE_MAP), cwd=Path.cwd())
    assert result.code == 0, result.err
    assert f"{out}/aare/: " in result.out and "open" in result.out
    return out


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    with Browser(tmp_path_factory.mktemp("profile")) as opened:
        yield opened


@pytest.mark.slow
def test_each_variant_has_its_pages_under_5_mb_and_the_index_lists_them(written: Path) -> None:
    for variant, studied in (("aare", True), ("aarhe", False)):  # output/balance holds studies of aare
        folder = written / variant
        assert sorted(p.name for p in folder.glob("*.html")) == sorted([*PAGES, *["balance.html"] * studied])
        weight = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
        assert weight < MAX_VARIANT, (variant, weight)
    index = (written / "index.html").read_text(encoding="utf-8")
    assert 'href="aare/index.html"' in index and 'href="aarhe/index.html"' in index
    assert "http" not in re.sub(r"<!--.*?-->", "", index)  # nothing fetched from the web


@pytest.mark.slow
def test_every_page_loads_in_a_browser_without_an_error(written: Path, browser: Browser) -> None:
    """No console error, no failed request; every picture a page names is in the site (the pictures of
    hidden panels load only when shown)."""
    for page in ["index.html", "aare/balance.html", *(f"{v}/{p}" for v in ("aare", "aarhe") for p in PAGES)]:
        opened = browser.open((written / page).as_uri(), settle=0.2)
        assert opened.problems == [], (page, opened.problems)
        for image in opened.images:
            assert image["src"].startswith(written.as_uri()), (page, image)
            assert Path(unquote(urlsplit(image["src"]).path)).is_file(), (page, image)


@pytest.mark.slow
def test_pointing_at_a_territory_shows_its_facts(written: Path, browser: Browser) -> None:
    browser.open((written / "aare" / "index.html").as_uri(), settle=0.2)
    facts = _point_at(browser, "Caucasus")
    assert "owner\nRussians" in facts and "production\n4" in facts and "yes, worth 1" in facts, facts
    assert "rules/aare/territories.yaml:6" in facts and "rules/revised/territories.yaml" in facts, facts
    assert "3\ninfantry" in facts, facts
    shown = "[...document.querySelectorAll('section.territory.shown img')]"
    pictures = _evaluate(browser, f"{shown}.map(i => i.src)")
    assert any(p.endswith("units/Russians/infantry.png") for p in pictures), pictures
    time.sleep(0.3)  # the lazy pictures of the panel now shown load
    assert _evaluate(browser, f"{shown}.every(i => i.naturalWidth > 0)")
    assert "Western Europe" in _point_at(browser, "Western Europe")  # another one replaces it


@pytest.mark.slow
def test_the_units_page_shows_each_nations_units_with_pictures_and_numbers(written: Path, browser: Browser) -> None:
    browser.open((written / "aarhe" / "units.html").as_uri(), settle=0.2)
    row = "section.nation:nth-of-type(1) tr[data-unit='infantry']"
    assert _text(browser, row).split("\t")[1:7] == ["infantry", "1", "2", "1", "3 PUs", "24"]
    picture = f"document.querySelector(`{row} img`)"
    _evaluate(browser, f"{picture}.scrollIntoView()")
    time.sleep(0.3)
    assert _evaluate(browser, f"{picture}.naturalWidth") == 48
    assert _evaluate(browser, f"{picture}.src").endswith("units/Russians/infantry.png")


@pytest.mark.slow
def test_the_rules_page_says_a_national_advantage_in_words(written: Path, browser: Browser) -> None:
    browser.open((written / "aare" / "rules.html").as_uri(), settle=0.2)
    body = _text(browser, "main")
    assert "Russian Winter national advantage" in body
    assert "Once per game, at its Collect Income phase, Russia may call a severe winter" in body
    assert "Written at rules/aare/advantages.yaml:" in body
    browser.open((written / "aarhe" / "rules.html").as_uri(), settle=0.2)
    assert "Germany, Blitzkrieg: fighters attack +1" in _text(browser, "main")


@pytest.mark.slow
def test_the_changes_page_says_the_diff_and_marks_the_board(written: Path, browser: Browser) -> None:
    said = json.loads(run_cli("diff", "lhtr", "aare", "--format", "json", cwd=Path.cwd()).out)["summary"]["text"]
    browser.open((written / "aare" / "changes.html").as_uri(), settle=0.2)
    assert _text(browser, "p.summary") == said  # diff's own first line
    words = _text(browser, "main")
    assert "~ name: World War II Revised LHTR → World War II Revised Enhanced" in words
    assert "+ 30 national advantages added" in words  # a run of alike changes: its members folded under it
    members = _evaluate(browser, "document.querySelector('ul.changes details').textContent")
    assert "RuWinter added: ledger aare-na-ru-1, player Russians, title Russian Winter" in members
    assert "Changed: victory city none -> 1" in _point_at(browser, "Caucasus")


@pytest.mark.slow
def test_the_ledger_shows_each_rules_grade_and_proof(written: Path, browser: Browser) -> None:
    browser.open((written / "aare" / "ledger.html").as_uri(), settle=0.2)
    row = _text(browser, "tr[id='aare-base-01']")
    assert "exact" in row and "shown: played by the engine scenario victory (15 victory cities" in row
    assert re.search(r"aare: \d+ of \d+ enforced rules proven in the engine on 1\.9", _text(browser, "ul.totals"))


def _tiny_rules(folder: Path) -> Path:
    """A rules folder holding the tiny fixture, its game.yaml's path."""
    spec = folder / "rules" / "tiny" / "game.yaml"
    spec.parent.mkdir(parents=True)
    spec.write_text((TINY / "game.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    return spec


def test_a_folder_not_of_a_site_is_refused_and_a_page_no_longer_built_goes(tmp_path: Path) -> None:
    _tiny_rules(tmp_path)
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("mine", encoding="utf-8")
    refused = run_cli("site", "-o", "mine", cwd=tmp_path)
    assert refused.code == 1 and "mine/ holds files that are not a site triplea-forge wrote (notes.txt)" in refused.err
    assert run_cli("site", cwd=tmp_path).code == 0
    (tmp_path / "site" / "tiny" / "old.html").write_text("from an earlier build", encoding="utf-8")
    again = run_cli("site", cwd=tmp_path)
    assert again.code == 0 and "0 files changed, 1 removed" in again.out, again.out
    assert not (tmp_path / "site" / "tiny" / "old.html").exists() and (tmp_path / "mine" / "notes.txt").is_file()


def test_an_outline_keeps_what_shows_at_its_size() -> None:
    square = [(0, 0), (50, 0), (100, 0), (100, 100), (0, 100)]
    assert _thinned([(0.0, 0.0), (50.0, 0.2), (100.0, 0.0)], 0.6) == [(0.0, 0.0), (100.0, 0.0)]
    assert outline([square], 0.5) == "M0 44L50 44 50 94 0 94Z"  # scaled, below the title's band


def test_served_pages_carry_the_mistakes_and_the_reloading_script() -> None:
    live = LiveSite()
    live.update({"index.html": b"<html><body><p>good</p></body></html>"}, [])
    live.update(None, ["rules/x/game.yaml:3:5: units.tank.attack: not a number"])
    status, kind, body = live.page("/")
    text = body.decode()
    assert (status, kind) == (200, "text/html; charset=utf-8") and "<p>good</p>" in text  # the last good page
    assert 'role="alert"' in text and "rules/x/game.yaml:3:5: units.tank.attack" in text
    assert '<script src="/_forge/live.js" data-version="2"></script></body>' in text
    assert live.page("/_forge/version")[2] == b"2" and live.page("/nothing.png")[0] == 404


def _serving(rules: Path, cwd: Path) -> tuple[subprocess.Popen[str], str]:
    command = [sys.executable, "-m", "generator", "serve", "--rules", str(rules), "--port", "0"]
    env = {**os.environ, "TRIPLEA_MAPS": str(FIXTURE_MAPS)}
    process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    first = process.stdout.readline()
    found = re.match(r"serving (http://127\.0\.0\.1:\d+/)", first)
    assert found, first
    return process, found[1]


def _until(browser: Browser, expression: str, wanted: object, timeout: float = 10.0) -> float:
    """Seconds until `expression` on the open page gives `wanted` (the page may be reloading meanwhile)."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        try:
            if _evaluate(browser, expression) == wanted:
                return time.monotonic() - started
        except AssertionError:  # evaluated while the page reloads
            pass
        time.sleep(0.02)
    raise AssertionError(f"{expression} never gave {wanted!r}")


def test_serve_shows_a_save_within_a_second_and_a_mistake_at_its_line(tmp_path: Path, browser: Browser) -> None:
    spec = _tiny_rules(tmp_path)
    text = spec.read_text(encoding="utf-8")
    process, url = _serving(spec.parent.parent, tmp_path)
    production = "document.querySelector('section.territory[data-name=Alpha] .production')?.innerText"
    try:
        browser.open(url + "tiny/index.html", settle=0.1)  # before the first build, it reloads after it
        _until(browser, production, "2")
        assert browser.open(url + "tiny/index.html", settle=0.3).problems == []  # no request fails (a favicon)
        time.sleep(0.3)  # past the first build's version
        edited = text.replace("production: 2\n    capital: Reds", "production: 7\n    capital: Reds")
        spec.write_text(edited, encoding="utf-8")
        assert _until(browser, production, "7") < 1.0
        spec.write_text(edited.replace("attack: 1", "attack: strong"), encoding="utf-8")
        banner = "document.getElementById('forge-problems')?.innerText.includes('rules/tiny/game.yaml:9:')"
        _until(browser, banner, True)
        assert _evaluate(browser, production) == "7"  # the last good page stays, under the mistake
        spec.write_text(text, encoding="utf-8")
        _until(browser, "String(document.getElementById('forge-problems'))", "null")
    finally:
        process.terminate()
        output = process.communicate(timeout=30)[0]
    assert "tiny: 1 error" in output and "tiny: built" in output, output
