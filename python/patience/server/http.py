"""What stands between the network and the API: error answers that never fail, security
headers, request body limits, rate limits.

All of it is plain ASGI (no ``BaseHTTPMiddleware``, which would cost a task a request) and
costs a few microseconds a request: a move's round trip stays under 5 ms at the 99th
percentile (``benchmarks/server.py``).

- :func:`install_error_handlers`: malformed JSON is 400, a body of the wrong shape 422, each
  with a reason (where and what) that never echoes the input; an unexpected exception is a
  plain 500 that tells nothing (and is logged with its traceback, as before).
- :class:`SecurityHeaders`: ``Content-Security-Policy`` and friends on every response.
- :class:`RateLimits`: token buckets per client address and kind of request, 429 with
  ``Retry-After`` before any work is done. Every limit per address (these, sign-ups and
  log-ins, guests' timed games) counts by :func:`address_key`: an IPv6 client by its /64.
- :class:`RequestLimits`: headers over their size limit are 431; a body over its size limit
  is 413 before it is read in full, one that arrives too slowly 408; a JSON body with
  ``NaN``, ``Infinity`` or a lone UTF-16 surrogate (none of them JSON: RFC 8259, RFC 7493)
  is 400.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException

from .settings import Rate, Settings

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "SECURITY_HEADERS",
    "RateLimits",
    "RequestLimits",
    "SecurityHeaders",
    "TokenBuckets",
    "address_key",
    "client_address",
    "install_error_handlers",
]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""Everything from our own origin, no inline script or style, no framing. ``data:`` images
are for the Swagger UI's stylesheet (its icons); the client uses none."""

SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]
"""The headers every response carries."""


# Error answers ---------------------------------------------------------------------------


def _printable(text: str, limit: int = 200) -> str:
    """``text`` cut to ``limit`` characters with any lone surrogate replaced, so that it
    always encodes as UTF-8."""
    text = text[:limit]
    try:
        text.encode()
    except UnicodeEncodeError:
        text = text.encode("utf-8", "replace").decode()
    return text


def _location(loc: Any) -> list[str | int]:
    """A validation error's location; a part from the input (a dict's key) is cut short."""
    parts = loc if isinstance(loc, (list, tuple)) else (loc,)
    return [part if isinstance(part, int) else _printable(str(part), 40) for part in parts]


def _body(detail: Any) -> bytes:
    return json.dumps({"detail": detail}, ensure_ascii=False, allow_nan=False).encode()


def _error_response(status: int, detail: Any, headers: dict[str, str] | None = None) -> Response:
    return Response(_body(detail), status, headers=headers, media_type="application/json")


def _malformed(position: int, reason: str) -> list[dict[str, Any]]:
    return [
        {
            "loc": ["body", position],
            "msg": f"malformed JSON: {reason}",
            "type": "json_invalid",
        }
    ]


async def _validation_error(request: Request, error: Exception) -> Response:
    """400 for a body that is not JSON, 422 for one of the wrong shape; the reason names
    where and what, never the input (FastAPI's own answer echoes it, and fails with a 500
    when the input is something JSON cannot render, ``NaN`` or a lone surrogate)."""
    assert isinstance(error, RequestValidationError)
    errors = error.errors()
    for item in errors:
        if item.get("type") == "json_invalid":
            loc = item.get("loc", ())
            position = loc[-1] if loc and isinstance(loc[-1], int) else 0
            reason = (item.get("ctx") or {}).get("error", "not JSON")
            return _error_response(400, _malformed(position, _printable(str(reason))))
    kind = request.headers.get("content-type", "")
    if kind and "json" not in kind and any(item.get("loc", ())[:1] == ("body",) for item in errors):
        # the body was not read as JSON: say so, rather than that it is of the wrong shape
        reason = "a request's body is JSON, sent with Content-Type: application/json"
        return _error_response(422, [{"loc": ["body"], "msg": reason, "type": "content_type"}])
    detail = [
        {
            "loc": _location(item.get("loc", ())),
            # pydantic prefixes the reasons our validators give with its own words
            "msg": _printable(str(item.get("msg", "")).removeprefix("Value error, ")),
            "type": _printable(str(item.get("type", "")), 60),
        }
        for item in errors
    ]
    return _error_response(422, detail)


