//! FreeCell's engine and solver, tested on their own (the differential tests in Python hold
//! the engine to the engine of record).

use super::solver::{distance_of, is_safe_home, key, next_safe, search_moves, Tracked};
use super::*;
use crate::search::{self, Budget, Outcome};
use crate::shuffle::SplitMix64;

fn names(cards: &[u8]) -> Vec<String> {
    cards.iter().map(|&c| card_name(c).to_string()).collect()
}

/// Microsoft's deal 1 as Rosetta Code's "Deal cards for FreeCell" prints it (row by row),
/// and deal 617's first and last rows; the Python tests cite more.
#[test]
fn microsoft_deals_match_the_published_ones() {
    let one = microsoft_deal(1).unwrap();
    assert_eq!(
        names(&one[..16]).join(" "),
        "Jd 2d 9h Jc 5d 7h 7c 5h Kd Kc 9s 5s Ad Qc Kh 3h"
    );
    assert_eq!(names(&one[48..]).join(" "), "6s 9c 2h 6h");
    let deal = microsoft_deal(617).unwrap();
    assert_eq!(names(&deal[..8]).join(" "), "7d Ad 5c 3s 5s 8c 2d Ah");
    assert_eq!(names(&deal[48..]).join(" "), "Jd Ks Kc 4h");
    assert!(microsoft_deal(0).is_err());
    assert!(microsoft_deal(MICROSOFT_LAST).is_ok());
    assert!(microsoft_deal(MICROSOFT_LAST + 1).is_err());
}

#[test]
fn the_deal_is_laid_out_row_by_row() {
    let state = FreeCell::from_microsoft(1).unwrap();
    assert_eq!(names(&state.columns[0]).join(" "), "Jd Kd 2s 4c 3s 6d 6s");
    assert_eq!(names(&state.columns[7]).join(" "), "5h 3h 3c 7s 7d Tc");
    assert_eq!(
        state.columns.iter().map(Vec::len).collect::<Vec<_>>(),
        [7, 7, 7, 7, 6, 6, 6, 6]
    );
    // the Python doctest: 32 moves, all into the cells
    let moves = state.legal_moves();
    assert_eq!(moves.len(), 32);
    assert_eq!(moves[0].to_string(), "t1>c1");
}

#[test]
fn supermoves_carry_as_many_cards_as_single_moves_could() {
    assert_eq!(supermove_limit(4, 0, false), 5);
    assert_eq!(supermove_limit(0, 0, false), 1);
    assert_eq!(supermove_limit(2, 2, false), 12);
    assert_eq!(supermove_limit(2, 2, true), 6);
    assert_eq!(supermove_limit(0, 1, true), 1);
}

fn random_positions(count: usize, seed: u64) -> Vec<FreeCell> {
    let mut rng = SplitMix64::new(seed);
    let mut positions = Vec::new();
    let mut deal = 0;
    while positions.len() < count {
        let mut state = FreeCell::from_seed(deal).unwrap();
        deal += 1;
        for _ in 0..200 {
            positions.push(state.clone());
            let legal = state.legal_moves();
            if legal.is_empty() {
                break;
            }
            // moves home and into empty places more often, so that columns empty
            let preferred: Vec<FreeCellMove> = legal
                .iter()
                .copied()
                .filter(|mv| {
                    matches!(
                        mv,
                        FreeCellMove::ColumnHome(_)
                            | FreeCellMove::CellHome(_)
                            | FreeCellMove::ColumnTo { start: 0, .. }
                            | FreeCellMove::CellTo(..)
                    )
                })
                .collect();
            let pool = if !preferred.is_empty() && rng.below(3) > 0 {
                &preferred
            } else {
                &legal
            };
            state.apply(pool[rng.below(pool.len() as u64) as usize]);
        }
    }
    positions
}

#[test]
fn unplay_takes_back_every_kind_of_move() {
    let mut kinds = [0; 5];
    search::check_play_and_unplay(
        (0..40).map(|seed| FreeCell::from_seed(seed).unwrap()),
        80,
        &mut SplitMix64::new(11),
        FreeCell::legal_moves,
        FreeCell::apply,
        FreeCell::play,
        FreeCell::unplay,
        |mv| match mv {
            FreeCellMove::ColumnHome(_) => 0,
            FreeCellMove::CellHome(_) => 1,
            FreeCellMove::ColumnTo { .. } => 2,
            FreeCellMove::CellTo(..) => 3,
            FreeCellMove::ColumnToCell(..) => 4,
        },
        &mut kinds,
    );
}

