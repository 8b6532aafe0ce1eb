//! Kansas's reference players on deals the solver wins:
//! `cargo run --release -p patience-core --example kansas_players -- FIRST COUNT SAMPLES`
//! prints each player's wins, mean share of cards home and seconds a deal, with `rollout`
//! at SAMPLES samples (the ladder's own is `players::SAMPLES`).

use std::time::Instant;

use patience_core::kansas::players::rollout_playout;
use patience_core::kansas::{solve_for_win, Kansas, KansasMove};
use patience_core::players::{playout, Playout};
use patience_core::search::{Budget, Outcome};

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers"))
        .collect();
    let [first, count, samples] = args[..] else {
        panic!("FIRST COUNT SAMPLES");
    };
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
        .take(count as usize)
        .collect();
    let samples = samples as usize;
    measure("random", &deals, |deal, seed| playout(deal, 0, seed, 500));
    measure("greedy", &deals, |deal, seed| playout(deal, 1, seed, 500));
    measure(&format!("rollout {samples}"), &deals, |deal, seed| {
        rollout_playout(deal, seed, samples, 500)
    });
}

fn measure(
    name: &str,
    deals: &[(u64, Kansas)],
    play: impl Fn(&Kansas, u64) -> Playout<KansasMove>,
) {
    let started = Instant::now();
    let games: Vec<Playout<KansasMove>> =
        deals.iter().map(|(seed, deal)| play(deal, *seed)).collect();
    let count = deals.len() as f64;
    let won = games.iter().filter(|game| game.won).count();
    let home: f64 = games.iter().map(|game| game.progress).sum();
    println!(
        "{name}: {won}/{} won ({:.1}%), {:.3} of the cards home, {:.3} s a deal",
        deals.len(),
        100.0 * won as f64 / count,
        home / count,
        started.elapsed().as_secs_f64() / count
    );
}
