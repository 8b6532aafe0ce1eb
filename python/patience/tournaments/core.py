"""Tournaments: made by an operator, joined by players, played through the game store,
ranked by the scores the server's engine gives the recorded moves.

A tournament deals from the rated catalog, at its creation, every deal it will ever
deal: one deal shared by every entrant (``shared``), or one deal of one tier for every
attempt of every possible entrant (``tier``: entrant n, in the order they joined, plays
deals ``n * attempts`` onwards). The deals, the rules and a secret salt make its document,
whose SHA-256 is published at once (:mod:`.fairness`); nothing about the deals is shown
before the close, not even to an entrant who has finished (the games are *sealed* until
then: no seed, record or replay). An attempt counts once dealt, finished or not, and the
best counts. A game still running at the close ends there (its clock was set to stop
there when it was dealt), with what it had scored.
"""

from __future__ import annotations

import json
import math
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import Connection, Engine, and_, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

import patience
from patience.cards import SHUFFLE_VERSION
from patience.catalog import rating_witness
from patience.errors import PatienceError
from patience.games import game_class, variant_key
from patience.players import User
from patience.rating import RATING_VERSIONS, is_rated
from patience.store.catalog import TOURNAMENT_HOLDER, take
from patience.store.db import sessions, tournament_entries, tournament_games, tournaments, users
from patience.store.games import GameStore, Live, runs_until
from patience.text import visible_name

from .fairness import SCHEME_VERSION, commitment, rank_entries

__all__ = [
    "RULE",
    "Standing",
    "TournamentError",
    "Tournaments",
]

Policy = Literal["shared", "tier"]

RULE = (
    "Ranked by score (higher first), then by time used (less first), then by who finished "
    "first; players equal on all three share a rank. Each player's best attempt counts; an "
    "attempt counts once dealt, finished or not."
)
"""The standings' rule, as the standings page writes it."""

MAX_AHEAD = 366 * 24 * 3600
"""A tournament opens at most this many seconds from now (either way)."""
MAX_RUN = 31 * 24 * 3600
"""A tournament runs for at most this many seconds."""


class TournamentError(PatienceError):
    """A request about a tournament that cannot be granted, with the reason."""


class CatalogShortError(TournamentError):
    """A new tournament wants more unused deals of its game, variant (and tier) than the
    catalog holds now: ``have`` of the ``wanted``; a tournament of a deal for each attempt
    wants ``attempts`` times its most ``entrants``, and says so. The server asks its refill
    to make them first (:meth:`patience.server.background.Background.want`) and says so.

    >>> str(CatalogShortError("golf", {"wrap": False}, None, have=0, wanted=1))
    'Not enough Golf deals are ready for this tournament: it needs 1, and the catalog has 0 unused.'
    >>> str(CatalogShortError("golf", {}, 4, have=0, wanted=500, attempts=5, entrants=100))
    ... # doctest: +NORMALIZE_WHITESPACE
    'Not enough Golf deals of tier 4 are ready for this tournament: it needs 500, one for each
    attempt of each entrant (5 attempts \u00d7 100 entrants at most), and the catalog has 0 unused.'
    """

    def __init__(
        self,
        game: str,
        variant: dict[str, object],
        tier: int | None,
        *,
        have: int,
        wanted: int,
        attempts: int | None = None,
        entrants: int | None = None,
    ) -> None:
        self.game, self.variant, self.tier = game, variant, tier
        self.have, self.wanted = have, wanted
        self.attempts, self.entrants = attempts, entrants
        kind = f"{game_class(game).title} deals{'' if tier is None else f' of tier {tier}'}"
        why = ""
        if attempts is not None and entrants is not None:
            why = (
                ", one for each attempt of each entrant ("
                f"{attempts} attempt{'' if attempts == 1 else 's'} \u00d7 {entrants} "
                f"entrant{'' if entrants == 1 else 's'} at most)"
            )
        super().__init__(
            f"Not enough {kind} are ready for this tournament: it needs {wanted}{why}, and the "
            f"catalog has {have} unused."
        )


