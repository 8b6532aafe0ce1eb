"""The kinds of value the ``patience`` command's options take, each refused in words.

An argparse type that raises :class:`argparse.ArgumentTypeError` has its message printed
as it is, after the option's name; one that raises anything else is reported with the
function's own name ("invalid _seed value"), which says nothing to a user. So each of these
turns a failed conversion into a sentence about what the option takes.

>>> seed("42")
42
>>> seed(str(MAX_SEED)) == MAX_SEED
True
>>> seed("-1")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: a seed is a whole number from 0 to 9,223,372,036,854,775,807
>>> port("99999")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: a port is a whole number from 1 to 65535
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

from patience.games.base import DealNumbering

__all__ = [
    "MAX_SEED",
    "at_least_zero",
    "deal_number",
    "minutes",
    "port",
    "positive",
    "seconds",
    "seed",
    "tier",
    "whole",
]

MAX_SEED = 2**63 - 1
"""The largest seed (deal number) the platform takes, on the command line and in the API.

The seeded shuffle itself is defined for any 64-bit seed (docs/shuffle.md), but the
platform keeps to 63 bits everywhere: catalog streams draw 63-bit seeds, the server deals
and accepts no more, and a 63-bit number fits every database's and language's signed
64-bit integer. One range means a seed the command line prints can be played in the
browser, and the other way round."""


def _whole_number(text: str) -> int | None:
    try:
        return int(text.strip())
    except ValueError:
        return None


def seed(text: str) -> int:
    """A seed: a whole number from 0 to :data:`MAX_SEED`."""
    value = _whole_number(text)
    if value is None or not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"a seed is a whole number from 0 to {MAX_SEED:,}")
    return value


def whole(text: str) -> int:
    """Any whole number, zero and negative ones included.

    >>> whole(" 7 ")
    7
    """
    value = _whole_number(text)
    if value is None:
        raise argparse.ArgumentTypeError("a whole number, such as 3")
    return value


def at_least_zero(text: str) -> int:
    """A whole number, 0 or more.

    >>> at_least_zero("0")
    0
    """
    value = _whole_number(text)
    if value is None or value < 0:
        raise argparse.ArgumentTypeError("a whole number, 0 or more")
    return value


def positive(text: str) -> int:
    """A whole number of at least 1.

    >>> positive("3")
    3
    """
    value = _whole_number(text)
    if value is None or value < 1:
        raise argparse.ArgumentTypeError("a whole number of at least 1")
    return value


def tier(text: str) -> int:
    """A difficulty tier: 1 (easiest) to 10 (hardest)."""
    value = _whole_number(text)
    if value is None or not 1 <= value <= 10:
        raise argparse.ArgumentTypeError("a tier is a whole number from 1 (easiest) to 10")
    return value


def port(text: str) -> int:
    """A TCP port to listen on: 1 to 65535."""
    value = _whole_number(text)
    if value is None or not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError("a port is a whole number from 1 to 65535")
    return value


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def seconds(text: str) -> float:
    """A positive, finite number of seconds.

    >>> seconds("0.5")
    0.5
    """
    value = _number(text)
    if value is None or value <= 0:
        raise argparse.ArgumentTypeError("a number of seconds more than 0, such as 2.5")
    return value


def minutes(text: str) -> float:
    """A finite number of minutes, 0 or more.

    >>> minutes("90")
    90.0
    """
    value = _number(text)
    if value is None or value < 0:
        raise argparse.ArgumentTypeError("a number of minutes, 0 or more, such as 30")
    return value


def share(text: str) -> float:
    """A share from 0 to 1 (a fraction, not a percentage).

    >>> share("0.05")
    0.05
    """
    value = _number(text)
    if value is None or not 0 <= value <= 1:
        raise argparse.ArgumentTypeError("a share from 0 to 1, such as 0.05")
    return value


def deal_number(numbering: DealNumbering) -> Callable[[str], int]:
    """The type of an option that takes a deal's number in ``numbering``: a whole number in
    its range.

    >>> numbered = deal_number(DealNumbering("Example deal", 1, 32_000, lambda n: ()))
    >>> numbered(" 617 ")
    617
    >>> numbered("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: Example deals are numbered 1 to 32,000
    """

    def number(text: str) -> int:
        value = _whole_number(text)
        if value is None or not numbering.first <= value <= numbering.last:
            raise argparse.ArgumentTypeError(numbering.rule)
        return value

    return number
