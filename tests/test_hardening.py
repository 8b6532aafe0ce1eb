"""The server against bad input and abuse: bad JSON never a 500, body and header
limits, slow bodies, rate limits per client, security headers on every response, and the
API's documentation page served from our own origin.

The API cases run in-process (FastAPI's TestClient, which raises any exception the
application lets out); the body, header and slow-body cases, and the server's error log,
against a real ``patience serve`` process over raw sockets."""

from __future__ import annotations

import json
import re
import select
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import HTTPException
from fastapi.testclient import TestClient

from patience.server import Settings, create_app, launch
from patience.server.http import CONTENT_SECURITY_POLICY, TokenBuckets, json_problem
from patience.server.settings import Rate
from patience.store.db import migrate_url

STATIC = Path(__file__).parents[1] / "python" / "patience" / "server" / "static"
SECURITY = {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}
JSON = {"Content-Type": "application/json"}
UNLIMITED = {
    "rate_starts": None,
    "rate_hints": None,
    "rate_hints_address": None,
    "rate_moves": None,
    "rate_address": None,
}


def _settings(tmp_path: Path, **changes: Any) -> Settings:
    # No background refill of the catalog: its solver work is not what these tests measure.
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    migrate_url(url)
    return Settings(database_url=url, catalog_refill=0, **changes)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(_settings(tmp_path, **UNLIMITED))) as test_client:
        yield test_client


def _practice(
    client: TestClient, game: str = "klondike", seed: int = 5
) -> tuple[str, dict[str, str]]:
    response = client.post("/api/sessions", json={"game": game, "seed": seed, "mode": "practice"})
    assert response.status_code == 201, response.text
    body = response.json()
    return f"/api/sessions/{body['id']}", {"Authorization": f"Bearer {body['token']}"}


def _has_security_headers(response: httpx.Response) -> None:
    for name, value in SECURITY.items():
        assert response.headers.get(name) == value, (name, response.status_code)


# Bad input: 400 or 422 with a reason, never a 500 ----------------------------------------

MALFORMED = [
    b"NaN",
    b"Infinity",
    b"-Infinity",
    b'{"game": NaN, "mode": "zebra"}',
    b'{"game": "golf", "seed": Infinity}',
    b'"\\ud800"',
    b'{"game": "zebra\\ud800"}',
    b'{"game": "golf", "variant": {"zebra\\udfff": 1}}',
    b"{not json",
    b'{"game": "zebra",}',
    b"\xff\xfe zebra",
]


@pytest.mark.parametrize("body", MALFORMED)
def test_malformed_json_is_400_with_a_reason_that_echoes_nothing(
    client: TestClient, body: bytes
) -> None:
    for content_type in ("application/json", "application/vnd.patience+json", None):
        headers = {"Content-Type": content_type} if content_type else {}
        response = client.post("/api/sessions", content=body, headers=headers)
        # without a type the body is not read as JSON (FastAPI's strict content type)
        assert response.status_code == (400 if content_type else 422), response.text
        detail = response.json()["detail"]
        assert detail, response.text
        assert "zebra" not in response.text
        assert "\\ud" not in response.text
        _has_security_headers(response)


@pytest.mark.parametrize(
    "body", [b'{"move": NaN}', b'{"move": "\\udc00"}', b'{"move": "t1>t2\\ud800zebra"}']
)
def test_malformed_json_in_a_move_is_400_and_changes_nothing(
    client: TestClient, body: bytes
) -> None:
    url, headers = _practice(client)
    before = client.get(url, headers=headers).json()
    response = client.post(f"{url}/moves", content=body, headers=headers | JSON)
    assert response.status_code == 400, response.text
    assert "zebra" not in response.text
    assert client.get(url, headers=headers).json()["board"] == before["board"]


