//! The driver through which benchmarks/klondike_solver.py asks lonelybot to solve
//! patience's deals. benchmarks/setup_lonelybot.sh builds it outside the repository, next
//! to a copy of lonelybot's public source; it is never part of the package.
//!
//! Input, one deal a line: `TIME_LIMIT DRAW c1 .. c52`, the seconds a deal may take, 1 or
//! 3, and the deal in patience's dealing order (card indices `suit * 13 + rank - 1`, suits
//! clubs, diamonds, hearts, spades). Output, one line a deal:
//! `solved|unsolvable|unknown MICROSECONDS`, timed from the deal's conversion into
//! lonelybot's state to the verdict (reading and writing the lines is not counted).

use std::cell::Cell;
use std::io::{BufRead, Write};
use std::num::NonZeroU8;
use std::time::{Duration, Instant};

use lonelybot::card::Card;
use lonelybot::shuffler::CardDeck;
use lonelybot::solver::{solve_with_tracking, SearchResult};
use lonelybot::state::Solitaire;
use lonelybot::tracking::{EmptySearchStats, TerminateSignal};

const COLUMNS: usize = 7;

/// Stops the search at a deadline; the clock is read every 1,024 positions.
struct Deadline {
    at: Instant,
    calls: Cell<u32>,
    passed: Cell<bool>,
}

impl TerminateSignal for Deadline {
    fn is_terminated(&self) -> bool {
        let calls = self.calls.get().wrapping_add(1);
        self.calls.set(calls);
        if calls % 1024 == 0 && Instant::now() >= self.at {
            self.passed.set(true);
        }
        self.passed.get()
    }
}

/// lonelybot's card for patience's index: its suits are hearts, diamonds, clubs, spades
/// (the first two one colour, the last two the other) and its ranks 0 (Ace) to 12.
fn card(index: u8) -> Card {
    let suit = [2, 1, 0, 3][usize::from(index / 13)];
    Card::new(index % 13, suit)
}

/// The deal in lonelybot's order: column `i` takes positions `i(i+1)/2 ..= i(i+1)/2 + i`,
/// bottom first, its face-up card last; then the stock, the first card drawn first.
/// patience deals row by row across the columns, then the stock in drawing order.
fn layout(deal: &[u8]) -> CardDeck {
    let mut cards = [Card::DEFAULT; 52];
    let mut next = 0;
    for row in 0..COLUMNS {
        for column in row..COLUMNS {
            cards[column * (column + 1) / 2 + row] = card(deal[next]);
            next += 1;
        }
    }
    for (i, &index) in deal[next..].iter().enumerate() {
        cards[next + i] = card(index);
    }
    cards
}

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line.expect("a line");
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(fields.len(), 54, "TIME_LIMIT DRAW and 52 cards");
        let seconds: f64 = fields[0].parse().expect("a time limit");
        let draw: u8 = fields[1].parse().expect("a draw");
        let deal: Vec<u8> = fields[2..]
            .iter()
            .map(|f| f.parse().expect("a card index"))
            .collect();
        let started = Instant::now();
        let deadline = Deadline {
            at: started + Duration::from_secs_f64(seconds),
            calls: Cell::new(0),
            passed: Cell::new(false),
        };
        let mut game = Solitaire::new(&layout(&deal), NonZeroU8::new(draw).expect("1 or 3"));
        let (result, _) = solve_with_tracking(&mut game, &EmptySearchStats {}, &deadline);
        let micros = started.elapsed().as_secs_f64() * 1e6;
        let verdict = match result {
            SearchResult::Solved => "solved",
            SearchResult::Unsolvable => "unsolvable",
            SearchResult::Terminated | SearchResult::Crashed => "unknown",
        };
        writeln!(out, "{verdict} {micros:.3}").expect("stdout");
        out.flush().expect("stdout");
    }
}