/// The pruned moves are legal moves, and every legal move the search skips leads to a
/// position the search's key already names (rules 3 and 4 only skip equivalents).
#[test]
fn the_pruned_moves_skip_only_equivalent_moves() {
    let (mut skipped, mut into_empty) = (0, 0);
    for state in random_positions(4000, 3) {
        let legal = state.legal_moves();
        let mut pruned = Vec::new();
        search_moves(&Tracked::new(state.clone(), Pruning::Full), &mut pruned);
        let kept: Vec<u64> = pruned
            .iter()
            .map(|&mv| {
                assert!(legal.contains(&mv), "{mv} is not legal");
                let mut after = state.clone();
                after.apply(mv);
                key(&after)
            })
            .collect();
        for &mv in &legal {
            if pruned.contains(&mv) {
                continue;
            }
            skipped += 1;
            let mut after = state.clone();
            after.apply(mv);
            let whole_column = matches!(mv, FreeCellMove::ColumnTo { start: 0, to, .. }
                if state.columns[usize::from(to)].is_empty());
            if whole_column {
                assert_eq!(key(&after), key(&state), "{mv} changes the position");
            } else {
                assert!(kept.contains(&key(&after)), "{mv} leads somewhere new");
            }
            into_empty += usize::from(matches!(mv, FreeCellMove::ColumnTo { to, .. }
                if state.columns[usize::from(to)].is_empty()));
        }
    }
    assert!(
        skipped > 1000 && into_empty > 50,
        "{skipped} skipped, {into_empty} into empty columns"
    );
}

/// A safe move home is one after which nothing could ever be built on the card again.
#[test]
fn a_card_goes_home_without_branching_only_when_nothing_could_build_on_it() {
    let mut state = FreeCell::from_microsoft(1).unwrap();
    // hearts and diamonds to 2, clubs to 1: the black 3s are safe, the red 3s are not
    for card in ["Ah", "2h", "Ad", "2d", "Ac"] {
        let index = crate::cards::Card::new(
            (b"A23456789TJQK"
                .iter()
                .position(|&r| r == card.as_bytes()[0])
                .unwrap()
                + 1) as u8,
            b"cdhs"
                .iter()
                .position(|&s| s == card.as_bytes()[1])
                .unwrap() as u8,
        )
        .unwrap()
        .index();
        for column in &mut state.columns {
            column.retain(|&c| c != index);
        }
        state.foundation[usize::from(suit(index))] += 1;
    }
    state.check().unwrap();
    let card = |rank: u8, suit: u8| rank - 1 + 13 * suit;
    assert!(
        is_safe_home(&state, card(3, 0)) == (state.foundation[1] >= 2 && state.foundation[2] >= 2)
    );
    assert!(
        !is_safe_home(&state, card(3, 1)),
        "3d: the black 2s are not home"
    );
    assert!(is_safe_home(&state, card(1, 3)), "an Ace is always safe");
    assert!(
        is_safe_home(&state, card(2, 0)),
        "2c: both red Aces are home"
    );
}

// Deals decided quickly, for the tests of verdicts.
const WON: [u32; 6] = [1, 2, 3, 617, 1941, 31_999];

#[test]
fn certificates_reach_a_solved_position() {
    // a budget of positions, not seconds: deal 1,941 takes half a million, which a debug
    // build on a busy machine may not count in 10 s
    let budget = Budget {
        max_seconds: 600.0,
        max_nodes: 5_000_000,
        ..Budget::default()
    };
    for number in WON {
        let start = FreeCell::from_microsoft(number).unwrap();
        let report = solve(&start, &budget, &mut || false);
        let Outcome::Solved(moves) = report.outcome else {
            panic!("deal {number} is winnable: {:?}", report.outcome);
        };
        let state = search::replay(&start, &moves, FreeCell::legal_moves, FreeCell::apply);
        assert!(state.is_solved(), "deal {number}");
    }
}

/// Microsoft's deal 11,982 is lost, with the solver's rules and without them.
#[test]
fn unsolvable_verdicts_hold_without_the_pruning() {
    let budget = Budget {
        max_seconds: 120.0,
        ..Budget::default()
    };
    let start = FreeCell::from_microsoft(11_982).unwrap();
    for pruning in [Pruning::Full, Pruning::None] {
        let report = solve_with(&start, &budget, pruning, &mut || false);
        assert_eq!(report.outcome, Outcome::Unsolvable, "{pruning:?}");
    }
}

