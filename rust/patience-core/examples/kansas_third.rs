//! Candidates for a third rung of Kansas's player ladder, measured against `greedy` and
//! `rollout` on the same deals and seeds:
//! `cargo run --release -p patience-core --example kansas_third -- FIRST COUNT PLAYER...`
//! takes the first COUNT deals from seed FIRST that the solver wins within 200,000 nodes,
//! and prints for each player its wins, mean share of cards home, CPU milliseconds a game,
//! and its paired difference in share of cards home against `greedy` and `rollout` with a
//! 95% bootstrap interval over deals. A PLAYER is one of
//!
//! - `lookahead`: the ladder's fourth player;
//! - `look:DEPTH:WEIGHT`: a lookahead of DEPTH moves that show nothing new, scored by
//!   WEIGHT a card home plus the cards that could move at once (`look:1:100` is
//!   `lookahead`);
//! - `looknogroups`: `look:1:100` without group moves;
//! - `lookroll:SAMPLES`: rollouts of `look:1:100`;
//! - `lookthenroll`: `lookahead` with `rollout`'s move where it plays `greedy`'s;
//! - `hindsight:SAMPLES:NODES`: each move scored by the most cards home a depth-first
//!   search of a sample of the hidden cards (every card known) reaches within NODES
//!   positions, summed over SAMPLES samples;
//! - `mixed:SAMPLES:PERCENT`: rollouts of every move whose policy plays a random move
//!   PERCENT% of the time, `greedy`'s otherwise;
//! - `peek:NODES`: not a player, it sees every card: each move chosen by that depth-first
//!   search of the position itself, to tell how much the search is worth.
//!
//! Every player but `peek` sees only a [`KansasView`]: the hidden cards are dealt again by
//! the player's own random numbers before any search.

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};

use patience_core::kansas::players::{rollout_playout, KansasMemory};
use patience_core::kansas::{solve_for_win, Kansas, KansasMove, KansasView};
use patience_core::players::{playout, playout_with, Players, Playout};
use patience_core::search::{Budget, Outcome};
use patience_core::shuffle::SplitMix64;

/// Moves a game or a rollout plays at most.
const MAX_MOVES: usize = 500;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [first, count, ref players @ ..] = &args[..] else {
        panic!("FIRST COUNT PLAYER...");
    };
    let first: u64 = first.parse().expect("a seed");
    let count: usize = count.parse().expect("a count");
    let budget = Budget {
        max_nodes: 200_000,
        max_seconds: f64::INFINITY,
        max_states: 800_000,
    };
    let deals: Vec<(u64, Kansas)> = (first..)
        .map(|seed| (seed, Kansas::from_seed(seed).expect("a deal")))
        .filter(|(_, deal)| {
            matches!(
                solve_for_win(deal, &budget, &mut || false).outcome,
                Outcome::Solved(_)
            )
        })
        .take(count)
        .collect();
    println!(
        "deals: seeds {:?}",
        deals.iter().map(|(seed, _)| *seed).collect::<Vec<_>>()
    );
    let greedy = measure("greedy", &deals, |deal, seed| {
        playout(deal, 1, seed, MAX_MOVES)
    });
    let rollout = measure("rollout", &deals, |deal, seed| {
        rollout_playout(deal, seed, 16, MAX_MOVES)
    });
    for name in players {
        let parts: Vec<&str> = name.split(':').collect();
        let home = match parts[..] {
            ["hindsight", samples, nodes] => {
                let samples: usize = samples.parse().expect("samples");
                let nodes: usize = nodes.parse().expect("nodes");
                measure(name, &deals, |deal, seed| {
                    playout_with(deal, seed, MAX_MOVES, |view, _, rng| {
                        hindsight(view, rng, samples, nodes)
                    })
                })
            }
            ["mixed", samples, percent] => {
                let samples: usize = samples.parse().expect("samples");
                let percent: u64 = percent.parse().expect("percent");
                measure(name, &deals, |deal, seed| {
                    playout_with(deal, seed, MAX_MOVES, |view, _, rng| {
                        mixed(view, rng, samples, percent)
                    })
                })
            }
            ["look", depth, weight] => {
                let depth: usize = depth.parse().expect("depth");
                let weight: u32 = weight.parse().expect("weight");
                measure(name, &deals, |deal, seed| {
                    let mut plan: Vec<KansasMove> = Vec::new();
                    let mut opened = false;
                    playout_with(deal, seed, MAX_MOVES, |view, _, _| {
                        look(view, depth, weight, &mut plan, &mut opened)
                    })
                })
            }
            ["lookroll", samples] => {
                let samples: usize = samples.parse().expect("samples");
                measure(name, &deals, |deal, seed| {
                    playout_with(deal, seed, MAX_MOVES, |view, _, rng| {
                        look_rollout(view, rng, samples)
                    })
                })
            }
            ["lookahead"] => measure(name, &deals, |deal, seed| playout(deal, 3, seed, MAX_MOVES)),
            ["lookthenroll"] => measure(name, &deals, |deal, seed| {
                let mut opened = false;
                playout_with(deal, seed, MAX_MOVES, |view, _, rng| {
                    look_then_rollout(view, rng, &mut opened)
                })
            }),
            ["looknogroups"] => measure(name, &deals, |deal, seed| {
                playout_with(deal, seed, MAX_MOVES, |view, _, _| look_no_groups(view))
            }),
            ["peek", nodes] => {
                // not a player: it sees every card, to tell how much the search itself
                // is worth
                let nodes: usize = nodes.parse().expect("nodes");
                measure(name, &deals, |deal, _| peek(deal, nodes))
            }
            _ => panic!("no player {name}"),
        };
        compare(name, "greedy", &home, &greedy);
        compare(name, "rollout", &home, &rollout);
    }
}

