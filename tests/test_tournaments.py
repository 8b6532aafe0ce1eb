"""Tournaments: standings with ties, equal times, late joins, attempt limits and a close
mid-game; the commitment verifies after the close and fails when anything is changed;
nothing about the deals before the close; who may do what."""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine

import patience
from patience.catalog import CERTIFY_NODES, rated_again, rating_witness
from patience.games import new_game
from patience.players import Accounts, User
from patience.rating import rate_seed
from patience.ratings import RatingPolicy
from patience.ratings.cheap import rate_for_catalog
from patience.server import Settings, create_app
from patience.store.catalog import Certified, add
from patience.store.db import make_engine, migrate
from patience.store.games import GameStore, Live
from patience.tournaments import SCHEME_VERSION, TournamentError, Tournaments, commitment, verify

GOLF = {"wrap": True}
PASSWORD = "correct horse battery"


class Clock:
    """Wall-clock seconds the test moves."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def stock(engine: Engine, count: int, tier: int | None = None, first: int = 100) -> None:
    """``count`` Golf deals in the catalog (seeds ``first`` up), of ``tier`` as rated."""
    rating = None if tier is None else {"tier": tier, "score": tier / 10, "version": 1}
    with engine.begin() as connection:
        for seed in range(first, first + count):
            add(
                connection,
                "golf",
                GOLF,
                Certified(seed, 9, 0.01, 40, rating),
                at=1.0,
                origin="random",
            )


@pytest.fixture
def world(tmp_path: Path) -> Iterator[tuple[Engine, Clock, GameStore, Tournaments, Accounts]]:
    engine = make_engine(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    migrate(engine)
    clock = Clock()
    store = GameStore(engine, clock=clock)
    tournaments = Tournaments(store, clock=clock)
    store.on_game_end(tournaments.game_ended)
    yield engine, clock, store, tournaments, Accounts(engine, clock=clock)
    engine.dispose()


def users(accounts: Accounts, *names: str) -> list[User]:
    return [accounts.create(name, PASSWORD) for name in names]


def play(store: GameStore, clock: Clock, live: Live, seconds: float, moves: int = 0) -> None:
    """Play ``moves`` legal moves (the first legal one each time), then end the game
    ``seconds`` after it was dealt."""
    for _ in range(moves):
        store.play(live, str(live.game.legal_moves()[0]))
    clock.now = live.session.log[0].at + seconds
    if not live.session.is_over():
        store.play(live, "end")


def test_standings_with_ties_late_joins_attempt_limits_and_a_close_mid_game(
    world: tuple[Engine, Clock, GameStore, Tournaments, Accounts],
) -> None:
    engine, clock, store, tournaments, accounts = world
    stock(engine, 1)
    (operator,) = [accounts.create("Operator", PASSWORD, operator=True)]
    ada, bob, cyd, dee, eve = users(accounts, "Ada", "Bob", "Cyd", "Dee", "Eve")
    made = tournaments.create(
        operator,
        name="Friday Golf",
        game="golf",
        variant=GOLF,
        policy="shared",
        tier=None,
        opens_at=clock.now,
        closes_at=clock.now + 3600,
        attempts=2,
        max_entrants=5,
    )
    tid = made["id"]
    assert "document" not in made  # nothing about the deals before the close
    for user in (ada, bob, cyd, dee):
        tournaments.join(user, tid)
    with pytest.raises(TournamentError, match="joined this tournament already"):
        tournaments.join(ada, tid)

    start = clock.now
    games = {}
    for user in (ada, bob, cyd, dee):
        clock.now = start
        games[user.name] = tournaments.start_attempt(user, tid)[0]
    assert len({live.seed for live in games.values()}) == 1  # one deal for everyone
    with pytest.raises(TournamentError, match="still running"):
        tournaments.start_attempt(ada, tid)
    # Ada and Bob: the same moves, the same time, finished at the same moment: one rank
    play(store, clock, games["Ada"], 60.0, moves=3)
    play(store, clock, games["Bob"], 60.0, moves=3)
    # Cyd: the same moves, more time
    play(store, clock, games["Cyd"], 65.0, moves=3)
    # Dee: fewer moves, so fewer points
    play(store, clock, games["Dee"], 20.0, moves=0)
    ada_score = games["Ada"].session.score()
    assert games["Bob"].session.score() == ada_score

    # Ada's second attempt is worse: her best stays; a third is refused
    clock.now = start + 100
    second = tournaments.start_attempt(ada, tid)[0]
    play(store, clock, second, 30.0, moves=0)
    with pytest.raises(TournamentError, match="played your 2 attempt"):
        tournaments.start_attempt(ada, tid)

    # Eve joins late and is still playing when the operator closes the tournament
    clock.now = start + 200
    tournaments.join(eve, tid)
    eves, _ = tournaments.start_attempt(eve, tid)
    for _ in range(2):
        store.play(eves, str(eves.game.legal_moves()[0]))
    points_at_close = eves.game.score()
    clock.now = start + 210
    with pytest.raises(TournamentError, match="only an operator"):
        tournaments.close(ada, tid)
    tournaments.close(operator, tid)
    clock.now += 1
    with pytest.raises(TournamentError, match="closed"):
        tournaments.start_attempt(bob, tid)

    table = tournaments.standings(tid)
    rows = {row["name"]: row for row in table["entries"]}
    assert table["rule"].startswith("Ranked by score")
    assert rows["Ada"]["rank"] == rows["Bob"]["rank"]
    assert rows["Ada"]["score"] == ada_score
    assert rows["Ada"]["attempts"] == 2
    assert rows["Cyd"]["rank"] > rows["Ada"]["rank"]  # equal score, more time
    assert rows["Eve"]["score"] == points_at_close  # what it had at the close, no bonus
    ranks = [row["rank"] for row in table["entries"]]
    assert ranks == sorted(ranks)
    assert tournaments.around(tid, dee.id, span=1)["me"] == rows["Dee"]["rank"]

    published = tournaments.verification(tid)
    assert verify(published) == []
    # once closed, no attempt is left to anyone, whatever they had used
    assert tournaments.entrant(tid, eve.id)["attempts_left"] == 0

    def floats(value: Any) -> list[float]:
        if isinstance(value, float):
            return [value]
        items = value.values() if isinstance(value, dict) else value
        if isinstance(value, dict | list):
            return [f for item in items for f in floats(item)]
        return []

    assert floats(published["document"]) == []  # the same bytes in every language
    assert [e["rank"] for e in published["entries"]] == [
        rows[n]["rank"] for n in ("Ada", "Bob", "Cyd", "Dee", "Eve")
    ]

    def broken(change: Any) -> list[str]:
        copied = copy.deepcopy(published)
        change(copied)
        return verify(copied)

    def seed(p: dict[str, Any]) -> None:
        p["document"]["deals"][0]["seed"] = str(int(p["document"]["deals"][0]["seed"]) + 1)

    def salt(p: dict[str, Any]) -> None:
        p["document"]["salt"] = "0" * 64

    def record(p: dict[str, Any]) -> None:
        moves = p["entries"][3]["attempts"][0]["record"]["moves"]
        moves.insert(0, "t1>t2")  # a move Golf never allows

    def score(p: dict[str, Any]) -> None:
        p["entries"][1]["attempts"][0]["score"] += 1

    def rank(p: dict[str, Any]) -> None:
        p["entries"][2]["rank"] = 1

    for change, said in [
        (seed, "hash"),
        (salt, "hash"),
        (record, "does not replay"),
        (score, "replays to"),
        (rank, "ranks"),
    ]:
        problems = broken(change)
        assert any(said in p for p in problems), (change.__name__, problems)


def test_one_tier_for_every_attempt_and_the_tiers_are_checked(
    world: tuple[Engine, Clock, GameStore, Tournaments, Accounts],
) -> None:
    engine, clock, store, tournaments, accounts = world
    # two real ratings (the verification rates every seed again)
    rated = [rate_seed("golf", GOLF, seed) for seed in (3, 4, 5, 6, 7, 8)]
    tier = rated[0].tier
    with engine.begin() as connection:
        for rating in rated:
            add(
                connection,
                "golf",
                GOLF,
                Certified(rating.seed or 0, 9, 0.01, 40, rating.to_json()),
                at=1.0,
                origin="random",
            )
    wanted = sum(r.tier == tier for r in rated)
    operator = accounts.create("Operator", PASSWORD, operator=True)
    with pytest.raises(TournamentError, match=r"Not enough Golf deals of tier \d+ are ready"):
        tournaments.create(
            operator,
            name="Too many",
            game="golf",
            variant=GOLF,
            policy="tier",
            tier=tier,
            opens_at=clock.now,
            closes_at=clock.now + 60,
            attempts=1,
            max_entrants=wanted + 1,
        )
    made = tournaments.create(
        operator,
        name="Same tier",
        game="golf",
        variant=GOLF,
        policy="tier",
        tier=tier,
        opens_at=clock.now,
        closes_at=clock.now + 600,
        attempts=1,
        max_entrants=wanted,
    )
    players = users(accounts, *[f"Player {k}" for k in range(wanted)])
    seeds = set()
    for player in players:
        tournaments.join(player, made["id"])
        live, _ = tournaments.start_attempt(player, made["id"])
        assert live.tier == tier
        seeds.add(live.seed)
        play(store, clock, live, 30.0, moves=1)
    assert len(seeds) == wanted  # a deal of its own for each
    clock.now += 601
    published = tournaments.verification(made["id"])

    assert all("model" not in deal for deal in published["document"]["deals"])
    assert verify(published, tier_of=rated_again) == []
    assert published["document"]["rating_version"] == 1  # Golf's rating, committed
    published["document"]["deals"][0]["tier"] = tier % 10 + 1
    assert any("is of tier" in p for p in verify(published, tier_of=rated_again))
    # the tiers are checked with the rating version the document names, and one this
    # patience does not know is said, not passed over
    published["document"]["rating_version"] = 9
    problems = verify(published, tier_of=rated_again)
    assert any("golf has no rating version 9" in p for p in problems), problems
    for wrong in ("1", [1], True, None, 0):
        published["document"]["rating_version"] = wrong
        problems = verify(published, tier_of=rated_again)
        assert f"the document's rating_version is not a version number: {wrong!r}" in problems
    del published["document"]["rating_version"]
    assert "the document's rating_version is not a version number: None" in verify(
        published, tier_of=rated_again
    )


def test_a_checker_whose_patience_rates_otherwise_says_so_before_the_tiers(
    world: tuple[Engine, Clock, GameStore, Tournaments, Accounts],
) -> None:
    """The document keeps its creator's rating of a reference deal and names its patience;
    a checker that rates that deal otherwise (a later solver, say) says so first, naming
    the patience to check the tiers with, instead of leaving a disputed tier to look like
    the operator's doing."""
    engine, clock, _, tournaments, accounts = world
    rating = rate_seed("golf", GOLF, 3)
    with engine.begin() as connection:
        add(
            connection,
            "golf",
            GOLF,
            Certified(3, 9, 0.01, 40, rating.to_json()),
            at=1.0,
            origin="random",
        )
    operator = accounts.create("Operator", PASSWORD, operator=True)
    made = tournaments.create(
        operator,
        name="Witnessed",
        game="golf",
        variant=GOLF,
        policy="shared",
        tier=None,
        opens_at=clock.now,
        closes_at=clock.now + 600,
    )
    clock.now += 601
    published = tournaments.verification(made["id"])
    document = published["document"]
    assert document["scheme"] == SCHEME_VERSION == 3
    assert document["patience"] == patience.__version__
    assert document["rating_witness"] == rating_witness("golf", GOLF)
    assert document["rating_witness"]["seed"] == "1"  # the first certified seed
    assert verify(published, tier_of=rated_again, witness_of=rating_witness) == []

    def committed_by_another(witness: object, maker: str = "0.0.9") -> dict[str, Any]:
        other = copy.deepcopy(published)
        other["document"]["rating_witness"] = witness
        other["document"]["patience"] = maker
        other["commitment"] = commitment(other["document"])
        return other

    theirs = dict(document["rating_witness"], nodes=document["rating_witness"]["nodes"] + 1)
    problems = verify(committed_by_another(theirs), tier_of=rated_again, witness_of=rating_witness)
    assert len(problems) == 1, problems
    assert problems[0].startswith(
        f"this patience ({patience.__version__}) rates the reference deal, seed 1, otherwise "
        "than patience 0.0.9 that committed the document did"
    )
    assert f"(nodes {theirs['nodes'] - 1}, moves" in problems[0]  # this patience's
    assert f"; nodes {theirs['nodes']}, moves" in problems[0]  # the committing one's
    # not checked without the tiers, and not asked of a document from before the witness
    assert verify(committed_by_another(theirs)) == []
    assert verify(committed_by_another(None), tier_of=rated_again, witness_of=rating_witness) == []
    for wrong in ("1", {"seed": 1}, {"seed": "-1"}, {"nodes": 3}, ["1"]):
        problems = verify(
            committed_by_another(wrong), tier_of=rated_again, witness_of=rating_witness
        )
        assert problems == [f"the document's rating_witness is not a rated deal: {wrong!r}"]
    # a reference deal this patience cannot rate is said too
    problems = verify(
        committed_by_another(dict(theirs, seed="2")), tier_of=rated_again, witness_of=rating_witness
    )
    assert len(problems) == 1, problems
    assert "seed 2" in problems[0]