@pytest.mark.parametrize(
    ("body", "where"),
    [
        (b'{"game": 1e400}', ["body", "game"]),  # an infinite float: JSON, but no string
        (b'{"game": "golf", "seed": 1e400}', ["body", "seed"]),
        (b'{"game": "golf", "mode": "zebra"}', ["body", "mode"]),
        (b'{"gmae": "zebra"}', ["body", "game"]),
        (b'["zebra"]', ["body"]),
        (b'"zebra"', ["body"]),
    ],
)
def test_a_body_of_the_wrong_shape_is_422_with_where_and_what(
    client: TestClient, body: bytes, where: list[str]
) -> None:
    response = client.post("/api/sessions", content=body, headers=JSON)
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    assert detail[0]["loc"] == where
    assert detail[0]["msg"]
    assert set(detail[0]) == {"loc", "msg", "type"}  # FastAPI's own adds the input
    assert "zebra" not in response.text
    assert "1e400" not in response.text


def test_a_move_of_the_wrong_shape_is_422(client: TestClient) -> None:
    url, headers = _practice(client)
    for body in ({"move": ""}, {"move": "zebra" * 20}, {"move": 12}, {"mvoe": "draw"}):
        response = client.post(f"{url}/moves", json=body, headers=headers)
        assert response.status_code == 422, response.text
        assert response.json()["detail"][0]["loc"][:2] == ["body", "move"]
        assert "zebra" not in response.text


def test_json_problem_parses_only_bodies_that_may_hold_one() -> None:
    assert json_problem(b'{"move": "t3>t5"}') is None
    assert json_problem(b'{"move": "\\u0074\\u0033"}') is None  # escapes, but no surrogate
    assert json_problem(b'{"move": "\\ud83c\\udca1"}') is None  # a pair: one character
    assert json_problem(b'{"move": "NaN"}') is None  # a string, not the constant
    assert json_problem(b'{"move": NaN}') == (0, "NaN is not a JSON number")
    assert json_problem(b'{"\\udca1": 1}') == (0, "a string holds a lone UTF-16 surrogate")
    assert json_problem(b"[" * 5000 + b"NaN" + b"]" * 5000) is not None  # too deep


def test_a_refusal_whose_reason_cannot_be_encoded_is_still_answered(tmp_path: Path) -> None:
    app = create_app(_settings(tmp_path))

    @app.get("/refuse")
    def refuse() -> None:
        raise HTTPException(400, "no such game 'x\ud800'")

    with TestClient(app) as test_client:
        response = test_client.get("/refuse")
    assert response.status_code == 400
    assert response.json()["detail"].startswith("no such game 'x")


def test_an_unexpected_error_is_a_plain_500(tmp_path: Path) -> None:
    app = create_app(_settings(tmp_path))

    @app.get("/boom")
    def boom() -> None:
        raise RuntimeError("secret internals")

    with TestClient(app, raise_server_exceptions=False) as test_client:
        response = test_client.get("/boom")
    assert response.status_code == 500
    assert response.json() == {"detail": "internal server error"}
    assert "secret" not in response.text
    _has_security_headers(response)


# Limits on the request, in process -------------------------------------------------------


def test_a_body_over_the_limit_is_413(client: TestClient) -> None:
    url, headers = _practice(client)
    padded = json.dumps({"move": "draw", "pad": "x" * 16 * 1024}).encode()
    response = client.post(f"{url}/moves", content=padded, headers=headers | JSON)
    assert response.status_code == 413
    assert "16384 bytes" in response.json()["detail"]
    assert response.headers["connection"] == "close"
    _has_security_headers(response)
    just_under = json.dumps({"move": "draw", "pad": "x" * 16_000}).encode()
    assert len(just_under) <= 16 * 1024
    answer = client.post(f"{url}/moves", content=just_under, headers=headers | JSON)
    assert answer.status_code == 200, answer.text


def test_headers_over_the_limit_are_431(client: TestClient) -> None:
    assert client.get("/api/games", headers={"X-Pad": "x" * 7000}).status_code == 200
    response = client.get("/api/games", headers={"X-Pad": "x" * 9000})
    assert response.status_code == 431
    assert "8192 bytes" in response.json()["detail"]
    _has_security_headers(response)


# Rate limits -----------------------------------------------------------------------------