async def _http_error(request: Request, error: Exception) -> Response:
    """A refusal: its status and reason, rendered so that it cannot fail."""
    assert isinstance(error, StarletteHTTPException)
    headers = getattr(error, "headers", None)
    if error.status_code in (204, 304) or error.status_code < 200:
        return Response(status_code=error.status_code, headers=headers)
    detail = error.detail
    if isinstance(detail, str):
        detail = _printable(detail, 1000)
    try:
        body = _body(detail)
    except (TypeError, ValueError):
        body = _body(_printable(str(detail), 1000))
    return Response(body, error.status_code, headers=headers, media_type="application/json")


DATABASE_RETRY_SECONDS = 5
"""The ``Retry-After`` of a request the database could not serve."""


def database_failed_lately(app: FastAPI, within: float = 10.0) -> float | None:
    """Seconds since this process's database last failed a request (a full disk, a lost
    connection, a lock held too long), if that was within ``within`` seconds: ``/readyz``
    answers 503 until then."""
    at: float | None = getattr(app.state, "database_failed_at", None)
    if at is None:
        return None
    ago = time.monotonic() - at
    return ago if ago < within else None


async def _unexpected(request: Request, error: Exception) -> Response:
    """A plain 500 that tells nothing, or a 503 with ``Retry-After`` when the database
    could not do what was asked (:class:`sqlalchemy.exc.OperationalError`: a full disk, a
    lost connection; the transaction was rolled back, so nothing changed and the request
    may be sent again). Starlette's outermost middleware sends it, outside
    :class:`SecurityHeaders`, so it carries those headers itself; the exception is raised
    on after it and logged with its traceback."""
    headers = {name.decode(): value.decode() for name, value in SECURITY_HEADERS}
    if isinstance(error, OperationalError):
        request.app.state.database_failed_at = time.monotonic()
        return JSONResponse(
            {
                "detail": "the server cannot use its database just now; nothing was changed:"
                " try again in a moment"
            },
            status_code=503,
            headers=headers | {"Retry-After": str(DATABASE_RETRY_SECONDS)},
        )
    return JSONResponse({"detail": "internal server error"}, status_code=500, headers=headers)


def install_error_handlers(app: FastAPI) -> None:
    """Bad input answers 400 or 422 with a reason, never a 500; anything unexpected a plain
    500 JSON answer."""
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _unexpected)


async def _send_error(
    send: Send,
    status: int,
    detail: Any,
    *,
    close: bool = False,
    extra: tuple[tuple[bytes, bytes], ...] = (),
) -> None:
    """Answers ``status`` from a middleware, before the application saw the request."""
    body = _body(detail)
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *extra,
    ]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


# Security headers ------------------------------------------------------------------------


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)


# Rate limits -----------------------------------------------------------------------------


class TokenBuckets:
    """A token bucket per key, all at one :class:`~.settings.Rate`, in memory.

    A bucket idle long enough to have filled up again is the same as none, so buckets are
    kept least recently used first and those idle that long are dropped as new ones come;
    past ``max_buckets`` the least recently used is dropped even so (its client starts
    afresh). Each call is O(1).

    >>> buckets = TokenBuckets(Rate(per_second=1.0, burst=2))
    >>> [buckets.take("a", now=0.0), buckets.take("a", now=0.0), buckets.take("a", now=0.0)]
    [0.0, 0.0, 1.0]
    >>> buckets.take("a", now=1.0), buckets.take("b", now=1.0)
    (0.0, 0.0)
    """

    def __init__(self, rate: Rate, *, max_buckets: int = 100_000) -> None:
        self.rate = rate
        self.max_buckets = max_buckets
        self.refill_seconds = rate.burst / rate.per_second
        self.buckets: OrderedDict[Any, list[float]] = OrderedDict()

    def take(self, key: Any, now: float) -> float:
        """Takes a token from ``key``'s bucket: 0 if there was one, else the seconds until
        there is."""
        buckets = self.buckets
        bucket = buckets.get(key)
        if bucket is None:
            self._drop_idle(now)
            buckets[key] = [self.rate.burst - 1.0, now]
            return 0.0
        buckets.move_to_end(key)
        tokens = min(self.rate.burst, bucket[0] + (now - bucket[1]) * self.rate.per_second)
        bucket[1] = now
        if tokens >= 1.0:
            bucket[0] = tokens - 1.0
            return 0.0
        bucket[0] = tokens
        return (1.0 - tokens) / self.rate.per_second

    def _drop_idle(self, now: float) -> None:
        buckets = self.buckets
        while buckets:
            key, (_, last) = next(iter(buckets.items()))
            if now - last < self.refill_seconds and len(buckets) < self.max_buckets:
                break
            del buckets[key]

    def __len__(self) -> int:
        return len(self.buckets)


