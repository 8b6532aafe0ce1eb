"""What the benchmark scripts share: a game and its variant from the command line."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from patience.games import GAMES


def game_and_variant(
    parser: argparse.ArgumentParser, games: Sequence[str], argv: Sequence[str] | None = None
) -> tuple[argparse.Namespace, dict[str, object]]:
    """Parse ``parser``'s options with a positional game of ``games`` added, then that game's
    variant options (``--wrap``/``--no-wrap``, ``--draw 3``): the arguments and the checked
    variant (defaults for the options not given)."""
    parser.add_argument("game", choices=sorted(games))
    known, rest = parser.parse_known_args(argv)
    cls = GAMES[known.game]
    options = argparse.ArgumentParser(prog=f"{parser.prog} {known.game}")
    for option in cls.options:
        if all(isinstance(value, bool) for value in option.values):
            options.add_argument(f"--{option.name}", action=argparse.BooleanOptionalAction)
        else:
            options.add_argument(f"--{option.name}", type=type(option.default))
    parsed = vars(options.parse_args(rest))
    variant = cls.check_variant({k: v for k, v in parsed.items() if v is not None})
    return known, variant