def test_a_tier_the_rating_model_gave_is_checked_by_the_same_model(
    world: tuple[Engine, Clock, GameStore, Tournaments, Accounts],
) -> None:
    """Most catalog deals' tiers are the rating model's verdict, which the full rating
    need not agree with: the document names the model, and the check rates the deal with
    it. The deal is one whose full rating gives another tier (the check by the full
    rating, as before, failed an honest tournament)."""
    engine, clock, store, tournaments, accounts = world
    by_model = RatingPolicy(full_share=0.0, edge_margin=0.0)  # the model's verdict alone
    for seed in range(1, 40):
        game = new_game("golf", seed=seed, variant=GOLF)
        cheap = rate_for_catalog(game, seed, node_limit=CERTIFY_NODES["golf"], policy=by_model)
        if cheap is not None and cheap["tier"] != rated_again("golf", GOLF, seed):
            break
    else:
        pytest.fail("no deal among the first 39 whose model tier differs from its full one")
    assert cheap["method"] == "cheap"
    with engine.begin() as connection:
        add(
            connection,
            "golf",
            GOLF,
            Certified(seed, cheap["nodes"], 0.01, cheap["moves"], cheap),
            at=1.0,
            origin="random",
        )
    operator = accounts.create("Operator", PASSWORD, operator=True)
    made = tournaments.create(
        operator,
        name="Model's tier",
        game="golf",
        variant=GOLF,
        policy="shared",
        tier=None,
        opens_at=clock.now,
        closes_at=clock.now + 600,
        attempts=1,
        max_entrants=2,
    )
    (player,) = users(accounts, "Player")
    tournaments.join(player, made["id"])
    live, _ = tournaments.start_attempt(player, made["id"])
    play(store, clock, live, 30.0, moves=1)
    clock.now += 601
    published = tournaments.verification(made["id"])

    (deal,) = published["document"]["deals"]
    assert deal == {"seed": str(seed), "tier": cheap["tier"], "model": cheap["model"]}
    assert published["document"]["scheme"] == 3
    assert verify(published, tier_of=rated_again) == []
    # the check as it was, by the full rating whatever rated the deal, fails it
    ignoring_the_model = verify(
        published, tier_of=lambda g, v, s, _m, r: rated_again(g, v, s, None, r)
    )
    assert any(f"seed {seed} is of tier" in p for p in ignoring_the_model)
    # the model of another version cannot check it, and says so
    deal["model"] = "golf-wrap-0"
    problems = verify(published, tier_of=rated_again)
    assert any("rated by rating model golf-wrap-0, and this patience has" in p for p in problems)


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    settings = Settings(database_url=database_url, catalog_refill=0, rate_starts=None)
    with TestClient(create_app(settings)) as test_client:
        engine = make_engine(database_url)
        stock(engine, 3)
        Accounts(engine).create("Operator", PASSWORD, operator=True)
        engine.dispose()
        yield test_client