/// `greedy`'s move in `view`.
fn greedy(view: &KansasView) -> Option<KansasMove> {
    Kansas::choose(
        view,
        &mut KansasMemory::default(),
        1,
        &mut SplitMix64::new(0),
    )
}

/// Cards home in `state`.
fn home(state: &Kansas) -> u32 {
    state.counts.iter().map(|&c| u32::from(c)).sum()
}

/// `greedy`'s move in `view` first, then the other `moves`: the order candidates are
/// scored in, so that `greedy`'s wins among equals.
fn greedy_first(view: &KansasView, moves: &[KansasMove]) -> Vec<KansasMove> {
    let preferred = greedy(view);
    let mut candidates: Vec<KansasMove> = preferred.into_iter().collect();
    candidates.extend(moves.iter().filter(|&&mv| Some(mv) != preferred));
    candidates
}

/// The candidate with the highest `score`, the first among equals.
fn best_by(
    candidates: Vec<KansasMove>,
    mut score: impl FnMut(KansasMove) -> u32,
) -> Option<KansasMove> {
    let mut best: Option<(u32, KansasMove)> = None;
    for mv in candidates {
        let points = score(mv);
        if best.is_none_or(|(most, _)| points > most) {
            best = Some((points, mv));
        }
    }
    best.map(|(_, mv)| mv)
}

/// The move to play at once, if any: the only legal move, or a card home that no card
/// could be built on again.
fn forced(view: &KansasView, moves: &[KansasMove]) -> Option<KansasMove> {
    if moves.len() == 1 {
        return Some(moves[0]);
    }
    let position = view.sample(None);
    moves.iter().copied().find(|&mv| {
        let card = match mv {
            KansasMove::WasteHome => view.waste.last().copied(),
            KansasMove::ReserveHome => view.reserve_top,
            KansasMove::ColumnHome(i) => view.columns[usize::from(i)].last().copied(),
            _ => None,
        };
        card.is_some_and(|card| position.is_safe_home(card))
    })
}

/// Hindsight scored by progress: for each of `samples` samples of the hidden cards and
/// each legal move, the most cards home a best-first search of the sample (every card
/// known) reaches within `nodes` positions after the move; the move with the most in all
/// (`greedy`'s among equals, then the first).
fn hindsight(
    view: &KansasView,
    rng: &mut SplitMix64,
    samples: usize,
    nodes: usize,
) -> Option<KansasMove> {
    over_samples(view, rng, samples, |after| most_home(after, nodes))
}

