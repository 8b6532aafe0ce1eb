"""The HTTP/1.1 protocol ``patience serve`` runs: uvicorn's h11 implementation with a
deadline for every request's head.

uvicorn arms no timer while a request's line and headers arrive: its ``timeout_keep_alive``
runs only between a response and the next request's first byte, and h11's
``max_incomplete_event_size`` bounds a head's size, not its pace. A client sending a byte
every few seconds held a connection (a socket, a file descriptor, the parser's buffer) for
as long as it liked, and one that sent nothing at all, for ever: 40 such connections were
still open after 45 s. :class:`HeadDeadlineProtocol` gives each head ``header_seconds``
(``PATIENCE_HEADER_SECONDS``, 10 s; a browser sends its head in one packet), counted from
the connection's opening, or from the first byte of a request after the previous answer,
and answers a head not in by then with 408 and closes the connection. A body's own
deadline is :class:`.http.RequestLimits`'s.
"""

from __future__ import annotations

import asyncio
import functools
import json
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from .settings import Settings

__all__ = ["HeadDeadlineProtocol"]


@functools.cache
def _configured_seconds() -> float:
    """``PATIENCE_HEADER_SECONDS``, read once a process (uvicorn's worker processes, when
    there are several, read the same environment)."""
    return Settings.from_env().header_seconds


def _timeout_answer(seconds: float) -> bytes:
    detail = f"the request's line and headers did not arrive within {seconds:g} s"
    body = json.dumps({"detail": detail}).encode()
    head = (
        "HTTP/1.1 408 Request Timeout\r\n"
        "content-type: application/json\r\n"
        f"content-length: {len(body)}\r\n"
        "connection: close\r\n\r\n"
    )
    return head.encode() + body


class HeadDeadlineProtocol(H11Protocol):
    """uvicorn's h11 protocol, with a request's head due within :attr:`header_seconds`
    (``PATIENCE_HEADER_SECONDS`` unless set on the class); pass the class as uvicorn's
    ``http``."""

    header_seconds: ClassVar[float | None] = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        seconds = type(self).header_seconds
        self._head_seconds = _configured_seconds() if seconds is None else seconds
        self._head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start_head_timer()

    def data_received(self, data: bytes) -> None:
        if self.conn.their_state is h11.IDLE:
            self._start_head_timer()  # a request's first byte (the timer runs on, once set)
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._stop_head_timer()  # the head is in (or the connection is done with)

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_head_timer()
        super().connection_lost(exc)

    def _start_head_timer(self) -> None:
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(self._head_seconds, self._head_too_slow)

    def _stop_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.write(_timeout_answer(self._head_seconds))
            self.transport.close()