def log_in(client: TestClient, name: str, *, new: bool = False) -> dict[str, str]:
    client.cookies.clear()
    path = "/api/accounts" if new else "/api/accounts/login"
    answer = client.post(path, json={"name": name, "password": PASSWORD})
    assert answer.status_code in (200, 201), answer.text
    return {"X-CSRF-Token": answer.json()["csrf"]}


def test_nothing_is_revealed_before_the_close_and_only_operators_run_tournaments(
    client: TestClient,
) -> None:
    ada = log_in(client, "Ada", new=True)
    spec = {
        "name": "Shared Golf",
        "game": "golf",
        "variant": GOLF,
        "policy": "shared",
        "opens_at": time.time() - 1,
        "closes_at": time.time() + 3600,
        "attempts": 1,
        "max_entrants": 2,
    }
    assert client.post("/api/tournaments", json=spec, headers=ada).status_code == 403
    operator = log_in(client, "Operator")
    # times that are not times, or out of any sane range, are refused with a reason (never a
    # 500) and take no deal from the catalog
    for opens, closes, status in [
        ("1e300", "1e301", 400),
        ("-1e18", "1e10", 400),
        ("1e309", "1e310", 422),
        ("-1e309", "1e10", 422),
        (str(time.time()), str(time.time() + 40 * 86400), 400),
    ]:
        body = json.dumps(spec)[:-1] + f', "opens_at": {opens}, "closes_at": {closes}}}'
        refused = client.post(
            "/api/tournaments",
            content=body,
            headers={**operator, "Content-Type": "application/json"},
        )
        assert refused.status_code == status, (opens, refused.text)
        assert "Traceback" not in refused.text
    assert client.get("/api/tournaments").json()["tournaments"] == []
    made = client.post("/api/tournaments", json=spec, headers=operator)
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    assert len(made.json()["commitment"]) == 64

    ada = log_in(client, "Ada")
    assert client.post(f"/api/tournaments/{tid}/attempts", headers=ada).status_code == 400
    assert client.get(f"/api/tournaments/{tid}").json()["me"]["joined"] is False
    assert client.post(f"/api/tournaments/{tid}/join", headers=ada).status_code == 200
    game = client.post(f"/api/tournaments/{tid}/attempts", headers=ada)
    assert game.status_code == 201
    view = game.json()
    # the page tells a signed-in entrant of their own entry: the attempt running, none left
    mine = client.get(f"/api/tournaments/{tid}").json()["me"]
    assert mine == {
        "joined": True,
        "attempts_used": 1,
        "attempts_left": 0,
        "best_score": None,
        "running": view["id"],
    }
    assert view["seed"] is None
    ended = client.post(f"/api/sessions/{view['id']}/end", headers=ada).json()
    assert ended["result"] is not None
    mine = client.get(f"/api/tournaments/{tid}").json()["me"]
    assert (mine["running"], mine["best_score"]) == (None, ended["result"]["score"])
    assert ended["seed"] is None  # over, but the tournament has not closed
    for path in (f"/api/sessions/{view['id']}/record", f"/api/sessions/{view['id']}/replay"):
        answer = client.get(path)
        assert answer.status_code == 409
        assert "tournament" in answer.json()["detail"]
    history = client.get("/api/me/games").json()["games"][0]
    assert history["seed"] is None
    # the history says what the game was played for: the tournament, and the attempt
    assert history["occasion"] == {
        "tournament": tid,
        "name": client.get(f"/api/tournaments/{tid}").json()["name"],
        "attempt": 1,
    }
    assert client.get("/api/me/export").text == ""
    public = client.get(f"/api/tournaments/{tid}").json()
    assert "document" not in public
    assert client.get(f"/api/tournaments/{tid}/verification").status_code == 400
    assert client.post(f"/api/tournaments/{tid}/attempts", headers=ada).status_code == 400
    assert client.post(f"/api/tournaments/{tid}/close", headers=ada).status_code == 403
    everything = json.dumps(
        [
            client.get(f"/api/tournaments/{tid}").json(),
            client.get("/api/tournaments").json(),
            client.get(f"/api/tournaments/{tid}/standings").json(),
        ]
    )
    assert "salt" not in everything
    assert '"deals"' not in everything

    bob = log_in(client, "Bob", new=True)
    assert client.post(f"/api/tournaments/{tid}/join", headers=bob).status_code == 200
    assert client.get(f"/api/sessions/{view['id']}").status_code == 403  # Ada's game
    cyd = log_in(client, "Cyd", new=True)
    full = client.post(f"/api/tournaments/{tid}/join", headers=cyd)
    assert full.status_code == 400
    assert "full" in full.json()["detail"]

    operator = log_in(client, "Operator")
    assert client.post(f"/api/tournaments/{tid}/close", headers=operator).status_code == 200
    published = client.get(f"/api/tournaments/{tid}/verification").json()
    assert verify(published) == []
    assert published["entries"][0]["name"] == "Ada"
    assert "salt" in client.get(f"/api/tournaments/{tid}").json()["document"]
    ada = log_in(client, "Ada")
    assert client.get(f"/api/sessions/{view['id']}/record").status_code == 200