def address_key(host: str) -> str:
    """The client address that limits per address count by: an IPv6 address's /64 (one
    client commonly holds a whole /64 and may take a new address of it for each request),
    an IPv4 address, or an IPv4-mapped IPv6 one, whole; anything else (a test client's
    name) as it is.

    >>> address_key("2001:db8:1:2::7")
    '2001:db8:1:2::/64'
    >>> address_key("2001:DB8:1:2:ffff:1:2:3") == address_key("2001:db8:1:2::1")
    True
    >>> address_key("2001:db8:1:3::1")
    '2001:db8:1:3::/64'
    >>> address_key("::ffff:192.0.2.1"), address_key("192.0.2.1")
    ('192.0.2.1', '192.0.2.1')
    >>> address_key("fe80::1%eth0"), address_key("testclient")
    ('fe80::/64', 'testclient')
    """
    try:
        address = ipaddress.ip_address(host.partition("%")[0])
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return f"{ipaddress.IPv6Address(int(address) >> 64 << 64)}/64"
    return str(address)


def client_address(request: Request) -> str | None:
    """The :func:`address_key` of ``request``'s client (None if unknown)."""
    return address_key(request.client.host) if request.client else None


_SESSIONS = "/api/sessions"
_GAME_PREFIX = "/api/sessions/"
_MOVES = frozenset({"moves", "undo", "end"})
_MAX_ID = 64  # longer than any game id; a longer one shares a bucket with the rest
_TOURNAMENTS = "/api/tournaments/"
_VERIFICATION = "/verification"


class RateLimits:
    """429 with ``Retry-After`` for a client over its rate, before any work is done.

    The client is the peer address (``scope["client"]``; behind a trusted proxy, uvicorn
    takes it from ``X-Forwarded-For``), counted by its :func:`address_key` (an IPv6
    address's /64). Kinds, by method and path: ``start`` (POST
    /api/sessions), ``hint`` (POST /api/sessions/{id}/hint) and ``move`` (POST .../moves,
    .../undo, .../end), the last per address *and* game, so one game's pace does not slow
    another's; moves and hints also count against one bucket per address across all its
    games (``rate_address``), so many games, or made-up game ids, do not multiply a
    client's rate. ``verification`` (GET /api/tournaments/{id}/verification) has a
    bucket per address of its own. The buckets are this process's: with several server
    processes each enforces its own, so the effective limit is per process.

    Hints are limited here only by a generous ceiling per address (``rate_hints_address``,
    against a flood): the limit a player meets is their own, counted once the game is
    known to be theirs (:class:`HintLimits`), so that players behind one address (a
    school, a café) neither share it nor use it up for each other.
    """

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.starts = None if settings.rate_starts is None else TokenBuckets(settings.rate_starts)
        self.hints = (
            None
            if settings.rate_hints_address is None
            else TokenBuckets(settings.rate_hints_address)
        )
        self.moves = None if settings.rate_moves is None else TokenBuckets(settings.rate_moves)
        self.address = (
            None if settings.rate_address is None else TokenBuckets(settings.rate_address)
        )
        self.verifications = (
            None
            if settings.rate_verifications is None
            else TokenBuckets(settings.rate_verifications)
        )

    def _limit(self, path: str) -> tuple[TokenBuckets | None, str, str]:
        """The buckets for a POST to ``path``, what they count, and the game's id."""
        if path == _SESSIONS:
            return self.starts, "new games", ""
        if path.startswith(_GAME_PREFIX):
            game_id, slash, action = path[len(_GAME_PREFIX) :].partition("/")
            if slash:
                if action in _MOVES:
                    return self.moves, "moves in this game", game_id[:_MAX_ID]
                if action == "hint":
                    return self.hints, "hints from this address (shared by everyone on it)", ""
        return None, "", ""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        buckets, what, game_id = None, "", ""
        if scope["method"] == "POST":
            buckets, what, game_id = self._limit(scope["path"])
        elif scope["path"].startswith(_TOURNAMENTS) and scope["path"].endswith(_VERIFICATION):
            buckets, what = self.verifications, "tournament verifications"
        if buckets is not None:
            client = scope.get("client")
            address = address_key(client[0]) if client else ""
            now = time.monotonic()
            wait = buckets.take((address, game_id), now)
            per_game = buckets is self.moves or buckets is self.hints
            if not wait and self.address is not None and per_game:
                wait = self.address.take(address, now)
                if wait:
                    buckets, what = self.address, "requests to games from this address"
            if wait:
                detail, retry = too_many(what, buckets.rate, wait)
                await _send_error(send, 429, detail, extra=((b"retry-after", str(retry).encode()),))
                return
        await self.app(scope, receive, send)


