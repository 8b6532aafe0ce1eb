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
use crate::players::{playout_with, playout_with_as, Information, Players};
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
    /// The hand's order, next card last, when the model of information shows it
    /// ([`Information::KnownStock`]); `None` for a person, who learns it by watching.
    pub known_stock: Option<Vec<u8>>,
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
    /// The rest of a line `planner` chose, next move last: moves that turn up nothing, so
    /// that they stay what was planned.
    plan: Vec<Move>,
}

/// A view's hash, the same in every run (the standard library's SipHash with its fixed
/// keys).
/// What a person sees is hashed, never the hand's order a model of information may show:
/// the tables a player remembers are the ones a person sees.
fn fingerprint(view: &KlondikeView) -> u64 {
    let mut hasher = DefaultHasher::new();
    view.draw.hash(&mut hasher);
    view.face_up.hash(&mut hasher);
    view.hidden.hash(&mut hasher);
    view.stock.hash(&mut hasher);
    view.waste.hash(&mut hasher);
    view.foundation.hash(&mut hasher);
    hasher.finish()
}

impl KlondikeMemory {
    /// Learns from what the player sees now.
    fn see(&mut self, view: &KlondikeView) {
        if let Some(stock) = &view.known_stock {
            self.known_stock = Some(stock.clone());
        }
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
    pub(crate) fn placed(&self, memory: &KlondikeMemory) -> u64 {
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
    const PLAYERS: &'static [&'static str] = &["random", "greedy", "hindsight", "planner"];
    const INFORMATION: &'static [Information] = &[Information::Person, Information::KnownStock];

    fn observe(&self) -> KlondikeView {
        KlondikeView {
            draw: self.draw,
            face_up: std::array::from_fn(|i| self.columns[i][self.hidden[i] as usize..].to_vec()),
            hidden: self.hidden,
            stock: self.stock.len(),
            waste: self.waste.clone(),
            foundation: self.foundation,
            known_stock: None,
        }
    }

    fn observe_as(&self, information: Information) -> KlondikeView {
        KlondikeView {
            known_stock: (information == Information::KnownStock).then(|| self.stock.clone()),
            ..self.observe()
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
            3 => planner(view, memory, known, moves, rng, &PLANNER),
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
    pick: impl FnOnce(&mut KlondikeMemory, &Klondike, &[Move]) -> Option<Move>,
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

/// How `planner` spends its effort on a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlannerSettings {
    /// Nodes the solver may expand on one sample.
    pub nodes: u64,
    /// Samples solved for a line in one pull of the bandit.
    pub batch: usize,
    /// The decision is made once a line has been tried on this many samples.
    pub samples: usize,
    /// Nodes for solving a position with nothing hidden, whose line is then followed.
    pub exact_nodes: u64,
    /// What a sample whose solve ran out of nodes counts for, in thousandths of a win
    /// (0: no win).
    pub unknown_credit: u32,
    /// The square of UCB1's exploration constant: a line's upper bound is its mean plus
    /// the square root of this times `ln(samples tried) / samples it was tried on`.
    pub exploration_sq: u32,
    /// Whether a line that won every sample of two pulls or more is chosen at once.
    pub early: bool,
    /// With a positive value, the best line so far is chosen as soon as it has been tried
    /// on this many samples and its mean is apart from every other line's: by more than
    /// `1/sqrt(n)` of each (two standard errors of a share at its widest), `n` the
    /// samples each was tried on (0: off).
    pub confident: usize,
    /// Moves that can be taken back a candidate line may string together before its last
    /// move (`usize::MAX`: any number, each to a table not seen before).
    pub line_depth: usize,
    /// Whether the search for candidate lines keeps one position for each arrangement of
    /// the face-up cards and prunes as the function `arranged_lines` says (the same
    /// candidates, up to safe moves home); `line_depth` then counts its steps.
    pub arranged_lines: bool,
    /// Whether every pull of the bandit deals fresh samples for its line (lonelybot's way)
    /// instead of every line's taking the same samples in order.
    pub fresh_samples: bool,
}

/// The ladder's `planner`.
pub const PLANNER: PlannerSettings = PlannerSettings {
    nodes: 1_000,
    batch: 4,
    samples: 40,
    exact_nodes: 2_000_000,
    unknown_credit: 0,
    exploration_sq: 2,
    early: true,
    confident: 0,
    line_depth: LINE_DEPTH,
    arranged_lines: false,
    fresh_samples: false,
};

/// `planner`: the strongest Klondike player of the ladder, on the design in principle of
/// lonelybot's (Vuong Hy's) player; the code is ours.
///
/// - Its candidates are *lines*: a single move that turns up a card, sends a card home or
///   moves a run; and, where the player knows the talon's order (it watched a recycle, or
///   the model of information shows it), every card the talon can offer taken by the draws
///   and recycles that bring it to the waste's top, then played home or onto a column (the
///   draws turn up nothing new then). With the talon not known, a draw is a line of its
///   own (it turns up a card). A line to a table the player has seen before is left out.
/// - The cards it cannot place are dealt into the places they could be, at random, once
///   for each sample; the same samples serve every line. A line is tried on a sample by
///   playing it there and solving what follows with the exact solver within
///   [`PlannerSettings::nodes`] nodes (running out counts as no win).
/// - The lines are arms of a UCB1 bandit: each pull tries a line on its next
///   [`PlannerSettings::batch`] samples, so the samples go where the best lines are close;
///   it decides for the first line tried on [`PlannerSettings::samples`] samples, and
///   plays the line's moves one by one (they turn up nothing until the last).
/// - Once nothing is hidden (no card it cannot place, or only one card for one place), it
///   solves the position itself and follows the solver's line (lonelybot solved the
///   position before its move there and played any line). With no line winning any
///   sample it plays as `greedy`.
fn planner(
    view: &KlondikeView,
    memory: &mut KlondikeMemory,
    known: &Klondike,
    moves: &[Move],
    rng: &mut SplitMix64,
    settings: &PlannerSettings,
) -> Option<Move> {
    if let Some(mv) = memory.plan.pop() {
        if moves.contains(&mv) {
            return Some(mv);
        }
        memory.plan.clear();
    }
    if moves.is_empty() {
        return None;
    }
    let unseen = 52 - view.placed(memory).count_ones() as usize;
    if unseen <= 1 {
        // nothing hidden: the position is `known` (one unseen card has one place)
        let budget = Budget {
            max_nodes: settings.exact_nodes,
            max_seconds: f64::INFINITY,
            max_states: 8_000_000,
        };
        if let Outcome::Solved(line) = solver::solve(known, &budget, &mut || false).outcome {
            if let Some((&first, rest)) = line.split_first() {
                memory.plan = rest.iter().rev().copied().collect();
                return Some(first);
            }
        }
        return greedy(view, memory, moves);
    }
    let lines = if settings.arranged_lines {
        arranged_lines(known, memory, settings.line_depth)
    } else {
        planner_lines(known, memory, settings.line_depth)
    };
    if lines.is_empty() {
        return greedy(view, memory, moves);
    }
    if lines.len() == 1 {
        return play_line(memory, &lines[0]);
    }
    let mut samples: Vec<Klondike> = Vec::new();
    let budget = Budget {
        max_nodes: settings.nodes,
        max_seconds: f64::INFINITY,
        max_states: 4 * settings.nodes as usize,
    };
    let Bandit {
        chosen,
        wins,
        tried,
    } = bandit(lines.len(), settings, |arm, k| {
        let mut after = if settings.fresh_samples {
            view.sample(memory, Some(rng))
        } else {
            while samples.len() <= k {
                samples.push(view.sample(memory, Some(rng)));
            }
            samples[k].clone()
        };
        for &mv in &lines[arm] {
            after.apply(mv);
        }
        if after.is_solved() {
            return Verdict::Won;
        }
        match solver::solve(&after, &budget, &mut || false).outcome {
            Outcome::Solved(_) => Verdict::Won,
            Outcome::Unknown(_) => Verdict::Unknown,
            Outcome::Unsolvable => Verdict::Lost,
        }
    });
    if std::env::var_os("PLANDEBUG").is_some() {
        eprintln!(
            "unseen {unseen} lines {} chosen {:?} wins {} tried {} pulled {}",
            lines.len(),
            lines[chosen],
            wins[chosen],
            tried[chosen],
            tried.iter().sum::<usize>()
        );
    }
    if wins.iter().all(|&w| w == 0) {
        return greedy(view, memory, moves);
    }
    play_line(memory, &lines[chosen])
}

/// What solving one sample after a line found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// The solver found a win.
    Won,
    /// The solver proved there is none.
    Lost,
    /// The solver ran out of nodes first.
    Unknown,
}

/// What [`bandit`] decided, with each arm's wins and samples tried.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Bandit {
    chosen: usize,
    wins: Vec<usize>,
    tried: Vec<usize>,
}

/// `planner`'s UCB1 bandit over `arms` lines (two or more): `pull(arm, k)` tries line
/// `arm` on sample `k` (every arm's samples are the same, taken in order). An arm scores
/// a win as 1 and a sample whose solve ran out of nodes as
/// [`PlannerSettings::unknown_credit`]; see [`PlannerSettings`] for when it decides.
fn bandit(
    arms: usize,
    settings: &PlannerSettings,
    mut pull: impl FnMut(usize, usize) -> Verdict,
) -> Bandit {
    let mut wins = vec![0usize; arms];
    let mut tried = vec![0usize; arms];
    let mut unknowns = vec![0usize; arms];
    let credit = f64::from(settings.unknown_credit) / 1000.0;
    let exploration = f64::from(settings.exploration_sq);
    let mut total = 0usize;
    let chosen = loop {
        let mean = |i: usize| (wins[i] as f64 + credit * unknowns[i] as f64) / tried[i] as f64;
        let bound = |i: usize| match tried[i] {
            0 => f64::INFINITY,
            n => mean(i) + (exploration * (total.max(1) as f64).ln() / n as f64).sqrt(),
        };
        // decided early: the best line so far, tried on enough samples, apart from every
        // other line (two standard errors of a share at its widest, 1/(2 sqrt n), each
        // side)
        if settings.confident > 0 && tried.iter().all(|&n| n > 0) {
            let leader = (0..arms)
                .max_by(|&a, &b| mean(a).total_cmp(&mean(b)).then(tried[a].cmp(&tried[b])))
                .expect("two lines or more");
            let margin = |i: usize| 1.0 / (tried[i] as f64).sqrt();
            if tried[leader] >= settings.confident
                && (0..arms)
                    .all(|j| j == leader || mean(j) + margin(j) < mean(leader) - margin(leader))
            {
                break leader;
            }
        }
        // UCB1: every line once, then the highest upper bound
        let arm = (0..arms)
            .max_by(|&a, &b| bound(a).total_cmp(&bound(b)).then(b.cmp(&a)))
            .expect("two lines or more");
        // decided: a line tried on enough samples, or one that won every sample of two
        // pulls or more (nothing can beat it)
        if tried[arm] >= settings.samples
            || (settings.early && tried[arm] >= 2 * settings.batch && wins[arm] == tried[arm])
        {
            break arm;
        }
        for k in tried[arm]..tried[arm] + settings.batch {
            match pull(arm, k) {
                Verdict::Won => wins[arm] += 1,
                Verdict::Unknown => unknowns[arm] += 1,
                Verdict::Lost => {}
            }
        }
        tried[arm] += settings.batch;
        total += settings.batch;
    };
    Bandit {
        chosen,
        wins,
        tried,
    }
}

/// Plays the first move of `line` and keeps the rest as the plan.
fn play_line(memory: &mut KlondikeMemory, line: &[Move]) -> Option<Move> {
    let (&first, rest) = line.split_first()?;
    memory.plan = rest.iter().rev().copied().collect();
    Some(first)
}

/// Whether `mv` from `state` can be taken back by a legal move (a run moved that turns up
/// nothing, a card home that turns up nothing, a card back from a foundation): the moves
/// that [`planner_lines`] strings together before a move that cannot.
fn reversible(state: &Klondike, mv: Move) -> bool {
    match mv {
        Move::ColumnToColumn { from, start, .. } => {
            start > state.hidden[from as usize] || state.hidden[from as usize] == 0
        }
        Move::ColumnToFoundation(from) => {
            let i = from as usize;
            state.columns[i].len() > state.hidden[i] as usize + 1 || state.hidden[i] == 0
        }
        Move::FoundationToColumn { .. } => true,
        _ => false,
    }
}

/// Reversible moves the ladder's `planner` strings together before a line's last move.
pub const LINE_DEPTH: usize = 3;

/// `planner`'s candidate lines from `known` (the position with the unseen cards in
/// ascending order): up to `depth` moves that can be taken back, each to a table
/// not seen before, then one that cannot (a card turned up, a card taken from the talon, a
/// draw that turns up a card nobody has seen). Where the player knows the talon's order, a
/// card taken from it is one line with the draws and recycles that bring it to the
/// waste's top (they turn up nothing then). One line to each table, the shortest.
fn planner_lines(known: &Klondike, memory: &KlondikeMemory, depth: usize) -> Vec<Vec<Move>> {
    let talon_known = memory.known_stock.is_some() || known.stock.is_empty();
    let mut lines: Vec<Vec<Move>> = Vec::new();
    let mut tables: HashSet<u64> = memory.visited.clone();
    let mut frontier: Vec<(Klondike, Vec<Move>)> = vec![(known.clone(), Vec::new())];
    tables.insert(fingerprint(&known.observe()));
    for level in 0..=depth {
        if frontier.is_empty() {
            break;
        }
        let mut next = Vec::new();
        for (state, path) in &frontier {
            let mut ends: Vec<Vec<Move>> = Vec::new();
            for mv in state.legal_moves() {
                if reversible(state, mv) {
                    if level < depth {
                        let mut after = state.clone();
                        after.apply(mv);
                        if tables.insert(fingerprint(&after.observe())) {
                            let mut longer = path.clone();
                            longer.push(mv);
                            next.push((after, longer));
                        }
                    }
                    continue;
                }
                match mv {
                    Move::Draw | Move::Recycle if talon_known => {}
                    _ => ends.push(vec![mv]),
                }
            }
            if talon_known {
                ends.extend(talon_lines(state));
            }
            for end in ends {
                let mut after = state.clone();
                for &mv in &end {
                    after.apply(mv);
                }
                if !memory.visited.contains(&fingerprint(&after.observe())) {
                    let mut line = path.clone();
                    line.extend(end);
                    lines.push(line);
                }
            }
        }
        frontier = next;
    }
    // one line to each position up to arrangement (the solver sees no difference between
    // them), the shortest: the lines were found shortest first
    let mut seen = HashSet::new();
    lines.retain(|line| {
        let mut after = known.clone();
        for &mv in line {
            after.apply(mv);
        }
        seen.insert(up_to_arrangement(&after))
    });
    lines
}

/// `planner`'s candidate lines searched over positions up to the arrangement of their
/// face-up cards (the `arranged_lines` setting): the same kind of lines as
/// [`planner_lines`] (steps that can be taken back, then one move that cannot), up to
/// `depth` steps, but
///
/// - one position is kept for each [`arrangement_key`] (the first reached), not for each
///   table;
/// - a step is a legal move, or a card home that a run covers while its twin (the card of
///   its rank and colour) lies uncovered: the run moves onto the twin first;
/// - where a card uncovered in the tableau is safe at home ([`solver::safe_home`]) and
///   going there turns up nothing, that is the only step;
/// - no card safe at home comes back from a foundation.
///
/// Every position reached is an end position of some line the search over tables would
/// find with no limit, and every line that search finds ends, once the cards safe at
/// home are sent there, where one of these does (docs/klondike-solver.md, "Candidate lines
/// up to arrangement").
fn arranged_lines(known: &Klondike, memory: &KlondikeMemory, depth: usize) -> Vec<Vec<Move>> {
    let talon_known = memory.known_stock.is_some() || known.stock.is_empty();
    let mut lines: Vec<Vec<Move>> = Vec::new();
    let mut keys: HashSet<u64> = HashSet::new();
    keys.insert(arrangement_key(known));
    let mut frontier: Vec<(Klondike, Vec<Move>)> = vec![(known.clone(), Vec::new())];
    for level in 0..=depth {
        if frontier.is_empty() {
            break;
        }
        let mut next = Vec::new();
        for (state, path) in &frontier {
            let forced = (0..COLUMNS).find_map(|i| {
                let card = state.exposed(i)?;
                let home = Move::ColumnToFoundation(i as u8);
                (state.foundation[super::suit(card) as usize] + 1 == super::rank(card)
                    && solver::safe_home(state, card)
                    && reversible(state, home))
                .then(|| vec![home])
            });
            let steps: Vec<Vec<Move>> = match forced.clone() {
                Some(step) => vec![step],
                None => {
                    let legal = state.legal_moves();
                    let mut steps: Vec<Vec<Move>> = legal
                        .iter()
                        .filter(|&&mv| match mv {
                            Move::FoundationToColumn { suit, .. } => {
                                let height = state.foundation[suit as usize];
                                !solver::safe_home(state, suit * 13 + height - 1)
                            }
                            _ => true,
                        })
                        .map(|&mv| vec![mv])
                        .collect();
                    steps.extend(twin_homes(state, &legal));
                    steps
                }
            };
            let mut ends: Vec<Vec<Move>> = Vec::new();
            for step in steps {
                let (&last, before) = step.split_last().expect("a step has a move");
                let mut after = state.clone();
                for &mv in before {
                    after.apply(mv);
                }
                if reversible(&after, last) {
                    if level < depth {
                        after.apply(last);
                        if keys.insert(arrangement_key(&after)) {
                            let mut longer = path.clone();
                            longer.extend(step);
                            next.push((after, longer));
                        }
                    }
                    continue;
                }
                match last {
                    Move::Draw | Move::Recycle if talon_known => {}
                    _ => ends.push(step),
                }
            }
            if talon_known && forced.is_none() {
                ends.extend(talon_lines(state));
            }
            for end in ends {
                let mut after = state.clone();
                for &mv in &end {
                    after.apply(mv);
                }
                if !memory.visited.contains(&fingerprint(&after.observe())) {
                    let mut line = path.clone();
                    line.extend(end);
                    lines.push(line);
                }
            }
        }
        frontier = next;
    }
    let mut seen = HashSet::new();
    lines.retain(|line| {
        let mut after = known.clone();
        for &mv in line {
            after.apply(mv);
        }
        seen.insert(up_to_arrangement(&after))
    });
    lines
}

/// The steps of [`arranged_lines`] that send home a card a run covers: the run moves onto
/// the card's twin (which lies uncovered), then the card goes home.
fn twin_homes(state: &Klondike, legal: &[Move]) -> Vec<Vec<Move>> {
    let mut steps = Vec::new();
    for (i, column) in state.columns.iter().enumerate() {
        let base = state.hidden[i] as usize;
        for (k, &card) in column.iter().enumerate().skip(base) {
            if k + 1 == column.len()
                || state.foundation[super::suit(card) as usize] + 1 != super::rank(card)
            {
                continue;
            }
            let twin = (3 - super::suit(card)) * 13 + card % 13;
            for j in 0..COLUMNS {
                let rearrange = Move::ColumnToColumn {
                    from: i as u8,
                    to: j as u8,
                    start: (k + 1) as u8,
                };
                if state.exposed(j) == Some(twin) && legal.contains(&rearrange) {
                    steps.push(vec![rearrange, Move::ColumnToFoundation(i as u8)]);
                }
            }
        }
    }
    steps
}

/// A hash of `state` up to the arrangement of its face-up cards, finer than
/// [`up_to_arrangement`]: the foundations, the face-down counts, the set of each column's
/// lowest face-up card, the set of the other face-up cards (each lies on a card of its
/// parent type), the hand and the waste. Positions with one key have the same cards
/// uncovered by type and the same number of empty columns.
fn arrangement_key(state: &Klondike) -> u64 {
    let mut hasher = DefaultHasher::new();
    state.foundation.hash(&mut hasher);
    state.hidden.hash(&mut hasher);
    let (mut lowest, mut placed) = (0u64, 0u64);
    for (i, column) in state.columns.iter().enumerate() {
        let base = state.hidden[i] as usize;
        for (k, &card) in column.iter().enumerate().skip(base) {
            if k == base {
                lowest |= 1 << card;
            } else {
                placed |= 1 << card;
            }
        }
    }
    lowest.hash(&mut hasher);
    placed.hash(&mut hasher);
    state.stock.hash(&mut hasher);
    state.waste.hash(&mut hasher);
    hasher.finish()
}

/// A hash of `state` up to the arrangement of its placed cards (the abstraction of
/// `klondike::sets`): the foundations, the face-down counts, the face-up cards lying on
/// face-down ones, the other face-up cards as a set, the hand and the waste.
fn up_to_arrangement(state: &Klondike) -> u64 {
    let mut hasher = DefaultHasher::new();
    state.foundation.hash(&mut hasher);
    state.hidden.hash(&mut hasher);
    let mut surface = 0u64;
    let mut placed = 0u64;
    for (i, column) in state.columns.iter().enumerate() {
        let base = state.hidden[i] as usize;
        for (k, &card) in column.iter().enumerate().skip(base) {
            if k == base && base > 0 {
                surface |= 1 << card;
            } else {
                placed |= 1 << card;
            }
        }
    }
    surface.hash(&mut hasher);
    placed.hash(&mut hasher);
    state.stock.hash(&mut hasher);
    state.waste.hash(&mut hasher);
    hasher.finish()
}

/// With the talon's order known: each card the talon can offer, taken by the draws and
/// recycles that bring it to the waste's top and played home or onto a column.
fn talon_lines(state: &Klondike) -> Vec<Vec<Move>> {
    let mut lines = Vec::new();
    let mut turned = state.clone();
    let mut turns: Vec<Move> = Vec::new();
    let cycle = 2 * (turned.stock.len() + turned.waste.len()) + 2;
    for _ in 0..=cycle {
        for mv in turned.legal_moves() {
            if matches!(mv, Move::WasteToFoundation | Move::WasteToColumn(_)) {
                let mut line = turns.clone();
                line.push(mv);
                lines.push(line);
            }
        }
        let turn = if turned.stock.is_empty() {
            Move::Recycle
        } else {
            Move::Draw
        };
        if !turned.legal_moves().contains(&turn) {
            break;
        }
        turned.apply(turn);
        turns.push(turn);
        if turned.stock == state.stock && turned.waste == state.waste {
            break;
        }
    }
    lines
}

/// A game played from `start` by `planner` with `settings` under `information`: for
/// measuring it (`examples/klondike_planner.rs`). Returns whether it won.
pub fn planner_playout(
    start: &Klondike,
    seed: u64,
    settings: &PlannerSettings,
    information: Information,
    max_moves: usize,
) -> bool {
    playout_with_as(start, seed, max_moves, information, |view, memory, rng| {
        decide(view, memory, |memory, known, moves| {
            planner(view, memory, known, moves, rng, settings)
        })
    })
    .won
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

    /// The position with its face-down cards (and, unless `keep_stock`, its hand) dealt
    /// again at random.
    fn reshuffled(game: &Klondike, rng: &mut SplitMix64, keep_stock: bool) -> Klondike {
        let mut hidden: Vec<u8> = (0..COLUMNS)
            .flat_map(|i| game.columns[i][..game.hidden[i] as usize].to_vec())
            .collect();
        if !keep_stock {
            hidden.extend(game.stock.iter().copied());
        }
        fisher_yates(&mut hidden, rng);
        let mut other = game.clone();
        let mut next = hidden.into_iter();
        for i in 0..COLUMNS {
            for slot in &mut other.columns[i][..game.hidden[i] as usize] {
                *slot = next.next().unwrap();
            }
        }
        if !keep_stock {
            for slot in &mut other.stock {
                *slot = next.next().unwrap();
            }
        }
        other
    }

    /// Every player, under `information`, chooses the same move in positions that differ
    /// only in the cards that model hides (`planner`, seconds a game, on one position in
    /// 100, `hindsight` on one in 20).
    fn no_peeking(information: Information) {
        let mut rng = SplitMix64::new(5);
        let keep_stock = information == Information::KnownStock;
        for draw in [1, 3] {
            for (i, game) in positions(1000, draw).into_iter().enumerate() {
                let other = reshuffled(&game, &mut rng, keep_stock);
                other.check().unwrap();
                assert_eq!(game.observe_as(information), other.observe_as(information));
                let players = match i {
                    _ if i % 100 == 0 => 4,
                    _ if i % 20 == 0 => 3,
                    _ => 2,
                };
                for player in 0..players {
                    let seed = i as u64 * 7 + player as u64;
                    let choose = |g: &Klondike| {
                        let mut memory = KlondikeMemory::default();
                        Klondike::choose(
                            &g.observe_as(information),
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
    fn no_player_peeks_at_a_hidden_card() {
        no_peeking(Information::Person);
    }

    #[test]
    fn with_the_hand_known_no_player_peeks_at_a_face_down_card() {
        no_peeking(Information::KnownStock);
        // and the model does show the hand: another hand looks different
        let game = Klondike::from_seed(3, 3).unwrap();
        let mut other = game.clone();
        other.stock.swap(0, 1);
        assert_eq!(game.observe(), other.observe());
        assert_ne!(
            game.observe_as(Information::KnownStock),
            other.observe_as(Information::KnownStock)
        );
    }

    /// A setting beyond the ladder's: budget hits credited, lonelybot's exploration, no
    /// early decision, the confident decision on, longer lines (and, in the test of
    /// peeking, lines up to arrangement with no limit and fresh samples each pull).
    const WIDER: PlannerSettings = PlannerSettings {
        nodes: 300,
        batch: 5,
        samples: 30,
        exact_nodes: 200_000,
        unknown_credit: 400,
        exploration_sq: 4,
        early: false,
        confident: 10,
        line_depth: 6,
        arranged_lines: false,
        fresh_samples: false,
    };

    #[test]
    fn the_planner_beyond_the_ladders_setting_does_not_peek() {
        let mut rng = SplitMix64::new(11);
        for (i, game) in positions(300, 3).into_iter().enumerate().step_by(30) {
            let other = reshuffled(&game, &mut rng, true);
            let arranged = PlannerSettings {
                arranged_lines: true,
                fresh_samples: true,
                line_depth: usize::MAX,
                ..WIDER
            };
            for settings in [WIDER, arranged] {
                let choose = |g: &Klondike| {
                    let view = g.observe_as(Information::KnownStock);
                    let mut memory = KlondikeMemory::default();
                    let mut rng = SplitMix64::new(i as u64);
                    decide(&view, &mut memory, |memory, known, moves| {
                        planner(&view, memory, known, moves, &mut rng, &settings)
                    })
                };
                assert_eq!(choose(&game), choose(&other), "position {i}");
            }
        }
    }

    /// Deeper lines keep the ladder's lines first and in order (the search is breadth
    /// first, one line to each position up to arrangement, the shortest), add longer ones
    /// somewhere, and every line is moves that can be taken back, no more than the depth,
    /// then one that cannot, to a table the player has not seen.
    #[test]
    fn deeper_lines_extend_the_ladders_lines() {
        const DEPTHS: [usize; 5] = [0, 1, PLANNER.line_depth, 5, usize::MAX];
        assert_eq!(PLANNER.line_depth, 3);
        let mut longer = 0;
        for (i, game) in positions(400, 3).into_iter().enumerate().step_by(8) {
            let mut memory = KlondikeMemory::default();
            memory.see(&game.observe());
            let known = if i % 16 == 0 {
                memory.known_stock = Some(game.stock.clone());
                game.clone()
            } else {
                game.observe().sample(&memory, None)
            };
            let by_depth: Vec<Vec<Vec<Move>>> = DEPTHS
                .iter()
                .map(|&depth| planner_lines(&known, &memory, depth))
                .collect();
            for (shallow, deep) in by_depth.iter().zip(&by_depth[1..]) {
                assert!(deep.len() >= shallow.len(), "position {i}");
                assert_eq!(&deep[..shallow.len()], &shallow[..], "position {i}");
            }
            for (&depth, lines) in DEPTHS.iter().zip(&by_depth) {
                for line in lines {
                    // moves that can be taken back, then the talon's turns, then the last
                    let mut after = known.clone();
                    let (&last, before) = line.split_last().unwrap();
                    let (mut taken_back, mut turned) = (0, false);
                    for &mv in before {
                        if reversible(&after, mv) {
                            assert!(!turned, "position {i}: {line:?}");
                            taken_back += 1;
                        } else {
                            assert!(matches!(mv, Move::Draw | Move::Recycle), "{line:?}");
                            turned = true;
                        }
                        after.apply(mv);
                    }
                    assert!(taken_back <= depth, "position {i}: {line:?}");
                    assert!(!reversible(&after, last), "position {i}: {line:?}");
                    after.apply(last);
                    assert!(!memory.visited.contains(&fingerprint(&after.observe())));
                }
            }
            longer += usize::from(by_depth[4].len() > by_depth[2].len());
        }
        assert!(
            longer > 0,
            "no position had a line longer than the ladder's"
        );
    }

    /// Where `line` ends from `known` once every card safe at home has gone there, up to
    /// arrangement.
    fn settled_end(known: &Klondike, line: &[Move]) -> u64 {
        let mut after = known.clone();
        for &mv in line {
            after.apply(mv);
        }
        while let Some(i) = (0..COLUMNS).find(|&i| {
            after.exposed(i).is_some_and(|card| {
                after.foundation[suit(card) as usize] + 1 == rank(card)
                    && solver::safe_home(&after, card)
            })
        }) {
            after.apply(Move::ColumnToFoundation(i as u8));
        }
        up_to_arrangement(&after)
    }

    /// The search up to arrangement finds, with no limit, the lines the search over tables
    /// finds, up to the cards safe at home (its soundness, checked), often fewer of them
    /// (never more), each legal.
    #[test]
    fn lines_up_to_arrangement_end_where_lines_over_tables_do() {
        let mut fewer = 0;
        for (i, game) in positions(400, 3).into_iter().enumerate().step_by(4) {
            let mut memory = KlondikeMemory::default();
            memory.see(&game.observe());
            let known = if i % 8 == 0 {
                memory.known_stock = Some(game.stock.clone());
                game.clone()
            } else {
                game.observe().sample(&memory, None)
            };
            let over_tables = planner_lines(&known, &memory, usize::MAX);
            let arranged = arranged_lines(&known, &memory, usize::MAX);
            let ends = |lines: &[Vec<Move>]| -> HashSet<u64> {
                lines.iter().map(|line| settled_end(&known, line)).collect()
            };
            assert_eq!(ends(&over_tables), ends(&arranged), "position {i}");
            for line in &arranged {
                let mut after = known.clone();
                for &mv in line {
                    assert!(after.legal_moves().contains(&mv), "position {i}: {line:?}");
                    after.apply(mv);
                }
            }
            assert!(arranged.len() <= over_tables.len(), "position {i}");
            fewer += usize::from(arranged.len() < over_tables.len());
        }
        assert!(fewer > 0, "no position had fewer lines");
    }

    /// Arms with fixed verdicts a sample: arm 0 wins every second sample, arm 1 three in
    /// four, arm 2 none.
    fn three_arms(arm: usize, k: usize) -> Verdict {
        let won = match arm {
            0 => k % 2 == 0,
            1 => k % 4 != 0,
            _ => false,
        };
        if won {
            Verdict::Won
        } else {
            Verdict::Lost
        }
    }

    #[test]
    fn the_bandit_chooses_the_line_that_wins_most() {
        let ladder = bandit(3, &PLANNER, three_arms);
        assert_eq!(ladder.chosen, 1);
        assert_eq!(ladder.tried[1], PLANNER.samples);
        assert!(ladder.tried[2] < ladder.tried[1]);
    }

    #[test]
    fn a_confident_decision_comes_sooner_and_agrees() {
        let slow = PlannerSettings {
            samples: 400,
            batch: 10,
            ..PLANNER
        };
        let fast = PlannerSettings {
            confident: 100,
            ..slow
        };
        let full = bandit(3, &slow, three_arms);
        let early = bandit(3, &fast, three_arms);
        assert_eq!(full.chosen, 1);
        assert_eq!(early.chosen, 1);
        let pulls = |b: &Bandit| b.tried.iter().sum::<usize>();
        assert!(pulls(&early) < pulls(&full), "{early:?} {full:?}");
        assert!(early.tried[1] >= 100);
    }

    #[test]
    fn a_budget_hit_counts_for_its_credit() {
        // arm 0 wins half its samples and loses the rest; arm 1 wins two in five and runs
        // out of nodes on the rest
        let pull = |arm: usize, k: usize| match (arm, k % 10 < 5, k % 10 < 4) {
            (0, true, _) | (1, _, true) => Verdict::Won,
            (0, false, _) => Verdict::Lost,
            _ => Verdict::Unknown,
        };
        assert_eq!(bandit(2, &PLANNER, pull).chosen, 0);
        let credited = PlannerSettings {
            unknown_credit: 500,
            ..PLANNER
        };
        assert_eq!(bandit(2, &credited, pull).chosen, 1);
    }

    #[test]
    fn the_early_decision_can_be_turned_off() {
        let all = |_: usize, _: usize| Verdict::Won;
        let early = bandit(2, &PLANNER, all);
        assert_eq!(early.tried[early.chosen], 2 * PLANNER.batch);
        let patient = PlannerSettings {
            early: false,
            ..PLANNER
        };
        let late = bandit(2, &patient, all);
        assert_eq!(late.tried[late.chosen], PLANNER.samples);
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