def test_operators_run_tournaments_from_the_command_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    env = {"PATIENCE_DATABASE_URL": url, "PATH": "/usr/bin:/bin"}

    def patience(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "patience.cli", "tournament", *args]
        return subprocess.run(command, capture_output=True, text=True, env=env, check=False)

    engine = make_engine(url)
    migrate(engine)
    stock(engine, 2)
    accounts = Accounts(engine)
    accounts.create("Root", PASSWORD, operator=True)
    accounts.create("Ada", PASSWORD)
    refused = patience(
        "create",
        "Cup",
        "golf",
        "--variant",
        '{"wrap": true}',
        "--minutes",
        "30",
        "--operator",
        "Ada",
    )
    assert refused.returncode == 1
    assert "no operator account" in refused.stderr
    made = patience(
        "create",
        "Cup",
        "golf",
        "--variant",
        '{"wrap": true}',
        "--minutes",
        "30",
        "--operator",
        "Root",
        "--json",
    )
    assert made.returncode == 0, made.stderr
    tid = json.loads(made.stdout)["id"]
    listed = patience("list")
    assert tid in listed.stdout
    assert "running" in listed.stdout
    assert patience("standings", tid).returncode == 0
    assert patience("verify", "-", "--no-tiers").returncode == 1  # nothing on stdin
    assert patience("close", tid, "--operator", "Root").returncode == 0
    store = GameStore(engine)
    published = Tournaments(store).verification(tid)
    (tmp_path / "cup.json").write_text(json.dumps(published))
    checked = patience("verify", str(tmp_path / "cup.json"), "--no-tiers")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.startswith("verified")
    published["document"]["salt"] = "1" * 64
    (tmp_path / "cup.json").write_text(json.dumps(published))
    failed = patience("verify", str(tmp_path / "cup.json"), "--no-tiers")
    assert failed.returncode == 1
    assert "FAILED" in failed.stdout
    assert "Traceback" not in failed.stderr
    engine.dispose()