/// The first moves home of deal 1 are made without branching; none is made with pruning
/// off.
#[test]
fn safe_moves_are_played_first() {
    let mut state = FreeCell::from_microsoft(1).unwrap();
    assert_eq!(next_safe(&state), None);
    state.apply(FreeCellMove::ColumnToCell(5, 0)); // 3d to a cell exposes 2c
    assert_eq!(next_safe(&state), None, "2c waits for the red Aces");
}

/// The distance of a move's result, worked out without playing it, is the one counted
/// after playing it; and the tracked position's key is the key counted afresh.
#[test]
fn the_distance_after_a_move_is_the_distance_once_it_is_played() {
    let mut checked = 0;
    for state in random_positions(3000, 5) {
        let mut tracked = Tracked::new(state.clone(), Pruning::Full);
        assert_eq!(tracked.distance(), distance_of(&state));
        assert_eq!(tracked.key(), key(&state));
        let base = tracked.distance();
        let next = tracked.next_places();
        let sum = tracked
            .hashes
            .iter()
            .fold(0u64, |sum, &h| sum.wrapping_add(h));
        for mv in state.legal_moves() {
            let expected = tracked.distance_after(base, &next, mv);
            let expected_key = tracked.key_after(sum, mv);
            let undo = tracked.play(mv);
            let mut after = state.clone();
            after.apply(mv);
            assert_eq!(tracked.distance(), distance_of(&after), "{mv}");
            assert_eq!(expected, distance_of(&after), "{mv} from {state:?}");
            assert_eq!(tracked.key(), key(&after));
            assert_eq!(expected_key, key(&after), "{mv}");
            tracked.unplay(undo);
            checked += 1;
        }
    }
    assert!(checked > 20_000, "{checked} moves");
}

/// The pruned search and the full one agree on positions from the middle and the end of
/// won games, jostled by a few random moves so that some are lost: every verdict the full
/// search (every legal move, no move made without branching) reaches, the pruned one
/// reaches too, won or lost. Deal 11,982 is the lost whole deal
/// (`unsolvable_verdicts_hold_without_the_pruning`).
#[test]
fn the_pruned_search_wins_what_the_full_one_wins() {
    let budget = Budget {
        max_seconds: 600.0,
        max_nodes: 400_000,
        ..Budget::default()
    };
    let mut rng = SplitMix64::new(17);
    let (mut won, mut lost, mut undecided) = (0, 0, 0);
    for number in 1..=40 {
        let start = FreeCell::from_microsoft(number).unwrap();
        let Outcome::Solved(line) = solve(&start, &budget, &mut || false).outcome else {
            panic!("deal {number} is winnable");
        };
        let mut state = start.clone();
        for (index, &mv) in line.iter().enumerate() {
            state.apply(mv);
            if index % 3 != 2 || state.home() < 12 {
                continue;
            }
            let mut jostled = state.clone();
            for _ in 0..rng.below(12) {
                let legal = jostled.legal_moves();
                if legal.is_empty() {
                    break;
                }
                // to the cells more often than not, which loses games
                let to_cells: Vec<FreeCellMove> = legal
                    .iter()
                    .copied()
                    .filter(|mv| matches!(mv, FreeCellMove::ColumnToCell(..)))
                    .collect();
                let pool = if to_cells.is_empty() || rng.below(3) == 0 {
                    &legal
                } else {
                    &to_cells
                };
                jostled.apply(pool[rng.below(pool.len() as u64) as usize]);
            }
            let full = solve_with(&jostled, &budget, Pruning::None, &mut || false).outcome;
            if matches!(full, Outcome::Unknown(_)) {
                undecided += 1;
                continue;
            }
            let pruned = solve_with(&jostled, &budget, Pruning::Full, &mut || false).outcome;
            match (&full, &pruned) {
                (Outcome::Solved(_), Outcome::Solved(moves)) => {
                    let end =
                        search::replay(&jostled, moves, FreeCell::legal_moves, FreeCell::apply);
                    assert!(end.is_solved(), "deal {number}, move {index}");
                    won += 1;
                }
                (Outcome::Unsolvable, Outcome::Unsolvable) => lost += 1,
                _ => panic!(
                    "deal {number}, move {index}: {full:?} without the pruning, {pruned:?} with it"
                ),
            }
        }
    }
    // 753 and 6 when written
    assert!(
        won > 300 && lost > 2,
        "{won} won, {lost} lost ({undecided} undecided without the pruning)"
    );
}