/// Each legal move (`greedy`'s first) scored by `score` summed over `samples` samples of
/// the hidden cards (the same for every move), the position after the move in each; the
/// best, `greedy`'s among equals (a forced move at once).
fn over_samples(
    view: &KansasView,
    rng: &mut SplitMix64,
    samples: usize,
    score: impl Fn(&Kansas) -> u32,
) -> Option<KansasMove> {
    let moves = view.moves();
    if moves.is_empty() {
        return None;
    }
    if let Some(mv) = forced(view, &moves) {
        return Some(mv);
    }
    let samples: Vec<Kansas> = (0..samples).map(|_| view.sample(Some(rng))).collect();
    best_by(greedy_first(view, &moves), |mv| {
        samples
            .iter()
            .map(|sample| {
                let mut after = sample.clone();
                after.apply(mv);
                score(&after)
            })
            .sum()
    })
}

/// `start` played seeing every card: at each turn the legal move after which
/// [`most_home`] finds the most cards home within `nodes` positions.
fn peek(start: &Kansas, nodes: usize) -> Playout<KansasMove> {
    let mut state = start.clone();
    let mut moves = Vec::new();
    while !state.is_won() && moves.len() < MAX_MOVES {
        let view = state.observe();
        let legal = state.legal_moves();
        let best = best_by(greedy_first(&view, &legal), |mv| {
            let mut after = state.clone();
            after.apply(mv);
            most_home(&after, nodes)
        });
        let Some(mv) = forced(&view, &legal).or(best) else {
            break;
        };
        state.apply(mv);
        moves.push(mv);
    }
    Playout {
        won: state.is_won(),
        progress: state.progress(),
        moves,
    }
}

/// Rollouts of `look:1:100`: each legal move scored by the cards home the lookahead's
/// playouts reach after it over `samples` samples of the hidden cards (the same for every
/// move), `greedy`'s move among equals.
fn look_rollout(view: &KansasView, rng: &mut SplitMix64, samples: usize) -> Option<KansasMove> {
    over_samples(view, rng, samples, |after| {
        let mut after = after.clone();
        let mut plan = Vec::new();
        let mut opened = false;
        for _ in 0..MAX_MOVES {
            let Some(next) = look(&after.observe(), 1, 100, &mut plan, &mut opened) else {
                break;
            };
            after.apply(next);
        }
        home(&after)
    })
}

/// `lookahead`, with `rollout`'s move where it would play `greedy`'s.
fn look_then_rollout(
    view: &KansasView,
    rng: &mut SplitMix64,
    opened: &mut bool,
) -> Option<KansasMove> {
    if !*opened {
        // the lookahead's own move, when it has one other than greedy's
        let mv = look(view, 1, 100, &mut Vec::new(), &mut false);
        if mv != greedy(view) {
            return mv;
        }
    }
    let mv = Kansas::choose(view, &mut KansasMemory::default(), 2, rng);
    *opened = matches!(mv, Some(KansasMove::ColumnTo { .. }));
    mv
}

/// `look:1:100` without group moves: of the moves that show nothing new and move no
/// group, the one after which the table looks best by [`looks`] when it looks better
/// than now, else `greedy`'s move. It needs no memory.
fn look_no_groups(view: &KansasView) -> Option<KansasMove> {
    let position = view.sample(None);
    let unseen = view.unseen();
    let mut best = (looks(&position, &unseen, 100), greedy(view));
    for mv in position.legal_moves() {
        if matches!(mv, KansasMove::ColumnTo { .. }) || !reveals_nothing(&position, mv) {
            continue;
        }
        let mut next = position.clone();
        next.apply(mv);
        let score = looks(&next, &unseen, 100);
        if score > best.0 {
            best = (score, Some(mv));
        }
    }
    best.1
}

/// Whether `mv` shows nothing new in `before`: the reserve and the stock keep their size.
fn reveals_nothing(before: &Kansas, mv: KansasMove) -> bool {
    let mut after = before.clone();
    after.apply(mv);
    after.reserve.len() == before.reserve.len() && after.stock.len() == before.stock.len()
}

