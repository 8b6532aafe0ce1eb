"""One timed game of a game and variant runs at a time for a player, however many starts
come at once: through one server on SQLite and two on PostgreSQL, real processes. The
attack: five starts sent together had dealt five timed games, so a player could look at
five deals and play the best, ending the others."""

from __future__ import annotations

import signal
from concurrent.futures import ThreadPoolExecutor

import httpx

from patience.server import launch
from patience.store.db import make_engine
from test_tournament_close import PASSWORD
from test_tournaments import GOLF, stock

STARTS = 5


def test_starts_at_once_deal_one_timed_game(database_url: str) -> None:
    engine = make_engine(database_url)
    stock(engine, 3 * STARTS)
    servers = 2 if database_url.startswith("postgresql") else 1
    ports = [launch.free_port() for _ in range(servers)]
    processes = [launch.start(database_url, port, PATIENCE_CATALOG_REFILL="0") for port in ports]
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    try:
        for round_ in range(3):
            signed = httpx.post(
                f"{bases[0]}/api/accounts", json={"name": f"Picker {round_}", "password": PASSWORD}
            )
            assert signed.status_code == 201, signed.text
            cookies = {"patience_session": signed.cookies["patience_session"]}
            headers = {"X-CSRF-Token": signed.json()["csrf"]}

            def start(
                k: int, cookies: dict[str, str] = cookies, headers: dict[str, str] = headers
            ) -> int:
                return httpx.post(
                    f"{bases[k % servers]}/api/sessions",
                    json={"game": "golf", "variant": GOLF, "mode": "timed"},
                    cookies=cookies,
                    headers=headers,
                    timeout=60,
                ).status_code

            with ThreadPoolExecutor(STARTS) as pool:
                codes = list(pool.map(start, range(STARTS)))
            assert codes.count(201) == 1, codes
            assert codes.count(409) == STARTS - 1, codes
            running = httpx.get(f"{bases[0]}/api/me/running", cookies=cookies).json()
            assert [(g["game"], g["mode"]) for g in running["games"]] == [("golf", "timed")]
    finally:
        for process in processes:
            process.send_signal(signal.SIGTERM)
        for process in processes:
            process.wait(timeout=60)
        engine.dispose()


def test_guests_starts_at_once_stay_within_their_address_s_limit(database_url: str) -> None:
    """Guests at one address have at most ``PATIENCE_GUEST_TIMED`` timed games of a game
    and variant running, however many starts come at once (eight at once had dealt eight
    against a limit of four); and a guest who signs up keeps one of them running, the
    newest, the others ended as their player ends a game."""
    engine = make_engine(database_url)
    stock(engine, 3 * STARTS)
    engine.dispose()
    servers = 2 if database_url.startswith("postgresql") else 1
    ports = [launch.free_port() for _ in range(servers)]
    limit = {"PATIENCE_CATALOG_REFILL": "0", "PATIENCE_GUEST_TIMED": "2"}
    processes = [launch.start(database_url, port, **limit) for port in ports]
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    guest = {"patience_guest": "one browser of a guest, the same for every start"}
    try:

        def start(k: int) -> int:
            return httpx.post(
                f"{bases[k % servers]}/api/sessions",
                json={"game": "golf", "variant": GOLF, "mode": "timed"},
                cookies=guest,
                timeout=60,
            ).status_code

        with ThreadPoolExecutor(STARTS) as pool:
            codes = list(pool.map(start, range(STARTS)))
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
        running = httpx.get(f"{bases[0]}/api/me/running", cookies=cookies).json()["games"]
        assert [(g["game"], g["mode"]) for g in running] == [("golf", "timed")]
    finally:
        for process in processes:
            process.send_signal(signal.SIGTERM)
        for process in processes:
            process.wait(timeout=60)
