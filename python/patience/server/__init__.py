"""The web server: FastAPI, SQLite by default, the browser client in ``static/``.

``patience serve`` (or ``make serve``) runs it on 127.0.0.1:8000; see :mod:`.settings` for
the ``PATIENCE_*`` environment variables. The server referees every move and keeps the
clock; the client only ever receives what the player may see.

``create_app`` and ``Settings`` are imported when first asked for, so that a module of the
package (the log formatter each server process loads first) is imported without the whole
application: a server process under uvicorn's supervisor answers its health check sooner.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app
    from .settings import Settings

__all__ = ["Settings", "create_app"]


def __getattr__(name: str) -> Any:
    """``create_app`` and ``Settings``, imported on first use."""
    if name == "create_app":
        from .app import create_app

        return create_app
    if name == "Settings":
        from .settings import Settings

        return Settings
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
