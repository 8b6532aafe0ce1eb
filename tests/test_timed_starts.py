"""One timed game of a game and variant runs at a time for a player, however many starts
come at once: through one server on SQLite and two on PostgreSQL, real processes. The
attack: five starts sent together had dealt five timed games, so a player could look at
five deals and play the best, ending the others. Guests at one address hold to their
limit the same way."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import httpx

from patience.server import launch
from patience.store.db import make_engine
from test_tournament_close import PASSWORD
from test_tournaments import GOLF, stock

STARTS = 5


@contextmanager
def serving(database_url: str, **env: str) -> Iterator[list[str]]:
    """Servers on ``database_url`` (stocked with Golf deals): one on SQLite, two on
    PostgreSQL; their base URLs."""
    engine = make_engine(database_url)
    stock(engine, 3 * STARTS)
    engine.dispose()
    count = 2 if database_url.startswith("postgresql") else 1
    ports = [launch.free_port() for _ in range(count)]
    processes = [
        launch.start(database_url, port, PATIENCE_CATALOG_REFILL="0", **env) for port in ports
    ]
    try:
        yield [f"http://127.0.0.1:{port}" for port in ports]
    finally:
        for process in processes:
            process.send_signal(signal.SIGTERM)
        for process in processes:
            process.wait(timeout=60)


def at_once(
    bases: list[str], cookies: dict[str, str], headers: dict[str, str] | None = None
) -> list[int]:
    """The status codes of ``STARTS`` timed Golf games asked for at the same moment, spread
    over the servers ``bases``, each request with ``cookies`` and ``headers``."""

    def start(k: int) -> int:
        answer = httpx.post(
            f"{bases[k % len(bases)]}/api/sessions",
            json={"game": "golf", "variant": GOLF, "mode": "timed"},
            cookies=cookies,
            headers=headers,
            timeout=60,
        )
        return answer.status_code

    with ThreadPoolExecutor(STARTS) as pool:
        return list(pool.map(start, range(STARTS)))


def running(base: str, cookies: dict[str, str]) -> list[tuple[str, str]]:
    """The game and mode of each game the signed-in player of ``cookies`` has running."""
    games = httpx.get(f"{base}/api/me/running", cookies=cookies).json()["games"]
    return [(game["game"], game["mode"]) for game in games]


def test_starts_at_once_deal_one_timed_game(database_url: str) -> None:
    with serving(database_url) as bases:
        for round_ in range(3):
            signed = httpx.post(
                f"{bases[0]}/api/accounts", json={"name": f"Picker {round_}", "password": PASSWORD}
            )
            assert signed.status_code == 201, signed.text
            cookies = {"patience_session": signed.cookies["patience_session"]}
            codes = at_once(bases, cookies, {"X-CSRF-Token": signed.json()["csrf"]})
            assert codes.count(201) == 1, codes
            assert codes.count(409) == STARTS - 1, codes
            assert running(bases[0], cookies) == [("golf", "timed")]


def test_guests_starts_at_once_stay_within_their_address_s_limit(database_url: str) -> None:
    """Guests at one address have at most ``PATIENCE_GUEST_TIMED`` timed games of a game
    and variant running, however many starts come at once (eight at once had dealt eight
    against a limit of four); and a guest who signs up keeps one of them running, the
    newest, the others ended as their player ends a game."""
    guest = {"patience_guest": "one browser of a guest, the same for every start"}
    with serving(database_url, PATIENCE_GUEST_TIMED="2") as bases:
        codes = at_once(bases, guest)
        assert codes.count(201) == 2, codes
        assert codes.count(409) == STARTS - 2, codes
        signed = httpx.post(
            f"{bases[0]}/api/accounts",
            json={"name": "Guest No More", "password": PASSWORD},
            cookies=guest,
        )
        assert signed.status_code == 201, signed.text
        assert signed.json()["claimed"] == 2
        cookies = {"patience_session": signed.cookies["patience_session"]}
        assert running(bases[0], cookies) == [("golf", "timed")]
