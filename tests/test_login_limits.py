"""Log-in and sign-up limits that hold under concurrency and hand an attacker no lock-out.

- A failed log-in is counted, and written, before its password is checked, in one
  transaction: 30 concurrent wrong passwords for one account against a real server (on
  SQLite, on PostgreSQL, and through two servers on one PostgreSQL) check only as many
  hashes as the back-off allows.
- The limits slow guessing without locking the owner out: a back-off per account and
  client, a cap per account that a device the account has logged in from still passes, and
  a cap per address that does not stop the known devices behind it (a shared NAT).
- An unknown name costs the same argon2 work as a wrong password.
- Sign-ups are limited per address in the database (one count for every server process);
  password hashing runs at most ``password_workers`` at a time, so 30 concurrent sign-ups
  keep the server's memory bounded and its other requests answered.
"""

from __future__ import annotations

import itertools
import math
import statistics
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from argon2 import PasswordHasher
from sqlalchemy import Engine, select

from patience.players import (
    Accounts,
    BadCredentialsError,
    BusyError,
    LoginLimits,
    PasswordHashing,
    TooManyAttemptsError,
)
from patience.server import launch
from patience.store.db import login_attempts, make_engine, migrate
from test_players import Clock

PASSWORD = "correct horse battery"
LIMITS = LoginLimits()


