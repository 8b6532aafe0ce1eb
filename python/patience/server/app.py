"""The web application: the API routers, the static client, the database on start-up."""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from patience.store.db import make_engine, migrate
from patience.store.games import GameStore

from .background import Background
from .pool import SolverPool
from .routers import games, sessions
from .settings import Settings

__all__ = ["create_app"]

STATIC = Path(__file__).with_name("static")


def create_app(settings: Settings | None = None) -> FastAPI:
    """The application for ``settings`` (from the environment by default). The database
    is created or migrated when the application starts."""
    settings = settings or Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(settings.database_url)
        migrate(engine)
        app.state.settings = settings
        app.state.store = store = GameStore(
            engine,
            certify_seconds=settings.certify_seconds,
            time_limit=settings.time_limit,
            max_live=settings.max_live_games,
            idle_seconds=settings.idle_seconds,
        )
        app.state.pool = pool = SolverPool(
            workers=settings.solver_workers, queue=settings.solver_queue
        )
        app.state.background = background = Background(store, pool, settings)
        background.start()
        # Everything loaded so far (the libraries, the app, the migrations: about 100,000
        # objects) lives as long as the process. Moved out of the collector's sight, a full
        # collection takes about 1 ms instead of about 40 ms, which was the tail of the
        # move round trip (benchmarks/server.py; docs/server.md).
        gc.collect()
        gc.freeze()
        yield
        background.stop()
        pool.close()
        engine.dispose()

    app = FastAPI(
        title="patience",
        summary="Fair, skill-based solitaire: the server referees every move.",
        lifespan=lifespan,
    )
    app.include_router(games.router)
    app.include_router(sessions.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    return app