def test_pages_of_the_standings_rank_ties_across_their_edges(
    world: tuple[Engine, Clock, GameStore, Tournaments, Accounts],
) -> None:
    from sqlalchemy import insert

    from patience.store.db import tournament_entries
    from patience.tournaments import rank_entries

    engine, clock, _, tournaments, accounts = world
    stock(engine, 1)
    operator = accounts.create("Operator", PASSWORD, operator=True)
    made = tournaments.create(
        operator,
        name="Ties",
        game="golf",
        variant=GOLF,
        policy="shared",
        tier=None,
        opens_at=clock.now,
        closes_at=clock.now + 60,
        max_entrants=20,
    )
    bests = [
        (30, 60.0, 5.0),
        (30, 60.0, 5.0),
        (30, 60.0, 5.0),
        (30, 61.0, 1.0),
        (28, 10.0, 1.0),
        (28, 10.0, 1.0),
        (20, 99.0, 9.0),
        (None, None, None),
    ]
    people = users(accounts, *[f"P{k}" for k in range(len(bests))])
    with engine.begin() as connection:
        for number, (person, (score, elapsed, at)) in enumerate(zip(people, bests, strict=True)):
            connection.execute(
                insert(tournament_entries).values(
                    tournament_id=made["id"],
                    user_id=person.id,
                    number=number,
                    joined_at=0.0,
                    attempts_used=1,
                    best_score=score,
                    best_elapsed=elapsed,
                    best_at=at,
                )
            )
    expected = rank_entries([{"score": s, "elapsed": e, "finished_at": a} for s, e, a in bests])
    for size in (1, 2, 3, 7):
        ranks = []
        for offset in range(0, 7, size):
            page = tournaments.standings(made["id"], offset=offset, limit=size)
            assert page["total"] == 7
            ranks += [(row["name"], row["rank"]) for row in page["entries"]]
        assert sorted(ranks) == sorted(
            (f"P{k}", rank) for k, rank in enumerate(expected) if rank is not None
        )
    assert expected[:7] == [1, 1, 1, 4, 5, 5, 7]
    around = tournaments.around(made["id"], people[5].id, span=1)
    assert around["me"] == 5
    assert [row["rank"] for row in around["entries"]] == [4, 5, 5]