def test_rates_are_read_from_the_environment() -> None:
    assert Rate.parse("30/m,10") == Rate(0.5, 10)
    assert Rate.parse(" 20 / s , 40 ") == Rate(20.0, 40)
    assert Rate.parse("120/h") == Rate(120 / 3600, 120)
    assert Rate.parse("0") is None
    assert Rate.parse("off") is None
    for bad in ("fast", "30/d", "30/m,0", "-1/s", "0/s"):
        with pytest.raises(ValueError, match="rate"):
            Rate.parse(bad)
    settings = Settings.from_env(
        {
            "PATIENCE_RATE_STARTS": "5/m,2",
            "PATIENCE_RATE_HINTS": "0",
            "PATIENCE_MAX_BODY_BYTES": "100",
        }
    )
    assert settings.rate_starts == Rate(5 / 60, 2)
    assert settings.rate_hints is None
    assert settings.rate_moves == Settings().rate_moves == Rate(20.0, 40)
    assert settings.max_body_bytes == 100
    defaults = Settings.from_env({})
    assert (defaults.rate_starts, defaults.rate_hints) == (Rate(0.5, 10), Rate(20 / 60, 5))
    assert (defaults.max_body_bytes, defaults.body_seconds) == (16 * 1024, 10.0)


def _retry_after(response: httpx.Response) -> int:
    assert response.status_code == 429, response.text
    retry = response.headers["retry-after"]
    assert retry.isdigit()
    assert int(retry) >= 1
    assert response.json()["detail"].startswith("too many")
    _has_security_headers(response)
    return int(retry)


def refilled_in(retry: int, since: float, every: float = 60.0) -> bool:
    """Whether a ``Retry-After`` of ``retry`` seconds fits a limit of one request every
    ``every`` seconds whose tokens the requests made since ``since`` (``time.monotonic()``)
    took: at most ``every``, and at least ``every`` less the time those requests took (on a
    busy machine a hint's search takes seconds, and the tokens refill meanwhile)."""
    return every - (time.monotonic() - since) - 1 <= retry <= every


def test_starts_are_limited_per_address_before_any_work(tmp_path: Path) -> None:
    settings = _settings(tmp_path, rate_starts=Rate(1 / 60, 3))
    app = create_app(settings)
    request = {"game": "golf", "seed": 1, "mode": "practice"}
    with TestClient(app, client=("192.0.2.1", 5000)) as first:
        since = time.monotonic()
        for _ in range(3):
            assert first.post("/api/sessions", json=request).status_code == 201
        refused = first.post("/api/sessions", json=request)
        assert refilled_in(_retry_after(refused), since)  # one token a minute, none left
        assert "new games" in refused.json()["detail"]
        # refused before the body is even read: malformed JSON is 429 too, not 400
        assert first.post("/api/sessions", content=b"{not json", headers=JSON).status_code == 429
        # other requests of the same address are not limited
        assert first.get("/api/games").status_code == 200
    with TestClient(app, client=("192.0.2.2", 5000)) as second:
        assert second.post("/api/sessions", json=request).status_code == 201


def test_moves_are_limited_per_game_so_other_games_go_on(tmp_path: Path) -> None:
    # a token every 5 s: none comes back during the test's few requests, however slow
    # a busy machine makes them
    app = create_app(_settings(tmp_path, rate_moves=Rate(0.2, 4)))
    with TestClient(app) as test_client:
        one, one_headers = _practice(test_client, seed=1)
        two, two_headers = _practice(test_client, seed=2)
        for path in ("moves", "undo", "moves", "moves"):  # undo and end share the bucket
            body = {"move": "draw"} if path == "moves" else None
            answer = test_client.post(f"{one}/{path}", json=body, headers=one_headers)
            assert answer.status_code in (200, 409), answer.text  # 409: undo not allowed
        before = test_client.get(one, headers=one_headers).json()
        refused = test_client.post(f"{one}/moves", json={"move": "draw"}, headers=one_headers)
        wait = _retry_after(refused)
        assert 1 <= wait <= 5
        assert "moves in this game" in refused.json()["detail"]
        assert 1 <= _retry_after(test_client.post(f"{one}/end", headers=one_headers)) <= 5
        after = test_client.get(one, headers=one_headers).json()
        assert after["board"] == before["board"]  # refused before any work
        assert after["outcome"] is None
        answer = test_client.post(f"{two}/moves", json={"move": "draw"}, headers=two_headers)
        assert answer.status_code == 200
        time.sleep(wait)  # as long as Retry-After said: then a move is taken again
        answer = test_client.post(f"{one}/moves", json={"move": "draw"}, headers=one_headers)
        assert answer.status_code == 200


