"""Headless Chromium driven over the DevTools protocol, for the tests of web pages we make.

Chromium is started with `--remote-debugging-pipe`: it reads commands on file descriptor 3 and
writes answers and events on 4, as JSON messages ending in a NUL byte, so no WebSocket client is
needed. `Browser.open(url)` loads a page and returns what a reader would run into: console
errors, uncaught exceptions, failed requests, images that did not load, and every link.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions",
    "--hide-scrollbars",
    "--remote-debugging-pipe",
]  # fmt: skip
PAGE_STATE = """JSON.stringify({
  images: [...document.images].map(i => ({src: i.currentSrc || i.src, ok: i.complete && i.naturalWidth > 0})),
  links: [...document.querySelectorAll('a[href]')].map(a => a.href),
  title: document.title,
})"""


@dataclass
class Page:
    url: str
    problems: list[str] = field(default_factory=list)  # console errors, exceptions, failed requests
    images: list[dict[str, Any]] = field(default_factory=list)
    links: list[str] = field(default_factory=list)
    title: str = ""


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Browser:
    """One headless Chromium with one tab; use as a context manager."""

    def __init__(self, profile: Path, width: int = 1280, height: int = 900) -> None:
        executable = chromium()
        assert executable, "Chromium is part of the test set-up (apt-get install chromium)"
        to_chrome, self._write = os.pipe()
        self._read, from_chrome = os.pipe()
        # Chromium's ends go to 3 and 4 by bash's redirections (no preexec_fn: the tests run threads,
        # a served site among them), from fds above 9 so no redirection overwrites the other (dash
        # takes one-digit fds only, hence bash).
        ends = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (to_chrome, from_chrome)]
        for fd in (to_chrome, from_chrome):
            os.close(fd)
        command = [executable, *FLAGS, f"--user-data-dir={profile}", f"--window-size={width},{height}"]
        self._process = subprocess.Popen(
            ["bash", "-c", f'exec "$@" 3<&{ends[0]} 4>&{ends[1]} {ends[0]}<&- {ends[1]}>&-', "bash", *command],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=ends,
        )  # fmt: skip
        for fd in ends:
            os.close(fd)
        self._buffer = b""
        self._next_id = 0
        self._events: list[dict[str, Any]] = []
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self._session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable", session=True)
        metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}
        self.call("Emulation.setDeviceMetricsOverride", metrics, session=True)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self._process.kill()
        self._process.wait(timeout=30)
        os.close(self._write)
        os.close(self._read)

    def _message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            assert time.monotonic() < deadline, "Chromium did not answer in time"
            chunk = os.read(self._read, 1 << 16)
            assert chunk, "Chromium closed its end of the pipe"
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        return dict(json.loads(raw))

    def call(self, method: str, params: dict[str, Any] | None = None, session: bool = False) -> dict[str, Any]:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = self._session
        os.write(self._write, json.dumps(message).encode("utf-8") + b"\0")
        deadline = time.monotonic() + 60
        while True:
            answer = self._message(deadline)
            if answer.get("id") == self._next_id:
                assert "error" not in answer, f"{method}: {answer['error']}"
                return dict(answer.get("result", {}))
            self._events.append(answer)

    def _wait_for(self, event: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while not any(e.get("method") == event for e in self._events):
            self._events.append(self._message(deadline))

    def open(self, url: str, settle: float = 1.0) -> Page:
        """Load `url`, wait for its load event and `settle` seconds more (scripts run late), and say what happened."""
        self._events = []
        self.call("Page.navigate", {"url": url}, session=True)
        self._wait_for("Page.loadEventFired")
        time.sleep(settle)
        state = json.loads(self.call("Runtime.evaluate", {"expression": PAGE_STATE, "returnByValue": True},
                                     session=True)["result"]["value"])  # fmt: skip
        page = Page(url, images=state["images"], links=state["links"], title=state["title"])
        page.problems = [p for e in self._events if (p := _problem(e)) is not None]
        return page

    def screenshot(self, path: Path) -> None:
        data = self.call("Page.captureScreenshot", {"format": "png"}, session=True)["data"]
        path.write_bytes(base64.b64decode(data))


def _problem(event: dict[str, Any]) -> str | None:
    """What a reader would see go wrong, from one DevTools event (None: nothing)."""
    method, params = event.get("method"), event.get("params", {})
    if method == "Runtime.exceptionThrown":
        details = params["exceptionDetails"]
        return f"exception: {details.get('exception', {}).get('description') or details.get('text')}"
    if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
        return "console.error: " + " ".join(str(a.get("value", a.get("description", ""))) for a in params["args"])
    if method == "Log.entryAdded" and params["entry"]["level"] == "error":
        return f"log: {params['entry']['text']} {params['entry'].get('url', '')}".strip()
    if method == "Network.loadingFailed" and not params.get("canceled"):
        return f"request failed: {params.get('errorText')}"
    if method == "Network.responseReceived" and params["response"]["status"] >= 400:
        return f"HTTP {params['response']['status']}: {params['response']['url']}"
    return None
