//! Klondike's `planner` on seeded deals: `cargo run --release -p patience-core --example
//! klondike_planner -- DRAW FIRST COUNT [INFORMATION [NODES SAMPLES BATCH [THREADS
//! [CREDIT EXPLORATION_SQ EARLY CONFIDENT [LINE_DEPTH [ARRANGED [FRESH]]]]]]]`.
//!
//! Plays one game a deal of seeds `FIRST .. FIRST + COUNT` (player seed = deal seed),
//! `INFORMATION` `person` (the default) or `known-stock`, with the ladder's settings or
//! those given (the last four are `PlannerSettings`' `unknown_credit` in thousandths,
//! `exploration_sq`, `early` as 0 or 1 and `confident`; `LINE_DEPTH` is `line_depth`,
//! `unlimited` for any number; `ARRANGED` and `FRESH`, 0 or 1, are `arranged_lines` and
//! `fresh_samples`), on `THREADS` threads (default 2);
//! prints the games won, the share with its 95% Wilson interval, and the seconds a game
//! on the clock (read the CPU time from `/usr/bin/time` on a busy machine). With
//! `PLANNER_PROGRESS` set, each game's seed and result go to the standard error as it
//! ends, so that a long run can be read before it finishes.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use patience_core::klondike::players::{planner_playout, PLANNER};
use patience_core::klondike::Klondike;
use patience_core::players::Information;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: u64| {
        args.get(i)
            .map_or(default, |a| a.parse().expect("a whole number"))
    };
    let draw = arg(0, 3) as u8;
    let first = arg(1, 0);
    let count = arg(2, 100);
    let information = args.get(3).map_or(Information::Person, |name| {
        Information::named(name).expect("person or known-stock")
    });
    let mut settings = PLANNER;
    if args.len() > 6 {
        settings.nodes = arg(4, PLANNER.nodes);
        settings.samples = arg(5, PLANNER.samples as u64) as usize;
        settings.batch = arg(6, PLANNER.batch as u64) as usize;
    }
    let threads = arg(7, 2).max(1);
    settings.unknown_credit = arg(8, u64::from(PLANNER.unknown_credit)) as u32;
    settings.exploration_sq = arg(9, u64::from(PLANNER.exploration_sq)) as u32;
    settings.early = arg(10, u64::from(PLANNER.early)) != 0;
    settings.confident = arg(11, PLANNER.confident as u64) as usize;
    settings.line_depth = match args.get(12).map(String::as_str) {
        None => PLANNER.line_depth,
        Some("unlimited") => usize::MAX,
        Some(depth) => depth.parse().expect("a whole number or unlimited"),
    };
    settings.arranged_lines = arg(13, u64::from(PLANNER.arranged_lines)) != 0;
    settings.fresh_samples = arg(14, u64::from(PLANNER.fresh_samples)) != 0;
    let next = AtomicU64::new(first);
    let results: Mutex<Vec<(u64, bool, f64)>> = Mutex::new(Vec::new());
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let seed = next.fetch_add(1, Ordering::Relaxed);
                if seed >= first + count {
                    break;
                }
                let deal = Klondike::from_seed(seed, draw).expect("a deal");
                let clock = Instant::now();
                let won = planner_playout(&deal, seed, &settings, information, 1000);
                let seconds = clock.elapsed().as_secs_f64();
                if std::env::var_os("PLANNER_PROGRESS").is_some() {
                    eprintln!("{seed} {}", if won { "won" } else { "lost" });
                }
                results
                    .lock()
                    .expect("no thread panicked")
                    .push((seed, won, seconds));
            });
        }
    });
    let results = results.into_inner().expect("no thread panicked");
    let n = results.len() as f64;
    let won = results.iter().filter(|r| r.1).count() as f64;
    let p = won / n;
    let z = 1.96f64;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    let seconds: f64 = results.iter().map(|r| r.2).sum();
    println!(
        "draw {draw}, seeds {first} to {}, {}, {settings:?}: won {won} of {n} ({:.2}%, 95% {:.2}% to {:.2}%); {:.2} s a game ({:.1} s wall on {threads} threads)",
        first + count - 1,
        information.name(),
        100.0 * p,
        100.0 * (centre - half),
        100.0 * (centre + half),
        seconds / n,
        started.elapsed().as_secs_f64()
    );
}
