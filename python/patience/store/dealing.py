"""A new game: whether it may be dealt (:meth:`Dealer.check_start`), and its deal written
down with the token that holds it (:meth:`Dealer.open`).

A timed game is dealt by the server only, never from a chosen seed, and counts once dealt:
a player may have one timed game of a kind running, and guests at one address a few. The
deal itself comes from :mod:`.claims` (the catalog, or a deal certified now).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable

from sqlalchemy import ColumnElement, Connection, and_, func, insert, select, text, update

from patience.errors import PatienceError
from patience.games import game_class, new_game, variant_words
from patience.rating import DIFFICULTIES, is_rated

from .claims import DealClaims
from .db import events, sessions, users
from .live import Live, LiveGames, Mode, digest
from .log import EventLog, session_class
from .timekeeping import runs_until

__all__ = ["Dealer", "UnfinishedGameError", "new_game_id", "variant_text"]


class UnfinishedGameError(PatienceError):
    """A player asked for a timed game while one of the same kind still runs."""

    def __init__(self, message: str, game_id: str | None) -> None:
        super().__init__(message)
        self.game_id = game_id


class Dealer:
    """Deals new games into ``log`` and ``cache``, their deals from ``claims``;
    ``random_seed`` deals a game asked for without a seed, ``time_limit`` (when given)
    overrides every game's clock, and ``guest_timed`` bounds the timed games guests at one
    address may have running of a kind (0: no bound)."""

    def __init__(
        self,
        log: EventLog,
        cache: LiveGames,
        claims: DealClaims,
        *,
        random_seed: Callable[[], int],
        time_limit: float | None,
        guest_timed: int,
    ) -> None:
        self._log = log
        self._cache = cache
        self._claims = claims
        self._random_seed = random_seed
        self._time_limit = time_limit
        self._guest_timed = guest_timed

    def check_start(
        self,
        name: str,
        variant: dict[str, object],
        *,
        seed: int | None,
        mode: Mode,
        difficulty: str | None = None,
        user_id: str | None = None,
        address: str | None = None,
        numbered: tuple[str, object] | None = None,
    ) -> dict[str, object]:
        """The checked variant of a request for a new game; raises a :class:`PatienceError`
        for an unknown game, a bad variant or seed, a seed asked for a timed game (a timed
        game is dealt by the server only: a player who chose the seed could have solved it
        beforehand), a numbered deal (``(numbering, number)``, one players know from
        elsewhere) asked for a timed game, with a seed or a difficulty, or not one of the
        game's, a difficulty the game has no ratings for, or asked with a seed, and
        :class:`UnfinishedGameError` when player ``user_id`` asks for a timed game while one
        of the same game and variant is still running (a timed deal counts once dealt: no
        dealing until an easy one comes), or when guests at ``address`` have
        ``guest_timed`` such games running already."""
        cls = game_class(name)
        checked = cls.check_variant(variant)
        if mode == "timed" and seed is not None:
            raise PatienceError(
                "a timed game is dealt by the server, never from a chosen seed; "
                "play a chosen seed as a practice game"
            )
        if numbered is not None:
            numbering, number = numbered
            if mode == "timed":
                raise PatienceError(
                    "a timed game is dealt by the server, never by a deal's number; "
                    "play a numbered deal as a practice or relaxed game"
                )
            if seed is not None or difficulty is not None:
                raise PatienceError(
                    "a numbered deal is asked for alone: not with a seed or a difficulty"
                )
            known = cls.numberings.get(numbering)
            if known is None:
                names = ", ".join(cls.numberings) or "none"
                raise PatienceError(
                    f"{cls.title} has no deal numbering {numbering!r} (numberings: {names})"
                )
            known.check(number)
        if difficulty is not None:
            if difficulty not in DIFFICULTIES:
                raise PatienceError(
                    f"no difficulty {difficulty!r} (difficulties: {', '.join(DIFFICULTIES)})"
                )
            if not is_rated(name, checked):
                raise PatienceError(
                    f"{cls.title}{variant_text(checked)} deals are not rated for difficulty yet"
                )
            if seed is not None:
                raise PatienceError("a deal of a difficulty is chosen by the server, not a seed")
        if seed is not None and not 0 <= seed < 2**63:
            raise PatienceError(f"a deal number is a whole number from 0 to {2**63 - 1:,}")
        if mode == "timed" and user_id is None and address is not None and self._guest_timed:
            count = self.guest_timed(address, name, checked)
            if count >= self._guest_timed:
                raise _guests_full(name, checked, count)
        if mode == "timed" and user_id is not None:
            running = self.unfinished_timed(user_id, name, checked)
            if running is not None:
                raise _running_already(name, checked, running)
        return checked

    def guest_timed(
        self,
        address: str,
        name: str,
        variant: dict[str, object],
        connection: Connection | None = None,
    ) -> int:
        """How many guests' timed games of ``name`` and ``variant`` (checked) from
        ``address`` still run (read in ``connection``'s transaction when given)."""
        guests = and_(sessions.c.address == digest(address), sessions.c.user_id.is_(None))
        query = select(func.count()).where(self._running_timed(guests, name, variant))
        if connection is not None:
            return int(connection.execute(query).scalar_one())
        with self._log.engine.connect() as own:
            return int(own.execute(query).scalar_one())

    def unfinished_timed(
        self,
        user_id: str,
        name: str,
        variant: dict[str, object],
        connection: Connection | None = None,
    ) -> str | None:
        """The id of player ``user_id``'s timed game of ``name`` and ``variant`` (checked)
        whose clock still runs, if any (read in ``connection``'s transaction when given)."""
        query = select(sessions.c.id).where(
            self._running_timed(sessions.c.user_id == user_id, name, variant)
        )
        if connection is not None:
            found: str | None = connection.execute(query).scalar()
            return found
        with self._log.engine.connect() as own:
            found = own.execute(query).scalar()
        return found

    def running_timed(self, whose: ColumnElement[bool]) -> ColumnElement[bool]:
        """Timed games picked by ``whose`` whose clock still runs."""
        return and_(
            whose,
            sessions.c.mode == "timed",
            sessions.c.ended_at.is_(None),
            runs_until() > self._log.clock(),
        )

    def _running_timed(
        self, whose: ColumnElement[bool], name: str, variant: dict[str, object]
    ) -> ColumnElement[bool]:
        """Timed games of ``name`` and ``variant`` (checked) picked by ``whose`` whose clock
        still runs."""
        return self.running_timed(
            and_(whose, sessions.c.game == name, sessions.c.variant == json.dumps(variant))
        )

    def start(
        self,
        name: str,
        variant: dict[str, object],
        *,
        seed: int | None,
        mode: Mode,
        user_id: str | None = None,
        address: str | None = None,
    ) -> tuple[Live, str]:
        """A new game and the token that holds it, all in this thread: a timed game gets the
        catalog's next deal or one certified now (the server does the certifying in its
        bounded pool instead: :meth:`.claims.DealClaims.claim`,
        :meth:`.claims.DealClaims.certify`, :meth:`open`)."""
        checked = self.check_start(
            name, variant, seed=seed, mode=mode, user_id=user_id, address=address
        )
        game_id = new_game_id()
        certified = False
        tier = None
        if mode == "timed":
            taken = self._claims.claim(name, checked, game_id)
            if taken is None:
                seed = self._claims.certify(name, checked)
            else:
                seed, tier = taken.seed, taken.tier
            certified = True
        return self.open(
            name,
            checked,
            seed=seed,
            mode=mode,
            certified=certified,
            game_id=game_id,
            tier=tier,
            user_id=user_id,
            address=address,
            one_timed=True,
        )

    def open(
        self,
        name: str,
        variant: dict[str, object],
        *,
        seed: int | None,
        mode: Mode,
        certified: bool,
        game_id: str | None = None,
        tier: int | None = None,
        user_id: str | None = None,
        address: str | None = None,
        time_limit: float | None = None,
        sealed_until: float | None = None,
        ends_at: float | None = None,
        within: Callable[[Connection, Live], None] | None = None,
        guest: str | None = None,
        numbered: tuple[str, int] | None = None,
        one_timed: bool = False,
    ) -> tuple[Live, str]:
        """Deal ``seed`` (a random one when None; none for a ``numbered`` deal, ``(numbering,
        number)``, a practice game's by a numbering players know) as a new game, write it
        down, and return it with the token that holds it; ``tier`` is the deal's difficulty
        tier, if rated;
        ``user_id`` the signed-in player whose game it is (None: a guest's, whose
        ``address`` is kept hashed for the limit on guests' timed games). ``time_limit``
        overrides the game's clock (a tournament's), ``sealed_until`` keeps the deal
        (seed, record, replay) secret until then, even once the game is over, and
        ``ends_at`` is the wall-clock moment past which the game never runs, whatever its
        clock and outages (both a tournament's close). ``within``, when given, is called
        with the transaction that writes the new game, before it commits: what it writes
        is written with the game or not at all (a tournament's attempt claims its place
        so), and what it raises refuses the game. ``guest`` is a guest's browser cookie,
        kept hashed: a sign-up from that browser takes over the game
        (:meth:`patience.store.GameStore.claim_guest_games`). ``one_timed`` holds the rule
        of :meth:`check_start` (one timed game of a game and variant running for a player)
        in the transaction that writes the game, the player's row locked first, so that
        requests at the same moment deal one game (:class:`UnfinishedGameError` for the
        others): checked only beforehand, five at once had dealt five. The guests' limit
        at one address (``guest_timed``) is held in the same transaction."""
        if numbered is not None:
            if mode == "timed" or seed is not None:
                raise PatienceError("a numbered deal is a practice game's, never a seed's")
            game = game_class(name).from_number(*numbered, variant)
        else:
            if seed is None:
                seed = self._random_seed()
            game = new_game(name, seed=seed, variant=variant)
        token = secrets.token_urlsafe(24)
        live = Live(
            id=game_id or new_game_id(),
            token_hash=digest(token),
            session=session_class(mode)(
                game,
                clock=self._log.clock,
                time_limit=self._time_limit if time_limit is None else time_limit,
                ends_at=ends_at,
            ),
            mode=mode,
            seed=seed,
            certified=certified,
            saved=0,
            tier=tier,
            user_id=user_id,
            sealed_until=sealed_until,
            numbered=numbered,
        )
        row = {
            "id": live.id,
            "token_hash": live.token_hash,
            "game": name,
            "variant": json.dumps(game.variant),
            "deal": " ".join(str(card) for card in game.deal),
            "seed": None if seed is None else str(seed),
            "numbered": None if numbered is None else f"{numbered[0]} {numbered[1]}",
            "mode": mode,
            "certified": certified,
            "tier": tier,
            "user_id": user_id,
            "address": None if user_id is not None or address is None else digest(address),
            "guest": None if user_id is not None or guest is None else digest(guest),
            "sealed_until": sealed_until,
            "ends_at": ends_at,
            "time_limit": live.session.time_limit,
            "created_at": live.session.log[0].at,
        }
        start = live.session.log[0]
        first = {"session_id": live.id, "seq": 0, "kind": start.kind, "at": start.at}

        guests_here = None if user_id is not None or address is None else address
        guest_limit = bool(one_timed and mode == "timed" and guests_here and self._guest_timed)

        def write(connection: Connection) -> None:
            # the guests' limit at one address, held for starts at the same moment: on
            # PostgreSQL a lock on the address first; on SQLite the game's insert below
            # takes the one writer's lock before the count
            if guest_limit and connection.dialect.name == "postgresql":
                connection.execute(
                    text("SELECT pg_advisory_xact_lock(hashtext(:key))"),
                    {"key": f"guest-timed {row['address']}"},
                )
            if one_timed and mode == "timed" and user_id is not None:
                # the player's row, locked: their other starts wait here until this commits
                connection.execute(update(users).where(users.c.id == user_id).values(id=users.c.id))
                running = self.unfinished_timed(user_id, name, game.variant, connection)
                if running is not None:
                    raise _running_already(name, game.variant, running)
            connection.execute(insert(sessions).values(**row))
            if guest_limit and guests_here is not None:
                count = self.guest_timed(guests_here, name, game.variant, connection)
                if count > self._guest_timed:  # this game counted: one too many
                    raise _guests_full(name, game.variant, count - 1)
            connection.execute(insert(events).values(**first))
            if within is not None:
                within(connection, live)

        self._log.transaction(write)
        live.saved = 1
        self._cache.keep(live)
        return live, token


def _running_already(name: str, variant: dict[str, object], running: str) -> UnfinishedGameError:
    """The refusal of a timed game while the player's game ``running`` of the same game and
    variant still runs."""
    return UnfinishedGameError(
        f"you have a timed game of {game_class(name).title}{variant_text(variant)} running "
        f"(game {running}): finish or end it before dealing another",
        running,
    )


def _guests_full(name: str, variant: dict[str, object], count: int) -> UnfinishedGameError:
    """The refusal of a guest's timed game while ``count`` guests' games of the same game
    and variant run at their address (the limit)."""
    return UnfinishedGameError(
        f"{count} timed games of {game_class(name).title}{variant_text(variant)} are running "
        "for guests at your address: finish one, or sign in",
        None,
    )


def new_game_id() -> str:
    """A fresh, unguessable game id."""
    return secrets.token_hex(8)


def variant_text(variant: dict[str, object]) -> str:
    """A variant as players read it: ``" (wrap)"``, ``" (draw 3)"``, or nothing.

    >>> variant_text({"wrap": True}), variant_text({"wrap": False}), variant_text({})
    (' (wrap)', ' (no wrap)', '')
    """
    parts = variant_words(variant)
    return f" ({', '.join(parts)})" if parts else ""