def test_the_history_shows_a_shared_deal_s_tier_after_the_close_only(tmp_path: Path) -> None:
    """A shared deal of any tier: the entrant's history gives no tier (nor seed) while the
    tournament runs, and the committed deal's tier once it has closed."""
    from patience.players.history import finished_games

    engine = make_engine(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    migrate(engine)
    clock = Clock(time.time() - 120)  # the history's seal is the wall clock's
    store = GameStore(engine, clock=clock)
    tournaments = Tournaments(store, clock=clock)
    store.on_game_end(tournaments.game_ended)
    accounts = Accounts(engine, clock=clock)
    stock(engine, 1, tier=9)
    operator = accounts.create("Operator", PASSWORD, operator=True)
    (ada,) = users(accounts, "Ada")
    tid = tournaments.create(
        operator,
        name="Golf wrap",
        game="golf",
        variant=GOLF,
        policy="shared",
        tier=None,
        opens_at=clock.now,
        closes_at=clock.now + 3600,
        attempts=1,
        max_entrants=5,
    )["id"]
    tournaments.join(ada, tid)
    live, _ = tournaments.start_attempt(ada, tid)
    play(store, clock, live, 30.0, moves=2)
    (sealed,) = finished_games(engine, ada.id)
    assert (sealed.tier, sealed.seed) == (None, None)
    tournaments.close(operator, tid)
    (public,) = finished_games(engine, ada.id)
    assert public.seed == live.seed
    assert public.tier == 9 == tournaments.verification(tid)["document"]["deals"][0]["tier"]
    engine.dispose()