def too_many(what: str, rate: Rate, wait: float) -> tuple[str, int]:
    """The reason of a 429 for ``what`` over ``rate``, and its ``Retry-After`` (whole
    seconds, at least 1) for a wait of ``wait`` seconds.

    >>> too_many("hints in this game", Rate(20 / 60, 5), 2.2)
    ('too many hints in this game: at most 5 at once and 20 a minute; try again in 3 s', 3)
    """
    retry = max(1, math.ceil(wait))
    detail = (
        f"too many {what}: at most {rate.burst} at once and "
        f"{_per(rate.per_second)}; try again in {retry} s"
    )
    return detail, retry


class HintLimits:
    """The hints a player may ask for, counted per player once the game is known to be
    theirs: a signed-in player's across all their games (a new game gives no fresh
    hints), a guest's in each game (a guest has no identity beyond the game's token;
    new games are limited by ``rate_starts``, and every hint from an address by the
    ceiling of :class:`RateLimits`). This process's buckets, as the middleware's.

    >>> limits = HintLimits(Rate(per_second=1 / 60, burst=1))
    >>> limits.take(user_id="ann", game_id="g1", now=0.0)
    >>> limits.take(user_id=None, game_id="g2", now=0.0)  # a guest's game: its own count
    >>> limits.take(user_id="ann", game_id="g3", now=1.0)[1]
    59
    """

    def __init__(self, rate: Rate | None) -> None:
        self.buckets = None if rate is None else TokenBuckets(rate)

    def take(self, *, user_id: str | None, game_id: str, now: float) -> tuple[str, int] | None:
        """Takes a hint from the player's count: None if there was one, else the reason
        to refuse with and the seconds to wait."""
        if self.buckets is None:
            return None
        key = ("player", user_id) if user_id is not None else ("game", game_id)
        wait = self.buckets.take(key, now)
        if not wait:
            return None
        what = "hints" if user_id is not None else "hints in this game"
        return too_many(what, self.buckets.rate, wait)


def _per(per_second: float) -> str:
    """``per_second`` in words, in the unit that makes it a whole number if one does."""
    for count, unit in ((per_second, "a second"), (per_second * 60, "a minute")):
        if count >= 1 and count == int(count):
            return f"{int(count)} {unit}"
    return f"{per_second * 3600:g} an hour"


# Request limits -----------------------------------------------------------------------------


