//! The traits every game of the core implements, so that each capability (legal moves,
//! solving, reference players) is written once and dispatched by game, and each position
//! crosses to a host language (the Python glue, `patience-py`) by one generic conversion.
//!
//! A game implements [`NativeGame`] and [`Plain`] in its own folder (and
//! [`crate::players::Players`] once it has reference players), and the glue's registry
//! names it in one line; nothing else in the core or the glue changes. This module names
//! no game.

use std::fmt;

use crate::search::{Budget, FirstMove, FirstMoves, Report};

/// Why a position cannot be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidPosition(pub String);

impl fmt::Display for InvalidPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InvalidPosition {}

impl From<crate::shuffle::UnknownVersion> for InvalidPosition {
    fn from(error: crate::shuffle::UnknownVersion) -> Self {
        InvalidPosition(error.to_string())
    }
}

/// What a caller may ask of a solver beyond its budget.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveOptions {
    /// Look for a win only (certifying deals): a game whose solver proves losses by a
    /// different search than it finds wins (Kansas) spends the whole budget on wins.
    /// Solvers that find wins first anyway ignore it.
    pub wins_only: bool,
}

/// A game's position with every card known, its moves in the notation of docs/rules.md, and its
/// solver.
pub trait NativeGame: Plain + Clone + Send + Sync + 'static {
    /// A move; its `Display` is the notation of docs/rules.md, as the engine of record parses it.
    type Move: Copy + Eq + std::hash::Hash + fmt::Debug + fmt::Display + Send;

    /// The game's name in the registry (`patience.games`).
    const NAME: &'static str;

    /// Every legal move, in the engine of record's order.
    fn moves(&self) -> Vec<Self::Move>;

    /// Plays a move that [`NativeGame::moves`] listed.
    fn play(&mut self, mv: Self::Move);

    /// Whether [`NativeGame::moves`] lists `mv`; a game may answer without listing them
    /// (a playout asks at every move).
    fn allows(&self, mv: &Self::Move) -> bool {
        self.moves().contains(mv)
    }

    /// Whether the game is won as the solver counts it (for Klondike and Solitaire
    /// Expert: solved, the engine plays out the rest by itself).
    fn won(&self) -> bool;

    /// Solves the position within `budget`; `stop` is asked now and then whether to give
    /// up (for Ctrl-C).
    fn solve(
        &self,
        budget: &Budget,
        options: SolveOptions,
        stop: &mut dyn FnMut() -> bool,
    ) -> Report<Self::Move>;

    /// [`NativeGame::solve`], with what its search learned of the position's first moves
    /// by the way ([`FirstMove`], for some of them; none, the default): the same report,
    /// for a caller that would otherwise search after each first move again
    /// ([`winning_first_moves`]).
    fn solve_noting_first_moves(
        &self,
        budget: &Budget,
        options: SolveOptions,
        stop: &mut dyn FnMut() -> bool,
    ) -> (Report<Self::Move>, FirstMoves<Self::Move>) {
        (self.solve(budget, options, stop), Vec::new())
    }

    /// [`NativeGame::solve_noting_first_moves`] and, for a position it wins, how many of
    /// its legal first moves are won, and how many undecided (out of budget), by a search
    /// of the position after each within `first_moves`, the searches keeping one table of what the certifying search and
    /// those before them learnt (positions searched out, positions on a win's line), so
    /// that no position is searched out twice: the same verdict as a search alone wherever
    /// both decide a move, for fewer nodes, and a move a search alone leaves undecided
    /// within the budget may be decided (Golf: `golf::solve_sharing_first_moves`). None
    /// (the default) for a game whose solver has no such search.
    fn solve_sharing_first_moves(
        &self,
        _budget: &Budget,
        _first_moves: &Budget,
        _options: SolveOptions,
        _stop: &mut dyn FnMut() -> bool,
    ) -> Option<(Report<Self::Move>, u32, u32)> {
        None
    }

    /// For a game whose moves have few distinct names: one move of each name, so that a
    /// host makes each name's string once and reuses it ([`NativeGame::name_index`] finds
    /// a move's). Empty (the default): each move's name is written when it is needed.
    fn named_moves() -> Vec<Self::Move> {
        Vec::new()
    }

    /// The index in [`NativeGame::named_moves`] of the move whose name is `mv`'s; `None`
    /// (the default) when it has none there.
    fn name_index(_mv: &Self::Move) -> Option<usize> {
        None
    }
}

