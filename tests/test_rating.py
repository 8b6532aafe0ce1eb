"""Reference players: they never peek, every move they pick is legal in the engine of
record, and they are deterministic given a seed."""

from __future__ import annotations

import random
from typing import Any

import pytest

from patience import _core
from patience.games import GAMES, Game, new_game
from patience.rating import (
    PLAYER_GAMES,
    NoPlayersError,
    WinRate,
    choose,
    players,
    playout,
    win_rate,
)

VARIANTS = [(name, v) for name in PLAYER_GAMES for v in GAMES[name].variants()]
IDS = [name + "".join(f"-{key}={value}" for key, value in v.items()) for name, v in VARIANTS]
# the games that hide cards (Solitaire Expert and FreeCell hide none)
HIDES = {name: bool(GAMES[name].from_seed(0, v).hidden_cards()) for name, v in VARIANTS}
HIDING = [(name, v) for name, v in VARIANTS if HIDES[name]]
HIDING_IDS = [i for i, (name, _) in zip(IDS, VARIANTS, strict=True) if HIDES[name]]


def positions(name: str, variant: dict[str, object], count: int, seed: int) -> list[Game]:
    """``count`` positions of random games (random seeds, 0 to 150 random legal moves)."""
    rng = random.Random(seed)
    found: list[Game] = []
    while len(found) < count:
        game = new_game(name, seed=rng.getrandbits(64), variant=variant)
        for _ in range(rng.randint(1, 150)):
            if len(found) >= count or not game.legal_moves():
                break
            found.append(game.copy())
            game.play(rng.choice(game.legal_moves()))
    return found


def hidden_dealt_again(
    name: str, position: Any, rng: random.Random, *, keep_stock: bool = False
) -> Any:
    """``position`` (a native position) with the cards the player cannot see (face down,
    or in a stock whose order is hidden; with ``keep_stock``, a Klondike hand is left as it
    is) dealt again among their places."""
    if name == "golf":
        wrap, columns, stock, top = position
        return (wrap, columns, rng.sample(stock, len(stock)), top)
    if name == "kansas":
        base, reserve, columns, stock, waste, foundation = position
        below_top = max(len(reserve) - 1, 0)
        unseen = rng.sample(reserve[:below_top] + stock, below_top + len(stock))
        return (
            base,
            unseen[:below_top] + reserve[below_top:],
            columns,
            unseen[below_top:],
            waste,
            foundation,
        )
    assert name == "klondike"
    draw, columns, hidden, stock, waste, foundation = position
    unseen = [card for column, h in zip(columns, hidden, strict=True) for card in column[:h]]
    if not keep_stock:
        unseen += stock
    unseen = rng.sample(unseen, len(unseen))
    dealt = []
    for column, h in zip(columns, hidden, strict=True):
        dealt.append(bytes(unseen[:h]) + column[h:])
        unseen = unseen[h:]
    return (draw, dealt, hidden, stock if keep_stock else bytes(unseen), waste, foundation)


#: How often (one position in so many) the slow players are asked in the tests that
#: follow: the strong ones at every tenth position, Klondike's planner (seconds a game) at
#: every hundredth.
SLOW_PLAYERS = {"hindsight": 10, "rollout": 10, "solver": 10, "planner": 100}


@pytest.mark.parametrize(("name", "variant"), HIDING, ids=HIDING_IDS)
def test_no_player_sees_a_hidden_card(name: str, variant: dict[str, object]) -> None:
    """The same position with its hidden cards dealt again (the same observation) gets the
    same move from every player with the same seed (the slow players at some positions,
    :data:`SLOW_PLAYERS`)."""
    rng = random.Random(5)
    changed = 0
    for index, game in enumerate(positions(name, variant, 1500, seed=len(IDS))):
        position = game.native_position()
        other = hidden_dealt_again(name, position, rng)
        changed += other != position
        for player in players(name):
            if index % SLOW_PLAYERS.get(player, 1):
                continue
            seed = rng.getrandbits(64)
            seen = _core.choose(name, position, player, seed)
            assert seen == _core.choose(name, other, player, seed), (player, game.observation())
            assert seen is None or game.is_legal(seen)
    assert changed > 1000  # the test did move hidden cards


