//! Dev probe: per seed, the complete abstract search alone, its draw-1 relaxation and the
//! full solve, with nodes and times. `-- DRAW SEED... [--lines FILE]`
use patience_core::klondike::{sets, solver, Klondike};
use patience_core::search::{Budget, Outcome, Pruning};
use std::time::Instant;

fn v(o: &Outcome<patience_core::klondike::Move>) -> &'static str {
    match o {
        Outcome::Solved(_) => "won",
        Outcome::Unsolvable => "lost",
        Outcome::Unknown(_) => "unk",
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let draw: u8 = args[0].parse().unwrap();
    let secs: f64 = std::env::var("SECS")
        .ok()
        .map_or(10.0, |s| s.parse().unwrap());
    let budget = Budget {
        max_nodes: 100_000_000,
        max_seconds: secs,
        max_states: 50_000_000,
    };
    let what = std::env::var("WHAT").unwrap_or("csf".into());
    for a in &args[1..] {
        let seed: u64 = a.parse().unwrap();
        let start = Klondike::from_seed(seed, draw).unwrap();
        let mut line = format!("{seed}");
        if what.contains('c') {
            let t = Instant::now();
            let r = sets::solve_complete(
                &start,
                &budget,
                if std::env::var_os("NORULE").is_some() {
                    Pruning::None
                } else {
                    Pruning::Full
                },
                &mut || false,
            )
            .unwrap();
            line += &format!(
                " complete {} {} {:.1}ms",
                v(&r.outcome),
                r.nodes,
                t.elapsed().as_secs_f64() * 1e3
            );
        }
        if what.contains('1') {
            let mut e = start.clone();
            e.draw = 1;
            let t = Instant::now();
            let r = sets::solve_complete(&e, &budget, Pruning::Full, &mut || false).unwrap();
            line += &format!(
                " | d1complete {} {} {:.1}ms",
                v(&r.outcome),
                r.nodes,
                t.elapsed().as_secs_f64() * 1e3
            );
        }
        if what.contains('s') {
            let t = Instant::now();
            let r = sets::solve(&start, &budget, &mut || false).unwrap();
            line += &format!(
                " | sets {} {} {:.1}ms",
                v(&r.outcome),
                r.nodes,
                t.elapsed().as_secs_f64() * 1e3
            );
        }
        if what.contains('f') {
            let t = Instant::now();
            let r = solver::solve(&start, &budget, &mut || false);
            line += &format!(
                " | solve {} {} {:.1}ms",
                v(&r.outcome),
                r.nodes,
                t.elapsed().as_secs_f64() * 1e3
            );
        }
        println!("{line}");
    }
}