/// [`NativeGame`] for a game whose position has `legal_moves` and `apply`, whose win is
/// `$won` and whose solver is `$solve` (it takes no options); for a game's own folder.
///
/// With a sixth argument, `$noting` gives [`NativeGame::solve_noting_first_moves`] (it
/// takes what `$solve` takes); with a seventh, `$sharing` gives
/// [`NativeGame::solve_sharing_first_moves`] (it takes the certifying budget, the first
/// moves' budget and `stop`, and answers the report and each first move's search, as
/// `golf::solve_sharing_first_moves` does). Items after it go into the impl as they are
/// (a game's own [`NativeGame::allows`]).
macro_rules! native_game {
    ($game:ty, $move:ty, $name:literal, $won:ident, $solve:path, $noting:path, $sharing:path
        $(, $extra:item)*) => {
        $crate::game::native_game!(@noting $game, $move, $name, $won, $solve, $noting,
            $($extra)*
            fn solve_sharing_first_moves(
                &self,
                budget: &$crate::search::Budget,
                first_moves: &$crate::search::Budget,
                _options: $crate::game::SolveOptions,
                stop: &mut dyn FnMut() -> bool,
            ) -> Option<($crate::search::Report<$move>, u32, u32)> {
                let (report, searched) = $sharing(self, budget, first_moves, stop);
                let won = searched.iter().filter(|first| first.won).count() as u32;
                let undecided = searched.iter().filter(|first| first.undecided).count() as u32;
                Some((report, won, undecided))
            }
        );
    };
    ($game:ty, $move:ty, $name:literal, $won:ident, $solve:path, $noting:path) => {
        $crate::game::native_game!(@noting $game, $move, $name, $won, $solve, $noting,);
    };
    ($game:ty, $move:ty, $name:literal, $won:ident, $solve:path) => {
        $crate::game::native_game!(@impl $game, $move, $name, $won, $solve,);
    };
    (@noting $game:ty, $move:ty, $name:literal, $won:ident, $solve:path, $noting:path,
        $($extra:item)*) => {
        $crate::game::native_game!(@impl $game, $move, $name, $won, $solve,
            fn solve_noting_first_moves(
                &self,
                budget: &$crate::search::Budget,
                _options: $crate::game::SolveOptions,
                stop: &mut dyn FnMut() -> bool,
            ) -> (
                $crate::search::Report<$move>,
                $crate::search::FirstMoves<$move>,
            ) {
                $noting(self, budget, stop)
            }
            $($extra)*
        );
    };
    (@impl $game:ty, $move:ty, $name:literal, $won:ident, $solve:path, $($extra:item)*) => {
        impl $crate::game::NativeGame for $game {
            type Move = $move;
            const NAME: &'static str = $name;

            fn moves(&self) -> Vec<$move> {
                self.legal_moves()
            }

            fn play(&mut self, mv: $move) {
                self.apply(mv);
            }

            fn won(&self) -> bool {
                self.$won()
            }

            fn solve(
                &self,
                budget: &$crate::search::Budget,
                _options: $crate::game::SolveOptions,
                stop: &mut dyn FnMut() -> bool,
            ) -> $crate::search::Report<$move> {
                $solve(self, budget, stop)
            }

            $($extra)*
        }
    };
}
pub(crate) use native_game;