@dataclass(frozen=True, slots=True)
class Standing:
    """One entrant's row of the standings."""

    rank: int
    name: str
    score: int
    elapsed: float
    finished_at: float
    attempts: int

    def to_json(self) -> dict[str, Any]:
        """The row as the standings endpoint gives it."""
        return {
            "rank": self.rank,
            "name": self.name,
            "score": self.score,
            "elapsed": round(self.elapsed, 3),
            "finished_at": self.finished_at,
            "attempts": self.attempts,
        }


def _status(row: Any, now: float) -> str:
    if now >= row.closes_at:
        return "finished"
    return "running" if now >= row.opens_at else "open"


def _running_attempt(
    connection: Connection, tournament_id: str, user_id: str, now: float
) -> str | None:
    """The id of ``user_id``'s attempt at the tournament still running at ``now``, if any."""
    running: str | None = connection.execute(
        select(tournament_games.c.session_id)
        .join(sessions, sessions.c.id == tournament_games.c.session_id)
        .where(
            and_(
                tournament_games.c.tournament_id == tournament_id,
                tournament_games.c.user_id == user_id,
                sessions.c.ended_at.is_(None),
                runs_until() >= now,
            )
        )
    ).scalar()
    return running


class Tournaments:
    """The tournaments of ``store``'s database. ``clock``: wall-clock seconds."""

    def __init__(self, store: GameStore, *, clock: Callable[[], float] = time.time) -> None:
        self._store = store
        self._engine: Engine = store.engine
        self._clock = clock

    @property
    def engine(self) -> Engine:
        """The database."""
        return self._engine

    # -- making ---------------------------------------------------------------------

    def create(
        self,
        operator: User,
        *,
        name: str,
        game: str,
        variant: dict[str, object],
        policy: Policy,
        tier: int | None,
        opens_at: float,
        closes_at: float,
        attempts: int = 1,
        max_entrants: int = 100,
        time_limit: float | None = None,
    ) -> dict[str, Any]:
        """A new tournament, its deals claimed from the catalog and committed to; only an
        operator makes one."""
        if not operator.operator:
            raise TournamentError("only an operator makes tournaments")
        cls = game_class(game)
        checked = cls.check_variant(variant)
        try:
            name = visible_name(name, what="a tournament's name")
        except ValueError as error:
            raise TournamentError(str(error)) from None
        if not 1 <= len(name) <= 64:
            raise TournamentError("a tournament's name has 1 to 64 characters")
        if policy not in ("shared", "tier"):
            raise TournamentError("the deal policy is 'shared' or 'tier'")
        if tier is not None and not 1 <= tier <= 10:
            raise TournamentError("a tier is 1 (easiest) to 10 (hardest)")
        if policy == "tier" and tier is None:
            raise TournamentError("a tournament of one tier names the tier")
        if tier is not None and not is_rated(game, checked):
            raise TournamentError(f"{cls.title} deals of that variant are not rated")
        if not 1 <= attempts <= 100 or not 1 <= max_entrants <= 100_000:
            raise TournamentError("attempts are 1 to 100 and entrants 1 to 100,000")
        now = self._clock()
        if not (math.isfinite(opens_at) and math.isfinite(closes_at)):
            raise TournamentError("a tournament's opening and closing are times (Unix seconds)")
        if not closes_at > opens_at or closes_at <= now:
            raise TournamentError("a tournament closes after it opens, and in the future")
        if not now - MAX_AHEAD <= opens_at <= now + MAX_AHEAD or closes_at - opens_at > MAX_RUN:
            raise TournamentError(
                "a tournament opens within a year of now and runs for at most 31 days"
            )
        clock = float(time_limit if time_limit is not None else cls.time_limit)
        if not 10 <= clock <= 3600:
            raise TournamentError("a tournament's clock is 10 s to an hour")
        # what this patience's rating makes of a reference deal, for a checker to compare
        # with its own (docs/fairness.md); computed before the deals are claimed, outside
        # the transaction (a rating takes up to a second or two, once a process)
        witness = rating_witness(game, checked) if is_rated(game, checked) else None
        tournament_id = secrets.token_hex(8)
        wanted = 1 if policy == "shared" else attempts * max_entrants
        tiers = None if tier is None else (tier, tier)
        deals: list[dict[str, Any]] = []
        with self._engine.begin() as connection:
            for _ in range(wanted):
                taken = take(connection, game, checked, TOURNAMENT_HOLDER + tournament_id, tiers)
                if taken is None:
                    raise CatalogShortError(
                        game,
                        checked,
                        tier,
                        have=len(deals),
                        wanted=wanted,
                        **(
                            {}
                            if policy == "shared"
                            else {"attempts": attempts, "entrants": max_entrants}
                        ),
                    )
                deal: dict[str, Any] = {"seed": str(taken.seed), "tier": taken.tier}
                if taken.model is not None:
                    deal["model"] = taken.model  # the tier is this model's verdict
                deals.append(deal)
            document = {
                "scheme": SCHEME_VERSION,
                "tournament": tournament_id,
                "name": name,
                "game": game,
                "variant": checked,
                "policy": policy,
                "tier": tier,
                # whole numbers only, so that any language writes the same bytes
                "clock": math.ceil(clock),
                "attempts": attempts,
                "max_entrants": max_entrants,
                "opens_at": math.floor(opens_at),
                "closes_at": math.ceil(closes_at),
                "rule": RULE,
                "shuffle_version": SHUFFLE_VERSION,
                "rating_version": RATING_VERSIONS.get(game),
                "rating_witness": witness,
                "patience": patience.__version__,
                "deals": deals,
                "salt": secrets.token_hex(32),
            }
            connection.execute(
                insert(tournaments).values(
                    id=tournament_id,
                    name=name,
                    game=game,
                    variant=variant_key(checked),
                    policy=policy,
                    tier=tier,
                    time_limit=clock,
                    opens_at=opens_at,
                    closes_at=closes_at,
                    attempts=attempts,
                    max_entrants=max_entrants,
                    created_by=operator.id,
                    created_at=self._clock(),
                    commitment=commitment(document),
                    secret=json.dumps(document),
                )
            )
        return self.public(tournament_id)

    # -- reading --------------------------------------------------------------------

    def _row(self, connection: Connection, tournament_id: str) -> Any:
        row = connection.execute(
            select(tournaments).where(tournaments.c.id == tournament_id)
        ).first()
        if row is None:
            raise TournamentError(f"no tournament {tournament_id!r}")
        return row

    def public(self, tournament_id: str) -> dict[str, Any]:
        """What anybody may know of a tournament: its rules, status, entrants and
        commitment, and once it has closed its whole document (salt and deals)."""
        with self._engine.connect() as connection:
            row = self._row(connection, tournament_id)
            entrants = connection.execute(
                select(func.count()).where(tournament_entries.c.tournament_id == row.id)
            ).scalar_one()
        return self._describe(row, entrants)

    def _describe(self, row: Any, entrants: int) -> dict[str, Any]:
        now = self._clock()
        status = _status(row, now)
        described = {
            "id": row.id,
            "name": row.name,
            "game": row.game,
            "title": game_class(row.game).title,
            "variant": json.loads(row.variant),
            "policy": row.policy,
            "tier": row.tier,
            "clock": row.time_limit,
            "attempts": row.attempts,
            "max_entrants": row.max_entrants,
            "entrants": entrants,
            "opens_at": row.opens_at,
            "closes_at": row.closes_at,
            "status": status,
            "rule": RULE,
            "commitment": row.commitment,
            "closing": None,
        }
        if status == "finished":
            described["document"] = json.loads(row.secret)
            described["closing"] = self._closing(row)
        return described

    def _closing(self, row: Any) -> dict[str, Any]:
        """How a closed tournament closed: when, whether before its committed time, by
        whom, and whether it was cancelled (no results)."""
        by = None
        if row.closed_by is not None:
            with self._engine.connect() as connection:
                by = connection.execute(
                    select(users.c.name).where(users.c.id == row.closed_by)
                ).scalar()
        committed = json.loads(row.secret)["closes_at"]
        return {
            "at": row.closes_at,
            "committed": committed,
            "early": row.closed_early_at is not None,
            "by": by,
            "cancelled": bool(row.cancelled),
        }

    def all(self) -> list[dict[str, Any]]:
        """Every tournament, the latest to close first."""
        with self._engine.connect() as connection:
            counts: dict[str, int] = dict(
                connection.execute(
                    select(tournament_entries.c.tournament_id, func.count()).group_by(
                        tournament_entries.c.tournament_id
                    )
                ).all()
            )
            rows = connection.execute(
                select(tournaments).order_by(tournaments.c.closes_at.desc())
            ).all()
        return [self._describe(row, counts.get(row.id, 0)) for row in rows]

    # -- playing --------------------------------------------------------------------

    def join(self, user: User, tournament_id: str) -> dict[str, Any]:
        """Enter ``user`` (once; refused once it is full or closed)."""
        now = self._clock()
        try:
            with self._engine.begin() as connection:
                row = self._row(connection, tournament_id)
                if now >= row.closes_at:
                    raise TournamentError("the tournament has closed")
                count = connection.execute(
                    select(func.count()).where(tournament_entries.c.tournament_id == row.id)
                ).scalar_one()
                if count >= row.max_entrants:
                    raise TournamentError(f"the tournament is full ({row.max_entrants} entrants)")
                connection.execute(
                    insert(tournament_entries).values(
                        tournament_id=row.id, user_id=user.id, number=count, joined_at=now
                    )
                )
        except IntegrityError:
            # joined already, or another entrant took this place at the same moment
            if self._entry(tournament_id, user.id) is not None:
                raise TournamentError("you have joined this tournament already") from None
            raise TournamentError("many joined at once: try again") from None
        return self.public(tournament_id)

    def _entry(self, tournament_id: str, user_id: str) -> Any:
        with self._engine.connect() as connection:
            return connection.execute(
                select(tournament_entries).where(
                    and_(
                        tournament_entries.c.tournament_id == tournament_id,
                        tournament_entries.c.user_id == user_id,
                    )
                )
            ).first()

    def entrant(self, tournament_id: str, user_id: str) -> dict[str, Any]:
        """What the tournament's page tells a signed-in player of their own entry: whether
        they have joined, the attempts dealt and left, the best score, and the id of an
        attempt still running (their own game, to go back to)."""
        now = self._clock()
        with self._engine.connect() as connection:
            row = self._row(connection, tournament_id)
            running = _running_attempt(connection, tournament_id, user_id, now)
        entry = self._entry(tournament_id, user_id)
        used = 0 if entry is None else entry.attempts_used
        return {
            "joined": entry is not None,
            "attempts_used": used,
            # none are left once it has closed (the page says so instead)
            "attempts_left": max(0, row.attempts - used) if now < row.closes_at else 0,
            "best_score": None if entry is None else entry.best_score,
            "running": running if now < row.closes_at else None,
        }

    def start_attempt(self, user: User, tournament_id: str) -> tuple[Live, str]:
        """Deal ``user``'s next attempt as a timed game (it ends at the close at the latest;
        its deal sealed until then). Refused before the opening, after the close, past the
        attempts, to one who has not joined, or while an attempt runs.

        The attempt is claimed, its game written and linked to the tournament in one
        transaction, whose claim succeeds only while the entry's count of attempts is still
        the one read: of attempts started at once (on any server process) one is dealt and
        the others refused, and a server killed half-way leaves no attempt used up."""
        now = self._clock()
        with self._engine.connect() as connection:
            row = self._row(connection, tournament_id)
        if now < row.opens_at:
            raise TournamentError("the tournament has not opened yet")
        if now >= row.closes_at:
            raise TournamentError("the tournament has closed")
        entry = self._entry(tournament_id, user.id)
        if entry is None:
            raise TournamentError("join the tournament first")
        if entry.attempts_used >= row.attempts:
            raise TournamentError(f"you have played your {row.attempts} attempt(s)")
        attempt = entry.attempts_used
        document = json.loads(row.secret)
        deal = 0 if row.policy == "shared" else entry.number * row.attempts + attempt

        def claim(connection: Connection, live: Live) -> None:
            running = _running_attempt(connection, tournament_id, user.id, now)
            if running is not None:
                raise TournamentError(f"your attempt {running} is still running")
            claimed = connection.execute(
                update(tournament_entries)
                .where(
                    and_(
                        tournament_entries.c.tournament_id == tournament_id,
                        tournament_entries.c.user_id == user.id,
                        tournament_entries.c.attempts_used == attempt,
                    )
                )
                .values(attempts_used=attempt + 1)
            ).rowcount
            if not claimed:
                raise TournamentError("that attempt was dealt already: try again")
            connection.execute(
                insert(tournament_games).values(
                    session_id=live.id,
                    tournament_id=tournament_id,
                    user_id=user.id,
                    attempt=attempt,
                    deal=deal,
                )
            )

        try:
            return self._store.open(
                row.game,
                json.loads(row.variant),
                seed=int(document["deals"][deal]["seed"]),
                mode="timed",
                certified=True,
                # what the tournament's page says of its deals before the close: their tier
                # for a tournament of one tier, nothing for a shared deal of any tier
                tier=row.tier,
                user_id=user.id,
                time_limit=min(row.time_limit, row.closes_at - now),
                sealed_until=row.closes_at,
                ends_at=row.closes_at,
                within=claim,
            )
        except IntegrityError:  # another process linked this attempt first
            raise TournamentError("that attempt was dealt already: try again") from None

    def game_ended(self, connection: Connection, live: Live) -> None:
        """The game store's hook when a game ends (in its transaction): a tournament
        attempt's result becomes its entrant's best when it is better."""
        found = connection.execute(
            select(tournament_games.c.tournament_id, tournament_games.c.user_id).where(
                tournament_games.c.session_id == live.id
            )
        ).first()
        if found is None:
            return
        score, elapsed = live.session.score(), round(live.session.elapsed(), 3)
        at = live.session.log[-1].at
        entry = tournament_entries.c
        better = or_(
            entry.best_score.is_(None),
            entry.best_score < score,
            and_(entry.best_score == score, entry.best_elapsed > elapsed),
        )
        connection.execute(
            update(tournament_entries)
            .where(
                and_(
                    entry.tournament_id == found.tournament_id,
                    entry.user_id == found.user_id,
                    better,
                )
            )
            .values(best_score=score, best_elapsed=elapsed, best_at=at)
        )

    # -- standings ------------------------------------------------------------------

    def _better_than(self, tournament_id: str, score: int, elapsed: float, at: float) -> Any:
        entry = tournament_entries.c
        return and_(
            entry.tournament_id == tournament_id,
            entry.best_score.is_not(None),
            or_(
                entry.best_score > score,
                and_(entry.best_score == score, entry.best_elapsed < elapsed),
                and_(
                    entry.best_score == score,
                    entry.best_elapsed == elapsed,
                    entry.best_at < at,
                ),
            ),
        )

    def standings(self, tournament_id: str, *, offset: int = 0, limit: int = 50) -> dict[str, Any]:
        """A page of the standings, in rank order (by the index: no sort per request), the
        rule, and how many entrants have a finished attempt."""
        entry = tournament_entries.c
        with self._engine.connect() as connection:
            row = self._row(connection, tournament_id)
            if row.cancelled:
                return {
                    "rule": RULE,
                    "total": 0,
                    "offset": offset,
                    "entries": [],
                    "cancelled": True,
                }
            ranked = and_(entry.tournament_id == tournament_id, entry.best_score.is_not(None))
            total = connection.execute(select(func.count()).where(ranked)).scalar_one()
            rows = connection.execute(
                select(tournament_entries, users.c.name)
                .join(users, users.c.id == entry.user_id)
                .where(ranked)
                .order_by(entry.best_score.desc(), entry.best_elapsed, entry.best_at)
                .offset(offset)
                .limit(limit)
            ).all()
            page = self._ranked(connection, tournament_id, rows, offset)
        return {"rule": RULE, "total": total, "offset": offset, "entries": page, "cancelled": False}

    def _ranked(
        self, connection: Connection, tournament_id: str, rows: Sequence[Any], offset: int
    ) -> list[Any]:
        """The rows of a page that starts at place ``offset`` (from 0) of the standings,
        ranked: a row tied with the one before shares its rank, any other is ranked by its
        place (every row before it is strictly ahead). Only the page's first row, whose
        ties may have begun on the page before, costs a count (of the index entries ahead
        of it)."""
        page: list[dict[str, Any]] = []
        previous: tuple[Any, ...] | None = None
        rank = 0
        for index, row in enumerate(rows):
            mine = (row.best_score, row.best_elapsed, row.best_at)
            if index == 0 and offset > 0:
                rank = (
                    1
                    + connection.execute(
                        select(func.count()).where(self._better_than(tournament_id, *mine))
                    ).scalar_one()
                )
            elif mine != previous:
                rank = offset + index + 1
            previous = mine
            page.append(
                Standing(
                    rank, row.name, row.best_score, row.best_elapsed, row.best_at, row.attempts_used
                ).to_json()
            )
        return page

    def around(self, tournament_id: str, user_id: str, *, span: int = 2) -> dict[str, Any]:
        """A player's own row and ``span`` rows either side."""
        mine = self._entry(tournament_id, user_id)
        if mine is None:
            raise TournamentError("you have not joined this tournament")
        if mine.best_score is None:
            return {"rule": RULE, "me": None, "entries": []}
        with self._engine.connect() as connection:
            better = connection.execute(
                select(func.count()).where(
                    self._better_than(
                        tournament_id, mine.best_score, mine.best_elapsed, mine.best_at
                    )
                )
            ).scalar_one()
        page = self.standings(tournament_id, offset=max(0, better - span), limit=2 * span + 1)
        if page["cancelled"]:
            return {"rule": RULE, "me": None, "entries": [], "cancelled": True}
        return {"rule": RULE, "me": better + 1, "entries": page["entries"]}

    # -- closing and verifying ------------------------------------------------------

    def close(self, operator: User, tournament_id: str, *, cancel: bool = False) -> dict[str, Any]:
        """Close a tournament now, before its committed time (an operator only): games
        still running end here with what they had scored, and the close is recorded (when,
        by whom) and published with the document. ``cancel`` closes it without results:
        nobody is ranked."""
        if not operator.operator:
            raise TournamentError("only an operator closes tournaments")
        now = self._clock()
        with self._engine.begin() as connection:
            row = self._row(connection, tournament_id)
            if now >= row.closes_at:
                raise TournamentError("the tournament has closed already")
            connection.execute(
                update(tournaments)
                .where(tournaments.c.id == tournament_id)
                .values(closes_at=now, closed_early_at=now, closed_by=operator.id, cancelled=cancel)
            )
            games = list(
                connection.execute(
                    select(tournament_games.c.session_id).where(
                        tournament_games.c.tournament_id == tournament_id
                    )
                ).scalars()
            )
        last = self._store.close_games(games, now)
        if last > now:  # a move got in a moment before the close: it closed after it
            with self._engine.begin() as connection:
                connection.execute(
                    update(tournaments)
                    .where(tournaments.c.id == tournament_id)
                    .values(closes_at=last, closed_early_at=last)
                )
        return self.public(tournament_id)

    def cancel(self, operator: User, tournament_id: str) -> dict[str, Any]:
        """Cancel a tournament (an operator only): closed now, without results."""
        return self.close(operator, tournament_id, cancel=True)

    def _end_games(self, tournament_id: str) -> None:
        """Write the end of every game of the closed tournament ``tournament_id`` still
        without one (each ended by its clock or at the close)."""
        with self._engine.connect() as connection:
            open_games = list(
                connection.execute(
                    select(sessions.c.id)
                    .join(tournament_games, tournament_games.c.session_id == sessions.c.id)
                    .where(
                        and_(
                            tournament_games.c.tournament_id == tournament_id,
                            sessions.c.ended_at.is_(None),
                        )
                    )
                ).scalars()
            )
        for game_id in open_games:
            live = self._store.load(game_id)
            with live.lock:
                self._store.refresh(live)

    def verification(self, tournament_id: str) -> dict[str, Any]:
        """Everything needed to check a closed tournament (:func:`.fairness.verify`), as a
        JSON object (:meth:`verification_text`)."""
        published: dict[str, Any] = json.loads(self.verification_text(tournament_id))
        return published

    def verification_text(self, tournament_id: str) -> str:
        """Everything needed to check a closed tournament, as JSON text: the document and
        commitment, how it closed, and every entry's attempts with their game records,
        scores and ranks. Made once, at the first request after the close (every game of
        the tournament ended first), and kept: later requests read it whole."""
        with self._engine.connect() as connection:
            row = self._row(connection, tournament_id)
        if self._clock() < row.closes_at:
            raise TournamentError("a tournament is verified once it has closed")
        if row.publication is not None:
            text: str = row.publication
            return text
        self._end_games(tournament_id)
        text = json.dumps(self._publication(row), separators=(",", ":"))
        with self._engine.begin() as connection:
            connection.execute(
                update(tournaments)
                .where(and_(tournaments.c.id == tournament_id, tournaments.c.publication.is_(None)))
                .values(publication=text)
            )
        return text

    def _publication(self, row: Any) -> dict[str, Any]:
        tournament_id = row.id
        with self._engine.connect() as connection:
            entries = connection.execute(
                select(tournament_entries, users.c.name)
                .join(users, users.c.id == tournament_entries.c.user_id)
                .where(tournament_entries.c.tournament_id == tournament_id)
                .order_by(tournament_entries.c.number)
            ).all()
            games = connection.execute(
                select(tournament_games, sessions.c.score, sessions.c.elapsed, sessions.c.ended_at)
                .join(sessions, sessions.c.id == tournament_games.c.session_id)
                .where(tournament_games.c.tournament_id == tournament_id)
                .order_by(tournament_games.c.user_id, tournament_games.c.attempt)
            ).all()
        by_player: dict[str, list[Any]] = {}
        for game in games:
            if game.ended_at is not None:
                by_player.setdefault(game.user_id, []).append(game)
        best = [
            {"score": e.best_score, "elapsed": e.best_elapsed, "finished_at": e.best_at}
            for e in entries
        ]
        ranks = [None] * len(entries) if row.cancelled else rank_entries(best)
        published = []
        for entry, rank in zip(entries, ranks, strict=True):
            attempts = [
                {
                    "attempt": game.attempt,
                    "deal": game.deal,
                    "score": game.score,
                    "elapsed": None if game.elapsed is None else round(game.elapsed, 3),
                    "finished_at": game.ended_at,
                    "record": self._store.record(game.session_id),
                }
                for game in by_player.get(entry.user_id, [])
            ]
            published.append(
                {
                    "name": entry.name,
                    "rank": rank,
                    "score": entry.best_score,
                    "elapsed": entry.best_elapsed,
                    "attempts": attempts,
                }
            )
        return {
            "tournament": tournament_id,
            "commitment": row.commitment,
            "document": json.loads(row.secret),
            "closing": self._closing(row),
            "entries": published,
        }