def _is_json(content_type: bytes | None) -> bool:
    """Whether FastAPI reads a body of this content type as JSON. (A body without one is
    not, by FastAPI's ``strict_content_type``: its validation is 422.)"""
    if not content_type:
        return False
    media = content_type.split(b";", 1)[0].strip().lower()
    return media == b"application/json" or (
        media.startswith(b"application/") and media.endswith(b"+json")
    )


def _not_a_number(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _lone_surrogate(value: Any) -> bool:
    """Whether a string in ``value`` (a key or a value, at any depth) has a lone UTF-16
    surrogate, which no UTF-8 text can hold."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode()
            except UnicodeEncodeError:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def json_problem(body: bytes) -> tuple[int, str] | None:
    """What makes ``body`` other than strict JSON (where, and why), if anything does.

    Python's parser accepts ``NaN``, ``Infinity`` and lone surrogate escapes; FastAPI would
    pass them on. Only bodies that may hold one are parsed here, so a move's body is not.

    >>> json_problem(b'{"move": "t3>t5"}') is None
    True
    >>> json_problem(b'{"game": NaN}')
    (0, 'NaN is not a JSON number')
    >>> json_problem(b'"\\\\ud800"')
    (0, 'a string holds a lone UTF-16 surrogate')
    >>> json_problem(b'"\\\\ud83c\\\\udca1"') is None
    True
    """
    if b"NaN" not in body and b"Infinity" not in body and b"\\u" not in body:
        return None
    try:
        value = json.loads(body, parse_constant=_not_a_number)
    except json.JSONDecodeError as error:
        return error.pos, error.msg
    except (ValueError, RecursionError) as error:  # the constants above; too deep
        return 0, _printable(str(error))
    if _lone_surrogate(value):
        return 0, "a string holds a lone UTF-16 surrogate"
    return None


class RequestLimits:
    """Measures a request's head and reads its body before the application does, within
    limits; every refusal here closes the connection but the last.

    - Request line and headers over ``max_header_bytes``: 431. (The HTTP parser, h11,
      already refuses with 400 a head still incomplete past that size, so it never buffers
      much more; a head that arrived whole in one read is measured here.)
    - A ``Content-Length`` over ``max_body_bytes``: 413 at once; a chunked body as soon as
      its bytes pass it: 413, before it is read in full.
    - A body not in by ``body_seconds`` after the headers: 408.
    - A JSON body that is not strict JSON (:func:`json_problem`): 400.

    The application then reads the body from memory.
    """

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.max_bytes = settings.max_body_bytes
        self.seconds = settings.body_seconds
        self.max_header_bytes = settings.max_header_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length: bytes | None = None
        chunked = False
        content_type: bytes | None = None
        head = len(scope.get("raw_path") or b"") + len(scope["query_string"]) + 16
        for name, value in scope["headers"]:
            head += len(name) + len(value) + 4
            if name == b"content-length":
                length = value
            elif name == b"transfer-encoding":
                chunked = True
            elif name == b"content-type":
                content_type = value
        if head > self.max_header_bytes:
            detail = f"the request's line and headers are larger than {self.max_header_bytes} bytes"
            await _send_error(send, 431, detail, close=True)
            return
        if not chunked and (length is None or length == b"0"):
            await self.app(scope, receive, send)  # no body
            return
        if length is not None and (not length.isdigit() or int(length) > self.max_bytes):
            await self._too_large(send)
            return
        chunks: list[bytes] = []
        size = 0
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout_at(loop.time() + self.seconds):
                while True:
                    message = await receive()
                    if message["type"] != "http.request":
                        return  # the client went away
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    if size > self.max_bytes:
                        await self._too_large(send)
                        return
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            detail = f"the request's body did not arrive within {self.seconds:g} s"
            await _send_error(send, 408, detail, close=True)
            return
        body = chunks[0] if len(chunks) == 1 else b"".join(chunks)
        if _is_json(content_type):
            problem = json_problem(body)
            if problem is not None:
                await _send_error(send, 400, _malformed(*problem))
                return
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if delivered:
                return await receive()  # a disconnect, as from the server
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    async def _too_large(self, send: Send) -> None:
        detail = f"the request's body is larger than {self.max_bytes} bytes"
        await _send_error(send, 413, detail, close=True)