def test_moves_across_many_games_are_limited_per_address(tmp_path: Path) -> None:
    app = create_app(_settings(tmp_path, rate_address=Rate(0.2, 3)))  # a token every 5 s
    with TestClient(app) as test_client:
        games = [_practice(test_client, seed=seed) for seed in range(4)]
        for url, headers in games[:3]:
            answer = test_client.post(f"{url}/moves", json={"move": "draw"}, headers=headers)
            assert answer.status_code == 200
        url, headers = games[3]
        refused = test_client.post(f"{url}/moves", json={"move": "draw"}, headers=headers)
        assert 1 <= _retry_after(refused) <= 5
        assert "from this address" in refused.json()["detail"]
        made_up = test_client.post("/api/sessions/nope/moves", json={"move": "draw"})
        assert made_up.status_code == 429  # no lookup for a game that does not exist
        assert test_client.get(url, headers=headers).json()["move_count"] == 0
    with TestClient(app, client=("192.0.2.9", 5000)) as other:
        url, headers = _practice(other, seed=9)
        assert other.post(f"{url}/moves", json={"move": "draw"}, headers=headers).status_code == 200


def test_hints_are_limited_per_game_for_a_guest_not_per_address(tmp_path: Path) -> None:
    app = create_app(
        _settings(tmp_path, rate_hints=Rate(1 / 60, 2), rate_address=None, hint_seconds=0.2)
    )
    with TestClient(app) as test_client:
        url, headers = _practice(test_client, game="golf", seed=3)
        before = test_client.get(url, headers=headers).json()
        since = time.monotonic()
        for _ in range(2):
            assert test_client.post(f"{url}/hint", headers=headers).status_code == 200
        refused = test_client.post(f"{url}/hint", headers=headers)
        assert refused.status_code == 429
        assert refilled_in(_retry_after(refused), since)
        detail = refused.json()["detail"]
        assert re.fullmatch(
            r"too many hints in this game: at most 2 at once and 1 a minute; try again in \d+ s",
            detail,
        ), detail
        after = test_client.get(url, headers=headers).json()
        assert after["board"] == before["board"]  # lost nothing
        assert after["move_count"] == 0
        # another player's game from the same address (a school, a café) has its own hints
        other, other_headers = _practice(test_client, game="golf", seed=4)
        assert test_client.post(f"{other}/hint", headers=other_headers).status_code == 200
        # a refusal for another reason (here, the game is over) costs no hint
        test_client.post(f"{other}/end", headers=other_headers)
        for _ in range(3):
            answer = test_client.post(f"{other}/hint", headers=other_headers)
            assert answer.status_code == 409, answer.text


def test_hints_from_one_address_have_a_ceiling(tmp_path: Path) -> None:
    app = create_app(
        _settings(
            tmp_path,
            rate_hints=Rate(1 / 60, 2),
            rate_hints_address=Rate(1 / 60, 3),
            rate_address=None,
            hint_seconds=0.2,
        )
    )
    with TestClient(app) as test_client:
        games = [_practice(test_client, game="golf", seed=seed) for seed in range(3)]
        since = time.monotonic()
        for url, headers in games:  # three players, each under their own limit
            assert test_client.post(f"{url}/hint", headers=headers).status_code == 200
        url, headers = games[0]
        refused = test_client.post(f"{url}/hint", headers=headers)
        assert refilled_in(_retry_after(refused), since)
        assert "from this address" in refused.json()["detail"]
        made_up = test_client.post("/api/sessions/nope/hint")
        assert made_up.status_code == 429  # refused before any lookup
    with TestClient(app, client=("192.0.2.9", 5000)) as other:
        url, headers = _practice(other, game="golf", seed=9)
        assert other.post(f"{url}/hint", headers=headers).status_code == 200