def test_with_the_hand_known_no_klondike_player_sees_a_face_down_card() -> None:
    """Under ``known-stock`` the same holds with only the face-down cards dealt again; and
    that model does show the hand (a position with its hand dealt again looks different to
    it, which a player reading it could tell)."""
    rng = random.Random(6)
    changed = 0
    for index, game in enumerate(positions("klondike", {"draw": 3}, 1000, seed=99)):
        position = game.native_position()
        other = hidden_dealt_again("klondike", position, rng, keep_stock=True)
        changed += other[1] != position[1]
        for player in players("klondike"):
            if index % SLOW_PLAYERS.get(player, 1):
                continue
            seed = rng.getrandbits(64)
            seen = _core.choose("klondike", position, player, seed, "known-stock")
            assert seen == _core.choose("klondike", other, player, seed, "known-stock")
            assert seen is None or game.is_legal(seen)
    assert changed > 500
    with pytest.raises(ValueError, match="model of information"):
        _core.choose("golf", new_game("golf", seed=1).native_position(), "greedy", 1, "known-stock")


@pytest.mark.parametrize(("name", "variant"), VARIANTS, ids=IDS)
def test_every_move_a_player_picks_is_legal_in_the_engine(
    name: str, variant: dict[str, object]
) -> None:
    for seed in range(12):
        game = new_game(name, seed=seed, variant=variant)
        for player in players(name):
            if player == "planner" and seed >= 3:
                continue  # seconds a game
            played = playout(game, player, seed)  # replays every move in the engine
            assert played.moves  # every player moves at the start of a deal
            fresh = new_game(name, seed=seed, variant=variant)
            assert game.legal_moves() == fresh.legal_moves()  # the game is unchanged


def test_players_are_deterministic_given_a_seed() -> None:
    game = new_game("golf", seed=12, variant={"wrap": True})
    for player in players("golf"):
        assert playout(game, player, 3) == playout(game, player, 3)
    random_games = {playout(game, "random", seed).moves for seed in range(10)}
    assert len(random_games) > 1  # and the seed does matter


def test_the_ladder_climbs_on_golf_with_wrap() -> None:
    deals = [new_game("golf", seed=seed, variant={"wrap": True}) for seed in range(40)]
    wins = {
        player: sum(playout(game, player, seed).won for seed, game in enumerate(deals))
        for player in players("golf")
    }
    assert wins["random"] <= wins["greedy"] < wins["hindsight"], wins


def test_a_chosen_move_is_the_first_move_of_the_playout() -> None:
    game = new_game("golf", seed=4, variant={"wrap": False})
    for player in players("golf"):
        assert choose(game, player, 9) == playout(game, player, 9).moves[0]


def test_bad_requests_are_refused_with_a_reason() -> None:
    game = new_game("golf", seed=1, variant={"wrap": True})
    with pytest.raises(ValueError, match="no golf player 'perfect'"):
        playout(game, "perfect", 1)
    with pytest.raises(ValueError, match="from 0 to 2"):
        playout(game, "random", -1)
    with pytest.raises(NoPlayersError, match="no reference players for spider"):
        players("spider")
    with pytest.raises(ValueError, match='no native game "spider"'):
        _core.playout("spider", new_game("kansas", seed=1).native_position(), "random", 1, 9)
    with pytest.raises(ValueError, match="no kansas player 'hindsight'"):
        playout(new_game("kansas", seed=1), "hindsight", 1)
    with pytest.raises(
        ValueError, match=r"a golf position is a tuple of 4 parts \(wrap, columns, stock, waste"
    ):
        _core.choose("golf", new_game("klondike", seed=1).native_position(), "random", 1)


def test_win_rates_come_with_a_wilson_interval() -> None:
    rate = win_rate(new_game("golf", seed=7, variant={"wrap": True}), "greedy", games=20)
    assert 0 <= rate.wins <= 20
    assert rate.games == 20
    low, high = rate.interval
    assert low <= rate.rate <= high
    assert WinRate(50, 100).interval == pytest.approx((0.4038, 0.5962), abs=1e-4)
    assert WinRate(100, 100).interval[1] == 1.0
    with pytest.raises(ValueError, match="at least one game"):
        win_rate(new_game("golf", seed=7), "greedy", games=0)
