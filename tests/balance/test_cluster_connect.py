"""Reaching a Ray cluster: a passing failure of Ray's own start is tried again, a lasting one is one
line in words (never the server's traceback), with the address."""

from __future__ import annotations

from typing import Any

import pytest

from generator.balance import cluster
from generator.balance.cluster import ClusterError

SERVER_FAILURE = """Initialization failure from server:
Traceback (most recent call last):
  File "ray/util/client/server/proxier.py", line 765, in Datapath
    if not self.proxy_manager.start_specific_server(
psutil.ZombieProcess: PID still exists but it's a zombie (pid=18907)"""


class _Ray:
    """Ray's init as a cluster answers it: each call the next of `answers` (an exception or None)."""

    def __init__(self, *answers: Exception | None) -> None:
        self.answers, self.calls = list(answers), 0

    def init(self, **_: Any) -> None:
        self.calls += 1
        answer = self.answers.pop(0)
        if answer is not None:
            raise answer


def test_a_server_that_failed_as_it_started_is_tried_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster.time, "sleep", lambda _: None)
    ray = _Ray(ConnectionError(SERVER_FAILURE), None)
    cluster._connect(ray, "ray://head:10001")
    assert ray.calls == 2


def test_a_lasting_failure_is_one_line_without_the_servers_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster.time, "sleep", lambda _: None)
    ray = _Ray(*[ConnectionError(SERVER_FAILURE)] * cluster.CONNECT_ATTEMPTS)
    with pytest.raises(ClusterError) as raised:
        cluster._connect(ray, "ray://head:10001")
    assert str(raised.value) == (
        "cannot reach the Ray cluster at ray://head:10001: Initialization failure from server: "
        "psutil.ZombieProcess: PID still exists but it's a zombie (pid=18907)"
    )
    assert ray.calls == cluster.CONNECT_ATTEMPTS


def test_a_refused_connection_is_said_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    ray = _Ray(ConnectionError("Connection refused"))
    with pytest.raises(ClusterError, match=r"^cannot reach the Ray cluster at ray://head:1: Connection refused$"):
        cluster._connect(ray, "ray://head:1")
    assert ray.calls == 1