def cheap() -> PasswordHashing:
    """argon2id at its cheapest, for the tests that make a hundred guesses: what they test
    is the counting, not the hashing."""
    return PasswordHashing(PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    made = make_engine(database_url)
    migrate(made)
    yield made
    made.dispose()


# The limits, on the accounts themselves ------------------------------------------------


def test_one_client_backs_off_while_the_owner_elsewhere_logs_in(engine: Engine) -> None:
    clock = Clock()
    accounts = Accounts(engine, clock=clock, hashing=cheap())
    accounts.sign_up("Alan", PASSWORD)
    for _ in range(LIMITS.free):
        with pytest.raises(BadCredentialsError):
            accounts.log_in("Alan", "guess", address="10.0.0.66")
    waits = []
    for _ in range(4):  # each further guess from there waits twice as long as the last
        with pytest.raises(TooManyAttemptsError, match="from here") as refused:
            accounts.log_in("Alan", PASSWORD, address="10.0.0.66")  # even the right one
        waits.append(refused.value.retry_after)
        clock.now += refused.value.retry_after
        with pytest.raises(BadCredentialsError):
            accounts.log_in("Alan", "guess", address="10.0.0.66")
    assert waits == [1, 2, 4, 8]
    # meanwhile the owner, from another address, is not held up at all
    assert accounts.log_in("Alan", PASSWORD, address="10.0.0.1").user.name == "Alan"
    # and the owner's right password from there, once the back-off has passed, resets it
    with pytest.raises(TooManyAttemptsError) as refused:
        accounts.log_in("Alan", PASSWORD, address="10.0.0.66")
    clock.now += refused.value.retry_after
    accounts.log_in("Alan", PASSWORD, address="10.0.0.66")
    with pytest.raises(BadCredentialsError):
        accounts.log_in("Alan", "typo", address="10.0.0.66")  # counted afresh: no wait


def test_a_capped_account_still_opens_from_a_device_it_logged_in_from(engine: Engine) -> None:
    clock = Clock()
    accounts = Accounts(engine, clock=clock, hashing=cheap())
    owner = accounts.sign_up("Grace", PASSWORD)
    assert owner.device  # the browser that signed up is a known device of the account
    laptop = accounts.log_in("Grace", PASSWORD, address="10.0.0.2")
    assert laptop.device
    assert laptop.device != owner.device
    # a rival spreads guesses over many addresses until the cap for new devices is reached
    for guess in range(LIMITS.account):
        with pytest.raises(BadCredentialsError):
            accounts.log_in("Grace", f"guess {guess}", address=f"10.1.{guess}.1")
    with pytest.raises(TooManyAttemptsError, match="new devices") as refused:
        accounts.log_in("Grace", PASSWORD, address="10.9.9.9")
    assert 1 <= refused.value.retry_after <= LIMITS.window + 1
    # a device of the account passes the cap, from any address, the right password needed
    with pytest.raises(BadCredentialsError):
        accounts.log_in("Grace", "guess", address="10.9.9.9", device=laptop.device)
    again = accounts.log_in("Grace", PASSWORD, address="10.9.9.9", device=laptop.device)
    assert again.user == owner.user
    assert again.device is None  # already known: nothing new to keep
    assert accounts.log_in("Grace", PASSWORD, address="10.3.3.3", device=owner.device)
    # a device of another account is no pass for this one
    accounts.sign_up("Rival", PASSWORD)
    rival = accounts.log_in("Rival", PASSWORD, address="10.1.0.1")
    with pytest.raises(TooManyAttemptsError, match="new devices"):
        accounts.log_in("Grace", PASSWORD, address="10.1.0.1", device=rival.device)
    clock.now += LIMITS.window + 1  # the guesses age out
    assert accounts.log_in("Grace", PASSWORD, address="10.9.9.9").user == owner.user


def test_a_shared_address_does_not_lock_out_the_accounts_behind_it(engine: Engine) -> None:
    clock = Clock()
    accounts = Accounts(engine, clock=clock, hashing=cheap())
    operator = accounts.sign_up("Operator", PASSWORD)
    accounts.sign_up("Newcomer", PASSWORD)
    nat = "192.0.2.1"
    # someone behind the NAT sprays guesses over many names, a few each
    for guess in range(LIMITS.address):
        with pytest.raises(BadCredentialsError):
            accounts.log_in(f"user{guess // 4}", "guess", address=nat)
    with pytest.raises(TooManyAttemptsError, match="your address"):
        accounts.log_in("Newcomer", PASSWORD, address=nat)  # a new device there waits
    # the operator's browser, known to the account, still logs in from behind the NAT
    signed = accounts.log_in("Operator", PASSWORD, address=nat, device=operator.device)
    assert signed.user == operator.user
    # and the spray did not count against the accounts it named
    assert accounts.log_in("Newcomer", PASSWORD, address="198.51.100.7")


def test_a_password_change_forgets_every_device(engine: Engine) -> None:
    clock = Clock()
    accounts = Accounts(engine, clock=clock, hashing=cheap())
    first = accounts.sign_up("Ada", PASSWORD)
    second = accounts.log_in("Ada", PASSWORD, address="10.0.0.2")
    for guess in range(LIMITS.account):
        with pytest.raises(BadCredentialsError):
            accounts.log_in("Ada", f"guess {guess}", address=f"10.1.{guess}.1")
    # signed in, the owner changes the password all the same
    accounts.change_password(first.user, PASSWORD, "a new password", session=first.token)
    again = accounts.sign_in_again(first.user)
    assert again.device  # the browser that changed it is known afresh
    with pytest.raises(TooManyAttemptsError, match="new devices"):
        accounts.log_in("Ada", "a new password", address="10.0.0.2", device=second.device)
    assert accounts.log_in("Ada", "a new password", address="10.0.0.1", device=again.device)


def test_wrong_old_passwords_back_off_like_log_ins(engine: Engine) -> None:
    accounts = Accounts(engine, clock=Clock(), hashing=cheap())
    signed = accounts.sign_up("Joan", PASSWORD)
    for _ in range(LIMITS.free):
        with pytest.raises(BadCredentialsError):
            accounts.change_password(signed.user, "guess", "a new password", session=signed.token)
    with pytest.raises(TooManyAttemptsError, match="from here"):
        accounts.change_password(signed.user, PASSWORD, "a new password", session=signed.token)


def test_sign_ups_are_limited_per_address(engine: Engine) -> None:
    clock = Clock()
    accounts = Accounts(engine, clock=clock, sign_ups_per_hour=3, hashing=cheap())
    for name in ("Ann", "Ben", "Cal"):
        accounts.sign_up(name, PASSWORD, address="10.0.0.1")
    with pytest.raises(TooManyAttemptsError, match="sign-ups") as refused:
        accounts.sign_up("Dan", PASSWORD, address="10.0.0.1")
    assert 1 <= refused.value.retry_after <= 3601
    assert accounts.sign_up("Dan", PASSWORD, address="10.0.0.2")  # another address
    accounts.create("Eve", PASSWORD)  # the operator's command line is not limited
    clock.now += 3601
    assert accounts.sign_up("Fay", PASSWORD, address="10.0.0.1")


def test_the_hashing_pool_admits_its_workers_and_queue_and_refuses_the_rest() -> None:
    hashing = PasswordHashing(workers=1, waiting=1)
    assert hashing.memory_bound == 64 * 1024 * 1024  # one argon2 hash at a time, 64 MiB
    release = threading.Event()
    inside = threading.Event()
    slot = hashing.slot()
    with ThreadPoolExecutor(2) as pool:

        def hold() -> None:
            with hashing.slot():
                inside.set()
                release.wait(30)

        first = pool.submit(hold)
        assert inside.wait(30)
        queued = pool.submit(lambda: hashing.hash("a password"))  # waits for the worker
        deadline = time.monotonic() + 30
        while hashing.waiting() < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert hashing.waiting() == 2
        with pytest.raises(BusyError, match="busy") as busy, slot:
            pass
        assert busy.value.retry_after >= 1
        release.set()
        first.result(30)
        assert queued.result(30).startswith("$argon2id$")
    assert hashing.waiting() == 0


def test_an_unknown_name_costs_what_a_wrong_password_costs(engine: Engine) -> None:
    accounts = Accounts(engine)
    accounts.sign_up("Known Name", PASSWORD)

    def seconds(name: str, address: str) -> float:
        started = time.perf_counter()
        with pytest.raises(BadCredentialsError):
            accounts.log_in(name, "wrong password", address=address)
        return time.perf_counter() - started

    known, unknown = [], []
    for attempt in range(7):  # interleaved, so a busy spell slows both alike
        unknown.append(seconds(f"Nobody {attempt}", f"10.0.1.{attempt}"))
        known.append(seconds("Known Name", f"10.0.2.{attempt}"))
    ratio = statistics.median(unknown) / statistics.median(known)
    assert 0.5 < ratio < 2.0, (known, unknown)


# A real server, under real concurrency ----------------------------------------------------


def _sign_up(base: str, name: str, **extra: Any) -> httpx.Response:
    return httpx.post(
        f"{base}/api/accounts", json={"name": name, "password": PASSWORD}, timeout=60, **extra
    )


def _concurrently(count: int, call: Callable[[int], httpx.Response]) -> list[httpx.Response]:
    """``call(0)`` to ``call(count - 1)``, each on its own thread, released together."""
    start = threading.Barrier(count)

    def run(index: int) -> httpx.Response:
        start.wait(timeout=60)
        return call(index)

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(run, range(count)))