/// How many of `state`'s legal first moves still win (a move that wins at once counts),
/// each judged as a search of the position after it within `max_nodes` nodes would judge
/// it: by `known` ([`NativeGame::solve_noting_first_moves`]'s, a move there is not searched
/// again) or else by `search`, which says whether its search of the position won.
pub fn winning_first_moves<G: NativeGame>(
    state: &G,
    known: &[(G::Move, FirstMove)],
    max_nodes: u64,
    mut search: impl FnMut(&G) -> bool,
) -> u32 {
    let mut winning = 0u32;
    for mv in state.moves() {
        let mut after = state.clone();
        after.play(mv);
        let won = after.won()
            || match known.iter().find(|(first, _)| *first == mv) {
                Some((_, FirstMove::Lost)) => false,
                Some(&(_, FirstMove::WonAt(nodes))) => nodes <= max_nodes,
                None => search(&after),
            };
        winning += u32::from(won);
    }
    winning
}

/// The shape of one part of a position as plain data ([`Part`]): what a host reads and
/// writes for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// True or false (Golf's wrap).
    Flag,
    /// A number 0-255: a draw count, a rank, a card index.
    Number,
    /// A number 0-255 or nothing: a free cell's card, a pile's suit.
    Maybe,
    /// Numbers 0-255 (a pile's card indices, the foundations' heights), as a list.
    Numbers,
    /// The same as [`Shape::Numbers`], as a host's byte string (Python's `bytes`), read and
    /// written at once: for a game whose positions cross often and whose deals solve fast.
    Bytes,
    /// A list of parts, each of the shape.
    ListOf(&'static Shape),
}

impl Shape {
    /// The shape in words, for a host's refusal of a malformed position.
    pub fn describe(&self) -> String {
        match self {
            Shape::Flag => "true or false".to_string(),
            Shape::Number => "a number 0-255".to_string(),
            Shape::Maybe => "a number 0-255 or None".to_string(),
            Shape::Numbers | Shape::Bytes => "a list of numbers 0-255".to_string(),
            Shape::ListOf(item) => format!("a list, each item {}", item.describe()),
        }
    }
}

/// One part of a position as plain data, of a [`Shape`] ([`Shape::Numbers`] and
/// [`Shape::Bytes`] both [`Part::Numbers`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    /// A [`Shape::Flag`].
    Flag(bool),
    /// A [`Shape::Number`].
    Number(u8),
    /// A [`Shape::Maybe`].
    Maybe(Option<u8>),
    /// A [`Shape::Numbers`] or [`Shape::Bytes`].
    Numbers(Vec<u8>),
    /// A [`Shape::ListOf`].
    List(Vec<Part>),
}

/// A game's position as plain parts (numbers, lists of numbers, lists of those), the form in
/// which it crosses to and from a host language: the glue converts parts to and from its
/// objects once, for every game, and the game turns parts into its position and back here,
/// in its own folder.
///
/// ```
/// use patience_core::game::{Part, Plain};
/// use patience_core::golf::Golf;
///
/// let dealt = Golf::from_seed(7, false).unwrap();
/// let parts = dealt.to_parts();
/// assert_eq!(parts.len(), Golf::PARTS.len());
/// assert_eq!(Golf::from_parts(parts).unwrap(), dealt);
/// assert!(Golf::from_parts(vec![Part::Flag(true)]).is_err());
/// ```
pub trait Plain: Sized {
    /// The position's parts in order, each with its name (for a refusal) and shape: the
    /// host's position is the tuple of these.
    const PARTS: &'static [(&'static str, Shape)];

    /// The position of `parts` (of [`Plain::PARTS`]'s shapes), checked: a malformed one
    /// is refused with the reason.
    fn from_parts(parts: Vec<Part>) -> Result<Self, InvalidPosition>;

    /// The position as parts of [`Plain::PARTS`]'s shapes.
    fn to_parts(&self) -> Vec<Part>;
}

