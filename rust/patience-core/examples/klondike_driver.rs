//! patience's Klondike solver behind the same line protocol as the lonelybot driver
//! (benchmarks/peers/lonelybot_driver.rs), so that benchmarks/klondike_solver.py can time
//! both solvers the same way: each in a process of its own doing nothing else between
//! deals, timed by the same clock around the same work.
//!
//! `cargo build --release -p patience-core --example klondike_driver`, then one deal a line
//! on its standard input: `TIME_LIMIT DRAW c1 .. c52`, the seconds a deal may take, 1 or 3,
//! and the deal in patience's dealing order (card indices `suit * 13 + rank - 1`, suits
//! clubs, diamonds, hearts, spades). One line a deal comes back:
//! `solved|unsolvable|unknown MICROSECONDS NODES [MOVE ..]`, timed from the deal's
//! conversion into the solver's position to the verdict (reading the line, and writing
//! the answer and the winning moves, are not counted). The moves are the engine's
//! notation, for the benchmark to replay in Python. A line that is not a deal gets
//! `error REASON` and the driver reads on.
use std::io::{BufRead, Write};
use std::time::Instant;

use patience_core::klondike::{solver, Klondike};
use patience_core::search::{Budget, Outcome};

/// The deal and its budget read from one line, or why the line is not one.
fn parse(line: &str) -> Result<(f64, u8, Vec<u8>), String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() != 54 {
        return Err(format!(
            "expected TIME_LIMIT DRAW and 52 cards, got {} fields",
            fields.len()
        ));
    }
    let seconds: f64 = fields[0]
        .parse()
        .map_err(|_| format!("time limit {:?} is not a number", fields[0]))?;
    if !(seconds.is_finite() && seconds > 0.0) {
        return Err(format!("time limit {seconds} is not a positive number"));
    }
    let draw: u8 = fields[1]
        .parse()
        .map_err(|_| format!("draw {:?} is not 1 or 3", fields[1]))?;
    let deal = fields[2..]
        .iter()
        .map(|f| f.parse().map_err(|_| format!("card {f:?} is not an index")))
        .collect::<Result<Vec<u8>, String>>()?;
    Ok((seconds, draw, deal))
}

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line.expect("standard input is readable");
        let (seconds, draw, deal) = match parse(&line) {
            Ok(parsed) => parsed,
            Err(reason) => {
                writeln!(out, "error {reason}").expect("stdout");
                out.flush().expect("stdout");
                continue;
            }
        };
        let budget = Budget {
            max_nodes: 200_000_000,
            max_seconds: seconds,
            ..Budget::default()
        };
        let started = Instant::now();
        let report =
            Klondike::deal(&deal, draw).map(|start| solver::solve(&start, &budget, &mut || false));
        let micros = started.elapsed().as_secs_f64() * 1e6;
        let report = match report {
            Ok(report) => report,
            Err(error) => {
                writeln!(out, "error {error}").expect("stdout");
                out.flush().expect("stdout");
                continue;
            }
        };
        let (verdict, moves) = match &report.outcome {
            Outcome::Solved(moves) => ("solved", moves.as_slice()),
            Outcome::Unsolvable => ("unsolvable", &[][..]),
            Outcome::Unknown(_) => ("unknown", &[][..]),
        };
        write!(out, "{verdict} {micros:.3} {}", report.nodes).expect("stdout");
        for mv in moves {
            write!(out, " {mv}").expect("stdout");
        }
        writeln!(out).expect("stdout");
        out.flush().expect("stdout");
    }
}
