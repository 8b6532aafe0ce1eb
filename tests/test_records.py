"""Game records: round trips, replay results, and a clear reason for every malformed record."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from layouts import CLUBS, klondike_deal, solved_deal
from patience.cards import ordered_deck
from patience.games import new_game
from patience.records import GameRecord, replay, replay_json


def record_of(**changes: Any) -> dict[str, Any]:
    game = new_game("klondike", seed=8)
    data: dict[str, Any] = {
        "game": "klondike",
        "variant": {"draw": 3},
        "deal": [str(card) for card in game.deal],
        "moves": ["draw"],
    }
    data.update(changes)
    return data


def test_round_trip_play_write_replay() -> None:
    rng = random.Random(4)
    for seed in range(30):
        game = new_game("klondike", seed=seed, variant={"draw": 1 + 2 * (seed % 2)})
        moves = []
        for _ in range(150):
            legal = game.legal_moves()
            if not legal:
                break
            move = rng.choice(legal)
            game.play(move)
            moves.append(str(move))
            if game.can_undo() and rng.random() < 0.1:
                game.undo()
                moves.append("undo")
        record = GameRecord(
            game="klondike", variant=game.variant, deal=game.deal, moves=tuple(moves)
        )
        text = record.dumps()
        again = GameRecord.from_json(json.loads(text))
        assert again == record
        result = replay(again)
        assert result.error is None
        assert (result.score, result.foundation, result.moves) == (
            game.score(),
            game.cards_on_foundation(),
            len(moves),
        )
        assert result.game is not None
        assert result.game.piles() == game.piles()


def test_won_record_with_elapsed_gets_the_time_bonus() -> None:
    moves = ["draw", "w>f"] * 24 + [f"t{k}>f" for k in range(1, 8) for _ in range(k)]
    data = {
        "game": "klondike",
        "variant": {"draw": 1},
        "deal": [str(c) for c in solved_deal()],
        "moves": moves,
        "elapsed": 120.0,
    }
    # the play-out finishes the game partway through: the moves after it are refused
    result = replay_json(data)
    assert result.won
    assert result.error is not None
    assert result.error.reason == "the game is over"
    index = result.error.index
    assert index is not None
    data["moves"] = moves[:index]
    result = replay_json(data)
    assert result.error is None
    assert result.won
    assert result.foundation == 52
    assert result.score == 1610 + (300 - 120) * 52 // 52
    del data["elapsed"]
    assert replay_json(data).score == 1610


def test_ended_record_gets_its_time_bonus_and_unfinished_one_none() -> None:
    deal = [str(c) for c in klondike_deal(hand=CLUBS)]
    moves = ["draw", "w>f"] * 13
    base = {"game": "klondike", "variant": {"draw": 1}, "deal": deal, "elapsed": 60}
    assert replay_json({**base, "moves": [*moves, "end"]}).score == 420 + 240 * 13 // 52
    assert replay_json({**base, "moves": moves}).score == 420  # not over: no bonus
    assert replay_json({**base, "moves": [*moves, "end"], "elapsed": 300}).score == 420


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"deal": [*record_of()["deal"][:51], "Xx"]}, "card 52: 'Xx' is not a card"),
        ({"deal": [*record_of()["deal"][:51], record_of()["deal"][0]]}, "twice, "),
        ({"deal": record_of()["deal"][:51]}, "a deal has 52 cards, this one has 51"),
        ({"deal": "Ah Kd"}, "'deal' is a list"),
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"variant": {"draw": 2}}, "takes 1 or 3, not 2"),
        ({"variant": [3]}, "'variant' is an object"),
        ({"moves": "draw"}, "'moves' is a list of move strings"),
        ({"moves": [1]}, "'moves' is a list of move strings"),
        ({"elapsed": -1}, "'elapsed' is a number of seconds"),
        ({"elapsed": "10"}, "'elapsed' is a number of seconds"),
        ({"extra": 1}, "unknown fields: extra"),
    ],
)
def test_malformed_records_give_their_reason_with_no_index(
    changes: dict[str, Any], reason: str
) -> None:
    result = replay_json(record_of(**changes))
    assert result.error is not None
    assert result.error.index is None
    assert reason in result.error.reason
    assert result.to_json()["error"] == {"index": None, "move": None, "reason": result.error.reason}


def test_missing_fields_and_non_objects() -> None:
    for data, reason in [
        ([], "a game record is a JSON object"),
        ({"game": "klondike"}, "no variant, deal, moves"),
    ]:
        result = replay_json(data)
        assert result.error is not None
        assert reason in result.error.reason


@pytest.mark.parametrize(
    ("moves", "index", "reason"),
    [
        (["draw", "fly"], 1, "'fly' is not a move"),
        (["draw", "t1>t1"], 1, "its own column"),
        (["recycle", "draw"], 0, "recycle only once the hand is empty"),
        (["draw", "draw", "undo"], 2, "cannot undo"),
    ],
)
def test_first_illegal_move_stops_the_replay(moves: list[str], index: int, reason: str) -> None:
    result = replay_json(record_of(moves=moves))
    assert result.error is not None
    assert (result.error.index, result.error.move) == (index, moves[index])
    assert reason in result.error.reason
    assert result.moves == index


def test_cards_accept_other_spellings_in_records() -> None:
    deal = [str(card).lower().replace("t", "10") for card in ordered_deck()]
    result = replay_json({"game": "klondike", "variant": {}, "deal": deal, "moves": []})
    assert result.error is None
    record = GameRecord.from_json({"game": "klondike", "variant": {}, "deal": deal, "moves": []})
    assert record.to_json()["deal"][9] == "Tc"
    assert record.variant == {"draw": 1}