/// Reads a position's parts in order, for [`Plain::from_parts`]: each read refuses a part
/// missing or of another shape than asked.
#[derive(Debug)]
pub struct Parts {
    game: &'static str,
    parts: std::vec::IntoIter<Part>,
}

impl Parts {
    /// A reader of the parts of a position of game `game` (named in a refusal).
    pub fn new(game: &'static str, parts: Vec<Part>) -> Self {
        Parts {
            game,
            parts: parts.into_iter(),
        }
    }

    fn next(&mut self, shape: &str) -> Result<Part, InvalidPosition> {
        self.parts.next().ok_or_else(|| {
            InvalidPosition(format!("a {} position lacks a part: {shape}", self.game))
        })
    }

    fn wrong(&self, shape: &str, part: &Part) -> InvalidPosition {
        InvalidPosition(format!(
            "a {} position has {part:?} where it needs {shape}",
            self.game
        ))
    }

    /// The next part, a [`Part::Flag`].
    pub fn flag(&mut self) -> Result<bool, InvalidPosition> {
        match self.next("a flag")? {
            Part::Flag(flag) => Ok(flag),
            other => Err(self.wrong("a flag", &other)),
        }
    }

    /// The next part, a [`Part::Number`].
    pub fn number(&mut self) -> Result<u8, InvalidPosition> {
        match self.next("a number")? {
            Part::Number(number) => Ok(number),
            other => Err(self.wrong("a number", &other)),
        }
    }

    /// The next part, a [`Part::Numbers`].
    pub fn numbers(&mut self) -> Result<Vec<u8>, InvalidPosition> {
        match self.next("a list of numbers")? {
            Part::Numbers(numbers) => Ok(numbers),
            other => Err(self.wrong("a list of numbers", &other)),
        }
    }

    /// The next part, a list of [`Part::Numbers`] (columns of cards).
    pub fn piles(&mut self) -> Result<Vec<Vec<u8>>, InvalidPosition> {
        let shape = "a list of lists of numbers";
        match self.next(shape)? {
            Part::List(items) => items
                .into_iter()
                .map(|item| match item {
                    Part::Numbers(numbers) => Ok(numbers),
                    other => Err(self.wrong(shape, &other)),
                })
                .collect(),
            other => Err(self.wrong(shape, &other)),
        }
    }

    /// The next part, a list of [`Part::Maybe`] (free cells).
    pub fn maybes(&mut self) -> Result<Vec<Option<u8>>, InvalidPosition> {
        let shape = "a list of numbers or None";
        match self.next(shape)? {
            Part::List(items) => items
                .into_iter()
                .map(|item| match item {
                    Part::Maybe(maybe) => Ok(maybe),
                    other => Err(self.wrong(shape, &other)),
                })
                .collect(),
            other => Err(self.wrong(shape, &other)),
        }
    }

    /// Refuses parts left over.
    pub fn end(mut self) -> Result<(), InvalidPosition> {
        match self.parts.next() {
            None => Ok(()),
            Some(_) => Err(InvalidPosition(format!(
                "a {} position has more parts than it needs",
                self.game
            ))),
        }
    }
}

/// `piles` as parts of shape [`Shape::ListOf`] [`Shape::Numbers`] (or [`Shape::Bytes`]).
pub fn piles_part(piles: &[Vec<u8>]) -> Part {
    Part::List(
        piles
            .iter()
            .map(|pile| Part::Numbers(pile.clone()))
            .collect(),
    )
}

/// `items` as parts of shape [`Shape::ListOf`] [`Shape::Maybe`].
pub fn maybes_part(items: &[Option<u8>]) -> Part {
    Part::List(items.iter().map(|&item| Part::Maybe(item)).collect())
}

/// `items` as a fixed number of them, or the refusal `reason`.
pub fn exactly<T, const N: usize>(items: Vec<T>, reason: &str) -> Result<[T; N], InvalidPosition> {
    items
        .try_into()
        .map_err(|_| InvalidPosition(reason.to_string()))
}
