//! Klondike's reference players: `random`, `greedy` and `hindsight`, weakest first.
//!
//! A person sees each column's face-up cards, how many are face down, the waste (every card
//! turned onto it was seen), the foundations and how many cards the hand holds. Once they
//! have turned the whole hand and recycled the waste, they know the hand's order: the
//! player's [`KlondikeMemory`] learns it from the recycle it watched.
//!
//! - `random` plays a legal move chosen uniformly.
//! - `greedy` plays as casual players do: a move that turns up a face-down card first
//!   (the column's tallest hidden pile first), then a card home, then the waste's card onto
//!   a column, then it draws (or recycles); it never moves a run that turns up nothing or
//!   takes a card back from a foundation, and it gives up after a whole pass through the
//!   hand with nothing else to play.
//! - `hindsight` (hindsight optimisation): deals the cards it has not seen into the face-down
//!   places and the hand in [`SAMPLES`] random ways, and for each legal move solves every
//!   sample after that move with the solver on a small budget ([`SAMPLE_NODES`]); plays the
//!   move that wins the most samples, among equals the one `greedy` likes best (so that a
//!   won position is played towards the win, not around it), and `greedy`'s move when none
//!   wins. Like a person, it never goes back to a table it has seen (a move whose table is
//!   one it remembers is left out), and it gives up when no other move is left.

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};

use super::{solver, Klondike, Move, COLUMNS};
use crate::players::{playout_with, Players};
use crate::search::{Budget, Outcome};
use crate::shuffle::{fisher_yates, SplitMix64};

/// Ways of dealing the unseen cards `hindsight` samples for each decision.
pub const SAMPLES: usize = 8;

/// Positions the solver may expand for one sample.
pub const SAMPLE_NODES: u64 = 3_000;

/// What a person sees of a Klondike position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KlondikeView {
    /// Cards turned a draw: 1 or 3.
    pub draw: u8,
    /// Each column's face-up cards, the exposed card last.
    pub face_up: [Vec<u8>; COLUMNS],
    /// Face-down cards under each column's face-up cards.
    pub hidden: [u8; COLUMNS],
    /// Cards in the hand.
    pub stock: usize,
    /// The waste, its top card last.
    pub waste: Vec<u8>,
    /// Cards on each suit's foundation.
    pub foundation: [u8; 4],
}

/// What a Klondike player remembers between moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KlondikeMemory {
    /// The hand's order, next card last, once the player saw the waste recycled into it:
    /// the hand is always its first `stock` cards.
    known_stock: Option<Vec<u8>>,
    /// The waste and the hand's size as last seen.
    last_waste: Vec<u8>,
    last_stock: usize,
    /// Draws and recycles chosen in a row.
    idle: usize,
    /// The tables seen so far (a hash of each view).
    visited: HashSet<u64>,
}

/// A view's hash, the same in every run (the standard library's SipHash with its fixed
/// keys).
fn fingerprint(view: &KlondikeView) -> u64 {
    let mut hasher = DefaultHasher::new();
    view.hash(&mut hasher);
    hasher.finish()
}

impl KlondikeMemory {
    /// Learns from what the player sees now.
    fn see(&mut self, view: &KlondikeView) {
        let recycled = view.waste.is_empty()
            && self.last_stock == 0
            && view.stock > 0
            && self.last_waste.len() == view.stock;
        if recycled {
            self.known_stock = Some(self.last_waste.iter().rev().copied().collect());
        }
        if let Some(known) = &mut self.known_stock {
            if known.len() < view.stock {
                self.known_stock = None;
            } else {
                known.truncate(view.stock);
            }
        }
        self.last_waste.clone_from(&view.waste);
        self.last_stock = view.stock;
        self.visited.insert(fingerprint(view));
    }
}

impl KlondikeView {
    /// Cards the player can place: face up, on the waste, home, or known in the hand.
    fn placed(&self, memory: &KlondikeMemory) -> u64 {
        let mut bits = 0u64;
        let seen = self.face_up.iter().flatten().chain(&self.waste);
        for &card in seen.chain(memory.known_stock.iter().flatten()) {
            bits |= 1 << card;
        }
        for (s, &height) in self.foundation.iter().enumerate() {
            for r in 0..height {
                bits |= 1 << (s as u8 * 13 + r);
            }
        }
        bits
    }