def test_the_hint_limits_defaults() -> None:
    defaults = Settings.from_env({})
    assert defaults.rate_hints == Rate(20 / 60, 5)  # a player's: one every 3 s, 5 at once
    assert defaults.rate_hints_address == Rate(4.0, 60)  # everyone on one address together


def test_disabled_limits_never_refuse(client: TestClient) -> None:
    url, headers = _practice(client)
    for _ in range(60):  # over every default burst
        answer = client.post(f"{url}/moves", json={"move": "draw"}, headers=headers)
        assert answer.status_code in (200, 400, 409), answer.text  # the stock runs out


def test_the_buckets_stay_bounded() -> None:
    buckets = TokenBuckets(Rate(1.0, 5), max_buckets=1000)
    for second in range(100):  # 50 new clients a second, each once
        for index in range(50):
            assert buckets.take((second, index), now=float(second)) == 0.0
    # a bucket idle for 5 s (full again) is dropped as new ones come
    assert len(buckets) <= 6 * 50
    capped = TokenBuckets(Rate(1 / 3600, 5), max_buckets=1000)
    for index in range(5000):
        capped.take(index, now=0.0)
    assert len(capped) == 1000
    # a client that keeps going keeps its bucket (least recently used goes first)
    kept = TokenBuckets(Rate(1.0, 2), max_buckets=3)
    for now in range(10):
        kept.take("player", now=float(now))
        kept.take(("passer-by", now), now=float(now))
    assert "player" in kept.buckets


def test_a_bucket_costs_microseconds() -> None:
    buckets = TokenBuckets(Rate(20.0, 40))
    keys = [(f"10.0.{index // 256}.{index % 256}", f"{index:016x}") for index in range(1000)]
    started = time.process_time()  # this process's CPU: other work on the machine aside
    for round_ in range(100):
        now = round_ * 0.01
        for key in keys:
            buckets.take(key, now)
    each = (time.process_time() - started) / 100_000
    assert each < 20e-6, f"{each * 1e6:.1f} µs a request"  # about 1 µs here


# Security headers, the client and the documentation page ---------------------------------


def test_every_response_carries_the_security_headers(client: TestClient) -> None:
    url, headers = _practice(client)
    responses = [
        client.get("/"),
        client.get("/static/app.js"),
        client.get("/static/favicon.svg"),
        client.get("/docs"),
        client.get("/docs-assets/swagger-ui.css"),
        client.get("/openapi.json"),
        client.get("/api/games"),
        client.get(url, headers=headers),
        client.post(f"{url}/moves", json={"move": "t1>t1"}, headers=headers),  # 409
        client.get(url),  # 401
        client.get("/nowhere"),  # 404
        client.post("/api/sessions", json={}),  # 422
        client.post("/api/sessions", content=b"NaN", headers=JSON),  # 400
    ]
    assert {response.status_code for response in responses} == {200, 401, 404, 409, 422, 400}
    for response in responses:
        _has_security_headers(response)


def test_the_policy_allows_nothing_inline_and_no_framing() -> None:
    directives = dict(
        (part.split()[0], part.split()[1:]) for part in CONTENT_SECURITY_POLICY.split("; ")
    )
    assert directives["default-src"] == ["'self'"]
    assert directives["script-src"] == ["'self'"]
    assert directives["style-src"] == ["'self'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert "unsafe" not in CONTENT_SECURITY_POLICY


def test_the_client_has_no_inline_script_or_style_and_a_favicon(client: TestClient) -> None:
    html = client.get("/").text
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)  # every script is a file
    assert "<style" not in html
    assert not re.search(r"\sstyle=|\son[a-z]+=", html)  # no style or handler attributes
    assert '<link rel="icon" href="/static/favicon.svg"' in html
    icon = client.get("/static/favicon.svg")
    assert icon.status_code == 200
    assert icon.headers["content-type"].startswith("image/svg+xml")
    for script in ("app.js", "cards.js", "api.js"):
        source = (STATIC / script).read_text()
        assert not re.search(r"style=|\beval\(|new Function\(|javascript:", source), script


