"""What the browser client's own check of a drop relies on (static/words.js, dropRefusal):
every move the rules take between two places is among the game's legal moves, in its
canonical notation, from the same place to the same place and with the same result. So a
drop the client refuses because no legal move takes it is one the server would refuse too:
the client never refuses a legal drop. Checked on positions of every game reached by random
play."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from patience.games import GAMES, Game, new_game


def _places(game: Game) -> tuple[list[str], list[str]]:
    """The places a card can be dragged from (with each face-up card of a column named) and
    dropped on, in the game's notation."""
    seen = game.observation()
    sources: list[str] = []
    dests: list[str] = []
    for k, column in enumerate(seen.get("tableau", [])):
        dests.append(f"t{k + 1}")
        if column["cards"]:
            sources.append(f"t{k + 1}")
            sources.extend(f"t{k + 1}:{card}" for card in column["cards"])
    kinds = game.place_kinds
    sources += [place for place in ("w", "r") if place in kinds]
    if "f" in kinds:
        dests.append("f")
        sources += [f"f:{suit}" for suit in "cdhs"]
    if "c" in kinds:
        cells = len(seen.get("cells", [])) or 4
        sources += [f"c{k + 1}" for k in range(cells)]
        dests += [f"c{k + 1}" for k in range(cells)]
    if "h" in kinds:
        dests.append("h")
        hand = seen.get("hand")
        sources += [f"h:{card}" for card in (hand if isinstance(hand, list) else [])]
    return sources, dests


def _after(game: Game, move: str) -> str:
    twin = game.copy()
    twin.play(move)
    seen: dict[str, Any] = twin.observation()
    return json.dumps(seen, sort_keys=True, default=str)


# (a game played card by card sends a card's place alone, its move as the legal moves name
# it; the two-deck game's positions take the longest: make test-slow checks them)
@pytest.mark.parametrize(
    "name",
    [
        pytest.param(name, marks=(pytest.mark.slow,) if name == "expert" else ())
        for name, cls in sorted(GAMES.items())
        if not cls.layout["direct"]
    ],
)
def test_every_drop_the_rules_take_is_a_legal_move(name: str) -> None:
    chooser = random.Random(name)
    checked = 0
    for seed in (1, 2):
        game = new_game(name, seed=seed)
        for _ in range(30):
            legal = [str(move) for move in game.legal_moves()]
            if not legal:
                break
            sources, dests = _places(game)
            results: dict[str, str] = {}  # each legal move's result, once
            pairs = [(source, dest) for source in sources for dest in dests]
            # every drop of a place's exposed card, and a sample of those of named cards
            named = [pair for pair in pairs if ":" in pair[0] and not pair[0].startswith("f")]
            pairs = [pair for pair in pairs if pair not in named]
            pairs += chooser.sample(named, min(len(named), 60))
            for source, dest in pairs:
                move = f"{source}>{dest}"
                if not game.is_legal(move):
                    continue
                checked += 1
                place = source.split(":")[0]
                result = _after(game, move)
                same = []
                for each in legal:
                    if each.split(">")[0].split(":")[0] != place or each.split(">")[1:] != [dest]:
                        continue
                    if each not in results:
                        results[each] = _after(game, each)
                    if results[each] == result:
                        same.append(each)
                assert same, f"{name} seed {seed}: {move} is legal, but no legal move is it"
            game.play(chooser.choice(legal))
    assert checked > 20  # the positions had drops to check