    /// A position this view could be of: the cards the player cannot place dealt face
    /// down and into the hand (unless the player knows the hand), shuffled by `rng`, or in
    /// ascending order without one.
    pub fn sample(&self, memory: &KlondikeMemory, rng: Option<&mut SplitMix64>) -> Klondike {
        let placed = self.placed(memory);
        let mut unseen: Vec<u8> = (0..52).filter(|&card| placed >> card & 1 == 0).collect();
        if let Some(rng) = rng {
            fisher_yates(&mut unseen, rng);
        }
        let mut next = unseen.into_iter();
        let columns = std::array::from_fn(|i| {
            let mut column: Vec<u8> = next.by_ref().take(self.hidden[i] as usize).collect();
            column.extend_from_slice(&self.face_up[i]);
            column
        });
        let stock = match &memory.known_stock {
            Some(known) => known.clone(),
            None => next.by_ref().take(self.stock).collect(),
        };
        Klondike {
            draw: self.draw,
            columns,
            hidden: self.hidden,
            stock,
            waste: self.waste.clone(),
            foundation: self.foundation,
        }
    }
}

impl Players for Klondike {
    type Observation = KlondikeView;
    type Memory = KlondikeMemory;
    const PLAYERS: &'static [&'static str] = &["random", "greedy", "hindsight"];

    fn observe(&self) -> KlondikeView {
        KlondikeView {
            draw: self.draw,
            face_up: std::array::from_fn(|i| self.columns[i][self.hidden[i] as usize..].to_vec()),
            hidden: self.hidden,
            stock: self.stock.len(),
            waste: self.waste.clone(),
            foundation: self.foundation,
        }
    }

    fn choose(
        view: &KlondikeView,
        memory: &mut KlondikeMemory,
        player: usize,
        rng: &mut SplitMix64,
    ) -> Option<Move> {
        decide(view, memory, |memory, known, moves| match player {
            0 => (!moves.is_empty()).then(|| moves[rng.below(moves.len() as u64) as usize]),
            1 => greedy(view, memory, moves),
            2 => hindsight(view, memory, known, moves, rng, SAMPLES, SAMPLE_NODES),
            _ => panic!("no Klondike player {player}"),
        })
    }
}

/// One decision of a Klondike player: the memory learns from `view`, `pick` chooses among
/// the legal moves (handed the memory and the position with the unseen cards in ascending
/// order, which lists the same moves as the real one), and the memory counts the draws
/// and recycles in a row.
fn decide(
    view: &KlondikeView,
    memory: &mut KlondikeMemory,
    pick: impl FnOnce(&KlondikeMemory, &Klondike, &[Move]) -> Option<Move>,
) -> Option<Move> {
    memory.see(view);
    let known = view.sample(memory, None);
    let chosen = pick(memory, &known, &known.legal_moves());
    memory.idle = match chosen {
        Some(Move::Draw | Move::Recycle) => memory.idle + 1,
        _ => 0,
    };
    chosen
}

/// How much `greedy` wants `mv`; `None` for moves it never makes.
fn greedy_priority(view: &KlondikeView, mv: Move) -> Option<u32> {
    let reveals = |column: u8| view.hidden[column as usize] > 0;
    Some(match mv {
        Move::ColumnToFoundation(from)
            if view.face_up[from as usize].len() == 1 && reveals(from) =>
        {
            200 + u32::from(view.hidden[from as usize])
        }
        Move::ColumnToColumn { from, start, .. } if start == view.hidden[from as usize] => {
            if !reveals(from) {
                return None;
            }
            200 + u32::from(view.hidden[from as usize])
        }
        Move::ColumnToColumn { .. } | Move::FoundationToColumn { .. } => return None,
        Move::WasteToFoundation | Move::ColumnToFoundation(_) => 100,
        Move::WasteToColumn(_) => 50,
        Move::Draw => 2,
        Move::Recycle => 1,
    })
}