def _guess_concurrently(bases: list[str], name: str, count: int = 30) -> list[httpx.Response]:
    return _concurrently(
        count,
        lambda index: httpx.post(
            f"{bases[index % len(bases)]}/api/accounts/login",
            json={"name": name, "password": f"wrong guess {index}"},
            timeout=120,
        ),
    )


def _check_guesses(url: str, answers: list[httpx.Response], name: str) -> None:
    """Every guess was refused; as many were checked (401) as failures were written, no
    more than the back-off allows, each written after the back-off the ones before it set."""
    statuses = [answer.status_code for answer in answers]
    assert set(statuses) <= {401, 429}, [answer.text for answer in answers]
    for answer in answers:
        if answer.status_code == 429:
            assert int(answer.headers["retry-after"]) >= 1
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            times = sorted(
                connection.execute(
                    select(login_attempts.c.at).where(
                        login_attempts.c.name_key == name.casefold(), login_attempts.c.failed
                    )
                ).scalars()
            )
    finally:
        engine.dispose()
    checked = statuses.count(401)
    assert checked == len(times)
    span = times[-1] - times[0]
    assert LIMITS.free <= checked <= LIMITS.free + math.floor(math.log2(span + 1)), (times, span)
    for failures, (before, at) in enumerate(itertools.pairwise(times), start=1):
        assert at - before >= LIMITS.backoff(failures) - 1e-6, (failures, times)


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[str]:
    port = launch.free_port()
    process = launch.start(database_url, port, PATIENCE_CATALOG_REFILL="0")
    yield f"http://127.0.0.1:{port}"
    process.terminate()
    process.wait(timeout=20)


def test_thirty_concurrent_wrong_passwords_check_only_what_the_back_off_allows(
    server: str, database_url: str
) -> None:
    assert _sign_up(server, "Victim").status_code == 201
    _check_guesses(database_url, _guess_concurrently([server], "Victim"), "Victim")
    # an unknown name is limited alike (nothing tells the two apart)
    _check_guesses(database_url, _guess_concurrently([server], "Nobody"), "Nobody")