def test_the_docs_load_only_from_our_own_origin(client: TestClient) -> None:
    page = client.get("/docs")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert not re.search(r"(https?:)?//[a-z0-9]", page.text, re.IGNORECASE)
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page.text)
    assets = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    assert "/docs-assets/swagger-ui-bundle.js" in assets
    assert "/docs-assets/swagger-ui.css" in assets
    for asset in assets:
        assert asset.startswith("/"), asset
        answer = client.get(asset)
        assert answer.status_code == 200, asset
        assert len(answer.content) > 100, asset
    script = (STATIC / "docs.js").read_text()
    assert '"/openapi.json"' in script
    assert "validatorUrl: null" in script
    assert "/api/sessions" in client.get("/openapi.json").text
    for cdn_page in ("/redoc", "/docs/oauth2-redirect"):
        assert client.get(cdn_page).status_code == 404


# A real server: bad input leaves no traceback; body and header limits over sockets ---------


class Server:
    """``patience serve`` in a child process (:func:`patience.server.launch.start`, its own
    SQLite file) whose error output the test reads. No background refill of the catalog
    unless asked for: none of these tests needs it, and a refill job running when the test
    stops the server is waited for, which at the solver's lowest priority on a busy machine
    took minutes."""

    def __init__(self, folder: Path, **env: str) -> None:
        self.port = launch.free_port()
        self.log = folder / "server.log"
        env = {"PATIENCE_CATALOG_REFILL": "0", **env}
        with self.log.open("w+b") as log:
            self.process = launch.start(folder / "games.sqlite3", self.port, stderr=log, **env)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def errors(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=120)

    def connect(self) -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=60)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return sock


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("server"), PATIENCE_BODY_SECONDS="1")
    yield running
    running.stop()


def _read_answer(sock: socket.socket, timeout: float = 60.0) -> tuple[int, dict[str, str], bytes]:
    """One HTTP answer from ``sock``: its status, headers and body."""
    sock.settimeout(timeout)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError(f"closed without an answer: {data!r}")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return int(lines[0].split()[1]), headers, body


