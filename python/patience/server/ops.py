"""What an operator's tools ask of a running server: ``/healthz``, ``/readyz`` and
``/metrics``, and the request observer that counts and logs every request.

- ``GET /healthz``: 200 while the process answers (for a supervisor or load balancer that
  restarts a dead process).
- ``GET /readyz``: 200 when the database answers and is at the newest migration, else 503
  with the reason (for a load balancer that sends players only to a ready process).
- ``GET /metrics``: Prometheus's text format (``prometheus-client``), for the addresses of
  ``PATIENCE_METRICS_ALLOW`` (loopback by default) or a request with
  ``Authorization: Bearer`` ``PATIENCE_METRICS_TOKEN``; anyone else gets 403. With several
  server processes (``patience serve --workers N``) every process writes its figures to
  ``PROMETHEUS_MULTIPROC_DIR`` and whichever answers a scrape sums them.

The metrics (all prefixed ``patience_``): ``requests_total`` by method, route (the path's
pattern, ``/api/sessions/{game_id}/moves``; ``unrouted`` for a request refused before
routing, or of no route) and status; ``move_seconds``, a histogram of the time the server
takes to answer a move, undo or end; ``live_games``, games held in memory; ``solver_jobs``,
solver calls running or waiting; ``catalog_unused_deals`` by game, variant and tier (read
from the database at each scrape); ``outages_total`` and ``outage_seconds_total``, times no
server answered (from the database).
"""

from __future__ import annotations

import ipaddress
import json
import logging
import os
import secrets
import time
from collections.abc import Iterator
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector
from sqlalchemy import Engine, func, select
from sqlalchemy.exc import SQLAlchemyError

from patience.store.catalog import counts
from patience.store.db import DatabaseError, NotMigratedError, outages, require_migrated

from .http import ASGIApp, Message, Receive, Scope, Send, database_failed_lately
from .logs import ACCESS
from .metrics import MOVE_SECONDS, MULTIPROCESS, REQUESTS
from .settings import Settings

__all__ = ["DatabaseCollector", "Observe", "router"]

log = logging.getLogger("patience.server")
access = logging.getLogger(ACCESS)

MOVE_ROUTES = frozenset(
    f"/api/sessions/{{game_id}}/{action}" for action in ("moves", "undo", "end")
)
QUIET_ROUTES = frozenset({"/healthz", "/readyz", "/metrics"})
"""Asked every few seconds by machines: their access lines are at ``debug``."""


class DatabaseCollector(Collector):
    """Figures read from the database at each scrape, the same whichever process answers:
    the catalog's unused deals per game, variant and tier, and the outages."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def collect(self) -> Iterator[GaugeMetricFamily | CounterMetricFamily]:
        """The families, from two queries."""
        stock = GaugeMetricFamily(
            "patience_catalog_unused_deals",
            "Certified deals not dealt yet, by game, variant and tier (0: not rated)",
            labels=["game", "variant", "tier"],
        )
        count = CounterMetricFamily(
            "patience_outages", "Times no server answered, credited to the running games"
        )
        seconds = CounterMetricFamily(
            "patience_outage_seconds", "Seconds no server answered, in all (credited back)"
        )
        with self.engine.connect() as connection:
            for row in counts(connection):
                variant = json.dumps(row["variant"], sort_keys=True, separators=(",", ":"))
                stock.add_metric([row["game"], variant, str(row["tier"] or 0)], row["unused"])
            total, spent = connection.execute(
                select(func.count(), func.coalesce(func.sum(outages.c.ended - outages.c.began), 0))
            ).one()
        count.add_metric([], int(total))
        seconds.add_metric([], float(spent))
        yield stock
        yield count
        yield seconds


def _networks(values: list[str]) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [
        ipaddress.ip_network("0.0.0.0/0" if value == "*" else value, strict=False)
        for value in values
    ]


def _within(address: str, networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)


router = APIRouter(include_in_schema=False)


@router.api_route("/healthz", methods=["GET", "HEAD"])
async def healthz() -> Response:
    """200 while this process answers."""
    return JSONResponse({"status": "ok"})


@router.api_route("/readyz", methods=["GET", "HEAD"])
def readyz(request: Request) -> Response:
    """200 when the database answers and is at the newest migration, and has not failed a
    request of this process in the last ten seconds (a full disk fails writes while reads
    go on), else 503."""
    failed = database_failed_lately(request.app)
    if failed is not None:
        reason = f"the database failed a request {failed:.0f} s ago"
        return JSONResponse({"status": "not ready", "reason": reason}, status_code=503)
    engine: Engine = request.app.state.store.engine
    try:
        status = require_migrated(engine)
    except DatabaseError as error:
        log.warning("not ready: %s", error)
        migrated = not isinstance(error, NotMigratedError)
        reason = "the database does not answer" if migrated else "the database is not migrated"
        return JSONResponse({"status": "not ready", "reason": reason}, status_code=503)
    return JSONResponse({"status": "ready", "migration": status.head})


@router.get("/metrics")
def metrics(request: Request) -> Response:
    """The Prometheus metrics, for allowed addresses or the token's bearer."""
    settings: Settings = request.app.state.settings
    if not _may_read_metrics(request, settings):
        return JSONResponse(
            {
                "detail": "the metrics are for the addresses of PATIENCE_METRICS_ALLOW, or "
                "with PATIENCE_METRICS_TOKEN as a bearer token"
            },
            status_code=403,
        )
    engine: Engine = request.app.state.store.engine
    if os.environ.get(MULTIPROCESS):
        shared = CollectorRegistry()
        MultiProcessCollector(shared)  # type: ignore[no-untyped-call]
        body = generate_latest(shared)
    else:
        body = generate_latest(REGISTRY)
    from_database = CollectorRegistry()
    from_database.register(DatabaseCollector(engine))
    try:
        body += generate_latest(from_database)
    except SQLAlchemyError:
        log.exception("the metrics from the database could not be read")
    return Response(body, media_type=CONTENT_TYPE_LATEST)


