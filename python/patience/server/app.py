"""The web application: the API routers, the static client, the API's documentation page,
the operator's endpoints (:mod:`.ops`), and the hardening of :mod:`.http` around them."""

from __future__ import annotations

import gc
import importlib.resources
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.types import Scope

from patience.players import Accounts, PasswordHashing
from patience.store.db import make_engine, require_migrated
from patience.store.games import GameStore
from patience.tournaments import Tournaments

from .background import Background
from .http import HintLimits, RateLimits, RequestLimits, SecurityHeaders, install_error_handlers
from .ops import Observe
from .ops import router as ops_router
from .pool import SolverPool
from .routers import accounts, admin, daily, games, replays, sessions, tournaments
from .settings import Settings

__all__ = ["DOCS_ASSETS", "REVALIDATE", "STATIC", "Revalidated", "create_app"]

STATIC = Path(__file__).with_name("static")
DOCS_ASSETS = Path(str(importlib.resources.files("fastapi_offline") / "static"))

# The client's files keep their names from one version to the next (/static/app.js): a
# browser may keep them, but asks again each time whether they changed (an unchanged one is
# a 304 by its ETag), so that after an upgrade no browser runs the old app.js.
REVALIDATE = {"Cache-Control": "no-cache"}


class Revalidated(StaticFiles):
    """Static files served with ``Cache-Control: no-cache`` (:data:`REVALIDATE`)."""

    def file_response(
        self,
        full_path: os.PathLike[str] | str,
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        """The file's answer (a 304 when the browser's copy is current), to revalidate."""
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers.update(REVALIDATE)
        return response


"""Swagger UI's script and stylesheet, from the pinned ``fastapi-offline`` package: the
documentation page loads nothing from another origin."""


def create_app(settings: Settings | None = None) -> FastAPI:
    """The application for ``settings`` (from the environment by default). It starts only
    on a database at the newest migration (``patience db migrate``):
    :class:`patience.store.db.NotMigratedError` otherwise."""
    settings = settings or Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(settings.database_url, background_checkpoints=True)
        try:
            require_migrated(engine)
        except BaseException:
            engine.dispose()
            raise
        app.state.settings = settings
        app.state.hint_limits = HintLimits(settings.rate_hints)
        app.state.store = store = GameStore(
            engine,
            certify_seconds=settings.certify_seconds,
            time_limit=settings.time_limit,
            max_live=settings.max_live_games,
            idle_seconds=settings.idle_seconds,
            guest_timed=settings.guest_timed,
        )
        store.start_writer()  # moves are committed off the event loop
        app.state.accounts = Accounts(
            engine,
            session_days=settings.session_days,
            sign_ups_per_hour=settings.sign_ups_per_hour,
            hashing=PasswordHashing(
                workers=settings.password_workers, waiting=settings.password_queue
            ),
        )
        app.state.tournaments = events = Tournaments(store)
        store.on_game_end(events.game_ended)
        app.state.pool = pool = SolverPool(
            workers=settings.solver_workers,
            queue=settings.solver_queue,
            memory_mb=settings.solver_memory_mb,
            priority=settings.solver_priority,
        )
        # the catalog's refill: a process of its own, so that a player's hint or timed deal
        # never waits behind a deal being rated (background.py)
        refill_pool = SolverPool(
            workers=1,
            queue=1,
            memory_mb=settings.solver_memory_mb,
            priority=settings.solver_priority,
        )
        app.state.background = background = Background(store, pool, settings, refill_pool)
        background.start()
        # Everything loaded so far (the libraries, the app, the migrations: about 100,000
        # objects) lives as long as the process. Moved out of the collector's sight, a full
        # collection takes about 1 ms instead of about 40 ms, which was the tail of the
        # move round trip (benchmarks/server.py; docs/server.md).
        gc.collect()
        gc.freeze()
        yield
        background.stop()
        refill_pool.close()
        pool.close()
        store.close()
        engine.dispose()

    app = FastAPI(
        title="patience",
        summary="Fair, skill-based solitaire: the server referees every move.",
        lifespan=lifespan,
        # Prometheus (/metrics) and the JSON logs are the server's telemetry: FastAPI's own
        # OpenTelemetry hooks stay off (with them on, every request asks whether any
        # provider is configured, 1-2% of a move's time on the event loop).
        telemetry={"tracing": False, "metrics": False, "logs": False, "operation_spans": False},
        docs_url=None,  # FastAPI's pages load Swagger UI and ReDoc from a CDN; /docs below
        redoc_url=None,
        swagger_ui_oauth2_redirect_url=None,
    )
    install_error_handlers(app)
    # The first added is the innermost: a request meets the observer (metrics, access
    # log), the headers, then the rate limits, then the request limits, then the
    # application.
    app.add_middleware(RequestLimits, settings=settings)
    app.add_middleware(RateLimits, settings=settings)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(Observe, settings=settings)
    app.include_router(ops_router)
    app.include_router(games.router)
    app.include_router(sessions.router)
    app.include_router(accounts.router)
    app.include_router(tournaments.router)
    app.include_router(admin.router)
    app.include_router(daily.router)
    app.include_router(replays.router)
    app.mount("/static", Revalidated(directory=STATIC), name="static")
    app.mount("/docs-assets", Revalidated(directory=DOCS_ASSETS), name="docs-assets")

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers=REVALIDATE)

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> FileResponse:
        """The icon, where browsers look for it without a ``<link rel="icon">``."""
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml", headers=REVALIDATE)

    @app.get("/docs", include_in_schema=False)
    def docs() -> FileResponse:
        """Swagger UI on /openapi.json, every file from this origin."""
        return FileResponse(STATIC / "docs.html", headers=REVALIDATE)

    return app
