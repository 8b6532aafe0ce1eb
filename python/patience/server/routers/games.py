"""``/api/games``: the games that can be played, with their variants."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from patience.games import GAMES
from patience.rating import DIFFICULTIES, is_rated
from patience.solve import SOLVABLE_GAMES
from patience.store.games import CERTIFIED_AT_START

router = APIRouter(prefix="/api/games", tags=["games"])


@router.get("")
def list_games() -> list[dict[str, Any]]:
    """Every game: name, title, clock, variant options, whether timed games get deals the
    solver proved winnable, whether practice games offer hints, the difficulties its deals
    can be chosen by (none while its deals are not rated), the variants that are, the
    numberings of its deals players know from elsewhere (a practice game may be dealt by
    one: ``numbered`` in ``POST /api/sessions``), and the
    ``layout`` the browser client draws and plays it from, with its words (docs/api.md)."""
    return [
        {
            "name": cls.name,
            "title": cls.title,
            "time_limit": cls.time_limit,
            "time_bonus": cls.has_time_bonus,
            "options": [
                {"name": option.name, "values": list(option.values), "default": option.default}
                for option in cls.options
            ],
            "certified_deals": cls.name in CERTIFIED_AT_START,
            "hints": cls.name in SOLVABLE_GAMES,
            "difficulties": list(DIFFICULTIES) if rated else [],
            "rated_variants": rated,
            "numberings": cls.numberings_json(),
            "layout": cls.layout,
        }
        for cls in GAMES.values()
        for rated in [[v for v in cls.variants() if is_rated(cls.name, v)]]
    ]
