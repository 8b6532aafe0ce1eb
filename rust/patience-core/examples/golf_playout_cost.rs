//! The cheap players' share of a Golf deal's evidence, for `valgrind --tool=callgrind`:
//! `golf_playout_cost FIRST COUNT` plays, on the wrap deals of seeds `FIRST .. FIRST +
//! COUNT`, sixteen playouts of `random` and sixteen of `greedy` (seeds 1,000 to 1,015), as
//! many as a cheap rating plays, and prints the moves played and a digest of them and of
//! the wins (so that a change to the players' code can be shown to play the same games).

use patience_core::golf::{Golf, GolfMove};
use patience_core::players::{playout_as, Information};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: u64| {
        args.get(i)
            .map_or(default, |a| a.parse().expect("a whole number"))
    };
    let (first, count) = (arg(0, 0), arg(1, 100));
    let mut digest: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |value: u64| digest = (digest ^ value).wrapping_mul(0x100_0000_01b3);
    let mut moves = 0;
    for seed in first..first + count {
        let deal = Golf::from_seed(seed, true).expect("a deal");
        for player in 0..2 {
            for k in 0..16 {
                let game = playout_as(&deal, player, 1000 + k, 1000, Information::Person);
                moves += game.moves.len();
                for mv in &game.moves {
                    mix(match mv {
                        GolfMove::Play(column) => u64::from(*column),
                        GolfMove::Draw => 9,
                    });
                }
                mix(u64::from(game.won));
            }
        }
    }
    println!("{moves} moves, digest {digest:x}");
}