def _may_read_metrics(request: Request, settings: Settings) -> bool:
    token = settings.metrics_token
    if token is not None:
        scheme, _, value = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() == "bearer" and secrets.compare_digest(
            value.strip().encode(), token.get_secret_value().encode()
        ):
            return True
    client = request.client.host if request.client else ""
    if "x-forwarded-for" in request.headers and not settings.trusted_proxies:
        return False  # came through a proxy we do not believe: its address tells nothing
    return _within(client, _networks(settings.metrics_allow))


class Observe:
    """The outermost middleware: counts every request (``patience_requests_total``), times
    moves (``patience_move_seconds``) and writes the access log's line. It warns once when
    requests come with ``X-Forwarded-For`` while no proxy is trusted (the proxy's address
    would be taken for every player's)."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.log_access = settings.access_log
        self.proxies_trusted = bool(settings.trusted_proxies)
        self.warned = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def send_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_status)
        finally:
            seconds = time.perf_counter() - started
            route = getattr(scope.get("route"), "path", None) or "unrouted"
            method = scope["method"]
            REQUESTS.labels(method, route, str(status)).inc()
            if route in MOVE_ROUTES:
                MOVE_SECONDS.observe(seconds)
            if self.log_access:
                self._access(scope, method, route, status, seconds)
            if not self.proxies_trusted and not self.warned:
                self._check_forwarded(scope)

    @staticmethod
    def _access(scope: Scope, method: str, route: str, status: int, seconds: float) -> None:
        level = logging.DEBUG if route in QUIET_ROUTES else logging.INFO
        if not access.isEnabledFor(level):
            return
        client = scope.get("client")
        path = scope.get("path", "")
        fields: dict[str, Any] = {
            "method": method,
            "path": path[:200],
            "route": route,
            "status": status,
            "ms": round(seconds * 1000, 3),
            "client": client[0] if client else None,
        }
        access.log(level, "%s %s %d", method, path[:200], status, extra={"fields": fields})

    def _check_forwarded(self, scope: Scope) -> None:
        for name, _ in scope["headers"]:
            if name == b"x-forwarded-for":
                self.warned = True
                client = scope.get("client")
                log.warning(
                    "a request came with X-Forwarded-For from %s, but PATIENCE_TRUSTED_PROXIES "
                    "is empty: the proxy's address is taken for the client's (rate limits, "
                    "guests' limits); set it to the proxy's address",
                    client[0] if client else "an unknown address",
                )
                return
