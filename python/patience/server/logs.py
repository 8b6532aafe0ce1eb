"""The server's logs: one JSON object a line on standard error, for journald (or any log
collector) to keep and search.

Every line has ``time`` (UTC, ISO 8601, milliseconds), ``level``, ``logger``, ``pid`` (which
server process, when there are several) and ``message``; an access line adds the request's
``method``, ``path``, ``route`` (the path's pattern), ``status``, ``ms`` and ``client``; an
error its ``exception``. ``PATIENCE_LOG_LEVEL`` sets the least severe level written and
``PATIENCE_ACCESS_LOG`` turns the access lines off.

>>> import logging
>>> record = logging.LogRecord("patience.access", logging.INFO, "", 0, "GET / 200", (), None)
>>> record.fields = {"status": 200}
>>> line = json.loads(JsonFormatter().format(record))
>>> line["level"], line["message"], line["status"]
('info', 'GET / 200', 200)
"""

from __future__ import annotations

import datetime
import json
import logging
import os
from typing import Any

__all__ = ["ACCESS", "JsonFormatter", "log_config"]

ACCESS = "patience.access"
"""The access log's logger: a line a request, at ``info`` (``debug`` for the health and
metrics endpoints, which are asked every few seconds)."""


class JsonFormatter(logging.Formatter):
    """A log record as one line of JSON; a record's ``fields`` (a dict) are added to it."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as a JSON object on one line."""
        moment = datetime.datetime.fromtimestamp(record.created, datetime.UTC)
        entry: dict[str, Any] = {
            "time": moment.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "pid": record.process or os.getpid(),
            "message": record.getMessage(),
        }
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            entry.update(fields)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exception"] = record.exc_text
        return json.dumps(entry, ensure_ascii=False, default=str)


def log_config(level: str, *, access_log: bool = True) -> dict[str, Any]:
    """A :func:`logging.config.dictConfig` configuration (uvicorn's ``log_config``): the
    server's and uvicorn's loggers at ``level`` and up as JSON lines on standard error;
    the access log (ours: uvicorn's own is off) unless ``access_log`` is false."""
    upper = level.upper()
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": JsonFormatter}},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": "json",
                "stream": "ext://sys.stderr",
            }
        },
        "loggers": {
            "patience": {"handlers": ["stderr"], "level": upper, "propagate": False},
            ACCESS: {
                "handlers": ["stderr"],
                "level": upper if access_log else "CRITICAL",
                "propagate": False,
            },
            "uvicorn": {"handlers": ["stderr"], "level": upper, "propagate": False},
            "uvicorn.error": {"level": upper},
            "uvicorn.access": {"handlers": [], "level": "CRITICAL", "propagate": False},
        },
        "root": {"handlers": ["stderr"], "level": "WARNING"},
    }
