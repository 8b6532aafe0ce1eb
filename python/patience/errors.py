"""The errors of `patience`, all of them `ValueError` subclasses with a reason a person can read.

An error never leaves the state it was aimed at changed: a rejected move, deal or record
changes nothing.

>>> issubclass(IllegalMoveError, ValueError) and issubclass(InvalidMoveError, ValueError)
True
"""

from __future__ import annotations

__all__ = [
    "GameOverError",
    "IllegalMoveError",
    "InvalidCardError",
    "InvalidDealError",
    "InvalidMoveError",
    "InvalidRecordError",
    "InvalidVariantError",
    "PatienceError",
    "TimeUpError",
    "UndoRefusedError",
]


class PatienceError(ValueError):
    """Base of every error `patience` raises on bad input."""


class InvalidCardError(PatienceError):
    """Text that is not a card (``"1x"``, ``"Zh"``)."""


class InvalidDealError(PatienceError):
    """A deal with a bad card, the wrong number of cards, or a card too many times."""


class InvalidVariantError(PatienceError):
    """A variant option the game does not have, or a value it does not take."""


class InvalidMoveError(PatienceError):
    """Text that cannot be parsed as a move, or names a place the game does not have."""


class IllegalMoveError(PatienceError):
    """A well-formed move that the rules do not allow in the current state."""


class UndoRefusedError(IllegalMoveError):
    """Undo asked for where the rules refuse it (nothing to undo, or a reveal in the way)."""


class GameOverError(IllegalMoveError):
    """A move or undo after the game has ended."""


class TimeUpError(GameOverError):
    """A move after the game's clock ran out."""


class InvalidRecordError(PatienceError):
    """A game record that is not a JSON object of the documented shape."""