/// `greedy`'s move among `moves`.
fn greedy(view: &KlondikeView, memory: &KlondikeMemory, moves: &[Move]) -> Option<Move> {
    let best = moves
        .iter()
        .filter_map(|&mv| greedy_priority(view, mv).map(|p| (p, mv)))
        .fold(None, |best: Option<(u32, Move)>, (p, mv)| match best {
            Some((q, _)) if q >= p => best,
            _ => Some((p, mv)),
        })?
        .1;
    // A whole pass through the hand (and its recycle) with nothing else to play: give up.
    let pass = (view.stock + view.waste.len()).div_ceil(view.draw as usize) + 1;
    let idle = matches!(best, Move::Draw | Move::Recycle) && memory.idle >= pass;
    (!idle).then_some(best)
}

/// `hindsight`'s move among `moves` with `samples` samples and `nodes` nodes a sample.
fn hindsight(
    view: &KlondikeView,
    memory: &KlondikeMemory,
    known: &Klondike,
    moves: &[Move],
    rng: &mut SplitMix64,
    samples: usize,
    nodes: u64,
) -> Option<Move> {
    // Moves to a table not seen before, the ones greedy likes best first. A move that turns
    // up a card the player has not seen leads to a new table whatever the card; the
    // placeholder the ascending sample (`known`) puts there was never in any table seen.
    let mut candidates: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|&mv| {
            let mut after = known.clone();
            after.apply(mv);
            !memory.visited.contains(&fingerprint(&after.observe()))
        })
        .collect();
    candidates.sort_by_key(|&mv| std::cmp::Reverse(greedy_priority(view, mv)));
    if candidates.len() <= 1 {
        return candidates.first().copied();
    }
    let count = samples;
    let samples: Vec<Klondike> = (0..count).map(|_| view.sample(memory, Some(rng))).collect();
    let budget = Budget {
        max_nodes: nodes,
        max_seconds: f64::INFINITY,
        max_states: 4 * nodes as usize,
    };
    let mut best: Option<(usize, Move)> = None;
    for &mv in &candidates {
        let wins = samples
            .iter()
            .filter(|sample| {
                let mut after = (*sample).clone();
                after.apply(mv);
                after.is_solved()
                    || matches!(
                        solver::solve(&after, &budget, &mut || false).outcome,
                        Outcome::Solved(_)
                    )
            })
            .count();
        if best.is_none_or(|(most, _)| wins > most) {
            best = Some((wins, mv));
        }
        if wins == count {
            break;
        }
    }
    match best {
        Some((0, _)) | None => greedy(view, memory, &candidates),
        Some((_, mv)) => Some(mv),
    }
}