def _closed(sock: socket.socket, timeout: float = 60.0) -> bool:
    """Whether the server closes ``sock`` within ``timeout`` seconds (a deadline: the answer
    comes as soon as it closes)."""
    sock.settimeout(timeout)
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def _request(path: str, headers: dict[str, str], body: bytes = b"") -> bytes:
    lines = [f"POST {path} HTTP/1.1", "Host: test", *(f"{k}: {v}" for k, v in headers.items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def test_bad_input_to_a_real_server_is_refused_without_a_traceback(server: Server) -> None:
    started = httpx.post(
        f"{server.url}/api/sessions", json={"game": "golf", "seed": 1, "mode": "practice"}
    ).json()
    headers = {"Authorization": f"Bearer {started['token']}", "Content-Type": "application/json"}
    moves = f"{server.url}/api/sessions/{started['id']}/moves"
    cases = [(f"{server.url}/api/sessions", body, 400) for body in MALFORMED] + [
        (f"{server.url}/api/sessions", b'{"game": 1e400}', 422),
        (f"{server.url}/api/sessions", b'{"game": "golf", "mode": "zebra"}', 422),
        (f"{server.url}/api/sessions", b"[" * 5000 + b"]" * 5000, 400),
        (moves, b'{"move": NaN}', 400),
        (moves, b'{"move": "\\ud800"}', 400),
        (moves, b'{"move": 1e400}', 422),
    ]
    for url, body, status in cases:
        response = httpx.post(url, content=body, headers=headers)
        assert response.status_code == status, (body, response.text)
        assert response.json()["detail"]
    errors = server.errors()
    assert "Traceback" not in errors, errors
    assert "Exception in ASGI application" not in errors, errors


def test_a_declared_length_over_the_limit_is_413_before_any_of_it_is_sent(
    server: Server,
) -> None:
    with server.connect() as sock:
        sock.sendall(
            _request(
                "/api/sessions",
                {"Content-Type": "application/json", "Content-Length": "10000000"},
                b'{"game": ',
            )
        )
        status, headers, body = _read_answer(sock)
        assert status == 413
        assert headers["connection"] == "close"
        assert "larger than 16384 bytes" in json.loads(body)["detail"]
        assert _closed(sock)


def test_a_chunked_body_over_the_limit_is_413_as_it_streams(server: Server) -> None:
    with server.connect() as sock:
        sock.sendall(
            _request(
                "/api/sessions",
                {"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
            )
        )
        chunk = b"x" * 4096
        sent = 0
        while sent <= 16 * 1024:  # the body is never complete: no last chunk
            assert not select.select([sock], [], [], 0.05)[0], "answered before the limit"
            sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            sent += len(chunk)
        assert sent == 20 * 1024  # refused once the count passed the limit, with no more
        status, headers, _ = _read_answer(sock)
        assert status == 413
        assert headers["connection"] == "close"
        assert _closed(sock)


@pytest.mark.parametrize("chunked", [False, True])
def test_a_body_too_slow_to_arrive_is_408_and_closed(server: Server, chunked: bool) -> None:
    headers = {"Content-Type": "application/json"}
    headers |= {"Transfer-Encoding": "chunked"} if chunked else {"Content-Length": "40"}
    with server.connect() as sock:
        started = time.monotonic()
        sock.sendall(_request("/api/sessions", headers))
        answered = False
        for _ in range(20):  # a byte every 0.2 s: each in time, the whole body not
            sock.sendall(b"1\r\n \r\n" if chunked else b" ")
            if select.select([sock], [], [], 0.2)[0]:
                answered = True
                break
        assert answered
        status, answer_headers, body = _read_answer(sock)
        elapsed = time.monotonic() - started
        assert status == 408
        assert answer_headers["connection"] == "close"
        assert "within 1 s" in json.loads(body)["detail"]
        assert 0.9 < elapsed < 3.0
        assert _closed(sock)


def test_huge_headers_are_refused_by_a_real_server(server: Server) -> None:
    for size, pieces in ((1_000_000, 1), (12_000, 1), (12_000, 40)):
        with server.connect() as sock:
            head = b"GET /api/games HTTP/1.1\r\nHost: test\r\nX-Pad: " + b"x" * size + b"\r\n\r\n"
            step = len(head) // pieces + 1
            try:
                for start in range(0, len(head), step):
                    sock.sendall(head[start : start + step])
                    if pieces > 1:
                        time.sleep(0.005)
            except (BrokenPipeError, ConnectionResetError):
                pass  # refused and closed while the rest was still being sent
            try:
                status = _read_answer(sock)[0]
            except ConnectionResetError:
                status = 0  # refused, and the answer lost to the reset
            assert status in (0, 400, 431), (size, pieces, status)
    with server.connect() as sock:  # still serving, and a head under the limit is fine
        sock.sendall(
            b"GET /api/games HTTP/1.1\r\nHost: test\r\nX-Pad: " + b"x" * 4000 + b"\r\n\r\n"
        )
        assert _read_answer(sock)[0] == 200


def test_a_real_server_limits_moves_with_retry_after(tmp_path: Path) -> None:
    running = Server(tmp_path, PATIENCE_RATE_MOVES="1/m,2", PATIENCE_RATE_STARTS="1/m,1")
    try:
        base = f"{running.url}/api/sessions"
        with httpx.Client() as http:
            since = time.monotonic()
            body = http.post(base, json={"game": "golf", "seed": 1, "mode": "practice"}).json()
            refused = http.post(base, json={"game": "golf", "seed": 1, "mode": "practice"})
            assert refused.status_code == 429
            assert refilled_in(int(refused.headers["retry-after"]), since)
            headers = {"Authorization": f"Bearer {body['token']}"}
            statuses = [
                http.post(f"{base}/{body['id']}/moves", json={"move": "draw"}, headers=headers)
                for _ in range(3)
            ]
        assert [answer.status_code for answer in statuses] == [200, 200, 429]
        assert int(statuses[-1].headers["retry-after"]) >= 1
        for answer in statuses:
            _has_security_headers(answer)
    finally:
        running.stop()
    assert "Traceback" not in running.errors()


def test_every_route_of_the_api_is_in_the_docs(tmp_path: Path) -> None:
    """docs/api.md has a line for every method and path of the API (the path's parameters
    named as it likes), so none goes missing from it again."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text()

    def shape(path: str) -> str:
        return re.sub(r"\{[^}]*\}", "{}", path)

    documented = {
        (method, shape(path))
        for method, path in re.findall(r"`(GET|POST|PUT|PATCH|DELETE) (/api/[^`?\s]*)", text)
    }
    paths = create_app(_settings(tmp_path)).openapi()["paths"]
    routes = {
        (method.upper(), shape(path))
        for path, operations in paths.items()
        if path.startswith("/api/")
        for method in operations
    }
    assert len(routes) > 40
    assert sorted(routes - documented) == []


def test_a_real_server_counts_an_ipv6_client_by_its_64(tmp_path: Path) -> None:
    """One client holds a whole /64 and may use a new address of it for each request:
    new games, sign-ups and guests' timed games are counted per /64 (the addresses come
    through the trusted proxy's X-Forwarded-For, as behind nginx)."""
    running = Server(
        tmp_path,
        PATIENCE_TRUSTED_PROXIES="127.0.0.1",
        PATIENCE_RATE_STARTS="1/m,10",
        PATIENCE_SIGN_UPS_PER_HOUR="2",
        PATIENCE_GUEST_TIMED="1",
    )
    practice = {"game": "golf", "seed": 1, "mode": "practice"}
    try:
        with httpx.Client(base_url=running.url, timeout=60) as http:

            def post(path: str, address: str, body: dict[str, Any]) -> int:
                http.cookies.clear()  # each request a new browser
                headers = {"X-Forwarded-For": address}
                return http.post(path, json=body, headers=headers).status_code

            one = [post("/api/sessions", f"2001:db8:1:2::{i:x}", practice) for i in range(1, 15)]
            assert one == [201] * 10 + [429] * 4
            # each /64 its own count; an IPv4-mapped address counts as its IPv4 address
            apart = [post("/api/sessions", f"2001:db8:1:{i:x}::1", practice) for i in range(3, 17)]
            assert apart == [201] * 14
            assert post("/api/sessions", "192.0.2.7", practice) == 201
            mapped = [post("/api/sessions", "::ffff:192.0.2.7", practice) for _ in range(10)]
            assert mapped == [201] * 9 + [429]

            def sign_up(name: str, address: str) -> int:
                return post("/api/accounts", address, {"name": name, "password": "x" * 12})

            signed = [sign_up(f"Rotor {i}", f"2001:db8:5:6::{i}") for i in range(1, 5)]
            assert signed == [201, 201, 429, 429]
            assert sign_up("Neighbour", "2001:db8:5:7::1") == 201

            timed = {"game": "golf", "variant": {"wrap": True}, "mode": "timed"}
            assert post("/api/sessions", "2001:db8:9:9::1", timed) == 201
            assert post("/api/sessions", "2001:db8:9:9::2", timed) == 409
            assert post("/api/sessions", "2001:db8:9:a::1", timed) == 201
    finally:
        running.stop()
    assert "Traceback" not in running.errors()


def test_the_client_and_the_docs_break_no_rule_of_the_policy_in_chromium(server: Server) -> None:
    """Chromium enforces the policy: the lobby, a dealt board and the documentation page
    (an operation tried out) load with no violation, no page error and no failed request."""
    sync_playwright = pytest.importorskip("playwright.sync_api").sync_playwright
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium")
        try:
            page = browser.new_page()
            problems: list[str] = []
            page.add_init_script(
                "window.__violations = [];"
                "document.addEventListener('securitypolicyviolation',"
                " (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));"
            )
            page.on("pageerror", lambda error: problems.append(str(error)))
            page.on(
                "response",
                lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None,
            )
            page.goto(server.url)
            page.click("#start")  # a timed Klondike game
            page.wait_for_selector("#board .card")
            assert page.evaluate("window.__violations") == []
            page.goto(f"{server.url}/docs")
            page.click("#operations-games-list_games_api_games_get")
            page.click("button.try-out__btn")
            page.click("button.execute")
            page.wait_for_selector(".live-responses-table tbody .response-col_status")
            assert "200" in page.inner_text(".live-responses-table tbody .response-col_status")
            assert page.evaluate("window.__violations") == []
            assert problems == []
        finally:
            browser.close()
