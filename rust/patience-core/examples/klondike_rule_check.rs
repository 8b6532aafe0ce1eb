//! The Klondike solver with and without each of its rules on seeded deals: `cargo run
//! --release -p patience-core --example klondike_rule_check -- DRAW FIRST COUNT [NODES
//! [THREADS [RULE]]]`.
//!
//! Every deal of seeds `FIRST .. FIRST + COUNT` is solved within `NODES` nodes (default
//! 2,000,000; a node budget, not a time limit, so that a run repeats exactly) with every
//! rule, and once without each rule in turn: the safe moves home (`safe`), the rule that a
//! card put down from the talon is used next (`talon-next`: draw 1, and the draw-1 search
//! inside a draw-3 solve), and in draw 3 the talon's last card sent home alone when it is
//! safe and the waste is pure (`talon-last`) and no talon card taken after a recycle while
//! the talon's last card is safe and the waste is not pure (`no-recycle`). `RULE` names the
//! one rule to check (default
//! every rule). Prints, for each rule, the deals decided both ways and the seeds whose
//! verdicts differ (there must be none), and how many each way left undecided. `THREADS`
//! (default 2) share the seeds.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use patience_core::klondike::sets::{self, Rules};
use patience_core::klondike::Klondike;
use patience_core::search::{Budget, Outcome, Pruning};

fn verdict<M>(outcome: &Outcome<M>) -> Option<bool> {
    match outcome {
        Outcome::Solved(_) => Some(true),
        Outcome::Unsolvable => Some(false),
        Outcome::Unknown(_) => None,
    }
}

/// For one rule: deals decided with and without it, seeds that differ, deals undecided
/// with every rule and without this one (each counted over every deal), and the nodes
/// each way.
#[derive(Default)]
struct Tally {
    both: u64,
    differ: Vec<u64>,
    undecided_with: u64,
    undecided_without: u64,
    nodes_with: u64,
    nodes_without: u64,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: u64| {
        args.get(i)
            .map_or(default, |a| a.parse().expect("a whole number"))
    };
    let draw = arg(0, 1) as u8;
    let first = arg(1, 0);
    let count = arg(2, 1000);
    let budget = Budget {
        max_nodes: arg(3, 2_000_000),
        max_seconds: f64::INFINITY,
        max_states: 8_000_000,
    };
    let threads = arg(4, 2).max(1);
    let only = args.get(5).map(String::as_str);
    let all = Rules::from(Pruning::Full);
    let without: Vec<(&str, Rules)> = [
        ("safe", "safe moves home", Rules { safe: false, ..all }),
        (
            "talon-next",
            "the card down from the talon used next",
            Rules {
                talon_used_next: false,
                ..all
            },
        ),
        (
            "talon-last",
            "the talon's last card home from a pure waste",
            Rules {
                talon_last_home: false,
                ..all
            },
        ),
        (
            "no-recycle",
            "no recycle while the talon's last card is safe",
            Rules {
                talon_no_recycle: false,
                ..all
            },
        ),
    ]
    .into_iter()
    .filter(|&(key, _, _)| only.is_none_or(|only| only == key))
    .filter(|&(key, _, _)| draw == 3 || !matches!(key, "talon-last" | "no-recycle"))
    .map(|(_, name, rules)| (name, rules))
    .collect();
    assert!(
        !without.is_empty(),
        "RULE is one of safe, talon-next, talon-last, no-recycle (the last two in draw 3 only)"
    );
    let next = AtomicU64::new(first);
    let tallies: Mutex<Vec<Tally>> = Mutex::new(without.iter().map(|_| Tally::default()).collect());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let seed = next.fetch_add(1, Ordering::Relaxed);
                if seed >= first + count {
                    break;
                }
                let deal = Klondike::from_seed(seed, draw).expect("a deal");
                let solve = |rules| {
                    let report =
                        sets::solve_rules(&deal, &budget, rules, &mut || false).expect("a deal");
                    (verdict(&report.outcome), report.nodes)
                };
                let (with, nodes_with) = solve(all);
                let results: Vec<(Option<bool>, u64)> =
                    without.iter().map(|&(_, rules)| solve(rules)).collect();
                let mut tallies = tallies.lock().expect("no thread panicked");
                for (tally, (other, nodes)) in tallies.iter_mut().zip(results) {
                    tally.nodes_with += nodes_with;
                    tally.nodes_without += nodes;
                    tally.undecided_with += u64::from(with.is_none());
                    tally.undecided_without += u64::from(other.is_none());
                    if let (Some(a), Some(b)) = (with, other) {
                        tally.both += 1;
                        if a != b {
                            tally.differ.push(seed);
                        }
                    }
                }
            });
        }
    });
    let tallies = tallies.into_inner().expect("no thread panicked");
    println!(
        "draw {draw}, seeds {first} to {}, {} nodes a solve",
        first + count - 1,
        budget.max_nodes
    );
    for ((name, _), tally) in without.iter().zip(tallies.iter()) {
        let mut differ = tally.differ.clone();
        differ.sort_unstable();
        println!(
            "without {name}: decided both ways {}, verdicts differ on {:?}; \
             undecided with every rule {}, undecided without this one {}; \
             nodes with every rule {}, without this one {}",
            tally.both,
            differ,
            tally.undecided_with,
            tally.undecided_without,
            tally.nodes_with,
            tally.nodes_without
        );
    }
}
