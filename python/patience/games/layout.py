"""What a game tells the rest of the platform about itself: budgets, words, and the layout
the browser client draws and plays from.

Every game class (:class:`patience.games.base.Game`) sets these as class attributes; the
solver bridge, the rating, the catalog, the game store, the terminal and the server read
them from the registry instead of naming games. The layout (:class:`ClientLayout`) is plain
JSON, served in ``GET /api/games`` (docs/api.md), so that one generic board, input and
wording layer in the client draws and plays every game (docs/adding-a-game.md).

>>> budgets = Budgets(catalog_nodes=5_000_000)
>>> budgets.solve_states, budgets.certify_try_seconds
(8000000, None)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NotRequired, TypedDict

__all__ = [
    "Budgets",
    "BuildRule",
    "ClientLayout",
    "ClientWords",
    "Counter",
    "OptionWords",
    "PictureCard",
    "Pile",
    "RecycleCost",
    "Row",
    "Tableau",
    "Upright",
    "ValueWords",
]


@dataclass(frozen=True, slots=True)
class Budgets:
    """What the solver may spend on one deal of a game.

    Node and state budgets rather than seconds wherever a result must be the same on every
    machine (a catalog filled twice, or on a cluster, is the same catalog)."""

    solve_states: int = 8_000_000
    """Positions the solver's table holds at most when a caller does not say (a hint, the
    ``solve`` command); about 100 bytes a position while the table grows."""
    catalog_nodes: int = 2_000_000
    """Nodes the solver may search to certify (and rate) one catalog deal."""
    certify_at_start: bool = True
    """Whether a timed deal is certified winnable as the game starts when the catalog has
    none ready (the solver must win most winnable deals in well under a second)."""
    certify_try_seconds: float | None = None
    """Seconds a try, at most, when certifying at the start (None: the server's setting):
    for a solver that leaves many deals undecided, a short try and the next seed find a
    winnable deal sooner than a long search of a hard one."""


class ValueWords(TypedDict):
    """One value of a variant option, in words."""

    value: object
    """The value as the variant holds it (``3``, ``true``)."""
    label: str
    """The lobby's radio button: "Draw 3 (three at a time)"."""
    short: str
    """The value in a few words, as the terminal's header writes it: "draw 3"."""
    rule: NotRequired[str]
    """A line added to the rules shown in the lobby when this value is chosen."""


class OptionWords(TypedDict):
    """One variant option in words: its name, the lobby's legend, and each value's words."""

    name: str
    label: str
    values: list[ValueWords]


class BuildRule(TypedDict):
    """How the columns build down (for the client's guess of which card a move picks up and
    where a tapped card fits best; the server decides what is legal)."""

    colours: Literal["alternate", "any"]
    """Alternating colours (red on black), or any suit."""
    wrap: bool
    """Whether a king goes under an ace."""
    empty: Literal["king", "any"]
    """What an empty column takes: a king only, or what the rules let fill it."""


class Pile(TypedDict):
    """One pile of a row, drawn by its ``kind``.

    - ``stock``: face down, pressed to draw (``field``: the observation's count of cards;
      ``name``: its word, "hand" or "stock"; ``recycle``: an empty one turns the waste over).
    - ``waste``: the drawn cards, the last ``fan`` of them fanned sideways (``fan_option``:
      as many as that variant option says); ``take``: its top card can be played;
      ``drop``: a card is played onto it (it is then a place of its own).
    - ``foundation``: the piles built up to win. ``by: "suit"``: one a suit, the
      observation's object keyed by suit; ``by: "pile"``: a list of piles (``name`` is each
      one's word; ``count``: say how many cards it has; ``base``: the observation's field of
      the rank an empty one takes; ``wrap``: a king goes under an ace; ``group``: laid out
      as one block, which a narrow screen folds into rows).
    - ``reserve``: a pile whose top card plays (``field``: its ``{"cards", "top"}``).
    - ``cell``: cards held aside, each playable, up to ``size`` (``field``: the list). A
      pile of them is one place, ``h`` in notation (a card leaves it as ``h:Qs``); with
      ``slots``, each card has a slot of its own, ``c1``..``cN`` in notation, and
      ``field`` lists the ``size`` slots, a card or null each (free cells).
    - ``spacer``: the room between the left and right ends of a row.
    """

    kind: Literal["stock", "waste", "foundation", "reserve", "cell", "spacer"]
    field: NotRequired[str]
    name: NotRequired[str]
    recycle: NotRequired[bool]
    fan: NotRequired[int]
    fan_option: NotRequired[str]
    take: NotRequired[bool]
    drop: NotRequired[bool]
    by: NotRequired[Literal["suit", "pile"]]
    count: NotRequired[bool]
    base: NotRequired[str]
    wrap: NotRequired[bool]
    group: NotRequired[bool]
    size: NotRequired[int]
    slots: NotRequired[bool]


class Row(TypedDict):
    """A row of the board, top to bottom: piles (``name`` is its place: "top" or "bottom"),
    or the tableau (``name: "tableau"``, no piles). ``grow``: a row of piles, the only one
    under columns that never grow past their deal, is drawn with cards up to this many
    times as large as the columns' where the height the columns leave (and its width)
    allows."""

    name: str
    piles: NotRequired[list[Pile]]
    grow: NotRequired[float]


class Tableau(TypedDict):
    """The columns: what can be picked up, how they sit across the board and how they
    build."""

    pick: Literal["run", "sequence", "exposed"]
    """Any face-up card (with the cards on it); a face-up card that heads a sequence built
    by ``build`` down to the exposed card (with the cards on it: a card over cards out of
    sequence is not lifted); or a column's exposed card only."""
    packed: bool
    """Columns side by side from the left (few columns), rather than spread across."""
    build: BuildRule


class Upright(TypedDict):
    """How a game's board stands on a phone held upright (a window at most 600 pixels wide
    and taller than 1.3 times its width): its own ``rows``, top to bottom (the same piles
    as the layout's, rearranged: the piles a player presses most in a row at the board's
    foot, in a right thumb's reach, and the piles across the top fewer, for wider cards),
    and the card widths the widest of them needs (``across``)."""

    rows: list[Row]
    across: float


class Counter(TypedDict):
    """A number of the observation shown beside the score ("Run 3")."""

    label: str
    field: str


class RecycleCost(TypedDict):
    """What turning the waste over costs in a variant, after ``free`` turns that cost
    nothing: the client asks first."""

    variant: dict[str, object]
    points: int
    free: int


class ClientWords(TypedDict):
    """The game's own words on the table."""

    one_line: str
    """The lobby's line under the game's name."""
    rules: list[str]
    """How to play, a few lines for the lobby."""
    options: list[OptionWords]
    help_pointer: str
    """The controls, under the board, for a mouse and keys."""
    help_touch: str
    """The controls for a touch screen."""
    move_example: str
    """The move box's placeholder: a few of the game's moves in notation, each one legal in
    some position of the game, comma-separated and short enough to show whole ("t3>t5,
    draw")."""
    foundation: str
    """The foundations named as a place: "the foundation", "the piles"."""
    home: str
    """Where a won game's cards went: "home", or "cleared"."""
    bonus_lines: list[str]
    """Lines of the score (:attr:`Game.score_order`) a result shows without their count:
    bonuses, whose count says nothing to a player."""
    drop_rule: NotRequired[str]
    """In a game played card by card (``direct``), the rule a card played onto the waste
    follows, said when the client refuses one ("a card plays on the waste one rank above
    or below its top card")."""


PictureCard = tuple[float, float, str, bool, float | None]
"""A card of the lobby's picture: x, y, "down", "up" or "slot", red, width (None: 9)."""


class ClientLayout(TypedDict):
    """Everything the browser client needs to draw and play a game, as plain JSON.

    ``rows`` top to bottom; ``tableau`` its columns; ``across`` how many card widths the
    widest row needs (``narrow``: below ``width`` pixels, a block of piles folds and the
    widest row is ``across`` then, and its ``group`` of piles folds into rows of ``fold``,
    4 unless said); ``beside_when_short``: on a short, wide screen (a phone on its side)
    the top row stands beside the columns, which get the whole height;
    ``beside_when_wide``: likewise on a wide desktop window, for a game whose long columns
    make the height, not the width, bound its cards (the piles a block to the right of the
    columns, its foundations in rows of four; the replay stands so too; on a phone on its
    side too, where the game has no ``beside_when_short``, its piles' cards drawn larger
    in the height beside the columns); ``upright``: its
    rows on a phone held upright (:class:`Upright`); ``design`` the
    longest column the game usually has (face-down cards, and face-up cards past the
    first), which the columns' fans spread over the height for;
    ``longest`` the longest column the game's columns reach (the longest a deal can reach,
    or, for a game whose columns have no small bound, longer than its winning lines ever
    reach): the cards, sized once for a game and a window, hold both with every covered
    card's rank and suit in view, a long column's fan squeezed (its face-down cards first);
    ``direct``: a card's place is its move (a tap plays it, a drag goes to the waste only,
    keys 1 to 9 play a column and space draws) rather than picking it to put somewhere;
    ``counter``, ``recycle_cost``; ``watch_stuck``: the client says "no more moves" when a
    full round of the stock changed nothing the player can see (a game whose stock turns
    over without end and whose foundations are one a suit); ``picture`` the lobby's small
    picture of the layout (:data:`PictureCard`), in a box 80 wide and 50 high.
    """

    rows: list[Row]
    tableau: Tableau
    across: float
    narrow: NotRequired[dict[str, float]]
    beside_when_short: NotRequired[bool]
    beside_when_wide: NotRequired[bool]
    upright: NotRequired[Upright]
    design: dict[str, int]
    longest: dict[str, int]
    direct: bool
    counter: Counter | None
    recycle_cost: list[RecycleCost]
    watch_stuck: bool
    picture: list[PictureCard]
    words: ClientWords