/// How good `state` looks to a person: `weight` a card home, plus one for each card that could
/// go somewhere at once if it turned up (the cards out of view, `unseen`, and the
/// reserve's and waste's tops): home, or onto a column's exposed card.
fn looks(state: &Kansas, unseen: &[u8], weight: u32) -> u32 {
    let tops: Vec<u8> = state
        .columns
        .iter()
        .filter_map(|c| c.last().copied())
        .collect();
    let free = state.columns.iter().any(Vec::is_empty);
    let mobile = unseen
        .iter()
        .chain(&state.reserve.last().copied())
        .chain(&state.waste.last().copied())
        .filter(|&&card| {
            state.takes(card)
                || free
                || tops
                    .iter()
                    .any(|&top| patience_core::kansas::builds_on(card, top))
        })
        .count() as u32;
    weight * home(state) + mobile
}

/// The best sequence of at most `depth` moves that show nothing new from `state` by
/// [`looks`], and its score (the empty sequence scores `state` itself).
fn best_sequence(
    state: &Kansas,
    unseen: &[u8],
    weight: u32,
    depth: usize,
    seen: &mut HashSet<u64>,
) -> (u32, Vec<KansasMove>) {
    let mut best = (looks(state, unseen, weight), Vec::new());
    if depth == 0 {
        return best;
    }
    for mv in state.legal_moves() {
        if !reveals_nothing(state, mv) {
            continue;
        }
        let mut next = state.clone();
        next.apply(mv);
        if !seen.insert(key(&next)) {
            continue;
        }
        let (score, mut line) = best_sequence(&next, unseen, weight, depth - 1, seen);
        if score > best.0 {
            line.insert(0, mv);
            best = (score, line);
        }
    }
    best
}

/// A small lookahead over what is in view: plays out a plan of moves that show nothing
/// new when one makes the table look better by [`looks`], else `greedy`'s move (and
/// `greedy`'s again after its group moves, which open the way for what it plays next).
fn look(
    view: &KansasView,
    depth: usize,
    weight: u32,
    plan: &mut Vec<KansasMove>,
    opened: &mut bool,
) -> Option<KansasMove> {
    if !plan.is_empty() {
        return Some(plan.remove(0));
    }
    let preferred = greedy(view);
    if !*opened {
        let position = view.sample(None);
        let unseen = view.unseen();
        let mut seen = HashSet::from([key(&position)]);
        let (score, line) = best_sequence(&position, &unseen, weight, depth, &mut seen);
        if score > looks(&position, &unseen, weight) && !line.is_empty() {
            *plan = line;
            return Some(plan.remove(0));
        }
    }
    *opened = matches!(preferred, Some(KansasMove::ColumnTo { .. }));
    preferred
}

/// A hash of the whole position.
fn key(state: &Kansas) -> u64 {
    let mut hasher = DefaultHasher::new();
    state.columns.hash(&mut hasher);
    state.waste.hash(&mut hasher);
    state.reserve.len().hash(&mut hasher);
    state.stock.len().hash(&mut hasher);
    state.counts.hash(&mut hasher);
    hasher.finish()
}

/// The most cards home a depth-first search of `start` (every card known) reaches within
/// `nodes` positions expanded: `greedy`'s move first, then the other moves in the order
/// home, onto a column, `draw`, between columns; never a position twice. Its first line
/// is `greedy`'s game, so it never finds fewer cards home than `greedy` gets.
fn most_home(start: &Kansas, nodes: usize) -> u32 {
    let order = |mv: &KansasMove| match mv {
        KansasMove::WasteHome | KansasMove::ReserveHome | KansasMove::ColumnHome(_) => 0,
        KansasMove::ReserveTo(_) => 1,
        KansasMove::WasteTo(_) => 2,
        KansasMove::Draw => 3,
        KansasMove::ColumnTo { .. } => 4,
    };
    let mut best = home(start);
    let mut seen = HashSet::new();
    seen.insert(key(start));
    let mut stack = vec![start.clone()];
    let mut expanded = 0;
    while let Some(state) = stack.pop() {
        if expanded >= nodes || best == 52 {
            break;
        }
        expanded += 1;
        let preferred = greedy(&state.observe());
        let mut moves = state.legal_moves();
        moves.sort_by_key(|mv| (Some(*mv) != preferred, order(mv)));
        // pushed last first, so the preferred move is searched first
        for &mv in moves.iter().rev() {
            let mut next = state.clone();
            next.apply(mv);
            if seen.insert(key(&next)) {
                best = best.max(home(&next));
                stack.push(next);
            }
        }
    }
    best
}

