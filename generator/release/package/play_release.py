"""`play --zip`: a release opened as players get it, in the real TripleA 1.9 client.

Nothing is built anew: the release (a package's zip, a GitHub release's asset, or an installed map
folder) goes as it is into a throw-away TripleA home's downloadedMaps, the way a player installs
it, and the client opens one of its games. A zip goes in under the name TripleA 1.9 finds a map's
art by, `<map>-master.zip` (its top folder's name): a zip renamed on the way still opens as the
player who keeps the name gets it. The games are read from a copy unpacked aside with the care
every zip gets (release.maps.opened).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from lxml import etree

from generator.engine import client as real_client
from generator.release.maps.base import BaseMapError, opened
from generator.release.package.play import PlayError, Playtest
from generator.safe_xml import safe_parser


def _games(root: Path) -> dict[str, Path]:
    """The release's games by file name without .xml: `map/games/` or `games/`, as 1.9 lists them."""
    for folder in (root / "map" / "games", root / "games"):
        if folder.is_dir():
            return {path.stem: path for path in sorted(folder.glob("*.xml")) if path.is_file()}
    return {}


def _chosen(release: Path, games: dict[str, Path], variant: str | None) -> str:
    if not games:
        raise PlayError(f"{release}: no games/*.xml in it, so it is no TripleA map release")
    if variant is None:
        if len(games) > 1:
            raise PlayError(f"{release} holds {len(games)} games ({', '.join(games)}): name the one to play")
        return next(iter(games))
    if variant not in games:
        raise PlayError(f"no game '{variant}' in {release} (its games: {', '.join(games)})")
    return variant


def _read(path: Path, shown: str) -> tuple[str, list[str], str | None, str | None]:
    """A game's name, its players, the first to move and the engine version it needs at least."""
    try:
        root = etree.parse(str(path), safe_parser()).getroot()
    except (OSError, etree.XMLSyntaxError) as exc:
        raise PlayError(f"{shown}: not a game TripleA can read ({exc})") from exc
    info = root.find("info")
    name = info.get("name") if info is not None else None
    if not name:
        raise PlayError(f"{shown}: the game has no <info name>, so the client cannot list it")
    players = [str(p.get("name")) for p in root.iterfind("playerList/player") if p.get("name")]
    first = next((str(s.get("player")) for s in root.iterfind("gamePlay/sequence/step") if s.get("player")), None)
    needs = root.find("triplea")
    return str(name), players, first, needs.get("minimumVersion") if needs is not None else None


def prepare_release(release: Path, variant: str | None, work: Path, ai: bool, player: str | None) -> Playtest:
    """A TripleA home in `work` holding `release` as a player installs it, and the game to open."""
    try:
        with opened(release) as root:
            games = _games(root)
            chosen = _chosen(release, games, variant)
            name, players, first, needs = _read(games[chosen], f"{release}: games/{chosen}.xml")
            # 1.9 finds a zip's art by its name: <map>-master.zip, as its top folder is named.
            installed_as = f"{root.name}.zip" if release.is_file() and root.name.endswith("-master") else release.name
    except BaseMapError as exc:
        raise PlayError(str(exc)) from exc
    if needs is not None and needs.split(".")[0] not in ("0", "1"):
        raise PlayError(f"{chosen} is made for TripleA {needs} (its minimumVersion); the installed client is 1.9")
    if player is not None and player not in players:
        raise PlayError(f"no player '{player}' in {chosen} (players: {', '.join(players)})")
    home = real_client.home_with(work / "home")
    maps = home / "triplea" / "downloadedMaps"
    try:
        if release.is_dir():
            shutil.copytree(release, maps / installed_as)
        else:
            shutil.copy(release, maps / installed_as)
    except OSError as exc:
        raise PlayError(f"cannot copy {release} into the client's home: {exc.strerror or exc}") from exc
    return Playtest(chosen, name, (player or first) if ai else None, home)