def test_two_servers_share_one_count(fresh_postgres_url: str) -> None:
    ports = [launch.free_port(), launch.free_port()]
    processes = [
        launch.start(
            fresh_postgres_url, port, PATIENCE_CATALOG_REFILL="0", PATIENCE_SIGN_UPS_PER_HOUR="2"
        )
        for port in ports
    ]
    try:
        bases = [f"http://127.0.0.1:{port}" for port in ports]
        assert _sign_up(bases[0], "Victim").status_code == 201
        _check_guesses(fresh_postgres_url, _guess_concurrently(bases, "Victim"), "Victim")
        # sign-ups from one address are counted once across both servers
        assert _sign_up(bases[1], "Second").status_code == 201
        refused = _sign_up(bases[0], "Third")
        assert refused.status_code == 429, refused.text
        assert "sign-ups" in refused.json()["detail"]
        assert 1 <= int(refused.headers["retry-after"]) <= 3601
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(timeout=20)


def _rss(pid: int) -> int:
    """The resident memory of process ``pid``, in bytes."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise AssertionError(f"no VmRSS for {pid}")


MiB = 1024 * 1024


def test_thirty_concurrent_sign_ups_keep_memory_bounded_and_the_server_answering(
    tmp_path: Path,
) -> None:
    port = launch.free_port()
    process = launch.start(
        tmp_path / "games.sqlite3",
        port,
        PATIENCE_CATALOG_REFILL="0",
        PATIENCE_SIGN_UPS_PER_HOUR="0",  # every sign-up reaches the hashing
        PATIENCE_PASSWORD_WORKERS="2",
        PATIENCE_PASSWORD_QUEUE="30",  # all 30 wait their turn: none is turned away
    )
    base = f"http://127.0.0.1:{port}"
    try:
        # the server at rest, once it has hashed a password (a sign-up loads what it needs)
        assert _sign_up(base, "First").status_code == 201
        resting = _rss(process.pid)
        peak = resting
        probes: list[float] = []
        done = threading.Event()

        def watch() -> None:
            nonlocal peak
            with httpx.Client(timeout=60) as client:
                while not done.is_set():
                    peak = max(peak, _rss(process.pid))
                    started = time.perf_counter()
                    assert client.get(f"{base}/api/games").status_code == 200
                    probes.append(time.perf_counter() - started)

        watcher = threading.Thread(target=watch)
        watcher.start()
        try:
            answers = _concurrently(30, lambda index: _sign_up(base, f"Player {index:02}"))
        finally:
            done.set()
            watcher.join(60)
        assert [answer.status_code for answer in answers] == [201] * 30
        # two hashes at a time, 64 MiB each, and room for the allocator and the requests
        bound = 2 * 64 * MiB + 48 * MiB
        assert peak - resting < bound, (resting // MiB, peak // MiB)
        # the other requests were answered all along, and not held up behind the hashing
        assert len(probes) >= 5
        assert statistics.median(probes) < 0.5, probes
    finally:
        process.terminate()
        process.wait(timeout=20)


def test_a_full_hashing_queue_answers_503_and_counts_nothing(tmp_path: Path) -> None:
    port = launch.free_port()
    process = launch.start(
        tmp_path / "games.sqlite3",
        port,
        PATIENCE_CATALOG_REFILL="0",
        PATIENCE_SIGN_UPS_PER_HOUR="8",
        PATIENCE_PASSWORD_WORKERS="1",
        PATIENCE_PASSWORD_QUEUE="0",
    )
    base = f"http://127.0.0.1:{port}"
    try:
        names = [f"Player {index}" for index in range(8)]
        answers = _concurrently(8, lambda index: _sign_up(base, names[index]))
        statuses = [answer.status_code for answer in answers]
        assert set(statuses) == {201, 503}, statuses  # one hash at a time, none waiting
        for answer in answers:
            if answer.status_code == 503:
                assert "busy" in answer.json()["detail"]
                assert int(answer.headers["retry-after"]) >= 1
        # the turned-away sign-ups were not counted: all 8 fit in the 8 an hour, one by one
        for name, answer in zip(names, answers, strict=True):
            if answer.status_code == 503:
                assert _sign_up(base, name).status_code == 201
        refused = _sign_up(base, "Ninth")
        assert refused.status_code == 429, refused.text
    finally:
        process.terminate()
        process.wait(timeout=20)