/// Rollouts whose policy plays a uniformly random legal move `percent`% of the time and
/// `greedy`'s otherwise; each legal move is scored by the cards home its playouts reach
/// over `samples` samples (the same for every move), `greedy`'s move among equals.
fn mixed(
    view: &KansasView,
    rng: &mut SplitMix64,
    samples: usize,
    percent: u64,
) -> Option<KansasMove> {
    let moves = view.moves();
    if moves.is_empty() {
        return None;
    }
    if let Some(mv) = forced(view, &moves) {
        return Some(mv);
    }
    let samples: Vec<Kansas> = (0..samples).map(|_| view.sample(Some(rng))).collect();
    let seed = rng.next_u64();
    best_by(greedy_first(view, &moves), |mv| {
        // the same random numbers for every candidate
        let mut policy = SplitMix64::new(seed);
        samples
            .iter()
            .map(|sample| {
                let mut after = sample.clone();
                after.apply(mv);
                let mut random_moves = 0;
                for _ in 0..MAX_MOVES {
                    let view = after.observe();
                    let next = if random_moves < 40 && policy.below(100) < percent {
                        let moves = after.legal_moves();
                        random_moves += 1;
                        (!moves.is_empty())
                            .then(|| moves[policy.below(moves.len() as u64) as usize])
                    } else {
                        greedy(&view)
                    };
                    let Some(next) = next else { break };
                    after.apply(next);
                }
                home(&after)
            })
            .sum()
    })
}

/// Plays every deal with `play`, prints the player's figures and returns its share of
/// cards home deal by deal.
fn measure(
    name: &str,
    deals: &[(u64, Kansas)],
    play: impl Fn(&Kansas, u64) -> Playout<KansasMove>,
) -> Vec<f64> {
    let started = cpu_seconds();
    let games: Vec<Playout<KansasMove>> =
        deals.iter().map(|(seed, deal)| play(deal, *seed)).collect();
    let count = deals.len() as f64;
    let won = games.iter().filter(|game| game.won).count();
    let home: Vec<f64> = games.iter().map(|game| game.progress).collect();
    println!(
        "{name}: {won}/{} won, {:.3} of the cards home, {:.1} ms a game",
        deals.len(),
        home.iter().sum::<f64>() / count,
        1000.0 * (cpu_seconds() - started) / count
    );
    home
}

/// CPU seconds this thread has run (user and system), from /proc: the figures stay
/// comparable while other work shares the machine.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").expect("Linux");
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .expect("a stat")
        .split_whitespace()
        .collect();
    // utime and stime are fields 14 and 15, the 12th and 13th after the name
    let ticks: f64 =
        fields[11].parse::<f64>().expect("utime") + fields[12].parse::<f64>().expect("stime");
    ticks / 100.0
}

/// Prints the mean paired difference `a - b` with a 95% bootstrap interval over deals.
fn compare(a_name: &str, b_name: &str, a: &[f64], b: &[f64]) {
    let differences: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    let n = differences.len();
    let mean = differences.iter().sum::<f64>() / n as f64;
    let mut rng = SplitMix64::new(12345);
    let mut means: Vec<f64> = (0..10_000)
        .map(|_| {
            (0..n)
                .map(|_| differences[rng.below(n as u64) as usize])
                .sum::<f64>()
                / n as f64
        })
        .collect();
    means.sort_by(f64::total_cmp);
    let better = differences.iter().filter(|&&d| d > 0.0).count();
    let worse = differences.iter().filter(|&&d| d < 0.0).count();
    println!(
        "  {a_name} - {b_name}: {mean:+.4} [{:+.4}, {:+.4}] ({better} deals better, {worse} worse)",
        means[250], means[9_749]
    );
}
