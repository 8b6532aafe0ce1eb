"""The protocol every game implements, and what the games share.

A game is built from a deal and its variant options, then played with :meth:`Game.play`,
:meth:`Game.undo` and :meth:`Game.legal_moves`; its end is an :class:`Outcome`. Sessions,
records, the terminal client, the server and the solvers' certificates are all written
against this class, never against one game.
"""

from __future__ import annotations

import abc
import copy
import math
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, Literal, Protocol, Self, cast

from patience.cards import Card, checked_deal, parse_deal, shuffled_deck
from patience.errors import (
    GameOverError,
    InvalidDealError,
    InvalidMoveError,
    InvalidVariantError,
    UndoRefusedError,
)
from patience.games.layout import Budgets, ClientLayout
from patience.moves import END, UNDO, Move, Place, PlaceKind

__all__ = [
    "Budgets",
    "ClientLayout",
    "DealNumbering",
    "Game",
    "Outcome",
    "OutcomeReason",
    "Played",
    "VariantOption",
    "reveal_barrier",
    "scaled_time_bonus",
]

OutcomeReason = Literal["won", "ended", "stuck", "timeout", "closed"]
JSON = Any


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: won (every card home), or not, and why.

    >>> Outcome(won=False, reason="ended")
    Outcome(won=False, reason='ended')
    """

    won: bool
    reason: OutcomeReason

    def to_json(self) -> dict[str, JSON]:
        """The outcome as a JSON object."""
        return {"won": self.won, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class Played:
    """What one accepted move did: the move in canonical notation, the points it scored
    (flips included), the hidden cards it turned up, the moves the game then made by
    itself (Klondike's and Solitaire Expert's play-out once solved, Kansas' refills), and,
    for a step of a play-out, the card it sent home (so that a client can show it fly)."""

    move: Move
    points: int
    revealed: tuple[Card, ...] = ()
    auto: tuple[Played, ...] = ()
    card: Card | None = None
    pile: int | None = None
    """Where a card sent home went, in a game whose foundations are piles in a row (a
    two-deck game's twins build on either of two piles): its pile, counted from 0."""

    @property
    def total_points(self) -> int:
        """Points of the move and of every automatic move after it."""
        return self.points + sum(step.total_points for step in self.auto)

    def to_json(self) -> dict[str, Any]:
        """What a client is told of the move: its notation, its points, and the moves the
        game then made by itself, each with the card it sent home when it did (a card the
        foundations show from then on, so the client may animate it). The cards it turned up
        are left out: the board shows them."""
        return {
            "move": str(self.move),
            "points": self.points,
            "total_points": self.total_points,
            "auto": [
                {
                    "move": str(step.move),
                    "points": step.points,
                    "card": None if step.card is None else str(step.card),
                    # the pile it went to, where the foundations are piles in a row
                    **({} if step.pile is None else {"pile": step.pile}),
                }
                for step in self.auto
            ],
        }


@dataclass(frozen=True, slots=True)
class VariantOption:
    """One option of a game's variant: its name, the values it takes, and its default."""

    name: str
    values: tuple[object, ...]
    default: object


@dataclass(frozen=True, slots=True)
class DealNumbering:
    """A numbering of a game's deals that players know beside the platform's seeds (a
    deal published by its number elsewhere): ``deal(n)`` lays out the deal numbered ``n``,
    for ``n`` from ``first`` to ``last``; ``title`` names one in words ("Microsoft deal").

    >>> numbering = DealNumbering("Example deal", 1, 9, lambda n: ())
    >>> numbering.check(9)
    9
    >>> numbering.check(0)
    Traceback (most recent call last):
    ...
    patience.errors.InvalidDealError: Example deals are numbered 1 to 9, not 0
    """

    title: str
    first: int
    last: int
    deal: Callable[[int], Sequence[Card]]

    @property
    def rule(self) -> str:
        """What numbers the numbering takes, in words ("Example deals are numbered 1 to
        9")."""
        return f"{self.title}s are numbered {self.first:,} to {self.last:,}"

    def check(self, number: object) -> int:
        """``number`` if it numbers a deal; raises :class:`InvalidDealError` otherwise."""
        if isinstance(number, bool) or not isinstance(number, int):
            raise InvalidDealError(f"{self.rule}, not {number!r}")
        if not self.first <= number <= self.last:
            raise InvalidDealError(f"{self.rule}, not {number}")
        return number


class _Revealing(Protocol):
    """An undo snapshot that knows whether the move after it turned up a hidden card."""

    @property
    def revealed(self) -> bool: ...


def reveal_barrier(history: Sequence[_Revealing]) -> str | None:
    """Why undo is refused in a game that never takes back a move which turned up a hidden
    card (Klondike, Kansas), or None.

    >>> reveal_barrier([])
    'nothing to undo'
    """
    if not history:
        return "nothing to undo"
    if history[-1].revealed:
        return "the last move turned up a card that was hidden"
    return None


def scaled_time_bonus(*, limit: int, elapsed: float, done: int, total: int) -> int:
    """``floor((limit - elapsed) * done / total)``, computed exactly; 0 once time is up.

    >>> scaled_time_bonus(limit=300, elapsed=100, done=26, total=52)
    100
    >>> scaled_time_bonus(limit=300, elapsed=299.5, done=52, total=52)
    0
    """
    if not 0 <= elapsed < limit:
        return 0
    return math.floor((Fraction(limit) - Fraction(elapsed)) * done / total)


_CONTAINERS = (list, set, dict)


def _fresh(value: object) -> object:
    """``value`` with its mutable containers copied (lists recursively); immutable values
    are shared (an item that is no container is taken as it is, without a call a card)."""
    if isinstance(value, list):
        return [_fresh(item) if isinstance(item, _CONTAINERS) else item for item in value]
    if isinstance(value, set):
        return set(value)
    if isinstance(value, dict):
        return {
            key: _fresh(item) if isinstance(item, _CONTAINERS) else item
            for key, item in value.items()
        }
    return value


class Game(abc.ABC):
    """A game of patience in progress: the engine of record for one game's rules.

    Subclasses set the class attributes, build their layout in ``__init__`` from the deal
    (docs/rules.md gives each game's layout), and implement the abstract methods. Every
    method that changes state either succeeds or raises a :class:`ValueError` subclass and
    changes nothing.
    """

    name: ClassVar[str]
    """The registry name, as in game records (``"klondike"``)."""
    title: ClassVar[str]
    """The name shown to players."""
    decks: ClassVar[int] = 1
    time_limit: ClassVar[int]
    """Seconds on the clock in timed play."""
    options: ClassVar[tuple[VariantOption, ...]] = ()
    has_time_bonus: ClassVar[bool] = False
    """Whether finishing early earns a time bonus (:meth:`time_bonus`)."""
    numberings: ClassVar[Mapping[str, DealNumbering]] = {}
    """Numberings of the game's deals players know from elsewhere, by the name the command
    line takes them under (``patience play GAME --NAME N``); most games have none."""
    place_kinds: ClassVar[frozenset[PlaceKind]] = frozenset(("t", "w", "r", "h", "f"))
    """The kinds of place the game's moves may name; a move naming another kind (a free
    cell, ``c1``, in a game without them) is refused before the game reads it."""

    # -- what the rest of the platform reads of a game (docs/adding-a-game.md) ----------

    solver: ClassVar[bool] = True
    """Whether the native core has a solver for the game (certified deals, hints)."""
    budgets: ClassVar[Budgets] = Budgets()
    """What the solver may spend on one of its deals."""
    playouts: ClassVar[Mapping[str, int]] = {}
    """The native core's reference players, each with the playouts a deal is rated with
    (none: the game's deals are certified but not rated), in the game's current rating
    version (:attr:`rating_version`)."""
    rating_version: ClassVar[int] = 1
    """The version of the game's rating: its rated players and their playouts, the score's
    formula and the calibration. A change to any of them is a new version of that game's
    rating alone; a rated deal keeps the version it was rated with."""
    former_playouts: ClassVar[Mapping[int, Mapping[str, int]]] = {}
    """The rated players and playouts of the game's earlier rating versions, by version,
    kept so that a deal rated with one of them (a closed tournament's) can be rated again
    the same way and checked."""
    information: ClassVar[tuple[str, ...]] = ("person",)
    """The models of information the reference players can play under: ``person`` (what
    a person sees) for every game, and others a game's published players assume (Klondike's
    ``known-stock``: the hand's order known from the start)."""
    rated_by_progress: ClassVar[bool] = False
    """Whether a reference player's measure is its mean share of cards home rather than its
    win rate (a game whose own score counts the cards home)."""
    cheap_players: ClassVar[tuple[str, ...]] = ()
    """The reference players whose playouts cost well under a millisecond a game: a catalog
    job's cheap rating (:mod:`patience.ratings`) plays them exactly as a full rating does,
    and a rating model stands in for the others."""
    redeals: ClassVar[int] = 0
    """How many times a cheap rating deals again what a player cannot see
    (:meth:`redealt`) and asks the solver whether the table still wins (0: never)."""
    shares_first_moves: ClassVar[bool] = False
    """Whether the native solver can search a deal's first moves keeping one table of
    positions for all of them (``_core.evidence``'s ``share_first_moves``; see
    :class:`patience.ratings.evidence.FirstMoveSearch`)."""
    still_won: ClassVar[Mapping[str, int]] = {}
    """How many playouts of each cheap player (the first ones of the full rating's) a cheap
    rating follows to the move that lost the deal (``_core.still_won``): the share of its
    moves the player made before the table could no longer be won is a feature
    (``PLAYER_still_won``). Empty: none."""
    cleared_moves: ClassVar[tuple[tuple[str, ...], tuple[str, ...]]] = ((), (">f", ">h"))
    """The moves that clear a card, by name, for :meth:`playout_cleared`: those starting
    with one of the first strings or ending with one of the second (by default the moves
    that send a card home)."""
    cleared_cards: ClassVar[int | None] = None
    """The cards a playout has to clear (None: every card of the deal)."""
    terminal_help: ClassVar[str]
    """What ``help`` shows in the terminal, before the lines every game shares."""
    status: ClassVar[tuple[tuple[str, str], ...]] = ()
    """The terminal header's counters: (label, field of the observation)."""
    score_order: ClassVar[tuple[str, ...]] = ("Cards home",)
    """The lines of a score (:meth:`score_parts`), in the order a result shows them."""
    layout: ClassVar[ClientLayout]
    """How the browser client draws and plays the game, and its words (plain JSON)."""

    @classmethod
    def variant_text(cls, variant: Mapping[str, object]) -> str:
        """The game and its variant as the terminal's header writes them
        ("Solitaire Rush · draw 3")."""
        shorts = [
            value["short"]
            for option in cls.layout["words"]["options"]
            for value in option["values"]
            if option["name"] in variant
            and type(value["value"]) is type(variant[option["name"]])
            and value["value"] == variant[option["name"]]
        ]
        return " · ".join([cls.title, *shorts])

    @classmethod
    def playout_cleared(cls, moves: Sequence[str]) -> float:
        """How far a reference player's playout got, by its moves (a cheap rating's
        feature): the share of :attr:`cleared_cards` its :attr:`cleared_moves` cleared.

        >>> Game.playout_cleared(["t1>f", "w>h", "t2>t3"])
        0.038461538461538464
        """
        starts, ends = cls.cleared_moves
        cleared = sum(move.startswith(starts) or move.endswith(ends) for move in moves)
        return cleared / (cls.cleared_cards or 52 * cls.decks)

    @classmethod
    def rating_features(cls, position: tuple[Any, ...]) -> dict[str, float]:
        """Features of a deal read off its :meth:`native_position` for a rating model
        (:mod:`patience.ratings.evidence`), by name; none by default."""
        return {}

    @classmethod
    def redealt(cls, position: tuple[Any, ...], rng: random.Random) -> tuple[Any, ...]:
        """``position`` with what a player cannot see dealt again by ``rng``, for a game
        with :attr:`redeals`."""
        raise NotImplementedError(f"{cls.name} deals nothing again for a rating")

    def score_parts(self, played: Played) -> Iterator[tuple[str, int, int]]:
        """What one move (or one automatic step) of this game scored, as (line, count,
        points) parts that add up to its points; by default every point is a card home."""
        if played.points:
            yield "Cards home", played.points, played.points

    def __init__(self, deal: Sequence[Card] | str | Iterable[str]) -> None:
        self._deal: tuple[Card, ...] = coerce_deal(deal, decks=self.decks)
        self._ended = False  # the player said `end`; each game's outcome() reads it

    # -- construction -------------------------------------------------------------------

    @classmethod
    def from_variant(
        cls, deal: Sequence[Card] | str | Iterable[str], variant: Mapping[str, object] | None = None
    ) -> Self:
        """The game for ``deal`` with ``variant`` (an object such as ``{"draw": 3}``),
        checked: an unknown option or value raises :class:`InvalidVariantError`."""
        return cls(deal, **cls.check_variant(variant or {}))

    @classmethod
    def from_seed(cls, seed: int, variant: Mapping[str, object] | None = None) -> Self:
        """The game dealt by the seeded shuffle for ``(name, seed)``."""
        return cls.from_variant(shuffled_deck(cls.name, seed, decks=cls.decks), variant)

    @classmethod
    def from_number(
        cls, numbering: str, number: int, variant: Mapping[str, object] | None = None
    ) -> Self:
        """The game of the deal numbered ``number`` by ``numbering`` (a name of
        :attr:`numberings`); raises :class:`InvalidDealError` for a numbering the game does
        not have or a number outside it."""
        known = cls.numberings.get(numbering)
        if known is None:
            names = ", ".join(cls.numberings) or "none"
            raise InvalidDealError(
                f"{cls.name} has no deal numbering {numbering!r} (numberings: {names})"
            )
        return cls.from_variant(known.deal(known.check(number)), variant)

    @classmethod
    def numbered_words(cls, numbering: str, number: int) -> str:
        """The deal numbered ``number`` by ``numbering`` as players say it ("Microsoft
        deal 11982"), or the numbering's name and the number for one the game does not
        have."""
        known = cls.numberings.get(numbering)
        return f"{numbering} deal {number}" if known is None else f"{known.title} {number}"

    @classmethod
    def numberings_json(cls) -> list[dict[str, object]]:
        """The game's deal numberings as ``GET /api/games`` describes them: each one's
        ``name`` (as a request names it), ``title`` in words, ``first`` and ``last``
        numbers and its ``rule`` in words."""
        return [
            {
                "name": name,
                "title": numbering.title,
                "first": numbering.first,
                "last": numbering.last,
                "rule": numbering.rule,
            }
            for name, numbering in cls.numberings.items()
        ]

    @classmethod
    def check_variant(cls, variant: Mapping[str, object]) -> dict[str, object]:
        """``variant`` checked and completed with defaults.

        The values must be exactly those listed (so ``True`` is not ``1``)."""
        if not isinstance(variant, Mapping):
            raise InvalidVariantError(f"a variant is an object of options, not {variant!r}")
        known = {option.name: option for option in cls.options}
        for key in variant:
            if key not in known:
                names = ", ".join(known) or "none"
                raise InvalidVariantError(f"{cls.name} has no option {key!r} (options: {names})")
        checked = {}
        for option in cls.options:
            value = variant.get(option.name, option.default)
            if not any(
                type(value) is type(allowed) and value == allowed for allowed in option.values
            ):
                allowed_text = " or ".join(_json_text(v) for v in option.values)
                shown = _json_text(value)
                raise InvalidVariantError(
                    f"{cls.name} option {option.name!r} takes {allowed_text}, not {shown}"
                )
            checked[option.name] = value
        return checked

    @classmethod
    def variants(cls) -> list[dict[str, object]]:
        """Every combination of option values (for tests and menus)."""
        combos: list[dict[str, object]] = [{}]
        for option in cls.options:
            combos = [{**combo, option.name: value} for combo in combos for value in option.values]
        return combos

    @property
    def deal(self) -> tuple[Card, ...]:
        """The deal this game was dealt from, first-dealt card first."""
        return self._deal

    @property
    @abc.abstractmethod
    def variant(self) -> dict[str, object]:
        """The variant options, as a game record holds them."""

    # -- playing ------------------------------------------------------------------------

    def play(self, move: Move | str) -> Played:
        """Play a move (a :class:`Move` or notation). ``undo`` and ``end`` are accepted too.

        Raises :class:`InvalidMoveError` for text that is not a move of this game,
        :class:`IllegalMoveError` for a move the rules refuse here, and changes nothing then.
        """
        if isinstance(move, str):
            move = Move.parse(move)
        if move == UNDO:
            before = self.score()
            self.undo()
            return Played(UNDO, self.score() - before)
        if self.is_over():
            raise GameOverError("the game is over")
        if move == END:
            self._ended = True
            return Played(END, 0)
        self._check_places(move)
        return self._play(move)

    def play_through(self, moves: Iterable[Move | str]) -> tuple[int, ValueError | None]:
        """Play ``moves`` in order, each as :meth:`play` would, until the game is over or a
        move is refused: how many were played, and the refusal of the next one (None when
        none was refused: every move played, or the game over before the rest). The game is
        left as :meth:`play` would leave it after the moves played.

        A solver's certificate is replayed so (:func:`patience.solve.replayed`). A game may
        do it more cheaply than a call of :meth:`play` a move (no :class:`Played` made, the
        end of the game not worked out again from the whole table), but its rules decide
        every move as :meth:`play` does.

        >>> from patience.games import new_game
        >>> game = new_game("golf", seed=3)
        >>> game.play_through(["t1", "t5", "draw"])
        (1, IllegalMoveError('5h is not one rank above or below 9d'))
        """
        played = 0
        for move in moves:
            if self.is_over():
                break
            try:
                self.play(move)
            except ValueError as error:
                return played, error
            played += 1
        return played, None

    def undo(self) -> None:
        """Take back the last move, score included; refused where the rules say so."""
        refusal = self.undo_refusal()
        if refusal is not None:
            raise UndoRefusedError(f"cannot undo: {refusal}")
        self._undo()

    def can_undo(self) -> bool:
        """Whether :meth:`undo` would be accepted now."""
        return self.undo_refusal() is None

    def is_over(self) -> bool:
        """Whether the game has ended (``outcome() is not None``)."""
        return self.outcome() is not None

    def is_legal(self, move: Move | str) -> bool:
        """Whether :meth:`play` would accept ``move`` now (``undo`` and ``end`` included)."""
        try:
            parsed = Move.parse(move) if isinstance(move, str) else move
            if parsed == UNDO:
                return self.can_undo()
            if self.is_over():
                return False
            if parsed != END:
                self._check_places(parsed)
                self._check(parsed)
        except ValueError:
            return False
        return True

    def _check_places(self, move: Move) -> None:
        """Refuse a move that names a kind of place this game does not have."""
        for place in (move.source, move.dest):
            if place is not None and place.kind not in self.place_kinds:
                raise InvalidMoveError(f"{self.title} has no {place.bare}")

    def copy(self) -> Self:
        """An independent copy of the game, history included.

        Games keep their state in lists, sets and dicts of immutable values (cards, frozen
        undo snapshots), so copying those containers, and lists within lists, is enough:
        the immutable values are shared. This is what makes solvers' replays and the
        differential tests cheap (a deep copy grows with the undo history).
        """
        twin = copy.copy(self)
        for name, value in vars(self).items():
            setattr(twin, name, _fresh(value))
        return twin

    def time_bonus(self, elapsed: float) -> int:
        """The bonus for finishing after ``elapsed`` seconds of the clock (0 if none)."""
        return 0

    def final_score(self, elapsed: float | None) -> int:
        """The score with the time bonus of a game that ended (not by timeout) after
        ``elapsed`` seconds; no bonus for an unfinished game or when ``elapsed`` is None."""
        outcome = self.outcome()
        if elapsed is None or outcome is None or outcome.reason == "timeout":
            return self.score()
        return self.score() + self.time_bonus(elapsed)

    # -- what subclasses provide --------------------------------------------------------

    @abc.abstractmethod
    def legal_moves(self) -> list[Move]:
        """Every move the rules allow now, in canonical notation (no ``undo`` or ``end``);
        empty once the game is over."""

    @abc.abstractmethod
    def _check(self, move: Move) -> None:
        """Raise if the game move is not legal now; never changes anything."""

    @abc.abstractmethod
    def _play(self, move: Move) -> Played:
        """Apply a game move, or raise without changing anything."""

    @abc.abstractmethod
    def _undo(self) -> None:
        """Take back the last move; only called when :meth:`undo_refusal` is None."""

    def undo_refusal(self) -> str | None:
        """Why undo is refused now, or None when it is allowed: never once the game is over,
        and otherwise as the game's rules say."""
        if self.is_over():
            return "the game is over"
        return self._undo_refusal()

    @abc.abstractmethod
    def _undo_refusal(self) -> str | None:
        """Why the rules refuse undo in a game still going on, or None."""

    @abc.abstractmethod
    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""

    @abc.abstractmethod
    def score(self) -> int:
        """The score so far, without any time bonus."""

    @abc.abstractmethod
    def cards_on_foundation(self) -> int:
        """How many cards are on the foundations."""

    def stuck_words(self) -> str | None:
        """Why no move is left, in the game's own terms, once it has ended stuck (its cards
        in move notation, "Ks", which a client says in words); None while it has not, and
        in a game with nothing to add to "no move is left"."""
        return None

    def _status(self) -> dict[str, JSON]:
        """The ``can_undo`` and ``outcome`` entries every observation ends with, the
        outcome worked out once."""
        outcome = self.outcome()
        return {
            "can_undo": outcome is None and self._undo_refusal() is None,
            "outcome": None if outcome is None else outcome.to_json(),
        }

    @abc.abstractmethod
    def observation(self) -> dict[str, JSON]:
        """What the player may see, as JSON: never a face-down card or a stock's order."""

    @abc.abstractmethod
    def piles(self) -> dict[str, list[Card]]:
        """The referee's view: every pile by name, hidden cards included, each listed
        first-placed first. Never shown to a player."""

    @abc.abstractmethod
    def hidden_cards(self) -> list[Card]:
        """The cards in places the player cannot see now: face down, or in a stock whose
        order is hidden. None of them may appear in :meth:`observation`."""

    @abc.abstractmethod
    def native_position(self) -> tuple[Any, ...]:
        """The referee's view as the native core takes it (``patience._core``, through
        :mod:`patience.solve` and :mod:`patience.rating`): a tuple of card indices, every
        card known. Never shown to a player."""

    def tap(self, place: Place | str) -> Move | None:
        """The move a tap (or double-click) on the card at ``place`` makes, if any."""
        return None


def coerce_deal(deal: Sequence[Card] | str | Iterable[str], *, decks: int) -> tuple[Card, ...]:
    """A checked deal from cards, card strings, or a deal string."""
    if isinstance(deal, str):
        return parse_deal(deal, decks=decks)
    items: list[object] = list(deal)
    if all(isinstance(item, Card) for item in items):
        return checked_deal(cast(list[Card], items), decks=decks)
    if all(isinstance(item, Card | str) for item in items):
        return parse_deal([str(item) for item in items], decks=decks)
    raise InvalidDealError("a deal is a list of cards or card strings")


def _json_text(value: object) -> str:
    """A value as JSON writes it, for a refusal; a long one is not echoed."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    text = repr(value)
    return text if len(text) <= 16 else "a value of another kind"