/// A game played from `start` by `hindsight` with `samples` samples of `nodes` nodes each
/// instead of the ladder's ([`SAMPLES`], [`SAMPLE_NODES`]): for measuring how strength
/// grows with its budget (`examples/hindsight_budget.rs`). Returns whether it won.
pub fn hindsight_playout(
    start: &Klondike,
    seed: u64,
    samples: usize,
    nodes: u64,
    max_moves: usize,
) -> bool {
    playout_with(start, seed, max_moves, |view, memory, rng| {
        decide(view, memory, |memory, known, moves| {
            hindsight(view, memory, known, moves, rng, samples, nodes)
        })
    })
    .won
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::klondike::{rank, suit};
    use crate::players::playout;

    fn goes_home(view: &KlondikeView, card: u8) -> bool {
        view.foundation[suit(card) as usize] + 1 == rank(card)
    }

    /// Positions of random games (random legal moves from seeded deals), each with the
    /// moves that led to it.
    fn positions(count: usize, draw: u8) -> Vec<Klondike> {
        let mut rng = SplitMix64::new(17);
        let mut found = Vec::new();
        let mut seed = 0;
        while found.len() < count {
            let mut game = Klondike::from_seed(seed, draw).unwrap();
            seed += 1;
            for _ in 0..rng.below(200) + 20 {
                found.push(game.clone());
                let moves = game.legal_moves();
                if moves.is_empty() || found.len() >= count {
                    break;
                }
                game.apply(moves[rng.below(moves.len() as u64) as usize]);
            }
        }
        found
    }

    /// The position with its face-down cards and its hand dealt again at random.
    fn reshuffled(game: &Klondike, rng: &mut SplitMix64) -> Klondike {
        let mut hidden: Vec<u8> = (0..COLUMNS)
            .flat_map(|i| game.columns[i][..game.hidden[i] as usize].to_vec())
            .chain(game.stock.iter().copied())
            .collect();
        fisher_yates(&mut hidden, rng);
        let mut other = game.clone();
        let mut next = hidden.into_iter();
        for i in 0..COLUMNS {
            for slot in &mut other.columns[i][..game.hidden[i] as usize] {
                *slot = next.next().unwrap();
            }
        }
        for slot in &mut other.stock {
            *slot = next.next().unwrap();
        }
        other
    }

    #[test]
    fn no_player_peeks_at_a_hidden_card() {
        let mut rng = SplitMix64::new(5);
        for draw in [1, 3] {
            for (i, game) in positions(1000, draw).into_iter().enumerate() {
                let other = reshuffled(&game, &mut rng);
                other.check().unwrap();
                assert_eq!(game.observe(), other.observe());
                let players = if i % 20 == 0 { 3 } else { 2 };
                for player in 0..players {
                    let seed = i as u64 * 7 + player as u64;
                    let choose = |g: &Klondike| {
                        let mut memory = KlondikeMemory::default();
                        Klondike::choose(
                            &g.observe(),
                            &mut memory,
                            player,
                            &mut SplitMix64::new(seed),
                        )
                    };
                    assert_eq!(choose(&game), choose(&other), "player {player}");
                }
            }
        }
    }

    #[test]
    fn a_recycle_teaches_the_hand_order() {
        let mut game = Klondike::from_seed(4, 1).unwrap();
        let mut memory = KlondikeMemory::default();
        while !game.stock.is_empty() {
            memory.see(&game.observe());
            game.apply(Move::Draw);
        }
        memory.see(&game.observe());
        game.apply(Move::Recycle);
        memory.see(&game.observe());
        assert_eq!(memory.known_stock.as_ref(), Some(&game.stock));
        game.apply(Move::Draw);
        memory.see(&game.observe());
        assert_eq!(memory.known_stock.as_ref(), Some(&game.stock));
        // what it knows and sees, it places: a sample keeps the hand as it is
        let view = game.observe();
        let sample = view.sample(&memory, Some(&mut SplitMix64::new(1)));
        assert_eq!(sample.stock, game.stock);
        sample.check().unwrap();
    }

    #[test]
    fn every_chosen_move_is_legal_and_games_end() {
        for draw in [1, 3] {
            for seed in 0..12 {
                let game = Klondike::from_seed(seed, draw).unwrap();
                for player in 0..Klondike::PLAYERS.len() {
                    let played = playout(&game, player, seed, 1000);
                    let mut replay = game.clone();
                    for &mv in &played.moves {
                        assert!(replay.legal_moves().contains(&mv));
                        replay.apply(mv);
                    }
                    assert_eq!(replay.is_solved(), played.won);
                    if player == 1 {
                        // greedy gives up instead of drawing forever
                        assert!(played.won || played.moves.len() < 1000);
                    }
                }
            }
        }
    }

    #[test]
    fn greedy_sends_a_card_home_before_drawing() {
        let game = Klondike::from_seed(0, 1).unwrap();
        let view = game.observe();
        let chosen = Klondike::choose(
            &view,
            &mut KlondikeMemory::default(),
            1,
            &mut SplitMix64::new(0),
        );
        let home = view
            .face_up
            .iter()
            .flatten()
            .any(|&card| goes_home(&view, card));
        if home {
            assert!(!matches!(chosen, Some(Move::Draw)), "{chosen:?}");
        }
        assert!(chosen.is_some());
    }
}
