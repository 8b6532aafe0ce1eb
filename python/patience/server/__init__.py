"""The web server: FastAPI, SQLite by default, the browser client in ``static/``.

``patience serve`` (or ``make serve``) runs it on 127.0.0.1:8000; see :mod:`.settings` for
the ``PATIENCE_*`` environment variables. The server referees every move and keeps the
clock; the client only ever receives what the player may see.
"""

from .app import create_app
from .settings import Settings

__all__ = ["Settings", "create_app"]
