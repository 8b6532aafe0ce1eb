"""A database that refuses writes (a full disk) fails each request with a 503 that says
to try again, changes nothing, and takes the server out of ``/readyz`` until it writes
again; the server goes on once the disk has room."""

from __future__ import annotations

import resource
from pathlib import Path

import httpx

from patience.server import launch
from test_operations import wait_for


def test_a_full_disk_is_a_503_that_changes_nothing_and_the_server_recovers(
    tmp_path: Path,
) -> None:
    database, port = tmp_path / "games.sqlite3", launch.free_port()
    root = f"http://127.0.0.1:{port}"
    server = launch.start(database, port, PATIENCE_CATALOG_REFILL="0")
    try:
        body = httpx.post(
            f"{root}/api/sessions", json={"game": "golf", "seed": 4, "mode": "practice"}
        ).json()
        game = f"{root}/api/sessions/{body['id']}"
        headers = {"Authorization": f"Bearer {body['token']}"}
        assert httpx.post(f"{game}/moves", json={"move": "draw"}, headers=headers).is_success
        before = httpx.get(game, headers=headers).json()
        before.pop("clock")  # it runs on
        assert httpx.get(f"{root}/readyz").status_code == 200

        # no file of the server's may grow past one byte: every write of the database fails
        resource.prlimit(server.pid, resource.RLIMIT_FSIZE, (1, resource.RLIM_INFINITY))
        refused = httpx.post(f"{game}/moves", json={"move": "draw"}, headers=headers)
        assert refused.status_code == 503, refused.text
        assert "try again" in refused.json()["detail"]
        assert refused.headers["Retry-After"].isdigit()
        started = httpx.post(
            f"{root}/api/sessions", json={"game": "golf", "seed": 5, "mode": "practice"}
        )
        assert started.status_code == 503, started.text
        ready = httpx.get(f"{root}/readyz")
        assert ready.status_code == 503
        assert "the database failed a request" in ready.json()["reason"]
        assert httpx.get(f"{root}/healthz").status_code == 200  # the process itself lives

        # room again: the game is as it was before the refused move, and plays on
        unlimited = (resource.RLIM_INFINITY, resource.RLIM_INFINITY)
        resource.prlimit(server.pid, resource.RLIMIT_FSIZE, unlimited)
        after = httpx.get(game, headers=headers).json()
        after.pop("clock")
        assert after == before
        played = httpx.post(f"{game}/moves", json={"move": "draw"}, headers=headers)
        assert played.is_success, played.text
        wait_for(lambda: httpx.get(f"{root}/readyz").status_code == 200, "ready again")
    finally:
        server.terminate()
        server.wait()
